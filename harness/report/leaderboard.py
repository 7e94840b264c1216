"""The field's own table: runs on the DeepCubeA test set beside the published results.

A suite counts as the DeepCubeA test set when its cubes are those 1000 states, whichever
peer's file it was imported from (the manifest's ``states`` fingerprint; see
``published.json``); a run on its first N cubes shows N. Measured rows are in the
quarter-turn metric with % optimal against the imported optimum; the published rows are
the authors' figures on their hardware, marked so, never numbers measured here.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import numpy as np
import pandas as pd

from ..records.manifest import Manifest, SolverPin
from .frame import LoadedRun

COLUMNS = (
    "solver",
    "n",
    "solved %",
    "mean QTM",
    "optimal %",
    "gap QTM",
    "median s",
    "p90 s",
    "searched",
    "hardware",
    "model",
    "source",
)


def published() -> dict[str, Any]:
    """The published figures and the set's fingerprint, from the package's data file."""
    return json.loads(files("cubebench.harness.report").joinpath("published.json").read_text())


def deepcubea_suites(runs: list[LoadedRun]) -> set[str]:
    """Suite names that hold the DeepCubeA test set's states, in any of the runs."""
    wanted = published()["states_sha256"]
    return {
        name for run in runs for name, info in run.manifest.suites.items() if info.states == wanted
    }


def _hardware(manifest: Manifest) -> str:
    if manifest.published:  # an imported run: its authors' machine, their times
        return f"published: {manifest.published.get('hardware', '?')}"
    machine = manifest.machine
    gpu = f", {machine['gpu']}" if machine.get("gpu") else ""
    return f"{machine.get('cpu', '?')}, {machine.get('cores', '?')} cores{gpu}"


def _model(pin: SolverPin) -> str:
    """A solver's size and training, from what its adapter pinned in the manifest."""
    info = pin.pinned
    if not info.get("parameters"):
        return ""
    text = f"{info['parameters'] / 1e6:.1f}M parameters"
    if info.get("train_minutes") is not None:
        text += f", trained {info['train_minutes']:.0f} min on {info.get('trained_on', '?')}"
    return text


def leaderboard(data: pd.DataFrame, runs: list[LoadedRun]) -> pd.DataFrame:
    """One row per solver label measured on the DeepCubeA set, then the published rows."""
    suites = deepcubea_suites(runs)
    hardware = {r.run_id: _hardware(r.manifest) for r in runs}
    models = {
        (r.run_id, key): _model(info) for r in runs for key, info in r.manifest.solvers.items()
    }
    imported = {r.run_id: bool(r.manifest.published) for r in runs}
    rows = []
    on_set = data[data["suite"].isin(suites)]  # each cube once: frame.drop_repeats
    for label, group in on_set.groupby("label", sort=False):
        claimed = (group["status"] == "claimed").all()
        # a peer's lengths that were never replayed are shown as its claim, and marked so
        solved = group if claimed else group[group["solved"]]
        gaps = solved["gap_qtm"].dropna()
        times = group["wall_s"].dropna()
        metrics = sorted(set(group["metric"].dropna()))
        keys = zip(group["run"], group["solver"], strict=True)
        rows.append(
            {
                "solver": label,
                "n": len(group),
                "solved %": np.nan if claimed else 100 * group["solved"].mean(),
                "mean QTM": solved["length_qtm"].mean() if len(solved) else np.nan,
                "optimal %": 100 * (gaps == 0).mean() if len(gaps) else np.nan,
                "gap QTM": gaps.mean() if len(gaps) else np.nan,
                "median s": times.median() if len(times) else np.nan,
                "p90 s": times.quantile(0.9) if len(times) else np.nan,
                "searched": "/".join(metrics) or "?",
                "hardware": "; ".join(sorted({hardware[r] for r in group["run"].unique()})),
                "model": "; ".join(sorted({models.get(rk, "") for rk in keys})),
                "source": _source(group, imported, claimed),
            }
        )
    shown = {row["solver"] for row in rows}
    for row in published()["rows"]:
        if row.get("imported_as") in shown:  # its authors' own answers are in the table
            continue
        rows.append(
            {
                "solver": row["system"]
                + (f" (optimal: {row['optimal_note']})" if row.get("optimal_note") else ""),
                "n": 1000,
                "solved %": row["solved_pct"],
                "mean QTM": row["mean_qtm"] if row["mean_qtm"] is not None else np.nan,
                "optimal %": row["optimal_pct"],
                "gap QTM": np.nan,
                "median s": np.nan,
                "p90 s": np.nan,
                "searched": "qtm",
                "hardware": row["hardware"] + (f"; {row['time']}" if row.get("time") else ""),
                "model": row.get("model", ""),
                "source": "published: " + row["source"],
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _source(group: pd.DataFrame, imported: dict[str, bool], claimed: bool) -> str:
    if claimed:
        return "its authors' published lengths, not replayed (moves unpublished)"
    if any(imported.get(run) for run in group["run"].unique()):
        return "verified from its authors' solutions, replayed here"
    return "measured here"
