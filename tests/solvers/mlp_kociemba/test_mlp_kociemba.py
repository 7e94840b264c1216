"""mlp-kociemba: two-phase labels (every prefix), their cache, the fixed network, a short
training run, safe checkpoints, the shipped model."""

from __future__ import annotations

import json
from dataclasses import replace

import kociemba
import numpy as np
import pytest

from cubebench.harness.cube import (
    SOLVED,
    apply_moves,
    apply_sequence,
    is_solved,
    parse_moves,
    state_to_facelets,
)
from cubebench.harness.cube.moves import MOVE_FACE
from cubebench.harness.cube.symmetry import SYMMETRY_MOVES, conjugate
from cubebench.harness.registry import make_solver
from cubebench.harness.settings import SettingsError
from cubebench.harness.solver import ArgumentError
from cubebench.harness.testing import check_solver
from cubebench.solvers.common.cards import CheckpointError
from cubebench.solvers.mlp_kociemba import labels as labels_module
from cubebench.solvers.mlp_kociemba import train as train_module
from cubebench.solvers.mlp_kociemba.batches import augment, distance_strata, mixed_batch
from cubebench.solvers.mlp_kociemba.checkpoint import CHECKPOINT_DIR, STEM, load_checkpoint
from cubebench.solvers.mlp_kociemba.labels import (
    BOUND_UNTIL,
    NEAR_STREAM,
    cache_path,
    generate,
    load_or_generate,
)
from cubebench.solvers.mlp_kociemba.model import MLPConfig, build_model, encode
from cubebench.solvers.mlp_kociemba.train import DataConfig, Progress, main, train
from tests.envsettings import loop_for_tests
from tests.shipped import assert_solves_first


@pytest.fixture(scope="module")
def small_labels():
    return generate(40, seed=3, workers=1, progress=False)[0]


def test_every_prefix_label_is_the_next_move_of_a_solution_that_solves(small_labels):
    s = small_labels
    starts = np.flatnonzero(s.step == 0)
    assert 30 <= len(starts) <= 40  # a walk that comes back to solved has nothing to label
    assert len(s) > 5 * len(starts)  # prefixes multiply the labels of one call
    for begin, end in zip(starts, [*starts[1:], len(s)], strict=True):
        state = s.states[begin]
        assert s.remaining[begin] == end - begin
        assert (s.step[begin:end] == np.arange(end - begin)).all()
        for row in range(begin, end):
            assert np.array_equal(s.states[row], state)
            state = apply_moves(state[:, None], np.array([s.labels[row]]))[:, 0]
        assert is_solved(state)
    # the seed's own label is kociemba's first move on the scrambled state, asked for a route
    # no longer than the scramble when the scramble is short
    for row in starts[:10]:
        length = int(s.scramble_length[row])
        bound = length if length <= BOUND_UNTIL else 24
        solution = parse_moves(kociemba.solve(state_to_facelets(s.states[row]), max_depth=bound))
        assert s.labels[row] == solution[0]
    short = starts[s.scramble_length[starts] <= BOUND_UNTIL]
    assert len(short) > 5 and (s.remaining[short] <= s.scramble_length[short]).all()


def test_the_seeds_unbounded_labels_are_kept_as_bound_zero():
    seed_style = generate(40, seed=3, workers=1, progress=False, bound_until=0)[0]
    starts = np.flatnonzero(seed_style.step == 0)
    for row in starts[:10]:
        solution = parse_moves(kociemba.solve(state_to_facelets(seed_style.states[row])))
        assert seed_style.labels[row] == solution[0]
    # on the same scrambles the bound never lengthens a route, and shortens some
    bounded = generate(40, seed=3, workers=1, progress=False)[0]
    ours = bounded.remaining[bounded.step == 0]
    theirs = seed_style.remaining[starts]
    assert (ours <= theirs).all() and (ours < theirs).any()
    assert cache_path(40, 3, 0, 0) != cache_path(40, 3, 0)


