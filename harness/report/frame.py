"""Runs -> one tidy pandas frame, a row per solver x instance.

Runs are only combined when every suite they share has the same sha256: results on
different cubes are not comparable, whatever the suite is called.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from cubebench.harness.records.schema import RecordError
from cubebench.harness.records.store import RunStore
from cubebench.harness.registry import UnknownSolverError, resolve_solver_class, settings_class
from cubebench.harness.suites.model import SuiteError


class SuiteMismatchError(SuiteError):
    """Runs that measured differently hashed suites under one name."""


@dataclass(frozen=True)
class LoadedRun:
    folder: Path
    manifest: dict[str, Any]

    @property
    def run_id(self) -> str:
        """The name the frame's ``run`` column gives this run: its folder's, which a copied
        or renamed run folder does not share with the ``run_id`` inside its manifest."""
        return RunStore(self.folder).run_id


def load_runs(folders: list[Path]) -> tuple[pd.DataFrame, list[LoadedRun]]:
    """Read runs into one frame; refuse mixed suite hashes.

    Columns: run, solver (name), label (name plus the settings that tell runs of the same
    solver apart), family (the registered solver of a labelled entry, e.g. of a sweep), suite,
    suite_sha256, depth (for depth-k suites), qdepth (quarter-turn depth suites), instance,
    status, solved, length_htm, length_qtm, optimal_htm, gap_htm, optimal_qtm, gap_qtm, metric,
    wall_s, nodes, model_calls. Runs keep the order given; within a run, rows are sorted by
    solver, suite and instance, whatever order the workers wrote them in.
    """
    runs, frames = [], []
    pinned: dict[str, tuple[str, str]] = {}
    resolved = [Path(folder).resolve() for folder in folders]
    for i, path in enumerate(resolved):
        if path in resolved[:i]:
            raise RecordError(f"run {folders[i]} is given twice; each run counts once")
    for folder in folders:
        store = RunStore(Path(folder))
        manifest = store.read_manifest()
        for suite, info in manifest["suites"].items():
            seen = pinned.setdefault(suite, (info["sha256"], store.run_id))
            if seen[0] != info["sha256"]:
                raise SuiteMismatchError(
                    f"suite {suite} has sha256 {seen[0][:12]}… in run {seen[1]} but "
                    f"{info['sha256'][:12]}… in run {store.run_id}: results are only "
                    "comparable on the same cubes"
                )
        records = store.read_records()
        frame = pd.DataFrame([asdict(r) for r in records]).drop(columns=["info", "error", "moves"])
        # workers append records as they finish, so file order varies from run to run; a
        # bootstrap resamples by position, and its interval must not depend on that order
        frame = frame.sort_values(["solver", "suite", "instance"], kind="stable")
        frame["run"] = store.run_id
        suites = manifest["suites"]
        frame["suite_sha256"] = frame["suite"].map({k: v["sha256"] for k, v in suites.items()})
        for column in ("depth", "qdepth"):  # face-turn and quarter-turn depth suites
            frame[column] = frame["suite"].map(
                {k: v.get("meta", {}).get(column) for k, v in suites.items()}
            )
        runs.append(LoadedRun(Path(folder), manifest))
        frames.append(frame)
    if not frames:
        raise SuiteError("no runs given")
    data = pd.concat(frames, ignore_index=True)
    data["solved"] = data["status"] == "solved"
    data["label"] = _labels(data, runs)
    family = {
        (r.run_id, key): entry.get("solver", key)
        for r in runs
        for key, entry in r.manifest["solvers"].items()
    }
    data["family"] = [
        family.get((run, s), s) for run, s in zip(data["run"], data["solver"], strict=True)
    ]
    return data, runs


def drop_repeats(data: pd.DataFrame, runs: list[LoadedRun]) -> tuple[pd.DataFrame, list[str]]:
    """Count each cube once per entry: where a later run measured an entry again (the same
    label and checkpoint) on a cube an earlier run already holds, the earlier run's record
    is kept. Reports put runs side by side, and each run of a benchmark carries the
    ``kociemba`` reference: without this, two runs give it every cube twice and a row
    against itself. Runs that measured an entry on different cubes (a set split over two
    runs) still add up. Returns the frame and a line per dropped entry, naming the runs.
    """
    checkpoint = {
        (r.run_id, name): entry.get("checkpoint_sha256")
        for r in runs
        for name, entry in r.manifest["solvers"].items()
    }
    keys = data[["label", "suite", "instance"]].assign(
        checkpoint=[
            str(checkpoint.get((run, s)))
            for run, s in zip(data["run"], data["solver"], strict=True)
        ]
    )
    repeat = keys.duplicated(keep="first")  # runs keep the order given: the first one wins
    kept = data["run"].groupby([keys[c] for c in keys.columns]).transform("first")
    notes = [
        f"{label}: {len(group)} cube(s) of run {run} are taken from run "
        f"{', '.join(dict.fromkeys(kept[group.index]))}"
        for (run, label), group in data[repeat].groupby(["run", "label"], sort=False)
    ]
    return data[~repeat].reset_index(drop=True), notes


def _defaults(solver: str) -> dict[str, Any]:
    """A solver's current default settings; none where it is not installed here."""
    try:
        defaults = asdict(settings_class(resolve_solver_class(solver))())
    except UnknownSolverError:
        return {}
    return json.loads(json.dumps(defaults, default=str))  # as a manifest holds them


def _labels(data: pd.DataFrame, runs: list[LoadedRun]) -> pd.Series:
    """Solver name, plus the settings that differ between runs of that solver."""
    settings = {
        (r.run_id, name): dict(s.get("settings", {}))
        for r in runs
        for name, s in r.manifest["solvers"].items()
    }
    names: dict[str, list[dict]] = {}
    for (_, name), s in settings.items():
        names.setdefault(name, []).append(s)
    for (run, name), s in settings.items():
        missing = {k for o in names[name] for k in o} - set(s)
        if missing:
            # a run that predates a setting ran with what is now its default; without this it
            # would read as differing from every later run, labelled "starts=None"
            entry = next(r for r in runs if r.run_id == run).manifest["solvers"][name]
            defaults = _defaults(entry.get("solver", name))
            s.update({k: defaults[k] for k in missing if k in defaults})
    differing = {
        name: sorted({k for s in group for k in s if any(o.get(k) != s.get(k) for o in group)})
        for name, group in names.items()
    }

    def label(row: pd.Series) -> str:
        keys = differing.get(row["solver"], [])
        s = settings.get((row["run"], row["solver"]), {})
        return row["solver"] + (
            " [" + ", ".join(f"{k}={s.get(k)}" for k in keys) + "]" if keys else ""
        )

    return data.apply(label, axis=1)
