"""The puzzle as a value: every size's moves against magiccube, the move algebra, lengths."""

from __future__ import annotations

import magiccube
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness.cube import MOVE_NAMES, MOVE_TABLES, NotationError, length_htm, length_qtm
from cubebench.harness.cube.puzzle import PUZZLES, PuzzleError, puzzle

SIZES = {"cube2": 2, "cube3": 3, "cube4": 4}


def _magiccube_facelets(n: int, names: list[str]) -> str:
    cube = magiccube.Cube(n)
    if names:
        cube.rotate(" ".join(names))
    return cube.get_kociemba_facelet_positions()


@pytest.mark.parametrize("name", PUZZLES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_sequence_gives_the_state_magiccube_gives(name, data):
    cube = puzzle(name)
    moves = data.draw(st.lists(st.integers(0, cube.num_moves - 1), max_size=25))
    mine = "".join("URFDLB"[c] for c in cube.apply(cube.solved, moves))
    assert mine == _magiccube_facelets(cube.size, [cube.move_names[m] for m in moves])


def test_the_3x3x3_is_the_engines_cube():
    cube = puzzle("cube3")
    assert cube.move_names == MOVE_NAMES
    assert np.array_equal(cube.tables, MOVE_TABLES)


@pytest.mark.parametrize("name", PUZZLES)
def test_every_move_has_order_four_or_two_and_its_inverse_undoes_it(name):
    cube = puzzle(name)
    identity = np.arange(cube.num_stickers)
    for move, table in enumerate(cube.tables):
        assert np.array_equal(table[cube.tables[cube.inverse[move]]], identity)
        order = 2 if cube.move_names[move].endswith("2") else 4
        power = identity
        for k in range(1, order + 1):
            power = power[table]
            assert np.array_equal(power, identity) == (k == order), (cube.move_names[move], k)


@pytest.mark.parametrize("name", PUZZLES)
def test_turns_commute_exactly_when_they_share_an_axis(name):
    cube = puzzle(name)
    axis = cube.layer_turns.any(axis=2).argmax(axis=1)  # (moves,)
    for a in range(0, cube.num_moves, 3):
        for b in range(0, cube.num_moves, 3):
            ab, ba = cube.tables[a][cube.tables[b]], cube.tables[b][cube.tables[a]]
            assert np.array_equal(ab, ba) == (axis[a] == axis[b]), (a, b)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 17), max_size=20))
def test_the_3x3x3s_lengths_are_the_engines(moves):
    cube = puzzle("cube3")
    assert cube.length(moves, "htm") == length_htm(moves)
    assert cube.length(moves, "qtm") == length_qtm(moves)


@pytest.mark.parametrize(
    ("name", "text", "htm", "qtm"),
    [
        ("cube2", "R L'", 0, 0),  # a cube rotation costs nothing
        ("cube2", "U D' R", 1, 1),
        ("cube2", "U U2", 1, 1),
        ("cube2", "R2 U2 R2", 3, 6),
        ("cube4", "Rw R'", 2, 1),  # the inner slice 2R
        ("cube4", "2R", 2, 1),
        ("cube4", "Rw", 1, 2),
        ("cube4", "Rw2", 1, 4),
        ("cube4", "Uw Dw'", 0, 0),
        ("cube4", "R 2R 2L L'", 2, 2),  # a rotation then a half turn of the layer 2L
        ("cube4", "U R U'", 3, 3),
    ],
)
def test_lengths_merge_one_axis_and_count_rotations_as_nothing(name, text, htm, qtm):
    cube = puzzle(name)
    moves = cube.parse_moves(text)
    assert (cube.length(moves, "htm"), cube.length(moves, "qtm")) == (htm, qtm)


@pytest.mark.parametrize("name", ["cube2", "cube4"])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_length_is_never_more_than_the_moves_metric_lengths(name, data):
    cube = puzzle(name)
    moves = data.draw(st.lists(st.sampled_from(cube.metrics["htm"]), max_size=15))
    assert cube.length(moves, "htm") <= len(moves)
    assert cube.length(moves + [cube.inverse[m] for m in reversed(moves)], "htm") == 0


def test_4x4x4_metrics_are_the_face_and_wide_turns_and_the_24_layer_quarter_turns():
    cube = puzzle("cube4")
    htm = [cube.move_names[m] for m in cube.metrics["htm"]]
    qtm = [cube.move_names[m] for m in cube.metrics["qtm"]]
    assert len(htm) == 36 and {"R", "Rw2", "Bw'"} <= set(htm) and "2R" not in htm
    assert len(qtm) == 24 and {"R", "R'", "2R", "2B'"} <= set(qtm) and "Rw" not in qtm


def test_bad_moves_and_puzzles_are_named():
    with pytest.raises(NotationError, match=r"'Rw' at position 2"):
        puzzle("cube3").parse_moves("R Rw")
    with pytest.raises(PuzzleError, match=r"puzzle 'cube5'.*cube4"):
        puzzle("cube5")
    assert puzzle("cube4").parse_moves("Rw2' 2U’") == puzzle("cube4").parse_moves("Rw2 2U'")


@pytest.mark.parametrize("name", ["cube2", "cube4"])
def test_solved_means_every_face_one_colour_in_any_orientation(name):
    cube = puzzle(name)
    rotation = cube.parse_moves("R L'" if name == "cube2" else "R 2R 2L' L'")
    assert cube.is_solved(cube.apply(cube.solved, rotation))
    assert not cube.is_solved(cube.apply(cube.solved, cube.parse_moves("R")))
