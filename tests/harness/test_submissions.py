"""Answers as files: the format read and refused, export then import giving back the same
records, and the submission checker failing each kind of bad submission on its own."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness import answers as answers_module
from cubebench.harness.answers import AnswersError, read_answers
from cubebench.harness.check import CHECKS, check_submission
from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves, state_to_facelets
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.submissions import export_answers, import_answers
from cubebench.harness.suites.catalog import load_suite, register_user_suite
from cubebench.harness.suites.model import Instance

SCRAMBLES = ["R U", "F2 D'", "L B' U2", "D R2", "U F"]


@pytest.fixture
def five(isolated_home) -> str:
    instances = [
        Instance(
            i, state_to_facelets(apply_sequence(SOLVED, parse_moves(s))), s, len(s.split()), None
        )
        for i, s in enumerate(SCRAMBLES)
    ]
    register_user_suite("five", instances, {"source": "test"})
    return "five"


def _answers_file(path: Path, suite: str, lines: list[dict], **meta) -> Path:
    info = load_suite(suite)
    head = {
        "cubebench_answers": 1,
        "system": "my-solver",
        "version": "1.0",
        "metric": "htm",
        "hardware": "a laptop",
        "code": "https://example.org/my-solver",
        "suite": suite,
        "suite_sha256": info.states_sha256,
        **meta,
    }
    head = {k: v for k, v in head.items() if v is not None}
    path.write_text("\n".join(json.dumps(x) for x in [head, *lines]) + "\n")
    return path


def _inverse(scramble: str) -> str:
    from cubebench.harness.cube import format_moves, invert_sequence

    return format_moves(invert_sequence(parse_moves(scramble)))


def _good(n: int = 5) -> list[dict]:
    return [
        {"id": str(i), "moves": _inverse(s), "seconds": 0.5} for i, s in enumerate(SCRAMBLES[:n])
    ]


KEPT = ("entry", "suite", "instance", "status", "moves", "length_htm", "length_qtm", "nodes")


def test_export_then_import_gives_back_the_same_records(tmp_path, five):
    marker = tmp_path / "first-done"
    fakes = ("Right", "Wrong", "CrashesAfterFirst", "Slow", "Padding")
    entries = tuple(
        SolverSpec(f"tests.fakes:{s}", {"marker": str(marker)} if "First" in s else {})
        for s in fakes
    )
    config = RunConfig(
        solvers=entries,
        suites=(five,),
        out=str(tmp_path / "runs"),
        time_limit=0.5,
        max_length=3,
        clock="wall",  # Slow sleeps past the limit: late on the wall clock
    )
    store = run(config, show_progress=False, run_id="original")
    for entry in (e.key for e in entries):
        out = tmp_path / f"{entry.replace(':', '-')}.jsonl"
        export_answers(store.folder, entry, out)
        again = import_answers(out, five, tmp_path / "runs", run_id=out.stem)
        mine = [r for r in store.read_records() if r.entry == entry]
        before = sorted(mine, key=lambda r: r.instance)
        after = sorted(again.read_records(), key=lambda r: r.instance)
        assert [[getattr(r, k) for k in KEPT] for r in after] == [
            [getattr(r, k) for k in KEPT] for r in before
        ]
        assert [r.wall_s for r in after] == [r.wall_s for r in before]
    statuses = {r.status for r in store.read_records()}
    assert statuses == {"solved", "wrong", "error", "timeout", "unsolved"}
    assert check_submission(store.folder)[CHECKS.index("complete")].ok


def test_a_csv_of_id_and_moves_imports_with_its_metadata_as_options(tmp_path, five):
    path = tmp_path / "kaggle.csv"
    rows = ["id,moves"] + [f"{a['id']},{a['moves']}" for a in _good()]
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(AnswersError, match="'system' is required"):
        import_answers(path, five, tmp_path / "runs")
    meta = {"system": "kaggle-team", "metric": "htm", "hardware": "a cluster"}
    store = import_answers(path, five, tmp_path / "runs", meta=meta)
    assert [r.status for r in store.read_records()] == ["solved"] * 5
    manifest = store.read_manifest()
    assert manifest.published["hardware"] == "a cluster"
    assert "never this machine's time axis" in manifest.published["times"]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([{"id": "9", "moves": "R"}], "id 9 is not an instance of suite five"),
        ([{"id": "1", "moves": "R"}, {"id": "1", "moves": "R'"}], "id 1 is answered twice"),
        ([{"id": "1", "moves": "R X2"}], "line 2: moves: "),
        ([{"id": "one", "moves": "R"}], "is not an instance id"),
        ([{"id": "1", "moves": "R", "seconds": float("nan")}], "a finite time"),
        ([{"id": "1"}], "no 'moves'"),
    ],
)
def test_a_hostile_answers_file_is_refused_in_one_line_before_anything_is_written(
    tmp_path, five, lines, message
):
    path = _answers_file(tmp_path / "a.jsonl", five, lines)
    with pytest.raises(AnswersError, match=message) as caught:
        import_answers(path, five, tmp_path / "runs")
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_huge_or_non_utf8_answers_file_is_refused(tmp_path, five, monkeypatch):
    path = _answers_file(tmp_path / "a.jsonl", five, _good())
    monkeypatch.setattr(answers_module, "MAX_FILE_BYTES", 100)
    with pytest.raises(AnswersError, match="not a file of answers"):
        read_answers(path)
    monkeypatch.undo()
    path.write_bytes(path.read_bytes() + b'{"id": "\xff", "moves": "R"}\n')
    with pytest.raises(AnswersError, match=r"line 7: not UTF-8"):
        read_answers(path)


def _failed(path: Path) -> list[str]:
    return [f.check for f in check_submission(path) if not f.ok]


def test_the_checker_passes_a_whole_submission_and_fails_each_fault_on_its_own(tmp_path, five):
    assert _failed(_answers_file(tmp_path / "good.jsonl", five, _good())) == []
    missing = _answers_file(tmp_path / "missing.jsonl", five, _good(4))
    assert _failed(missing) == ["complete"]
    doubled = _answers_file(tmp_path / "doubled.jsonl", five, [*_good(), _good()[0]])
    assert _failed(doubled) == ["complete"]
    hashed = _answers_file(tmp_path / "hash.jsonl", five, _good(), suite_sha256="0" * 64)
    assert _failed(hashed) == ["suite"]
    lying = _good()
    lying[2] = {**lying[2], "moves": "R"}
    assert _failed(_answers_file(tmp_path / "lying.jsonl", five, lying)) == ["replayed"]
    nohardware = _answers_file(tmp_path / "nohw.jsonl", five, _good(), hardware=None)
    assert _failed(nohardware) == ["provenance"]
    untimed = [{k: v for k, v in a.items() if k != "seconds"} for a in _good()]
    assert _failed(_answers_file(tmp_path / "untimed.jsonl", five, untimed)) == ["times"]
    declared = _answers_file(tmp_path / "declared.jsonl", five, untimed, times="absent")
    assert _failed(declared) == []


def test_bench_check_prints_a_line_a_check_and_exits_zero_only_when_all_pass(tmp_path, five):
    good = _answers_file(tmp_path / "good.jsonl", five, _good())
    bad = _answers_file(tmp_path / "bad.jsonl", five, _good(4))
    bench = [sys.executable, "-m", "cubebench.harness.cli.main", "check"]
    passed = subprocess.run([*bench, str(good)], capture_output=True, text=True)
    failed = subprocess.run([*bench, str(bad)], capture_output=True, text=True)
    assert passed.returncode == 0 and failed.returncode == 1
    assert len(passed.stdout.splitlines()) == len(CHECKS) + 1
    assert "FAIL  complete    my-solver on five: 1 of 5 missing (first: 4)" in failed.stdout


def test_the_site_marks_each_entry_by_whether_its_run_passes_the_checker(tmp_path, five):
    from cubebench.harness.report.render import write_report

    complete = run(
        RunConfig(solvers=(SolverSpec("tests.fakes:Right"),), suites=(five,), out=str(tmp_path)),
        show_progress=False,
        run_id="complete",
    )
    partial = import_answers(
        _answers_file(tmp_path / "partial.jsonl", five, _good(3), system="partial"),
        five,
        tmp_path,
    )
    write_report([complete.folder, partial.folder], tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text()
    assert ">tests.fakes:Right</a> <span class='check'>✓</span>" in index
    assert ">partial</a> <span class='check'>✗</span>" in index
    pages = {p.name: p.read_text() for p in (tmp_path / "site" / "entries").glob("*.html")}
    verdicts = sorted(
        re.search(r"submission check</dt><dd>([^<]*)", text)[1] for text in pages.values()
    )
    assert verdicts[0].startswith("fit for a leaderboard")
    assert verdicts[1] == "not fit: complete: partial on five: 2 of 5 missing (first: 3)"


def test_published_times_never_enter_a_ratio_or_a_gate(tmp_path, five):
    from cubebench.harness.report.compare import failures, head_to_head, printable
    from cubebench.harness.report.rules import Rule

    live = run(
        RunConfig(solvers=(SolverSpec("tests.fakes:Right"),), suites=(five,), out=str(tmp_path)),
        show_progress=False,
        run_id="live",
    )
    slow = [{**a, "seconds": 500.0} for a in _good()]  # a peer's hours, on its own machine
    peer = import_answers(_answers_file(tmp_path / "peer.jsonl", five, slow), five, tmp_path)
    table = head_to_head([live.folder, peer.folder], "tests.fakes:Right", "my-solver")
    assert table["time_ratio"].isna().all() and table["published_times"].all()
    assert list(printable(table)["time x"]) == ["published"]
    assert failures(table, [Rule.parse("time>+20%")]) == []
