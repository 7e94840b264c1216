"""The statistics are declared once; every view shows the same numbers, a run annotated
after it was made included."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from cubebench.harness.records.schema import Record
from cubebench.harness.records.store import RunStore
from cubebench.harness.report.frame import load_runs
from cubebench.harness.report.stats import BY_NAME, SUMMARY, summarize
from cubebench.harness.suites.annotate import annotate_suite
from cubebench.harness.suites.catalog import register_user_suite
from cubebench.harness.suites.importers import IMPORTERS
from tests.harness.bench_process import bench, bench_here

from .synthetic import as_written


def test_summarize_by_hand(tmp_path):
    store = RunStore(tmp_path / "r")
    for record in (
        Record("a", "s", 0, "solved", "R U", 2, 2, 1, 1, 0.1, 5),
        Record("a", "s", 1, "solved", "R2", 1, 2, 1, 0, 0.3, 7),
        Record("a", "s", 2, "timeout", wall_s=2.0),
        Record("a", "s", 3, "wrong", "R", 1, 1, wall_s=0.2),
    ):
        store.append(record)
    store.close()
    as_written(store, {"schema_version": 3, "run_id": "r", "suites": {"s": {"sha256": "x"}},
                       "solvers": {"a": {"solver": "a"}}})  # fmt: skip
    (row,) = summarize(load_runs([store.folder])[0], statuses=True).to_dict("records")
    assert (row["n"], row["solved %"]) == (4, 50.0)
    assert row["mean HTM"] == 1.5 and row["mean QTM"] == 2.0
    assert row["mean gap"] == 0.5 and row["optimal %"] == 50.0
    assert row["median s"] == pytest.approx(0.25) and row["other"] == "timeout 1, wrong 1"


def test_every_statistic_says_which_way_is_better_and_what_it_counts_in():
    assert len(BY_NAME) == len(SUMMARY)
    for stat in SUMMARY:
        assert stat.better in ("higher", "lower", None) and stat.doc and stat.counts_in


def _leaderboard_cell(html: str, entry: str, column: str) -> str:
    """A cell of a suite's leaderboard on the site's front page."""
    table = html.split("Leaderboard: mine")[1].split("</table>")[0]
    heads = re.findall(r"<th scope='col'><button type='button'>(.*?)</button>", table)
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1]):
        cells = re.findall(r"<td>(?:<a [^>]*>)?(.*?)(?:</a>)?</td>", row)
        if cells[0] == entry:
            return cells[heads.index(column)]
    raise AssertionError(f"no row {entry}")


def test_show_report_site_and_compare_agree_on_a_run_annotated_after_it_was_made(
    tmp_path: Path,
) -> None:
    cubes = tmp_path / "c.txt"
    cubes.write_text("R U F D\nL D B\nF R U B2\nR2 U2 F' L\n")
    register_user_suite("mine", IMPORTERS["text"](cubes), {"kind": "imported"})
    made = bench("run", "-s", "kociemba", "-s", "tests.fakes:Right", "--suite", "mine",
                 "--out", str(tmp_path), "--run-id", "r", "--quiet", "--no-report")  # fmt: skip
    assert made.returncode == 0, made.stderr
    run = tmp_path / "r"
    assert all(json.loads(x)["optimal_htm"] is None for x in (run / "records.jsonl").open())
    annotate_suite("mine", "htm", tables="small")  # after the run

    shown = json.loads(bench_here("show", str(run), "--format", "json").stdout)
    show = {row["solver"]: row for row in shown}
    report = bench_here("report", str(run), "--out", str(tmp_path / "rep"))
    assert report.returncode == 0, report.stderr
    summary = pd.read_csv(tmp_path / "rep" / "summary.csv").set_index("solver")
    html = (tmp_path / "rep" / "index.html").read_text()
    compared = bench_here("compare", str(run), "--base", "kociemba", "--new",
                          "tests.fakes:Right", "--csv", str(tmp_path / "h2h.csv"))  # fmt: skip
    assert compared.returncode == 0, compared.stderr
    pair = pd.read_csv(tmp_path / "h2h.csv").iloc[0]
    for entry in ("kociemba", "tests.fakes:Right"):
        assert show[entry]["n with optimum"] == 4  # the optima came after the run
        assert show[entry]["mean gap"] == pytest.approx(summary.loc[entry, "mean gap"])
        assert show[entry]["optimal %"] == pytest.approx(summary.loc[entry, "optimal %"])
        assert f"{summary.loc[entry, 'mean gap']:.2f}" == _leaderboard_cell(html, entry, "mean gap")
        side = "base" if entry == "kociemba" else "new"
        assert pair[f"{side}_rate"] == pytest.approx(show[entry]["solved %"])
        assert pair[f"{side}_low"] == pytest.approx(show[entry]["CI low %"])
    assert show["kociemba"]["mean gap"] is not None
    table = bench_here("show", str(run)).stdout
    assert f"{show['kociemba']['mean gap']:.2f}" in table
    as_csv = bench_here("show", str(run), "--format", "csv").stdout
    assert as_csv.splitlines()[0].startswith("solver,suite,n,solved %")