def test_labels_are_the_same_with_any_number_of_workers_and_are_cached(
    small_labels, monkeypatch, isolated_home
):
    two = generate(40, seed=3, workers=2, progress=False)[0]
    assert np.array_equal(two.states, small_labels.states)
    assert np.array_equal(two.labels, small_labels.labels)
    other = generate(40, seed=3, stream=1, workers=1, progress=False)[0]
    assert not np.array_equal(other.labels[:20], small_labels.labels[:20])

    made = load_or_generate(40, seed=3, workers=1, log=lambda _: None)
    path = cache_path(40, 3, 0)
    assert path.is_relative_to(isolated_home)  # under the test's CUBEBENCH_HOME, not the repo
    with monkeypatch.context() as patch:
        patch.setattr(labels_module, "generate", lambda *a, **k: pytest.fail("regenerated"))
        assert np.array_equal(load_or_generate(40, seed=3, log=print).labels, made.labels)

    path.write_bytes(path.read_bytes()[:100])  # truncated: derived data, so made again
    said: list[str] = []
    again = load_or_generate(40, seed=3, workers=1, log=said.append)
    assert "unreadable" in said[0] and str(path) in said[0]
    assert np.array_equal(again.labels, made.labels)


def test_a_cached_set_under_another_bound_is_reused_and_gives_the_same_labels(monkeypatch):
    fresh = generate(150, seed=4, workers=1, progress=False)[0]
    load_or_generate(100, seed=4, workers=1, log=lambda _: None, bound_until=0)
    said: list[str] = []
    reused = load_or_generate(150, seed=4, workers=1, log=said.append)
    assert "reusing the 100 calls" in said[0]
    for field in ("states", "labels", "scramble_length", "step", "remaining"):
        assert np.array_equal(getattr(reused, field), getattr(fresh, field)), field


def test_the_near_stream_labels_short_scrambles_only_and_caches_them_apart():
    said: list[str] = []
    near = load_or_generate(60, 3, NEAR_STREAM, 1, log=said.append, max_length=6)
    starts = near.step == 0
    assert near.scramble_length.max() <= 6 and len(np.unique(near.scramble_length)) > 3
    # length-bounded: no route is longer than its scramble
    assert (near.remaining[starts] <= near.scramble_length[starts]).all()
    path = cache_path(60, 3, NEAR_STREAM, BOUND_UNTIL, 6)
    assert path.name.endswith("-len6.npz") and path.exists() and "60 kociemba calls" in said[0]
    again = load_or_generate(60, 3, NEAR_STREAM, 1, max_length=6)
    assert np.array_equal(again.states, near.states)
    with pytest.raises(ValueError, match="max_length=26"):
        generate(5, seed=3, stream=NEAR_STREAM, workers=1, progress=False, max_length=26)
    with pytest.raises(ArgumentError, match="near_length=12"):
        DataConfig(near_calls=10, near_length=12)
    with pytest.raises(ArgumentError, match="near_calls=-1"):
        DataConfig(near_calls=-1)


