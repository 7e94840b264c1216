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
    assert records[0].solver == "efficientcube[beam_width=64]" and records[0].gap_qtm == 0
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
