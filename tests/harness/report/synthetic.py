"""Hand-made runs with known numbers, written in the real run-folder format."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from cubebench.harness.records.manifest import Manifest
from cubebench.harness.records.schema import SCHEMA_VERSION, Record
from cubebench.harness.records.store import RunStore


def make_run(
    folder: Path,
    solved: dict[tuple[str, int], int],
    *,
    n: int = 20,
    length_extra: float = 0.0,
    time_s: float = 0.1,
    sha: str = "a" * 64,
    solver: str = "alpha",
    settings: dict | None = None,
    kind: str = "depth",
    entry: dict | None = None,
) -> Path:
    """``solved[(suite, depth)] = k``: the first k of n instances are solved; ``kind``:
    ``depth`` (face-turn depth suites) or ``qdepth`` (quarter-turn ones); ``entry``: more of
    the solver's manifest entry (``origin``, ``checkpoint_sha256``)."""
    store = RunStore(folder)
    suites = {}
    for (suite, depth), k in solved.items():
        meta = {kind: depth} if depth else {"kind": "random-state"}
        suites[suite] = {"sha256": sha, "count": n, "meta": meta}
        for i in range(n):
            ok = i < k
            length = (depth or 20) + int(length_extra) if ok else None
            store.append(
                Record(
                    solver,
                    suite,
                    i,
                    "solved" if ok else "unsolved",
                    "R " * (length or 0),
                    length,
                    length,
                    depth if depth else None,
                    int(length_extra) if ok and depth else None,
                    time_s,
                    10,
                    1,
                )
            )
    store.close()
    as_written(
        store,
        {
            "schema_version": SCHEMA_VERSION,
            "run_id": folder.name,
            "command": ["bench", "run"],
            "suites": suites,
            "solvers": {solver: {"settings": settings or {"seed": 0}, **(entry or {})}},
            "machine": {"cpu": "test", "cores": 2},
            "git": {"commit": "abc", "dirty": False},
            "packages": {},
            "started": "t0",
            "finished": "t1",
        },
    )
    return folder


def as_written(store: RunStore, manifest: dict) -> None:
    """Write a manifest given as the file holds it (a hand-made or older one)."""
    store.write_manifest(Manifest.from_dict(manifest, store.folder / "manifest.json"))


def add_solver(
    folder: Path,
    solver: str,
    solved: dict[tuple[str, int], int],
    *,
    n: int = 20,
    entry: dict | None = None,
) -> Path:
    """Another entry in a run :func:`make_run` wrote (its records and its manifest entry)."""
    other = make_run(
        folder.with_name(f"{folder.name}-{solver}"), solved, n=n, solver=solver, entry=entry
    )
    store = RunStore(folder)
    manifest = store.read_manifest()
    extra = RunStore(other).read_manifest()
    for record in RunStore(other).read_records():
        store.append(record)
    store.close()
    store.write_manifest(
        replace(
            manifest,
            solvers={**manifest.solvers, **extra.solvers},
            suites={**manifest.suites, **extra.suites},
        )
    )
    return folder
