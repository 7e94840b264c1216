"""A peer's published run imported as a run folder: replayed, judged, refused when foreign."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from cubebench.harness.cube import (
    apply_sequence,
    format_moves,
    invert_sequence,
    parse_moves,
    solved_batch,
    state_to_facelets,
)
from cubebench.harness.published import PublishedRunError, import_published
from cubebench.harness.records.store import RunStore
from cubebench.harness.suites.catalog import register_user_suite
from cubebench.harness.suites.model import Instance
from tests.harness.bench_process import bench

SCRAMBLES = ["R U F'", "L' D B", "U U R'"]
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture
def suite(isolated_home) -> str:
    instances = []
    for i, text in enumerate(SCRAMBLES):
        state = apply_sequence(solved_batch(1), parse_moves(text))[:, 0]
        instances.append(Instance(i, state_to_facelets(state), optimal_qtm=3))
    register_user_suite("tiny", instances, {"source": "test"})
    return "tiny"


def _solutions() -> list[list[str]]:
    return [format_moves(invert_sequence(parse_moves(t))).split() for t in SCRAMBLES]


def _pickle(tmp_path: Path, solutions: list, name: str = "beam_width_64.pkl") -> Path:
    path = tmp_path / name
    n = len(solutions)
    data = {"solutions": solutions, "times": [1.5] * n, "num_nodes_generated": [10] * n}
    path.write_bytes(pickle.dumps(data))
    return path


def test_an_efficientcube_run_is_replayed_and_judged(tmp_path, suite):
    solutions = _solutions()
    solutions[2] = ["U", "U"]  # legal moves that do not solve its cube: recorded wrong
    store = import_published("efficientcube", _pickle(tmp_path, solutions), suite, tmp_path)
    records = store.read_records()
    assert [r.status for r in records] == ["solved", "solved", "wrong"]
    assert records[0].entry == "efficientcube[beam_width=64]" and records[0].gap_qtm == 0
    manifest = store.read_manifest()
    origin = manifest.solvers["efficientcube[beam_width=64]"].origin
    assert origin["licence"] == "CC-BY-4.0" and len(origin["file_sha256"]) == 64
    assert "never this machine's time axis" in manifest.published["times"]


@pytest.mark.parametrize(
    ("solutions", "message"),
    [
        ([["R", "U"], ["R3"], ["U"]], "solution 1: bad move 'R3'"),
        ([["R"], ["U"]], "the suite has 3 cubes"),
    ],
)
def test_a_file_that_does_not_fit_the_suite_writes_nothing(tmp_path, suite, solutions, message):
    with pytest.raises(PublishedRunError, match=message):
        import_published("efficientcube", _pickle(tmp_path, solutions), suite, tmp_path / "out")
    assert not (tmp_path / "out").exists()


class _Hostile:
    def __reduce__(self):
        return (os.system, (f"touch {self.target}",))


def test_a_pickle_naming_a_global_is_refused_and_nothing_runs(tmp_path, suite):
    hostile = _Hostile()
    hostile.target = tmp_path / "ran"
    path = tmp_path / "beam_width_8.pkl"
    path.write_bytes(pickle.dumps({"solutions": [hostile], "times": [], "num_nodes_generated": []}))
    done = bench("runs", "import", "efficientcube", str(path), "--suite", suite, "--out",
                 str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "names posix.system" in done.stderr or "names os.system" in done.stderr
    assert not (tmp_path / "ran").exists() and not (tmp_path / "out").exists()


def test_deepcubea_output_is_lengths_only_and_marked_claimed(tmp_path, suite):
    lines = [
        f"State: {i}, SolnCost: 3.00, # Moves: 3, # Nodes Gen: 1,234, Time: 2.5" for i in range(3)
    ]
    path = tmp_path / "output.txt"
    path.write_text("\n".join([*lines, "Summary: done"]) + "\n")
    store = import_published("deepcubea-output", path, suite, tmp_path)
    records = store.read_records()
    assert {r.status for r in records} == {"claimed"} and records[0].length_qtm == 3
    assert records[0].nodes == 1234 and "not replayed" in records[0].error
    path.write_text("\n".join([*lines, lines[0].replace("State: 0", "State: 3")]) + "\n")
    with pytest.raises(PublishedRunError, match="4 states, the suite has 3"):
        import_published("deepcubea-output", path, suite, tmp_path / "more")


@pytest.mark.skipif(not (SHARED / "peers" / "published").is_dir(), reason="needs ../shared/data")
def test_the_real_published_runs_reproduce_their_figures(tmp_path, isolated_home):
    assert bench("suites", "import", "deepcubea", str(SHARED / "peers" /
                 "deepcubea-cube3-test-data_0.pkl"), "--name", "set").returncode == 0  # fmt: skip
    published = SHARED / "peers" / "published"
    expected = {  # ../shared/data/README.md: every published width, mean QTM and % optimal
        128: (25.179, 5.7), 256: (24.397, 7.3), 512: (23.791, 10.7), 1024: (23.295, 14.9),
        2048: (22.911, 18.8), 4096: (22.555, 25.8), 8192: (22.219, 33.3),
        16384: (21.971, 40.5), 32768: (21.753, 48.1), 65536: (21.553, 56.3),
        131072: (21.405, 62.7), 262144: (21.259, 69.6),
    }  # fmt: skip
    for width, (mean, optimal) in expected.items():
        path = published / "efficientcube-cube3" / f"beam_width_{width}.pkl"
        records = import_published("efficientcube", path, "set", tmp_path).read_records()
        assert len(records) == 1000 and {r.status for r in records} == {"solved"}
        assert sum(r.length_qtm for r in records) / 1000 == pytest.approx(mean, abs=5e-4)
        share = 100 * sum(r.gap_qtm == 0 for r in records) / 1000
        assert share == pytest.approx(optimal, abs=0.05)
    claimed = import_published(
        "deepcubea-output", published / "deepcubea-cube3-output.txt", "set", tmp_path
    ).read_records()
    assert sum(r.length_qtm for r in claimed) / 1000 == pytest.approx(21.349, abs=5e-4)
    assert 100 * sum(r.gap_qtm == 0 for r in claimed) / 1000 == pytest.approx(65.0, abs=0.05)
    assert RunStore(tmp_path / "published-deepcubea-published").read_manifest().published


@pytest.mark.skipif(not (SHARED / "peers" / "published").is_dir(), reason="needs ../shared/data")
def test_the_leaderboard_shows_an_imported_peer_instead_of_its_copied_figures(
    tmp_path, isolated_home
):
    from cubebench.harness.report.frame import drop_repeats, load_runs
    from cubebench.harness.report.leaderboard import leaderboard

    assert bench("suites", "import", "deepcubea", str(SHARED / "peers" /
                 "deepcubea-cube3-test-data_0.pkl"), "--name", "set").returncode == 0  # fmt: skip
    published = SHARED / "peers" / "published"
    runs = [
        import_published(
            "efficientcube",
            published / "efficientcube-cube3" / "beam_width_262144.pkl",
            "set",
            tmp_path,
        ).folder,
        import_published(
            "deepcubea-output", published / "deepcubea-cube3-output.txt", "set", tmp_path
        ).folder,
    ]
    data, loaded = load_runs(runs)
    board = leaderboard(drop_repeats(data, loaded)[0], loaded).set_index("solver")
    assert "EfficientCube, beam 2^18" not in board.index and "DeepCubeA" not in board.index
    assert board.loc["efficientcube[beam_width=262144]", "source"].startswith("verified")
    assert "not replayed" in board.loc["deepcubea-published", "source"]
    assert board.loc["deepcubea-published", "hardware"].startswith("published:")
    assert "EfficientCube, beam 2^10" in board.index  # no per-instance data given for it


# -- an import is whole or absent; claims that cannot be true are refused ----------------

from cubebench.harness.published_files import MAX_NODES  # noqa: E402
from cubebench.harness.suites.catalog import load_suite  # noqa: E402
from tests.harness.bench_process import bench_here  # noqa: E402


def _depth_solutions(limit: int | None = None) -> list[list[str]]:
    """Right answers for depth-03-v1's 1000 cubes: each scramble undone."""
    suite = load_suite("depth-03-v1")
    return [
        format_moves(invert_sequence(parse_moves(i.scramble))).split()
        for i in suite.instances[:limit]
    ]


