"""The committed runs check the suites' proved optima: no verified answer in ``results/`` is
shorter than the optimum (or the proved lower bound) its instance now carries. An
annotation that claimed too short an optimum, or too long a bound, fails here."""

from __future__ import annotations

import pytest

from benchmarks.tools.results_index import ROOT, run_folders
from cubebench.harness.records.store import RunStore
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.suites.model import SuiteError


def _floors(name: str, states: str) -> dict[tuple[int, str], int] | None:
    """(instance, metric) -> the shortest length a solution may have, from the suite now."""
    try:
        suite = load_suite(name)
    except SuiteError:
        return None
    if suite.states_sha256 != states:
        return None
    floors = {}
    for i in suite.instances:
        for metric in ("htm", "qtm"):
            value = getattr(i, f"optimal_{metric}")
            value = value if value is not None else getattr(i, f"optimal_{metric}_min")
            if value is not None:
                floors[(i.id, metric)] = value
    return floors


def test_no_committed_answer_beats_a_proved_optimum():
    runs = run_folders(ROOT)
    if not runs:
        pytest.skip("no committed runs in this checkout")
    checked, short = 0, []
    for folder in runs:
        store = RunStore(ROOT / "results" / folder)
        suites = store.read_manifest().suites
        floors = {name: _floors(name, pin.states) for name, pin in suites.items() if pin.states}
        for record in store.read_records():
            table = floors.get(record.suite)
            if record.status != "solved" or not table:
                continue
            for metric, length in (("htm", record.length_htm), ("qtm", record.length_qtm)):
                floor = table.get((record.instance, metric))
                if floor is None or length is None:
                    continue
                checked += 1
                if length < floor:
                    short.append(f"{folder} {record.entry} {record.suite} #{record.instance}")
    assert short == []
    assert checked > 10_000  # the archive really was read against the annotations
