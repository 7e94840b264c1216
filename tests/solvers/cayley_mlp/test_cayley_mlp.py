"""cayley-mlp: walk labels, a short training run that learns, metric checks, shipped models."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from cubebench.harness import ArgumentError
from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.cube.moves import MOVE_INVERSE, MOVE_QTM
from cubebench.harness.registry import make_solver
from cubebench.harness.solver import Budget, SolverLoadError
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.solvers.cayley_mlp.checkpoint import CHECKPOINT_DIR, load_checkpoint, stem_for
from cubebench.solvers.cayley_mlp.train import DataConfig, train
from cubebench.solvers.common.walks import random_walks
from tests.envsettings import loop_for_tests


def test_quarter_turn_walks_never_undo_their_last_move_nor_make_half_turns():
    walks = random_walks(400, 26, np.random.default_rng(2), "qtm")
    assert (MOVE_QTM[walks] == 1).all()
    assert not (walks[:, 1:] == MOVE_INVERSE[walks[:, :-1]]).any()
    assert (walks[:, 1:] == walks[:, :-1]).any()  # U U, a half turn in two moves, occurs


@pytest.fixture(scope="module")
def tiny_qtm(tmp_path_factory):
    out = tmp_path_factory.mktemp("cayley")
    card = train(loop_for_tests(steps=30, out=str(out)), DataConfig(walks_per_batch=64), log=print)
    return out, card


def test_short_training_learns_that_deeper_walks_are_farther(tiny_qtm):
    out, card = tiny_qtm
    means = card["validation"]["mean_by_depth"]
    assert means[1] < means[5] < means[12] < means[26]
    assert card["metric"] == "qtm" and card["steps"] == 30
    _model, loaded = load_checkpoint(out, metric="qtm")
    assert loaded["steps"] == 30 and len(loaded["sha256"]) == 64


def test_a_model_of_the_other_metric_is_refused(tiny_qtm, tmp_path):
    out, _ = tiny_qtm
    with pytest.raises(SolverLoadError, match="holds a qtm model of cayley-mlp but no htm"):
        make_solver("cayley-mlp", {"checkpoint": str(out), "metric": "htm"})
    # a quarter-turn model passed off as a half-turn one: its card still says qtm
    shutil.copy(out / f"{stem_for('qtm')}.pt", tmp_path / f"{stem_for('qtm')}.pt")
    card = json.loads((out / f"{stem_for('qtm')}.json").read_text())
    (tmp_path / f"{stem_for('htm')}.json").write_text(json.dumps(card))
    with pytest.raises(SolverLoadError, match="trained for metric qtm, not htm"):
        make_solver("cayley-mlp", {"checkpoint": str(tmp_path), "metric": "htm"})
    with pytest.raises(SolverLoadError, match="ships checkpoints for htm only"):
        make_solver("cnn-faces", {"metric": "qtm"})


def test_an_ensemble_loads_every_member_and_names_a_missing_folder(tiny_qtm, tmp_path):
    out, card = tiny_qtm
    solver = make_solver("cayley-mlp", {"ensemble": f"{out}, {out}", "beam_width": 64})
    assert solver.runtime_info["ensemble_sha256"] == [card["sha256"]] * 2
    cube = facelets_to_state(load_suite("depth-03-v1").instances[0].facelets)
    attempt = solver.solve(cube, Budget(wall_seconds=None))
    assert is_solved(apply_sequence(cube, attempt.moves))
    assert len(attempt.info["start_lengths"]) == 3  # the shipped model, then both members
    missing = tmp_path / "absent"
    with pytest.raises(SolverLoadError, match=f"ensemble: '{missing}' is not a folder"):
        make_solver("cayley-mlp", {"ensemble": str(missing)})


@pytest.mark.parametrize("metric", ["qtm", "htm"])
def test_shipped_checkpoints_solve_depth_three(metric):
    if not (CHECKPOINT_DIR / f"{stem_for(metric)}.json").exists():
        pytest.skip(f"no shipped cayley-mlp {metric} checkpoint")
    solver = make_solver("cayley-mlp", {"metric": metric, "beam_width": 256})
    check_solver(solver)
    for inst in load_suite("depth-03-v1").instances[:40]:
        state = facelets_to_state(inst.facelets)
        attempt = solver.solve(state, Budget(wall_seconds=60))
        assert attempt.moves and is_solved(apply_sequence(state, attempt.moves)), inst.id
        if metric == "qtm":
            assert (MOVE_QTM[list(attempt.moves)] == 1).all()
            assert len(attempt.moves) <= 2 * inst.optimal_htm
        else:
            assert len(attempt.moves) <= 3


def test_meet_in_the_middle_finishes_the_shipped_model_optimally_by_table(isolated_home):
    if not (CHECKPOINT_DIR / f"{stem_for('qtm')}.json").exists():
        pytest.skip("no shipped cayley-mlp qtm checkpoint")
    solver = make_solver("cayley-mlp", {"beam_width": 64, "mitm_radius": 3})
    assert (isolated_home / "cache" / "oracle" / "distance-table-qtm-r3.npz").exists()
    for inst in load_suite("qdepth-06-v1").instances[:10]:
        state = facelets_to_state(inst.facelets)
        attempt = solver.solve(state, Budget(wall_seconds=60))
        assert attempt.moves and is_solved(apply_sequence(state, attempt.moves)), inst.id
        assert (MOVE_QTM[list(attempt.moves)] == 1).all()
        assert len(attempt.moves) == attempt.info["met_at_depth"] + 3 <= 6


def test_an_unknown_walk_rule_is_refused_by_name():
    with pytest.raises(ArgumentError, match="walks='spiral': one of nonbacktracking, canonical"):
        DataConfig(walks="spiral")
    assert DataConfig.for_metric("htm", "canonical").walks == "canonical"