@pytest.mark.parametrize(
    ("fault", "after"), [(KeyboardInterrupt, 555), (OSError(28, "No space left on device"), 773)]
)
def test_an_import_cut_short_leaves_no_run_and_can_be_done_again(
    tmp_path, isolated_home, monkeypatch, fault, after
):
    path = _pickle(tmp_path, _depth_solutions())
    out = tmp_path / "runs"
    real_append = RunStore.append
    calls = []

    def failing(self, record):
        calls.append(1)
        if len(calls) > after:
            raise fault
        real_append(self, record)

    monkeypatch.setattr(RunStore, "append", failing)
    with pytest.raises((KeyboardInterrupt, PublishedRunError)):
        import_published("efficientcube", path, "depth-03-v1", out)
    monkeypatch.setattr(RunStore, "append", real_append)
    assert [p.name for p in out.iterdir() if not p.name.endswith(".lock")] == []
    assert bench_here("ls", "runs", "--out", str(out)).stdout == ""
    store = import_published("efficientcube", path, "depth-03-v1", out)
    assert len(store.read_records()) == 1000


def test_a_killed_imports_leftover_is_never_listed_and_is_cleared(tmp_path, suite):
    path = _pickle(tmp_path, _solutions())
    out = tmp_path / "runs"
    # what SIGKILL leaves: a hidden folder with a manifest and part of the records
    left = out / ".published-efficientcube-beam_width-64.importing-x1y2"
    left.mkdir(parents=True)
    (left / "manifest.json").write_text("{}")
    (left / "records.jsonl").write_text('{"solver": "a"')
    assert bench_here("ls", "runs", "--out", str(out)).stdout == ""
    store = import_published("efficientcube", path, suite, out)
    assert not left.exists() and len(store.read_records()) == 3


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([0, 3, 3], "cube 0 claims 0 moves, below its proved optimum 3"),
        ([3, 2, 3], "cube 1 claims 2 moves, below its proved optimum 3"),
        ([3, 4, 3], "cube 1 claims 4 moves, which its parity rules out"),
    ],
)
def test_claims_that_cannot_be_true_are_refused(tmp_path, suite, moves, message):
    lines = [
        f"State: {i}, SolnCost: {m}.00, # Moves: {m}, # Nodes Gen: 1,234, Time: 2.5"
        for i, m in enumerate(moves)
    ]
    path = tmp_path / "output.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(PublishedRunError, match=message):
        import_published("deepcubea-output", path, suite, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_claims_with_no_optimum_are_checked_by_their_parity(tmp_path, isolated_home):
    instances = []
    for i, text in enumerate(SCRAMBLES):
        state = apply_sequence(solved_batch(1), parse_moves(text))[:, 0]
        instances.append(Instance(i, state_to_facelets(state)))  # no optimum known
    register_user_suite("bare", instances, {"source": "test"})
    path = tmp_path / "output.txt"
    path.write_text(
        "".join(
            f"State: {i}, SolnCost: 0.00, # Moves: 0, # Nodes Gen: 1, Time: 1\n" for i in range(3)
        )
    )
    with pytest.raises(PublishedRunError, match="cube 0 claims 0 moves, and it is not solved"):
        import_published("deepcubea-output", path, "bare", tmp_path / "out")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("State: 0, SolnCost: 3.00, # Moves: 3, # Nodes Gen: 1, Time: 1.2.3", "line 1: expected"),
        ("State: 0, SolnCost: 3.00, # Moves: 3, # Nodes Gen: ,,,,, Time: 1.2", "line 1: expected"),
        (f"State: 0, SolnCost: 3.00, # Moves: {'9' * 5000}, # Nodes Gen: 1, Time: 1", "expected"),
        ("State: 0, SolnCost: 3.00, # Moves: 123456, # Nodes Gen: 1, Time: 1", "over the longest"),
    ],
)
def test_damaged_deepcubea_lines_are_one_line_errors(tmp_path, suite, line, message):
    path = tmp_path / "output.txt"
    path.write_text(line + "\n")
    result = bench("runs", "import", "deepcubea-output", str(path), "--suite", suite,
                   "--out", str(tmp_path / "out"))  # fmt: skip
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr and len(result.stderr) < 400
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("times", float("nan"), "time nan is not a finite time"),
        ("times", float("inf"), "time inf is not a finite time"),
        ("times", -1.0, "time -1.0 is not a finite time"),
        ("times", True, "time True is not a number"),
        ("num_nodes_generated", -5, "node count -5 is not a whole number"),
        ("num_nodes_generated", False, "node count False is not a whole number"),
        ("num_nodes_generated", MAX_NODES + 1, "node count"),
        ("num_nodes_generated", 2.5, "node count 2.5"),
    ],
)
def test_numbers_out_of_range_refuse_the_file(tmp_path, suite, field, value, message):
    solutions = _solutions()
    data = {"solutions": solutions, "times": [1.5] * 3, "num_nodes_generated": [10] * 3}
    data[field][1] = value
    path = tmp_path / "beam_width_64.pkl"
    path.write_bytes(pickle.dumps(data))
    with pytest.raises(PublishedRunError, match=f"solution 1: {message}"):
        import_published("efficientcube", path, suite, tmp_path / "out")


