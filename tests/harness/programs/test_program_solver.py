"""Program solvers as real processes: the two examples, and fakes that hang, exit, answer
another id, write garbage, never shake hands or hog memory."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cubebench.harness.cube import SOLVED, apply_sequence, parse_moves, state_to_facelets
from cubebench.harness.records.store import RunStore
from cubebench.harness.runner import RunConfig, SolverSpec, run
from cubebench.harness.solver import SolverLoadError
from cubebench.harness.suites.catalog import register_user_suite
from cubebench.harness.suites.model import Instance

HERE = Path(__file__).resolve().parent
FAKE = HERE / "fake_program.py"
EXAMPLES = HERE.parents[2] / "examples" / "programs"


@pytest.fixture
def three(isolated_home) -> str:
    scrambles = ["R U", "F2 D'", "L B' U2"]
    instances = [
        Instance(
            i, state_to_facelets(apply_sequence(SOLVED, parse_moves(s))), s, None, len(s.split())
        )
        for i, s in enumerate(scrambles)
    ]
    register_user_suite("three", instances, {"source": "test"})
    return "three"


def fake_toml(tmp_path: Path, *args: str, extra: str = "") -> Path:
    path = tmp_path / f"fake-{'-'.join(a.replace('/', '') for a in args)[:40]}.toml"
    command = ", ".join(f'"{a}"' for a in (sys.executable, str(FAKE), *args))
    path.write_text(f'name = "fake"\ncommand = [{command}]\nmetric = "htm"\n{extra}')
    return path


def run_program(tmp_path: Path, toml: Path, suite: str, **config) -> list:
    entry = SolverSpec(str(toml), label="fake")
    settings = {"workers": 1, "time_limit": 2.0, **config}
    store = run(
        RunConfig(solvers=(entry,), suites=(suite,), out=str(tmp_path / "runs"), **settings),
        show_progress=False,
        run_id="r",
    )
    return sorted(store.read_records(), key=lambda r: r.instance)


def test_a_program_that_answers_is_judged_with_its_cpu_time_and_memory(tmp_path, three):
    records = run_program(tmp_path, fake_toml(tmp_path, "busy"), three)
    assert [r.status for r in records] == ["solved"] * 3
    for r in records:
        # it worked 0.3 s of CPU time a cube, on one thread: never more than its wall time
        assert 0.25 <= r.cpu_s <= r.wall_s + 0.02
        assert r.info["peak_rss_mb"] > 1
        assert r.nodes == 5 and r.info["seen_limit"] == 2.0  # other keys reach info
    manifest = RunStore(tmp_path / "runs" / "r").read_manifest()
    pin = manifest.solvers["fake"]
    assert pin.origin["registered"] == "program" and pin.origin["arguments"][-1] == "busy"
    assert pin.pinned["program_version"] == "0.1" and len(pin.pinned["executable_sha256"]) == 64


def test_a_hanging_program_costs_one_cube_and_is_started_again(tmp_path, three):
    records = run_program(tmp_path, fake_toml(tmp_path, "hang", "2"), three)
    assert [r.status for r in records] == ["solved", "timeout", "solved"]
    assert "the program was killed" in records[1].error


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("exit", "the program ended (exit code 3)"),
        ("other-id", "answers id 'other', not the id asked, '2'"),
        ("garbage", "is not JSON"),
    ],
)
def test_a_program_that_breaks_the_protocol_costs_one_cube(tmp_path, three, mode, message):
    records = run_program(tmp_path, fake_toml(tmp_path, mode, "2"), three)
    assert [r.status for r in records] == ["solved", "error", "solved"]
    assert message in records[1].error
    assert len(records[1].error) < 400  # the line cut short


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("no-handshake", "no handshake within 2 s"),
        ("bad-handshake", "is not JSON"),
    ],
)
def test_a_program_without_a_handshake_stops_the_run_before_any_record(
    tmp_path, three, mode, message
):
    toml = fake_toml(tmp_path, mode, extra="load_timeout_s = 2\n")
    with pytest.raises(SolverLoadError, match=message) as caught:
        run_program(tmp_path, toml, three)
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "runs" / "r" / "records.jsonl").exists()


def test_a_program_past_the_memory_limit_costs_one_cube(tmp_path, three):
    records = run_program(tmp_path, fake_toml(tmp_path, "memory", "2"), three, memory_limit_gb=0.5)
    assert [r.status for r in records] == ["solved", "error", "solved"]
    assert "memory above 0.5 GB" in records[1].error


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return any(line.split()[1] in ("Z", "X") for line in fh if line.startswith("State:"))
    except OSError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_timed_out_program_dies_with_every_process_it_started(tmp_path, three):
    marker = tmp_path / "grandchild.pid"
    records = run_program(tmp_path, fake_toml(tmp_path, "grandchild-hang", "1", str(marker)), three)
    assert [r.status for r in records] == ["timeout", "solved", "solved"]
    assert _gone(int(marker.read_text()))


@pytest.fixture(scope="module")
def iddfs(tmp_path_factory) -> Path:
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler (cc) here to build examples/programs/iddfs.c")
    folder = tmp_path_factory.mktemp("iddfs")
    for name in ("iddfs.c", "iddfs.toml"):
        shutil.copy(EXAMPLES / name, folder / name)
    subprocess.run([cc, "-O2", "-o", str(folder / "iddfs"), str(folder / "iddfs.c")], check=True)
    return folder / "iddfs.toml"


def test_the_c_and_shell_examples_solve_what_they_reach(tmp_path, iddfs, isolated_home):
    shell = EXAMPLES / "lookup.toml"
    assert os.access(EXAMPLES / "lookup.sh", os.X_OK)
    entries = (SolverSpec(str(iddfs), label="iddfs-c"), SolverSpec(str(shell), label="lookup-sh"))
    store = run(
        RunConfig(
            solvers=entries,
            suites=("depth-03-v1", "depth-05-v1"),
            suite_limits={"depth-03-v1": 5, "depth-05-v1": 3},
            out=str(tmp_path / "runs"),
            time_limit=30.0,
        ),
        show_progress=False,
        run_id="examples",
    )
    by = {(r.entry, r.suite): [] for r in store.read_records()}
    for r in store.read_records():
        by[(r.entry, r.suite)].append(r)
    assert all(r.status == "solved" and r.gap_htm == 0 for r in by[("iddfs-c", "depth-05-v1")])
    assert all(r.status == "solved" for r in by[("iddfs-c", "depth-03-v1")])
    assert all(r.status == "solved" for r in by[("lookup-sh", "depth-03-v1")])
    # past its three moves the shell example gives up, saying why
    gave_up = by[("lookup-sh", "depth-05-v1")]
    assert [r.status for r in gave_up] == ["unsolved"] * 3
    assert gave_up[0].info["gave_up"] == "more than three face turns from solved"


def test_a_program_file_names_its_puzzles_and_a_handshake_that_lacks_one_stops_the_load(
    tmp_path, isolated_home
):
    from cubebench.harness.programs.spec import ProgramSpecError
    from cubebench.harness.registry import resolve

    cube2 = fake_toml(tmp_path, "busy", extra='puzzles = ["cube2"]\n')
    assert resolve(str(cube2)).puzzles == ("cube2",)  # what the runner checks suites against
    with pytest.raises(SolverLoadError, match="program fake: solves cube3, not cube2"):
        run_program(tmp_path, cube2, _pocket_suite())
    bad = fake_toml(tmp_path, "quick", extra='puzzles = ["cube5"]\n')
    with pytest.raises(ProgramSpecError, match=r"puzzles = \['cube5'\]: give a list of cube2"):
        resolve(str(bad))


def _pocket_suite() -> str:
    from cubebench.harness.cube.puzzle import puzzle

    cube = puzzle("cube2")
    state = cube.apply(cube.solved, cube.parse_moves("R U"))
    register_user_suite("pocket", [Instance(0, "".join("URFDLB"[c] for c in state))],
                        {"puzzle": "cube2"})  # fmt: skip
    return "pocket"
