"""The dense table's coordinates and symmetry classes against the harness's own stickers,
and its breadth-first search against a plain one (on the table without the flip, small
enough to search both ways)."""

from __future__ import annotations

import numpy as np
import pytest

from cubebench.harness.cube import apply_move, random_states
from cubebench.harness.cube.symmetry import conjugate
from cubebench.solvers.patterns import dense, tables
from cubebench.solvers.patterns.coords import (
    N_SLICE,
    N_TWIST,
    SOLVED_SLICE,
    coordinates,
    move_tables,
)
from cubebench.solvers.patterns.flipslice import UD, UNSEEN


def _edge(states: np.ndarray) -> np.ndarray:
    c = coordinates(states, ("flip", "slice"))
    return c["flip"] * N_SLICE + c["slice"]


@pytest.fixture(scope="module")
def cubes() -> np.ndarray:
    return np.asarray(random_states(300, np.random.default_rng(11)))


def test_moves_and_symmetries_act_on_the_coordinates_as_on_the_stickers(cubes) -> None:
    c, e = dense.corners(), dense.edges()
    corner, edge = dense.corner_of(cubes), _edge(cubes)
    for m in range(18):
        assert (c.move[corner, m] == dense.corner_of(apply_move(cubes, m))).all()
    for j, k in enumerate(UD):
        image = conjugate(cubes, int(k))
        f, s = edge // N_SLICE, edge % N_SLICE
        predicted = dense.conjugate_edge(f, s, j, e.flip_conj, e.slice_conj, e.mask)
        assert (predicted == _edge(image)).all()
        assert (c.cls[dense.corner_of(image)] == c.cls[corner]).all()


def test_every_corner_value_names_its_class_and_the_symmetry_to_its_representative(
    cubes,
) -> None:
    c = dense.corners()
    assert c.reps.size == dense.N_CORNER_CLASSES  # nxopt's count
    corner = dense.corner_of(cubes)
    for x, cube in zip(corner, cubes.T, strict=True):
        k = int(UD[c.sym[x]])
        assert dense.corner_of(conjugate(cube.reshape(54, 1), k))[0] == c.reps[c.cls[x]]
        assert c.words[x] == (c.cls[x] << 4 | c.sym[x])
    fixed = c.stab[c.cls[corner]]
    assert (fixed & 1).all()  # the identity fixes every representative


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_class_search_gives_every_cube_its_plain_breadth_first_distance(metric) -> None:
    """Without the flip the table has 9,930 x 495 entries; a plain search over the 75.8
    million values of layer split x twist x slice must give every value its class entry."""
    moves = tables.metric_moves(metric).astype(np.int64)
    by_class = dense.build(moves, flips=False)
    c, mv = dense.corners(), move_tables()
    csep_move = (c.move[np.arange(dense.N_CSEP) * N_TWIST] // N_TWIST).astype(np.int32)
    plain = np.full(dense.N_CORNER * N_SLICE, UNSEEN, np.uint8)
    plain[dense.SOLVED_CSEP * N_TWIST * N_SLICE + SOLVED_SLICE] = 0
    dims = np.array((dense.N_CSEP, N_TWIST, N_SLICE), np.int64)
    depth = 0
    while (plain == UNSEEN).any():
        tables._level(plain, dims, csep_move, mv["twist"], mv["slice"], moves, depth, True)
        depth += 1
    corner = np.repeat(np.arange(dense.N_CORNER), N_SLICE)
    s = np.tile(np.arange(N_SLICE), dense.N_CORNER)
    e = dense.edge_tables(False)
    index = c.cls[corner].astype(np.int64) * N_SLICE + e.slice_conj[s, c.sym[corner]]
    assert (by_class[index] == plain).all()
    assert np.bincount(by_class)[-1] > 0  # the deepest level is reached


def test_two_bits_keep_the_distance_above_the_base() -> None:
    table = np.array([0, 5, 9, 10, 11, 12, 13, 17, 9, 10], np.uint8)
    codes = dense.unpack(dense.pack(table, "htm", base=9), table.size)
    assert list(codes) == [0, 0, 0, 1, 2, 3, 3, 3, 0, 1]
    counts = np.zeros(256, np.int64)
    counts[[8, 9, 10, 11]] = [30, 50, 300, 620]
    assert dense.choose_base(counts) == 9