def test_answers_for_other_cubes_are_refused_not_recorded_wrong(tmp_path, isolated_home):
    right = _depth_solutions()
    shifted = right[1:] + right[:1]  # the same answers, one cube off
    with pytest.raises(PublishedRunError, match="9.. of 1000 answers do not solve"):
        import_published("efficientcube", _pickle(tmp_path, shifted), "depth-03-v1", tmp_path)
    other = _depth_solutions()  # depth-03's answers onto depth-05, the same size
    with pytest.raises(PublishedRunError, match="answers do not solve their cubes"):
        import_published("efficientcube", _pickle(tmp_path, other), "depth-05-v1", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["beam_width_64.pkl"]


def test_the_move_cap_applies_to_imported_answers(tmp_path, isolated_home):
    solutions = _depth_solutions()
    solutions[0] = ["U"] * 12_024 + solutions[0] + []  # solves it, at 12,025+ moves
    solutions[1] = solutions[1] + ["U", "U'"] * 10  # 20 cancelling moves: replayed, shorter
    records = import_published(
        "efficientcube", _pickle(tmp_path, solutions), "depth-03-v1", tmp_path
    ).read_records()
    assert records[0].status == "unsolved" and records[0].moves == ""
    assert "over the longest accepted (10000)" in records[0].error
    assert records[1].status == "solved"


def test_a_pickle_of_many_small_objects_is_refused_before_it_is_built(tmp_path, suite):
    path = tmp_path / "beam_width_8.pkl"
    # protocol 4, then 8 MB of EMPTY_SET: 2 GB once built
    path.write_bytes(pickle.PROTO + bytes([4]) + pickle.EMPTY_SET * 8_000_000 + pickle.STOP)
    with pytest.raises(PublishedRunError, match="would build more than"):
        import_published("efficientcube", path, suite, tmp_path / "out")
    memo = pickle.PROTO + bytes([4]) + pickle.EMPTY_LIST + pickle.LONG_BINPUT
    path.write_bytes(memo + (2**31 - 1).to_bytes(4, "little") + pickle.STOP)
    with pytest.raises(PublishedRunError, match="memo slot"):
        import_published("efficientcube", path, suite, tmp_path / "out")


def test_claims_count_as_solved_only_where_named(tmp_path, suite):
    lines = [f"State: {i}, SolnCost: 3.00, # Moves: 3, # Nodes Gen: 9, Time: 2" for i in range(3)]
    path = tmp_path / "output.txt"
    path.write_text("\n".join(lines) + "\n")
    claimed = import_published("deepcubea-output", path, suite, tmp_path).folder
    replayed = import_published("efficientcube", _pickle(tmp_path, _solutions()), suite, tmp_path)
    args = ["compare", str(replayed.folder), str(claimed), "--base",
            "efficientcube[beam_width=64]", "--new", "deepcubea-published"]  # fmt: skip
    plain = bench_here(*args, "--fail-if", "solve_rate<-1pp")
    assert plain.returncode == 1 and "-100.0" in plain.stdout  # a claim is no solve
    trusted = bench_here(*args, "--claims", "deepcubea-published", "--fail-if", "solve_rate<-1pp")
    assert trusted.returncode == 0 and " +0.0 " in trusted.stdout, trusted.stdout
    unknown = bench_here(*args, "--claims", "deepcubea")
    assert unknown.returncode == 2 and "--claims deepcubea: no such entry" in unknown.stderr
