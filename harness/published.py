"""A peer's published run, imported as a run folder: its answers judged like the harness's own.

EfficientCube released every solution of its beam search on the DeepCubeA test set, and
DeepCubeA its A*'s length, nodes and time per state. ``bench runs import FORMAT PATH --suite
SUITE`` turns such a file into an ordinary run folder, so ``show``, ``report``, ``compare``
and ``leaderboard`` treat it like any run:

- ``efficientcube``: the result pickle (:mod:`cubebench.harness.published_files`). Every
  answer is replayed on the harness's engine and judged by
  :func:`~cubebench.harness.verify.judge`, as a solver's is; an answer longer than the
  longest replayed is ``unsolved``, neither replayed nor stored.
- ``deepcubea-output``: DeepCubeA's ``output.txt``, lengths only. Its records have status
  ``claimed``: the length is the peer's, the moves were never published, and no table or
  gate counts such a record as solved unless asked to by the entry's name.

The manifest says where the answers came from (system, source, file sha256, licence, the
peer's hardware as published) and that the times are the peer's own. A file that does not
fit the suite is refused in one line before anything is written: another count, a token
that is not a move, a number out of range, more than half of its answers not solving their
cubes (answers for another suite, or in another order), or a claimed length that cannot be
true (below the proved optimum, or of the wrong parity: every quarter turn is an odd
permutation of the corners, so a cube's quarter-turn solutions all share one parity). A
single answer that does not solve its cube is recorded ``wrong``.

The run folder is written beside its place, hidden, and renamed into it once complete: an
import that is killed or runs out of disk leaves no run that looks whole, and the next
import of the same run starts afresh.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .cube import facelets_to_state, is_solved, to_cubies
from .cube.cubie import permutation_parity
from .naming import check_entry_name, check_path_name
from .published_files import READERS, PublishedAnswer, PublishedRunError
from .records.lock import FolderLock
from .records.manifest import Manifest, SolverPin, SuitePin
from .records.provenance import package_versions
from .records.schema import Record, RecordError
from .records.store import RunStore
from .solver import Budget
from .suites.catalog import load_suite
from .suites.model import sha256_bytes
from .verify import RawAttempt, judge

FORMATS = tuple(READERS)
MAX_FILE_BYTES = 64 * 2**20
"""A published run of a thousand cubes is well under a megabyte; past this it is not one."""

PUBLISHERS: dict[str, dict[str, str]] = {
    "efficientcube": {
        "system": "efficientcube",
        "source": "kyo-takano/efficientcube, results/cube3/ (Takano 2023)",
        "licence": "CC-BY-4.0",
        "hardware": "the authors' GPU machine (as published with the results)",
    },
    "deepcubea-output": {
        "system": "deepcubea-published",
        "source": "forestagostinelli/DeepCubeA, results/cube3/output.txt (Agostinelli et al. 2019)",
        "licence": "MIT",
        "hardware": "the authors' GPU machine (as published with the results)",
    },
}

__all__ = ["FORMATS", "PublishedAnswer", "PublishedRunError", "import_published"]


def check_claims(answers: list[PublishedAnswer], suite: Any, path: Path) -> None:
    """Refuse claimed lengths that cannot be the answers to the suite's cubes, in order."""
    states = np.stack([facelets_to_state(i.facelets) for i in suite.instances], axis=1)
    parity = permutation_parity(to_cubies(states)[0])  # (N,): every solution's QTM parity
    bad: list[str] = []
    for k, (instance, answer) in enumerate(zip(suite.instances, answers, strict=True)):
        claim = answer.claimed_qtm
        if claim is None:
            continue
        optimum = instance.optimal_qtm
        if optimum is not None and claim < optimum:
            bad.append(f"cube {k} claims {claim} moves, below its proved optimum {optimum}")
        elif claim == 0 and not is_solved(states[:, k]):
            bad.append(f"cube {k} claims 0 moves, and it is not solved")
        elif claim % 2 != parity[k]:
            bad.append(f"cube {k} claims {claim} moves, which its parity rules out")
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise PublishedRunError(
            f"{path}: {bad[0]}{more}: these lengths are not true of suite {suite.name}'s "
            "cubes in its order"
        )


def _check_replayed(records: list[Record], path: Path, suite: str) -> None:
    wrong = sum(r.status in ("wrong", "illegal") for r in records)
    if 2 * wrong > len(records):
        raise PublishedRunError(
            f"{path}: {wrong} of {len(records)} answers do not solve their cubes: the file's "
            f"answers are not for suite {suite}, or not in its order"
        )


def default_system(fmt: str, path: Path) -> str:
    """``efficientcube[beam_width=65536]`` from ``beam_width_65536.pkl``; else the format's."""
    width = re.fullmatch(r"beam_width_(\d+)\.pkl", path.name)
    base = PUBLISHERS[fmt]["system"]
    return f"{base}[beam_width={width[1]}]" if fmt == "efficientcube" and width else base


