"""seq2seq-transformer: training pairs, the model's causality, a short run that learns, and
the three ways to solve, each answer checked on the engine."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
import torch

from cubebench.harness.cube import MOVE_INVERSE, apply_sequence, facelets_to_state, is_solved
from cubebench.harness.cube.moves import MOVE_QTM
from cubebench.harness.cube.movesets import move_set
from cubebench.harness.registry import make_solver
from cubebench.harness.solver import Budget
from cubebench.harness.suites.catalog import load_suite
from cubebench.harness.testing import check_solver
from cubebench.solvers.seq2seq_transformer.checkpoint import CHECKPOINT_DIR, stem_for
from cubebench.solvers.seq2seq_transformer.data import draw_lengths, pairs
from cubebench.solvers.seq2seq_transformer.model import (
    EOS,
    PAD,
    SOS,
    ModelConfig,
    Seq2SeqTransformer,
)
from cubebench.solvers.seq2seq_transformer.train import DataConfig, make_task, packed, train
from tests.envsettings import loop_for_tests
from tests.shipped import assert_solves_first


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_pairs_are_cubes_and_the_moves_that_undo_their_scramble(metric):
    states, seq, lengths = pairs(300, 20, np.random.default_rng(3), metric)
    moves = move_set(metric)
    assert set(lengths.tolist()) <= set(range(1, 21)) and seq.shape == (300, 22)
    for j in range(300):
        solution = [int(moves.moves[t - 3]) for t in seq[j, 1 : lengths[j] + 1]]
        assert seq[j, 0] == SOS and seq[j, lengths[j] + 1] == EOS
        assert (seq[j, lengths[j] + 2 :] == PAD).all()
        assert is_solved(apply_sequence(states[:, j], solution))
        # no label undoes its previous move (the seed's scrambles did)
        assert all(b != MOVE_INVERSE[a] for a, b in pairwise(solution))
        if metric == "qtm":
            assert (MOVE_QTM[solution] == 1).all()


def test_the_decoder_never_looks_ahead():
    model = Seq2SeqTransformer(ModelConfig(d_model=32, encoder_layers=1, decoder_layers=2)).eval()
    states, seq, _ = pairs(4, 20, np.random.default_rng(0))
    x, _ = packed(states, seq)
    changed = x.clone()
    changed[:, 54 + 5 :] = 7  # every decoder token from position 5 on
    with torch.no_grad():
        a, b = model(x), model(changed)
    assert a.shape == (4, 21, 21)
    assert torch.allclose(a[:, :5], b[:, :5], atol=1e-5) and not torch.allclose(a[:, 5:], b[:, 5:])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("seq2seq")
    config = ModelConfig(d_model=32, encoder_layers=2, decoder_layers=1, dropout=0.0, max_moves=2)
    card = train(
        loop_for_tests(steps=300, out=str(out)),
        DataConfig(batch_size=128, validation_pairs=400),
        config,
        log=print,
    )
    return out, card


def test_a_short_run_learns_depth_one_far_above_chance(tiny):
    out, card = tiny
    assert card["steps"] == 300 and card["architecture"]["max_moves"] == 2
    # 18 moves: chance is 1/18 per token
    assert card["validation"]["sequence_accuracy_by_length"][1] > 0.5
    cubes = [facelets_to_state(i.facelets) for i in load_suite("depth-01-v1").instances[:18]]
    for search in ("decode-greedy", "decode-beam", "beam"):
        solver = make_solver(
            "seq2seq-transformer",
            {
                "checkpoint": str(out),
                "metric": "htm",
                "search": search,
                "beam_width": 8,
                "precision": "fp32",
            },
        )
        solved = 0
        for cube in cubes:
            attempt = solver.solve(cube, Budget(wall_seconds=30))
            if attempt.moves:  # an answer is always one that solves: checked on the engine
                assert is_solved(apply_sequence(cube, attempt.moves))
                solved += 1
        assert solved >= 9, (search, solved)


def test_greedy_decoding_stops_where_the_model_says_end(tiny):
    out, _ = tiny
    solver = make_solver(
        "seq2seq-transformer", {"checkpoint": str(out), "metric": "htm", "precision": "fp32"}
    )
    with torch.no_grad():  # make EOS win every step
        solver.model.head.bias[EOS] = 1e4
    cube = facelets_to_state(load_suite("depth-01-v1").instances[0].facelets)
    attempt = solver.solve(cube, Budget(wall_seconds=30))
    assert attempt.moves == () and attempt.info["gave_up"] == "EOS before solved"
    beam = make_solver(
        "seq2seq-transformer",
        {
            "checkpoint": str(out),
            "metric": "htm",
            "search": "decode-beam",
            "beam_width": 18,
            "precision": "fp32",
        },
    )
    with torch.no_grad():
        beam.model.head.bias[EOS] = 1e4
    assert len(beam.solve(cube, Budget(wall_seconds=30)).moves) == 1  # EOS candidates dropped


def test_shipped_checkpoint_solves_depth_three():
    if not (CHECKPOINT_DIR / f"{stem_for('htm')}.json").exists():
        pytest.skip("no shipped seq2seq-transformer checkpoint")
    # the policy beam: greedy decoding writes back 76% of depth-3 scrambles, beam decoding
    # 99.7% (README); the decoder's first move as a policy solves all of them
    solver = make_solver(
        "seq2seq-transformer", {"metric": "htm", "search": "beam", "beam_width": 64}
    )
    check_solver(solver)
    assert_solves_first(solver, "depth-03-v1", 100)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@pytest.mark.parametrize("scramble", ["uniform", "canonical"])
def test_every_kind_of_scramble_gives_pairs_whose_label_solves_the_cube(metric, scramble):
    rng = np.random.default_rng(5)
    lengths = draw_lengths(400, rng, 2, 6, "linear")
    assert set(lengths.tolist()) == {2, 3, 4, 5, 6}
    assert (lengths == 6).sum() > (lengths == 2).sum() * 2  # weighted to the long ones
    states, seq, out_lengths = pairs(400, 8, rng, metric, scramble, lengths)
    moves = move_set(metric)
    assert (out_lengths == lengths).all()
    undoes = 0
    for j in range(400):
        solution = [int(moves.moves[t - 3]) for t in seq[j, 1 : lengths[j] + 1]]
        assert is_solved(apply_sequence(states[:, j], solution))
        undoes += any(b == MOVE_INVERSE[a] for a, b in pairwise(solution))
    # the seed's uniform moves cancel now and then; canonical sequences never do
    assert (undoes > 0) if scramble == "uniform" else (undoes == 0)


def test_a_trimmed_batch_is_padded_only_to_its_longest_label():
    data = DataConfig(metric="qtm", scramble="canonical", max_length=5, trim=True)
    task = make_task(data, ModelConfig(metric="qtm", d_model=16, encoder_layers=1), "cpu", 0)
    x, y = task.make_batch(np.random.default_rng(0))
    assert x.shape == (128, 54 + 6) and y.shape == (128, 6)  # SOS + 5 moves, 5 moves + EOS


def test_the_shipped_quarter_turn_model_decodes_qdepth_three_greedily():
    if not (CHECKPOINT_DIR / f"{stem_for('qtm')}.json").exists():
        pytest.skip("no shipped quarter-turn seq2seq-transformer checkpoint")
    # the seed's own decoding, in the seed's own metric: at least 90% of all 1000 cubes
    solver = make_solver("seq2seq-transformer", {"metric": "qtm", "search": "decode-greedy"})
    solved = 0
    for inst in load_suite("qdepth-03-v1").instances:
        state = facelets_to_state(inst.facelets)
        moves = solver.solve(state, Budget(wall_seconds=30)).moves
        solved += bool(moves) and is_solved(apply_sequence(state, moves))
    assert solved >= 900, solved
