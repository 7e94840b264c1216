"""Deriving a peer's sticker and move mapping: found for a relabelled copy of our own cube,
refused for a definition that is not a cube, and the missing-package line."""

from __future__ import annotations

import numpy as np
import pytest

from cubebench.harness import MOVE_INVERSE, MOVE_TABLES, SOLVED, SolverLoadError, apply_sequence
from cubebench.solvers.common.peer_cube import derive_peer_cube, direction_options
from cubebench.solvers.common.peers import import_peer


def _relabelled(perm: np.ndarray, colours: str):
    """Our own cube with stickers renumbered by ``perm`` and colours named in ``colours``
    order, every quarter turn written the other way round: a peer we know the answer for."""
    inverse = np.argsort(perm)
    flip = MOVE_INVERSE  # the peer's "U" is our U'
    tables = np.array([inverse[MOVE_TABLES[flip[m]]][perm] for m in range(18)])
    solved = np.array([colours.index("URFDLB"[c]) for c in SOLVED])[perm]
    return tables, solved


def test_a_relabelled_copy_of_our_cube_is_mapped_back():
    rng = np.random.default_rng(3)
    perm = rng.permutation(54)
    tables, solved = _relabelled(perm, "DBLURF")
    names = [(f, q) for f in "URFDLB" for q in (1, 2, 3)]
    cube = derive_peer_cube(tables, solved, direction_options(names, "DBLURF"))
    assert list(cube.moves) == [int(MOVE_INVERSE[m]) for m in range(18)]
    # any state converts, and a peer move on the converted state is our move
    state = apply_sequence(SOLVED, list(rng.integers(0, 18, 25)))
    peer = cube.states_to_peer(state[:, None])[0]
    for g in range(18):
        ours = apply_sequence(state, [int(cube.moves[g])])
        assert (peer[tables[g]] == cube.states_to_peer(ours[:, None])[0]).all()


def test_a_definition_that_is_not_our_cube_is_refused():
    tables = np.array([np.roll(np.arange(54), 1)] * 18)
    with pytest.raises(ValueError, match="no mapping of the peer's 18 generators"):
        derive_peer_cube(
            tables,
            np.repeat(np.arange(6), 9),
            direction_options([(f, q) for f in "URFDLB" for q in (1, 2, 3)], "URFDLB"),
        )


def test_a_missing_peer_package_names_the_extra():
    line = r"needs the no_such_peer package.*cubebench\[peers\]"
    with pytest.raises(SolverLoadError, match=line):
        import_peer("no_such_peer", "some-solver")