def import_published(
    fmt: str,
    path: Path,
    suite_name: str,
    out: Path,
    run_id: str | None = None,
    system: str | None = None,
    command: list[str] | None = None,
) -> RunStore:
    """Write the run folder of a published run; see the module's description.

    ``command``: what the manifest records as the command that made it (the CLI's own).
    """
    if fmt not in FORMATS:
        raise PublishedRunError(f"format {fmt!r}: choose one of {', '.join(FORMATS)}")
    path = Path(path)
    if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
        raise PublishedRunError(f"{path}: not a file of a published run")
    system = check_entry_name(system or default_system(fmt, path), "--system")
    suite = load_suite(suite_name)
    answers = READERS[fmt](path, len(suite))  # everything is checked before a byte is written
    check_claims(answers, suite, path)
    run_id = run_id or f"published-{system.replace('[', '-').replace(']', '').replace('=', '-')}"
    check_path_name(run_id, "--run-id")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PublishedRunError(f"--out {out} is a file; give the folder that holds run folders")
    folder = out / run_id
    if folder.exists():
        raise PublishedRunError(f"run folder {folder} exists; give another --run-id")
    records = [
        _record(system, suite.name, i, a) for i, a in zip(suite.instances, answers, strict=True)
    ]
    if fmt != "deepcubea-output":
        _check_replayed(records, path, suite.name)
    made_by = command or ["import_published", fmt, str(path), suite.name]
    _write_whole(folder, _manifest(fmt, path, suite, system, run_id, made_by), records)
    return RunStore(folder)


def _write_whole(folder: Path, manifest: Manifest, records: list[Record]) -> None:
    """The run folder written beside its place and renamed into it once complete."""
    out = folder.parent
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock = FolderLock(folder, out / f".{folder.name}.importing.lock")
        lock.acquire()
    except OSError as exc:
        raise PublishedRunError(f"cannot write --out {out}: {exc.strerror or exc}") from None
    try:
        for stale in out.glob(f".{folder.name}.importing-*"):  # an import killed midway
            shutil.rmtree(stale, ignore_errors=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}.importing-", dir=out))
        try:
            store = RunStore(fresh)
            store.write_manifest(manifest)
            for record in records:
                store.append(record)
            store.close()
            if folder.exists():
                raise PublishedRunError(f"run folder {folder} exists; give another --run-id")
            os.rename(fresh, folder)
        except (OSError, RecordError) as exc:  # a full disk, say; the store's own error too
            shutil.rmtree(fresh, ignore_errors=True)
            if isinstance(exc, PublishedRunError):
                raise
            why = exc.strerror if isinstance(exc, OSError) else str(exc).partition(": ")[2]
            raise PublishedRunError(
                f"cannot write run folder {folder}: {why or exc}; nothing was kept"
            ) from None
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
    except OSError as exc:
        raise PublishedRunError(f"cannot write --out {out}: {exc.strerror or exc}") from None
    finally:
        lock.release()


def _manifest(
    fmt: str, path: Path, suite: Any, system: str, run_id: str, command: list[str]
) -> Manifest:
    publisher = PUBLISHERS[fmt]
    now = datetime.now(UTC).isoformat()
    origin = {
        "registered": "published",
        "target": system,
        "format": fmt,
        "source": publisher["source"],
        "licence": publisher["licence"],
        "file_sha256": sha256_bytes(path.read_bytes()),
    }
    return Manifest(
        run_id=run_id,
        command=tuple(command),
        config={"imported": fmt},
        suites={suite.name: SuitePin(suite.sha256, suite.total, suite.meta, suite.states_sha256)},
        solvers={system: SolverPin(system, {}, origin)},
        published={
            "system": system,
            "file": path.name,
            "hardware": publisher["hardware"],
            "times": "the peer's own, on its hardware: never this machine's time axis",
            "replayed": fmt != "deepcubea-output",
        },
        machine={"cpu": None, "gpu": None, "published": publisher["hardware"]},
        packages=package_versions(),
        started=now,
        finished=now,
    )


def _record(system: str, suite: str, instance: Any, answer: PublishedAnswer) -> Record:
    optimal = (instance.optimal_htm, instance.optimal_qtm)
    if answer.moves is None:  # a length only: claimed, never verified
        gap = None if instance.optimal_qtm is None else answer.claimed_qtm - instance.optimal_qtm
        return Record(
            entry=system,
            suite=suite,
            instance=instance.id,
            status="claimed",
            length_qtm=answer.claimed_qtm,
            optimal_htm=instance.optimal_htm,
            optimal_qtm=instance.optimal_qtm,
            gap_qtm=gap,
            wall_s=answer.wall_s,
            nodes=answer.nodes,
            metric="qtm",
            error="the peer published this length, not the moves: not replayed",
        )
    state = np.asarray(facelets_to_state(instance.facelets))
    raw = RawAttempt(
        answer.moves, answer.nodes, 0, {"metric": "qtm"}, answer.wall_s, answer.dropped
    )
    return judge(
        state, raw, Budget(wall_seconds=None), solver=system, suite=suite,
        instance=instance.id, optimal=optimal,
    )  # fmt: skip
