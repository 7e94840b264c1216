"""``bench run/ls/show/solve``: real runs, and one clear line for every bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness.plan import split_settings
from cubebench.harness.settings import SettingsError

ROOT = Path(__file__).resolve().parents[3]


def _bench(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )


def test_run_show_ls_on_kociemba(tmp_path):
    result = _bench(
        "run",
        "--solver",
        "kociemba",
        "--set",
        "max_length=22",
        "--suite",
        "depth-05-v1",
        "--limit",
        "10",
        "--out",
        str(tmp_path),
        "--run-id",
        "k",
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    # the terminal ends with the short answer, an entry a row; every suite: bench show --matrix
    assert "│ kociemba[max_length=22] (HTM) │ 100% (" in result.stdout  # its settings named
    assert "┃ depth 5" in result.stdout
    lines = (tmp_path / "k" / "records.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    assert len(lines) == 10 and first["status"] == "solved"
    for key in (
        "solver",
        "suite",
        "instance",
        "status",
        "moves",
        "length_htm",
        "length_qtm",
        "wall_s",
        "nodes",
        "model_calls",
    ):
        assert key in first
    manifest = json.loads((tmp_path / "k" / "manifest.json").read_text())
    entry = manifest["solvers"]["kociemba[max_length=22]"]  # named by what it set
    assert entry["solver"] == "kociemba" and entry["settings"] == {"seed": 0, "max_length": 22}
    shown = _bench("show", str(tmp_path / "k"))
    assert shown.returncode == 0 and "depth-05-v1" in shown.stdout and "commit" in shown.stdout
    assert "100.0%" in shown.stdout and "95% CI" in shown.stdout
    listed = _bench("ls", "runs", "--out", str(tmp_path))
    assert "k " in listed.stdout and "finished" in listed.stdout


def test_solve_prints_a_verified_solution():
    result = _bench("solve", "R U2 F' D", "--solver", "kociemba")
    assert result.returncode == 0
    assert "status:   solved" in result.stdout and "length:   4 HTM, 5 QTM" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["run", "-s", "kociemb", "--suite", "depth-01-v1"],
            "error: unknown solver 'kociemb'; did you mean 'kociemba'",
        ),
        (
            ["run", "-s", "kociemba", "--set", "max_lenght=3", "--suite", "depth-01-v1"],
            "error: solver kociemba: unknown setting 'max_lenght'; did you mean 'max_length'?",
        ),
        (
            ["run", "-s", "kociemba", "--set", "max_length=lots", "--suite", "depth-01-v1"],
            "error: solver kociemba: setting max_length='lots' is not a valid int",
        ),
        (["run", "-s", "kociemba", "--suite", "depth-99-v1"], "error: unknown suite 'depth-99-v1'"),
        (["solve", "R U X"], "error: bad move 'X' at position 3"),
        (["solve", "--facelets", "UUU"], "error: a facelet string has 54 letters, got 3"),
        (["show", "/nonexistent-run"], "error: /nonexistent-run is not a run: no manifest.json"),
    ],
)
def test_bad_input_is_one_clear_line(args, message):
    result = _bench(*args)
    assert result.returncode == 2
    assert result.stderr.strip().startswith(message), result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "error: --workers 0: must be a whole number ≥ 1"),
        (["--limit", "-5"], "error: --limit -5: must be a whole number ≥ 1"),
        (["--time-limit", "-1"], "error: --time-limit -1.0: must be a positive number"),
        (["--memory-limit-gb", "0"], "error: --memory-limit-gb 0.0: must be a positive number"),
        (["--set", "beam_width=-1"], "error: solver policy-mlp: setting beam_width=-1 must be ≥ 1"),
        (  # A*'s weight acts on no search policy-mlp runs: refused, not ignored
            ["--set", "weight=0.9"],
            "error: solver policy-mlp: setting weight='0.9': does nothing for this solver",
        ),
        (["--set", "threads=0"], "error: solver policy-mlp: setting threads=0 must be ≥ 1"),
        (
            ["--set", "precision=fp16"],
            "error: solver policy-mlp: setting precision='fp16': choose one of auto, fp32",
        ),
    ],
)
def test_out_of_range_run_arguments_stop_before_anything_is_written(tmp_path, args, message):
    result = _bench(
        "run", "-s", "policy-mlp", "--suite", "depth-01-v1", "--out", str(tmp_path), *args
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().startswith(message), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())


def test_a_tampered_checkpoint_stops_the_run_with_exit_2(tmp_path):
    from cubebench.solvers.policy_mlp.checkpoint import CHECKPOINT_DIR, WEIGHTS

    copy = tmp_path / "ckpt"
    copy.mkdir()
    for f in CHECKPOINT_DIR.glob("policy-mlp.*"):
        (copy / f.name).write_bytes(f.read_bytes())
    data = bytearray((copy / WEIGHTS).read_bytes())
    data[-100] ^= 0xFF
    (copy / WEIGHTS).write_bytes(bytes(data))
    out = tmp_path / "runs"
    result = _bench(
        "run", "-s", "kociemba", "-s", "policy-mlp", "--set", f"policy-mlp.checkpoint={copy}",
        "--suite", "depth-01-v1", "--limit", "2", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("error: solver policy-mlp[checkpoint=")
    assert "failed to load: CheckpointError" in result.stderr
    assert "corrupt or replaced" in result.stderr and len(result.stderr.splitlines()) == 1
    assert not out.exists()  # kociemba did not run first only to be thrown away


def test_tampered_suite_and_unreadable_records(tmp_path, isolated_home):
    path = tmp_path / "c.txt"
    path.write_text("R U\n")
    assert _bench("suites", "import", "text", str(path), "--name", "t").returncode == 0
    suite_file = isolated_home / "suites" / "t.jsonl"
    suite_file.write_text(suite_file.read_text().replace("R U", "R U2"))
    result = _bench("run", "-s", "kociemba", "--suite", "t", "--out", str(tmp_path))
    assert result.returncode == 2 and "registry pins" in result.stderr
    run = _bench(
        "run",
        "-s",
        "kociemba",
        "--suite",
        "depth-01-v1",
        "--limit",
        "2",
        "--out",
        str(tmp_path),
        "--run-id",
        "r",
        "--quiet",
    )
    assert run.returncode == 0
    (tmp_path / "r" / "records.jsonl").write_text('{"solver": "x"}\ngarbage\n')
    shown = _bench("show", str(tmp_path / "r"))
    assert shown.returncode == 2
    assert (
        shown.stderr.startswith("error: ") and "records.jsonl line 1 is unreadable" in shown.stderr
    )


def test_split_settings_routes_values():
    assert split_settings(["a"], ["x=1"], None) == {"a": {"x": "1"}}
    assert split_settings(["a", "b"], ["b.x=1"], None) == {"a": {}, "b": {"x": "1"}}
    with pytest.raises(SettingsError, match="name the solver"):
        split_settings(["a", "b"], ["x=1"], None)
    with pytest.raises(SettingsError, match="key=value"):
        split_settings(["a"], ["x"], None)


def test_settings_file(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("[kociemba]\nmax_length = 21\n")
    assert split_settings(["kociemba"], [], path) == {"kociemba": {"max_length": 21}}


def test_solve_takes_a_settings_file_and_says_why_it_gave_up(tmp_path):
    toml = tmp_path / "s.toml"
    toml.write_text("[random]\nmax_walks = 5\n")
    result = _bench("solve", "R U F D L B R", "-s", "random", "--settings", str(toml))
    assert result.returncode == 1
    assert "status:   unsolved" in result.stdout and "'gave_up': '5 walks'" in result.stdout
    toml.write_text("[kociemba]\nmax_length = 22\n")
    refused = _bench("solve", "R U", "-s", "random", "--settings", str(toml))
    assert refused.returncode == 2 and "names solver 'kociemba', not 'random'" in refused.stderr


def test_a_run_written_to_a_file_shows_progress_before_it_ends(tmp_path):
    """Output to a file (CI, nohup, tee): plain lines as each entry finishes a suite, while
    the run goes on, and counts never cut."""
    from tests.harness.bench_process import start_bench, wait_for

    log = tmp_path / "run.log"
    with log.open("w") as out:
        process = start_bench(
            "run", "-s", "tests.fakes:Pausing", "--set", "pause=0.1", "--suite", "depth-01-v1",
            "--suite", "depth-02-v1", "--limit", "40", "--workers", "1", "--out",
            str(tmp_path / "runs"), "--run-id", "logged", "--no-report", stdout=out,
        )  # fmt: skip
        wait_for(
            lambda: "done tests.fakes:Pausing[pause=0.1] · depth-01-v1: 40/40" in log.read_text(),
            "a progress line",
        )
        assert process.poll() is None  # the second suite's 40 cubes (4 s or more) still run
        assert process.wait(timeout=300) == 0, process.stderr.read()
    text = log.read_text()
    assert "done tests.fakes:Pausing[pause=0.1] · depth-02-v1: 40/40, solved 40 (100.0%)" in text
    assert text.index("depth-02-v1: 40/40") < text.index("run logged: solved")  # the table last
    assert "…" not in text


def test_ls_without_an_argument_lists_its_choices_and_suites_name_quarter_turn_depths():
    from tests.harness.bench_process import bench

    done = bench("ls")
    assert done.returncode == 0 and "solvers | suites | runs" in done.stdout
    listed = bench("ls", "suites")
    assert "quarter-turn depth 12" in listed.stdout


@pytest.mark.parametrize(
    ("sweeps", "assignments", "message"),
    [
        (["beam_width=1,2"], ["beam_width=3"], "also given by --set"),
        (["beam_width=01,1"], [], "'01' and '1' are the same value"),
        (["beam_width=1,2", "beam_width=4"], [], "swept twice"),
        ([], ["beam_width=1", "beam_width=2"], "given twice"),
    ],
)
def test_a_setting_given_twice_or_a_value_spelled_twice_is_refused(sweeps, assignments, message):
    from cubebench.harness.plan import sweep_specs

    with pytest.raises(SettingsError, match=message):
        sweep_specs(["policy-mlp"], split_settings(["policy-mlp"], assignments, None), sweeps)


def test_a_toml_boolean_is_not_a_number(tmp_path):
    from cubebench.harness.registry import checked_settings, resolve_solver_class

    path = tmp_path / "s.toml"
    path.write_text("[policy-mlp]\nbeam_width = true\n")
    values = split_settings(["policy-mlp"], [], path)["policy-mlp"]
    with pytest.raises(SettingsError, match="beam_width=True is not a valid int"):
        checked_settings("policy-mlp", resolve_solver_class("policy-mlp"), values)


def test_a_non_utf8_settings_file_and_an_absurd_length_budget_are_refused(tmp_path):
    from cubebench.harness.runner import RunConfig, SolverSpec
    from cubebench.harness.solver import ArgumentError

    path = tmp_path / "s.toml"
    path.write_bytes("[policy-mlp]\nname = 'caf\xe9'\n".encode("latin-1"))
    with pytest.raises(SettingsError, match="not UTF-8"):
        split_settings(["policy-mlp"], [], path)
    with pytest.raises(ArgumentError, match="--max-length 100000000: at most"):
        RunConfig(solvers=(SolverSpec("random"),), suites=("depth-01-v1",), max_length=10**8)


def test_a_users_run_goes_to_the_users_runs_folder_not_the_projects_results(
    tmp_path, isolated_home
):
    """Without --out a run is the user's: under $CUBEBENCH_HOME/runs, never ./results, and
    ``bench ls runs`` lists it from there."""
    work = tmp_path / "checkout"
    work.mkdir()
    result = _bench(
        "run", "-s", "kociemba", "--suite", "depth-03-v1:3", "--run-id", "mine", "--quiet",
        "--no-report", cwd=work,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    folder = isolated_home / "runs" / "mine"
    assert (folder / "records.jsonl").is_file() and not (work / "results").exists()
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["config"]["out"] == str(isolated_home / "runs")
    listed = _bench("ls", "runs", cwd=work)
    assert listed.stdout.startswith("mine ") and "finished" in listed.stdout
