"""``bench suites``: the commands a user types, and one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from cubebench.harness.cli.main import app

runner = CliRunner()


def test_list_shows_builtin_suites():
    result = runner.invoke(app, ["suites", "list"])
    assert result.exit_code == 0
    assert "depth-07-v1" in result.output and "random-state-v1" in result.output
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in result.output.splitlines() if line.count("│") > 3}  # fmt: skip
    assert (rows["depth-07-v1"], rows["cube2-depth-07-v1"], rows["cube4-random-state-v1"]) == (
        "cube3",
        "cube2",
        "cube4",
    )  # each suite's puzzle


def test_show_jsonl_is_the_stable_form():
    result = runner.invoke(app, ["suites", "show", "depth-02-v1", "--format", "jsonl"])
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == 1000
    assert {"id", "facelets", "scramble", "depth", "optimal_htm"} <= set(lines[0])


def test_import_text_then_show(tmp_path):
    path = tmp_path / "cubes.txt"
    path.write_text("R U\nF2 D'\n")
    result = runner.invoke(app, ["suites", "import", "text", str(path), "--name", "two"])
    assert result.exit_code == 0, result.output
    assert "imported 2 cubes as two" in result.output
    shown = runner.invoke(app, ["suites", "show", "two", "--format", "jsonl"])
    assert json.loads(shown.output.splitlines()[1])["scramble"] == "F2 D'"


def _bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_user_errors_are_one_line_without_traceback(tmp_path):
    unknown = _bench("suites", "show", "depth-7-v1")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == (
        "error: unknown suite 'depth-7-v1'; did you mean 'depth-07-v1'?"
    )
    bad = tmp_path / "bad.txt"
    bad.write_text("R U x\n")
    imported = _bench("suites", "import", "text", str(bad), "--name", "bad")
    assert imported.returncode == 2 and "Traceback" not in imported.stderr
    assert "line 1: bad move 'x' at position 3" in imported.stderr


def test_annotate_refuses_bad_options_in_one_line_before_loading_tables():
    parity_in_qtm = _bench(
        "suites", "annotate", "depth-12-v1", "--optimal", "--metric", "both", "--tables", "xlarge"
    )
    assert parity_in_qtm.returncode == 2
    assert parity_in_qtm.stderr.strip() == (
        "error: --tables xlarge with --metric both: xlarge is for htm only"
    )
    unknown = _bench("suites", "annotate", "depth-12-v1", "--optimal", "--tables", "huge")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == "error: --tables 'huge': use small, large, xlarge or dense"
