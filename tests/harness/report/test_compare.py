"""``bench compare``: entries head to head; exit 1 exactly when a threshold is crossed, exit 2
when there is nothing to pair."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness.report.compare import head_to_head
from cubebench.harness.report.rules import NothingToCompareError, Rule, ThresholdError

from .synthetic import make_run

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def runs(tmp_path):
    base = make_run(tmp_path / "base", {("depth-05-v1", 5): 18}, time_s=0.10)
    new = make_run(tmp_path / "new", {("depth-05-v1", 5): 8}, time_s=0.11, length_extra=1)
    return base, new


def test_table_has_paired_statistics(runs):
    table = head_to_head(list(runs))
    row = table.iloc[0]
    assert row["solve_rate_diff_pp"] == pytest.approx(-50.0)
    assert row["mcnemar_p"] == pytest.approx(2 / 2**10)  # 10 discordant, all one way
    assert row["length_diff"] == pytest.approx(1.0)
    assert row["time_change_pct"] == pytest.approx(10.0)
    assert (row["only_base"], row["only_new"], row["both_solved"]) == (10, 0, 8)
    assert row["base_low"] < row["base_rate"] == 90.0 < row["base_high"]
    assert row["length_qtm_diff"] == pytest.approx(1.0) and row["new_shorter"] == 0


def _compare(base, new, *rules, options=()):
    args = [*options, *(a for rule in rules for a in ("--fail-if", rule))]
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from cubebench.harness.cli.main import main; main()",
            "compare",
            str(base),
            str(new),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_exit_codes(runs):
    base, new = runs
    assert _compare(base, new).returncode == 0
    assert _compare(base, new, "solve_rate<-60pp").returncode == 0
    failed = _compare(base, new, "solve_rate<-40pp")
    assert failed.returncode == 1 and "alpha on depth-05-v1: solve_rate < -40pp" in failed.stderr
    assert "10/0" in failed.stdout  # the discordant cubes McNemar's test counts
    assert _compare(base, new, "length>+0.5").returncode == 1
    assert _compare(base, new, "length>+1.5").returncode == 0
    assert _compare(base, new, "time>+5%").returncode == 1
    assert _compare(base, new, "time>+20%").returncode == 0
    assert _compare(new, base, "solve_rate<-1pp").returncode == 0  # the other way it improved
    bad = _compare(base, new, "speed>3")
    assert bad.returncode == 2 and bad.stderr.startswith("error: cannot read --fail-if")


def test_rules_parse_and_refuse_wrong_units():
    assert Rule.parse("solve_rate<-1pp") == Rule("solve_rate", "<", -1.0, "pp")
    assert Rule.parse("time > +20%") == Rule("time", ">", 20.0, "%")
    with pytest.raises(ThresholdError, match="solve_rate takes pp"):
        Rule.parse("solve_rate<-1%")
    with pytest.raises(ThresholdError, match="length takes a plain number"):
        Rule.parse("length>1pp")


def test_the_interval_does_not_depend_on_the_order_workers_wrote_records_in(tmp_path):
    """Two workers append records as they finish: the same records in another file order
    are the same run, and must give the same bootstrap interval."""
    base = make_run(tmp_path / "base", {("depth-10-v1", 10): 40}, n=40)
    new = shutil.copytree(base, tmp_path / "new")
    lines = (new / "records.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for r in records:  # lengths that vary by cube, so the interval has a width to move
        r["length_htm"] += r["instance"] % 3 + (r["instance"] % 7 == 0) * 4
    written = "\n".join(json.dumps(r) for r in records) + "\n"
    (new / "records.jsonl").write_text(written)
    shuffled = {}
    for run in (base, new):  # each run in its own other order, as two workers would write it
        copy = shutil.copytree(run, tmp_path / f"{run.name}-shuffled")
        rows = (copy / "records.jsonl").read_text().splitlines()
        (copy / "records.jsonl").write_text("\n".join(rows[1::2] + rows[0::2]) + "\n")
        shuffled[run] = copy
    in_order = head_to_head([base, new]).iloc[0]
    reordered = head_to_head([shuffled[base], shuffled[new]]).iloc[0]
    low, high = in_order["length_ci_low"], in_order["length_ci_high"]
    assert low < in_order["length_diff"] < high  # a real interval, not a point
    assert (reordered["length_ci_low"], reordered["length_ci_high"]) == (low, high)
    assert reordered["length_diff"] == pytest.approx(in_order["length_diff"])


def _two_entries(tmp_path: Path) -> Path:
    """One run holding two entries, alpha and beta, on depth 3 and depth 5."""
    suites = {("depth-03-v1", 3): 20, ("depth-05-v1", 5): 16}
    alpha = make_run(tmp_path / "alpha", suites, time_s=0.2)
    beta = make_run(
        tmp_path / "beta", {("depth-03-v1", 3): 20, ("depth-05-v1", 5): 6}, solver="beta"
    )
    both = tmp_path / "both"
    shutil.copytree(alpha, both)
    manifest = json.loads((both / "manifest.json").read_text())
    manifest["run_id"] = "both"
    manifest["solvers"]["beta"] = {"solver": "beta", "settings": {"seed": 0}}
    (both / "manifest.json").write_text(json.dumps(manifest))
    with (both / "records.jsonl").open("a") as fh:
        fh.write((beta / "records.jsonl").read_text())
    return both


def test_two_entries_of_one_run_per_suite_and_pooled(tmp_path):
    table = head_to_head([_two_entries(tmp_path)], base="alpha", new="beta").set_index("suite")
    assert list(table.index) == ["depth-03-v1", "depth-05-v1", "(pooled)"]
    assert table.loc["depth-05-v1", "only_base"] == 10
    assert table.loc["(pooled)", "n"] == 40 and table.loc["(pooled)", "only_base"] == 10
    assert table.loc["depth-03-v1", "mcnemar_p"] == 1.0
    assert table.loc["depth-03-v1", "time_ratio"] == pytest.approx(0.5)


def test_nothing_to_pair_is_an_error_not_an_empty_pass(tmp_path):
    both = _two_entries(tmp_path)
    with pytest.raises(NothingToCompareError, match="one run: name two of its entries"):
        head_to_head([both])
    with pytest.raises(NothingToCompareError, match="no such entry; did you mean 'beta'"):
        head_to_head([both], base="alpha", new="betta")
    other = make_run(tmp_path / "other", {("depth-07-v1", 7): 5})
    deep = make_run(tmp_path / "deep", {("depth-09-v1", 9): 5})
    result = _compare(other, deep, "solve_rate<-1pp")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "error: nothing to pair: other ran depth-07-v1 and deep ran depth-09-v1"
    )
    gamma = make_run(tmp_path / "gamma", {("depth-07-v1", 7): 5}, solver="gamma")
    assert "share no entry" in _compare(other, gamma).stderr
    crossed = _compare(
        other, gamma, "solve_rate<-1pp", options=("--base", "alpha", "--new", "gamma")
    )
    assert crossed.returncode == 0, crossed.stderr  # both solved 5 of 20


def test_random_against_kociemba_in_one_real_run(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", "run",
         "-s", "kociemba", "-s", "random", "--set", "random.max_walks=200", "--suite",
         "depth-05-v1", "--limit", "20", "--out", str(tmp_path), "--run-id", "r", "--quiet",
         "--no-report"],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    args = ["--base", "kociemba", "--new", "random", "--fail-if", "solve_rate<-1pp"]
    compared = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()",
         "compare", str(tmp_path / "r"), *args],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert compared.returncode == 1
    failed = "FAIL: random[max_walks=200] against kociemba on depth-05-v1: solve_rate < -1pp"
    assert failed in compared.stderr
    line = next(x for x in compared.stdout.splitlines() if "depth-05-v1" in x)
    assert "100.0" in line and "/0 " in line  # kociemba solved what random did not


def test_runs_of_two_puzzles_are_never_compared_or_reported_together(tmp_path):
    from cubebench.harness.records.schema import RecordError
    from cubebench.harness.report.render import write_report

    results = Path(__file__).resolve().parents[3] / "results"
    mixed = [results / "cube2-optimal", results / "cube4-baselines"]
    with pytest.raises(RecordError, match="bench compare: these runs hold cubes of cube2, cube4"):
        head_to_head(mixed)
    index = write_report(mixed, tmp_path / "report")  # one report a puzzle
    main, other = (
        "\n".join(line for line in path.read_text().splitlines() if line[:1] == "|")
        for path in (tmp_path / "report" / "index.md", tmp_path / "report" / "cube4" / "index.md")
    )  # the tables' rows
    assert "cube4: cube4/" in index.read_text()
    assert "cube2-random-state-v1" in main and "cube4-depth" not in main
    assert "cube4-depth-01-v1" in other and "cube2-random-state-v1" not in other
