"""cayleypy: CayleyPy's own graph, walks, loss, predictor and beam search behind the harness.

The two engines agree move for move on random states; a short run of CayleyPy's recipe
learns; the shipped model runs through ``bench run`` (entry point, verification, records
that name the package); a user's own CayleyPy checkpoint loads, one for another graph not.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness import SolverLoadError, check_solver, make_solver, random_states
from cubebench.harness.cube import apply_move
from tests.envsettings import loop_for_tests
from tests.harness.bench_process import bench
from tests.shipped import assert_solves_first

cayleypy = pytest.importorskip("cayleypy", reason="the peers extra (cubebench[peers])")

from cubebench.solvers.cayleypy_peer.checkpoint import CHECKPOINT_DIR  # noqa: E402
from cubebench.solvers.cayleypy_peer.graph import cube_graph, peer_cube  # noqa: E402
from cubebench.solvers.cayleypy_peer.train import DataConfig, train  # noqa: E402


@pytest.mark.parametrize("metric", ["qtm", "htm"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_cayleypys_graph_and_the_harness_agree_move_for_move(metric, seed):
    graph, cube = cube_graph(metric), peer_cube(metric)
    states = random_states(4, np.random.default_rng(seed))  # (54, 4)
    peer = torch.as_tensor(cube.states_to_peer(states))
    for g in range(graph.definition.n_generators):
        theirs = graph.apply_path(peer, [g]).numpy()
        ours = cube.states_to_peer(apply_move(states, int(cube.moves[g])))
        assert (theirs == ours).all(), (metric, graph.definition.generator_names[g])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("cayleypy")
    loop = replace(loop_for_tests(steps=80, out=str(out)), lr=3e-3)
    card = train(loop, DataConfig(walks_per_batch=64, validation_walks=200), log=print)
    return out, card


def test_a_short_run_of_cayleypys_recipe_learns_that_longer_walks_are_farther(tiny):
    out, card = tiny
    means = card["validation"]["mean_by_depth"]
    assert means[1] < means[5] < means[12] < means[25]
    assert card["architecture"]["model_type"] == "RESMLP" and card["steps"] == 80
    assert card["architecture"]["graph_hash"]  # CayleyPy's hash of the graph it learnt
    # the weights load with CayleyPy alone: its ModelConfig and a bare state dict
    config = cayleypy.ModelConfig.from_dict(
        {**card["architecture"], "weights_path": str(out / "cayleypy-qtm.pt")}
    )
    model = config.load()
    assert model(torch.zeros(1, 54, dtype=torch.int64)).shape == (1,)


def test_a_users_own_cayleypy_checkpoint_loads_and_one_for_another_graph_is_refused(tiny, tmp_path):
    out, card = tiny
    model = cayleypy.ModelConfig.from_dict(
        {**card["architecture"], "weights_path": str(out / "cayleypy-qtm.pt")}
    ).load()
    config = cayleypy.ModelConfig.from_dict(card["architecture"])
    mine = tmp_path / "mine.pt"
    cayleypy.save_checkpoint(mine, model, config, cube_graph("qtm").definition)
    solver = make_solver("cayleypy", {"weights": str(mine), "beam_width": 64})
    check_solver(solver)
    assert solver.runtime_info["library"].startswith("cayleypy ")
    other = tmp_path / "htm.pt"
    cayleypy.save_checkpoint(other, model, config, cube_graph("htm").definition)
    with pytest.raises(SolverLoadError, match="trained for another graph"):
        make_solver("cayleypy", {"weights": str(other)})
    with pytest.raises(SolverLoadError, match="no such file"):
        make_solver("cayleypy", {"weights": str(tmp_path / "absent.pt")})
    foreign = tmp_path / "passwd"
    foreign.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(SolverLoadError, match="not a CayleyPy checkpoint") as caught:
        make_solver("cayleypy", {"weights": str(foreign)})
    assert len(str(caught.value).splitlines()) == 1


@pytest.mark.skipif(
    not (CHECKPOINT_DIR / "cayleypy-qtm.json").exists(), reason="no shipped cayleypy model"
)
def test_the_shipped_model_solves_depth_three_through_bench_run(tmp_path):
    assert_solves_first(make_solver("cayleypy", {"beam_width": 256}), "depth-03-v1", 20)
    done = bench(
        "run", "-s", "cayleypy", "--set", "beam_width=256", "--suite", "depth-03-v1",
        "--limit", "10", "--out", str(tmp_path), "--run-id", "peer", "--quiet", "--no-report",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "peer/records.jsonl").open()]
    assert [r["status"] for r in records] == ["solved"] * 10
    assert {r["info"]["cayleypy"] for r in records} == {"0.2.0"}
    assert all(r["metric"] == "qtm" for r in records)
    manifest = json.loads((tmp_path / "peer/manifest.json").read_text())
    assert manifest["packages"]["cayleypy"] == "0.2.0"
    pin = manifest["solvers"]["cayleypy[beam_width=256]"]  # named by the setting it changed
    assert pin["origin"]["packages"] == {"cayleypy": "0.2.0"}
    shown = bench("show", str(tmp_path / "peer"))
    assert "running cayleypy 0.2.0" in shown.stdout, shown.stdout


def test_meet_in_the_middle_finishes_through_cayleypys_ball(tiny):
    """A cube three quarter turns out meets the radius-2 ball at the first layer: even a beam
    of one state ends there, with an optimal path through the ball."""
    from cubebench.harness import SOLVED, Budget, apply_sequence, is_solved, parse_moves

    out, _ = tiny
    solver = make_solver("cayleypy", {"checkpoint": str(out), "beam_width": 1, "mitm_radius": 2})
    for scramble in ("R U F", "L' D B", "U R' F'"):
        cube = apply_sequence(SOLVED, parse_moves(scramble))
        attempt = solver.solve(cube, Budget(wall_seconds=60))
        assert len(attempt.moves) == 3 and is_solved(apply_sequence(cube, attempt.moves))


def test_in_this_projects_beam_the_same_radius_meets_this_projects_table(tiny, isolated_home):
    from cubebench.harness import SOLVED, Budget, apply_sequence, is_solved, parse_moves

    out, _ = tiny
    solver = make_solver(
        "cayleypy",
        {"checkpoint": str(out), "search": "cubebench", "beam_width": 1, "mitm_radius": 2},
    )
    assert (isolated_home / "cache" / "oracle" / "distance-table-qtm-r2.npz").exists()
    for scramble in ("R U F", "L' D B", "U R' F'"):
        cube = apply_sequence(SOLVED, parse_moves(scramble))
        attempt = solver.solve(cube, Budget(wall_seconds=60))
        assert len(attempt.moves) == 3 and is_solved(apply_sequence(cube, attempt.moves))
        assert attempt.info["met_at_depth"] == 1 and attempt.info["search"] == "cubebench"