def test_augmented_labels_still_start_a_route_as_short_as_the_original(small_labels):
    s = small_labels
    bounded = s.scramble_length <= BOUND_UNTIL
    states, moves = augment(s.states, s.labels.astype(np.intp), bounded, "rule", [0, 3, 0])
    assert not np.array_equal(states, s.states)
    near = np.flatnonzero(s.remaining <= 6)
    for row in near[:: max(1, len(near) // 60)]:
        child = apply_moves(states[row][:, None], np.array([moves[row]]))[:, 0]
        left = int(s.remaining[row]) - 1
        if left == 0:
            assert is_solved(child)
        else:  # the image of the rest of the route solves the image of the next state
            route = kociemba.solve(state_to_facelets(child), max_depth=left)
            assert len(route.split()) <= left
    # two-phase labels only get the 16 symmetries that keep the U-D axis: a U or D turn stays
    # a U or D turn; length-bounded ones get all 48, which turn some of them into R, F, L, B
    ud_turn = np.isin(MOVE_FACE[s.labels], (0, 3))
    ud_after = np.isin(MOVE_FACE[moves], (0, 3))
    assert (ud_after[~bounded] == ud_turn[~bounded]).all()
    assert (ud_after[bounded] != ud_turn[bounded]).any()
    same = augment(s.states, s.labels.astype(np.intp), bounded, "none", [0, 3, 0])
    assert same[0] is s.states
    one = augment(s.states[:1], s.labels[:1].astype(np.intp), bounded[:1], "full", [0, 3, 0])
    assert any(np.array_equal(one[0][0], conjugate(s.states[0], k)) for k in range(48))


def test_a_mixed_batch_draws_the_asked_share_of_bounded_rows_the_same_way_each_time():
    bounded, other = np.arange(0, 10), np.arange(10, 1000)
    batch = mixed_batch(bounded, other, 0.75, 200, [0, 4, 7])
    assert batch.shape == (200,) and (batch < 10).sum() == 150
    assert np.array_equal(batch, mixed_batch(bounded, other, 0.75, 200, [0, 4, 7]))
    assert not np.array_equal(batch, mixed_batch(bounded, other, 0.75, 200, [0, 4, 8]))
    for share, named in [(1.0, "bounded_share=1.0"), (-0.1, "bounded_share=-0.1")]:
        with pytest.raises(ArgumentError, match=named):
            DataConfig(bounded_share=share)
    with pytest.raises(ArgumentError, match="needs bound_until > 0"):
        DataConfig(bounded_share=0.5, bound_until=0)


def test_a_draw_by_distance_gives_each_moves_left_value_an_equal_share():
    # every prefix of 10-move routes: 1 move left is as common as 10, so rows are uniform
    # here; make the short end dominate, as it does once 1..10-move scrambles are mixed
    remaining = np.concatenate([np.full(9000, 1), np.full(900, 2), np.full(90, 3), [4, 12]])
    rows = np.arange(len(remaining))
    strata = distance_strata(rows, remaining, top=4)
    assert sorted(strata[0].tolist()) == rows.tolist() and strata[1].tolist() == [
        0,
        9000,
        9900,
        9990,
        9992,
    ]
    other = np.arange(len(remaining), len(remaining) + 50)
    batch = mixed_batch(rows, other, 0.8, 20_000, [0, 4, 1], strata)
    drawn = np.minimum(remaining[batch[batch < len(remaining)]], 4)
    assert len(drawn) == 16_000
    assert np.allclose(np.bincount(drawn, minlength=5)[1:] / 16_000, 0.25, atol=0.02)
    assert np.isin(batch[16_000:], other).all()
    assert np.array_equal(batch, mixed_batch(rows, other, 0.8, 20_000, [0, 4, 1], strata))
    # the ramp: each moves-left value weighted by itself, 1..4 -> 1/10 .. 4/10
    ramp = distance_strata(rows, remaining, top=4, ramp=True)
    assert np.array_equal(ramp[0], strata[0]) and np.array_equal(ramp[1], strata[1])
    batch = mixed_batch(rows, other, 0.8, 20_000, [0, 4, 1], ramp)
    drawn = np.minimum(remaining[batch[batch < len(remaining)]], 4)
    shares = np.bincount(drawn, minlength=5)[1:] / 16_000
    assert np.allclose(shares, [0.1, 0.2, 0.3, 0.4], atol=0.02)
    with pytest.raises(ArgumentError, match="bounded_draw='ramp': .* bounded_share > 0"):
        DataConfig(bounded_draw="ramp")
    with pytest.raises(ArgumentError, match="bounded_draw='distance': .* bounded_share > 0"):
        DataConfig(bounded_draw="distance")
    with pytest.raises(ArgumentError, match="bounded_draw='depth'"):
        DataConfig(bounded_share=0.5, bounded_draw="depth")


def test_a_mix_without_two_phase_rows_is_refused_before_a_model_is_built(tmp_path, monkeypatch):
    import cubebench.solvers.mlp_kociemba.train as train_module

    def short_only(count, seed, stream, workers, log, bound_until, max_length=10):
        return load_or_generate(count, seed, stream, workers, log, bound_until, 10)

    monkeypatch.setattr(train_module, "load_or_generate", short_only)
    monkeypatch.setattr(train_module, "build_model", lambda _: pytest.fail("model built"))
    data = DataConfig(calls=20, validation_calls=5, workers=1, bounded_share=0.5)
    with pytest.raises(ArgumentError, match=r"bounded_share=0.5: .* 0 two-phase rows"):
        train(loop_for_tests(steps=5, out=str(tmp_path / "run")), data, log=lambda _: None)
    assert not (tmp_path / "run").exists()


def test_the_network_is_the_seeds_body_with_an_18_way_head():
    states = np.random.default_rng(0).integers(0, 6, size=(5, 54)).astype(np.uint8)
    onehot, integer = MLPConfig(encoding="onehot"), MLPConfig(encoding="integer")
    # 2048-512-128 as the seed, then 18 logits instead of its 32-unit relu
    assert build_model(integer).count_params() == 1_229_714
    assert build_model(onehot).count_params() == 1_782_674
    assert build_model(onehot)(encode(states, "onehot")).shape == (5, 18)
    assert encode(states, "onehot").reshape(5, 54, 6).argmax(-1).tolist() == states.tolist()
    with pytest.raises(ValueError, match="encoding='bits'"):
        MLPConfig(encoding="bits")


@pytest.mark.parametrize(
    ("encoding", "share", "draw"),
    [("onehot", 0.0, "rows"), ("integer", 0.5, "distance"), ("onehot", 0.5, "ramp")],
)
def test_short_training_learns_the_last_move_and_the_checkpoint_is_safe(
    tmp_path, encoding, share, draw
):
    card = train(
        loop_for_tests(steps=150, out=str(tmp_path)),
        DataConfig(
            calls=200,
            validation_calls=60,
            batch_size=256,
            workers=1,
            bounded_share=share,
            near_calls=100 if share else 0,
            bounded_draw=draw,
        ),
        MLPConfig(encoding=encoding),
        log=lambda _: None,
    )
    # one move from solved the two-phase label is the undoing move: chance is 1/18
    assert card["validation"]["accuracy_by_moves_remaining"][1] > 0.5
    assert card["architecture"]["encoding"] == encoding and card["steps"] == 150
    assert ("plus 100 scrambles of <= 10 moves" in card["label"]) == bool(share)
    assert ("drawn by moves left" in card["label"]) == (draw != "rows")
    assert ("weighted by it" in card["label"]) == (draw == "ramp")
    assert card["data"]["bounded_draw"] == draw
    model, loaded = load_checkpoint(tmp_path)
    assert loaded["sha256"] == card["sha256"]
    assert model.layers[-1].units == 18
    data = bytearray((tmp_path / f"{STEM}.keras").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (tmp_path / f"{STEM}.keras").write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupt or replaced"):
        load_checkpoint(tmp_path)


def test_training_repeats_under_its_seed_and_a_resumed_run_ends_where_an_unbroken_one_does(
    tmp_path, monkeypatch
):
    """Every batch, its symmetry draw and the learning rate follow from the seed and the step,
    and the state file carries the optimizer: a run stopped halfway and resumed (what
    ``bench train`` does without ``--fresh``) ends with the weights of one never stopped."""
    import keras

    data = DataConfig(calls=120, validation_calls=30, batch_size=128, workers=1)
    lines: list[str] = []

    def run(out, *, resume=False) -> list[np.ndarray]:
        """The weights of the run's last state (the shipped file is the best, not the last)."""
        loop = replace(loop_for_tests(steps=40, out=str(out)), eval_every_steps=20, resume=resume)
        train(loop, data, MLPConfig(), log=lines.append)
        state = keras.models.load_model(out / f"{STEM}.train-state.keras", safe_mode=True)
        return state.get_weights()

    unbroken = run(tmp_path / "a")
    again = run(tmp_path / "b")

    class StopsHalfway(Progress):  # as if the session ended after the step-20 validation
        def running(self) -> bool:
            return super().running() and self.step < 20

    def step_of(out) -> int:
        return json.loads((out / f"{STEM}.train-state.json").read_text())["step"]

    monkeypatch.setattr(train_module, "Progress", StopsHalfway)
    halfway = run(tmp_path / "c")
    assert step_of(tmp_path / "c") == 20
    monkeypatch.undo()
    lines.clear()
    resumed = run(tmp_path / "c", resume=True)
    assert step_of(tmp_path / "c") == 40
    assert any(line.startswith("resumed at step 20") for line in lines), lines
    assert not np.array_equal(halfway[0], resumed[0])  # it trained on, not restarted
    for a, b, c in zip(unbroken, again, resumed, strict=True):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)


@pytest.mark.parametrize("flag", ["--calls", "--patience", "--batch-size"])
def test_the_command_line_refuses_a_bad_count_before_any_work(flag, tmp_path, monkeypatch):
    monkeypatch.setattr(labels_module, "generate", lambda *a, **k: pytest.fail("worked"))
    with pytest.raises(ArgumentError, match=f"{flag[2:].replace('-', '_')}=0"):
        main([flag, "0", "--out", str(tmp_path), "--steps", "1"])
    with pytest.raises(ArgumentError, match="symmetries='mirror'"):
        DataConfig(symmetries="mirror")


@pytest.mark.parametrize(
    ("args", "named"),
    [(["--count", "0"], "--count 0"), (["--count", "5", "--bound-until", "13"], "bound_until=13")],
)
def test_the_label_command_refuses_bad_values_in_one_line(args, named, monkeypatch, capsys):
    monkeypatch.setattr(labels_module, "generate", lambda *a, **k: pytest.fail("worked"))
    with pytest.raises(SystemExit) as stopped:
        labels_module.main(args)
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err.strip().splitlines()[-1]


SHIPPED = (CHECKPOINT_DIR / f"{STEM}.keras").exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="no shipped mlp-kociemba checkpoint")


@needs_checkpoint
def test_shipped_checkpoint_passes_conformance():
    check_solver(make_solver("mlp-kociemba", {"search": "beam", "beam_width": 64}))


@needs_checkpoint
@pytest.mark.parametrize(
    ("search", "symmetries"), [("greedy", "none"), ("beam", "none"), ("greedy", "full")]
)
def test_shipped_checkpoint_solves_depth_three(search, symmetries):
    solver = make_solver(
        "mlp-kociemba", {"search": search, "beam_width": 64, "symmetries": symmetries}
    )
    assert_solves_first(solver, "depth-03-v1", 100)


@needs_checkpoint
def test_the_symmetry_averaged_policy_treats_every_image_of_a_cube_alike():
    rng = np.random.default_rng(7)
    state = apply_sequence(SOLVED, rng.integers(0, 18, 12).tolist())
    plain = make_solver("mlp-kociemba", {"symmetries": "none"})
    averaged = make_solver("mlp-kociemba", {"symmetries": "full"})
    base = averaged.policy(state[:, None])[0]
    for k in (5, 17, 40):
        image = averaged.policy(conjugate(state, k)[:, None])[0]
        assert np.allclose(image[SYMMETRY_MOVES[k]], base, atol=1e-4)
    # the plain network is not equivariant: that is what averaging buys
    moved = plain.policy(conjugate(state, 5)[:, None])[0][SYMMETRY_MOVES[5]]
    assert not np.allclose(moved, plain.policy(state[:, None])[0], atol=1e-4)
    # auto: averaged for greedy (a few states a cube), plain for a beam of thousands
    assert make_solver("mlp-kociemba", {}).runtime_info["symmetries"] == "full"
    assert make_solver("mlp-kociemba", {"search": "beam"}).runtime_info["symmetries"] == "none"
    with pytest.raises(SettingsError, match="symmetries"):
        make_solver("mlp-kociemba", {"symmetries": "mirror"})
