"""``bench compare`` exits non-zero exactly when a stated threshold is crossed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness.report.compare import compare_runs
from cubebench.harness.report.rules import Rule, ThresholdError

from .synthetic import make_run

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def runs(tmp_path):
    base = make_run(tmp_path / "base", {("depth-05-v1", 5): 18}, time_s=0.10)
    new = make_run(tmp_path / "new", {("depth-05-v1", 5): 8}, time_s=0.11, length_extra=1)
    return base, new


def test_table_has_paired_statistics(runs):
    table = compare_runs(*runs)
    row = table.iloc[0]
    assert row["solve_rate_diff_pp"] == pytest.approx(-50.0)
    assert row["mcnemar_p"] == pytest.approx(2 / 2**10)  # 10 discordant, all one way
    assert row["length_diff"] == pytest.approx(1.0)
    assert row["time_change_pct"] == pytest.approx(10.0)


def _compare(base, new, *rules):
    args = [a for rule in rules for a in ("--fail-if", rule)]
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
    in_order = compare_runs(base, new).iloc[0]
    reordered = compare_runs(shuffled[base], shuffled[new]).iloc[0]
    low, high = (float(x) for x in in_order["length_ci"].split("–"))
    assert low < in_order["length_diff"] < high  # a real interval, not a point
    assert reordered["length_ci"] == in_order["length_ci"]
    assert reordered["length_diff"] == pytest.approx(in_order["length_diff"])
