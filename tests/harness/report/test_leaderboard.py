"""The DeepCubeA-set table, the solver x suite matrix and the frontier, on hand-made runs
with known numbers in the real run-folder format."""

from __future__ import annotations

import math

from cubebench.harness.records.schema import SCHEMA_VERSION, Record
from cubebench.harness.records.store import RunStore
from cubebench.harness.report.figures import draw_all
from cubebench.harness.report.frame import load_runs
from cubebench.harness.report.leaderboard import leaderboard, published
from cubebench.harness.report.render import write_report
from cubebench.harness.report.tables import matrix_table

from .synthetic import as_written

FINGERPRINT = published()["states_sha256"]


def _run(folder, entries, *, states=FINGERPRINT, suite="deepcubea-test", cpu="Test CPU", info=None):
    """``entries[label] = (family, [(qtm length or None, gap_qtm, seconds), ...])``."""
    store = RunStore(folder)
    for label, (_, rows) in entries.items():
        for i, (length, gap, seconds) in enumerate(rows):
            store.append(
                Record(
                    label,
                    suite,
                    i,
                    "solved" if length is not None else "unsolved",
                    "R " * (length or 0),
                    length,
                    length,
                    wall_s=seconds,
                    optimal_qtm=20,
                    gap_qtm=gap,
                    metric="qtm",
                )
            )
    store.close()
    as_written(
        store,
        {
            "schema_version": SCHEMA_VERSION,
            "run_id": folder.name,
            "command": ["bench", "run"],
            "suites": {suite: {"sha256": "b" * 64, "count": 1000, "meta": {}, "states": states}},
            "solvers": {
                k: {"solver": fam, "settings": {}, **(info or {})}
                for k, (fam, _) in entries.items()
            },
            "machine": {"cpu": cpu, "cores": 2},
            "git": {"commit": "abc", "dirty": False},
            "packages": {},
            "started": "t0",
            "finished": "t1",
        },
    )
    return folder


ENTRIES = {
    "cayley-mlp[beam_width=1024]": (
        "cayley-mlp",
        [(20, 0, 1.0), (22, 2, 2.0), (None, None, 3.0), (21, 1, 4.0)],
    ),
    "cayley-mlp[beam_width=4096]": ("cayley-mlp", [(20, 0, 4.0), (20, 0, 8.0), (21, 1, 9.0)]),
}


def test_runs_on_the_set_are_measured_rows_beside_the_published_ones(tmp_path):
    data, runs = load_runs([_run(tmp_path / "r", ENTRIES)])
    table = leaderboard(data, runs).set_index("solver")
    narrow = table.loc["cayley-mlp[beam_width=1024]"]
    assert narrow["n"] == 4 and narrow["solved %"] == 75.0
    assert narrow["mean QTM"] == 21.0 and math.isclose(narrow["optimal %"], 100 / 3)
    assert narrow["gap QTM"] == 1.0 and narrow["median s"] == 2.5
    assert narrow["source"] == "measured here" and narrow["hardware"] == "Test CPU, 2 cores"
    wide = table.loc["cayley-mlp[beam_width=4096]"]
    assert wide["solved %"] == 100.0 and math.isclose(wide["optimal %"], 200 / 3)
    published_rows = table[table["source"].str.startswith("published")]
    assert len(published_rows) == len(published()["rows"])
    assert published_rows.loc["DeepCubeA", "mean QTM"] == 21.35
    assert "GPU" in published_rows.loc["DeepCubeA", "hardware"]


def test_other_suites_are_not_the_deepcubea_set(tmp_path):
    data, runs = load_runs([_run(tmp_path / "r", ENTRIES, states="c" * 64)])
    table = leaderboard(data, runs)
    assert (table["source"] != "measured here").all()
    write_report([tmp_path / "r"], tmp_path / "report")
    assert "The DeepCubeA test set" not in (tmp_path / "report" / "index.md").read_text()


def test_report_leads_with_the_matrix_and_shows_the_table(tmp_path):
    folder = _run(tmp_path / "r", ENTRIES)
    data, _ = load_runs([folder])
    matrix = matrix_table(data).set_index("solver")
    assert matrix.loc["cayley-mlp[beam_width=1024]", "deepcubea-test"] == "75% (21.0)"
    assert matrix.loc["cayley-mlp[beam_width=1024]", "metric"] == "QTM"
    # an entry run on fewer of a suite's cubes than another says how many
    assert matrix.loc["cayley-mlp[beam_width=4096]", "deepcubea-test"] == "100% of 3 (20.3)"
    write_report([folder], tmp_path / "report")
    md = (tmp_path / "report" / "index.md").read_text()
    order = [md.index(h) for h in ("## Solved, by", "## The DeepCubeA test set", "## Summary")]
    assert order == sorted(order)
    assert "| cayley-mlp[beam_width=4096] | 3 | 100.0 | 20.33 |" in md


def test_the_frontier_joins_a_solvers_settings(tmp_path):
    data, _ = load_runs([_run(tmp_path / "r", ENTRIES)])
    frontier = draw_all(data, tmp_path)["pareto"][2]
    assert list(frontier["family"]) == ["cayley-mlp", "cayley-mlp"]
    assert list(frontier["median_s"]) == [2.5, 8.0]  # ordered by time along the line
    assert list(frontier["mean_qtm"].round(2)) == [21.0, 20.33]


def test_measured_rows_give_the_models_size_and_training_beside_deepcubeas(tmp_path):
    info = {"parameters": 1_799_001, "train_minutes": 90.2, "trained_on": "Test CPU (cpu)"}
    data, runs = load_runs([_run(tmp_path / "r", ENTRIES, info=info)])
    table = leaderboard(data, runs).set_index("solver")
    model = "1.8M parameters, trained 90 min on Test CPU (cpu)"
    assert table.loc["cayley-mlp[beam_width=1024]", "model"] == model
    assert "14.7M parameters" in table.loc["DeepCubeA", "model"]
    data, runs = load_runs([_run(tmp_path / "plain", ENTRIES)])  # kociemba-like: no model
    assert (
        leaderboard(data, runs).set_index("solver").loc["cayley-mlp[beam_width=4096]", "model"]
        == ""
    )
