"""The move sets a search or a model works in: half-turn (HTM) and quarter-turn (QTM), on
any puzzle (:mod:`cubebench.harness.cube.puzzle`).

On the 3×3×3, HTM is all 18 face turns; QTM the 12 quarter turns, where a half turn is two
moves. On the 2×2×2 the sets keep only U, R and F turns (9 and 6): they never move the DBL
corner, so a cube's states stay in one orientation and a search meets each state once, and
a whole-cube rotation (free on the 2×2×2) first brings that corner home
(:meth:`MoveSet.orient`). On the 4×4×4 they are the puzzle's metric moves: the 36 face and
wide turns, or the 24 layer quarter turns. A move set keeps its moves as ids into its
puzzle's moves (so paths, notation and verification stay the puzzle's), and the pruning
that keeps a search on canonical sequences. Moves are grouped by what they turn (a face's
outer layer, its wide pair, its inner slice: three ids each); groups on one axis commute:

- HTM: never one group twice in a row, the groups of one axis in ascending order (U
  before D, on the 4×4×4 U before Uw).
- QTM: never a move followed by its inverse, one axis's groups in ascending order. A group
  may turn twice in a row (``U U`` is the half turn, two moves long).

In both, every state within k moves has a canonical sequence of at most k moves (a run on
one axis sorts by group and merges within a group), so the pruning never lengthens an
optimal solution (tested against exact oracles).

Random walks for training follow each set's own non-backtracking rule: HTM walks change
group every step; QTM walks never undo their previous move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal

import numpy as np

from .engine import children_of, is_solved, state_hash
from .moves import MOVE_QTM
from .puzzle import DEFAULT_PUZZLE, Puzzle, puzzle

Metric = Literal["htm", "qtm"]
METRICS: Final[tuple[str, ...]] = ("htm", "qtm")
_MIX: Final = np.random.default_rng(0x6375626562656E63).integers(
    1, 2**63, size=96, dtype=np.uint64
) | np.uint64(1)  # odd multipliers of a state's hash, one per sticker


@dataclass(frozen=True, eq=False)
class MoveSet:
    """One metric's moves on one puzzle. Local index ``i`` is move ``moves[i]``.

    Attributes:
        name: ``"htm"`` or ``"qtm"``.
        moves: (k,) move ids into the puzzle's moves, ascending.
        follow: (k, k) bool; ``follow[a, b]``: local move b may follow local move a in a
            canonical sequence.
        walk_next: (k, r) local moves a training walk may take after each local move.
        child_table: (S, k) gather table: ``states[child_table]`` expands a batch.
        local: (P,) local index of each of the puzzle's P moves, -1 where not in the set.
        puzzle: the puzzle's name.
    """

    name: Metric
    moves: np.ndarray
    follow: np.ndarray
    walk_next: np.ndarray
    child_table: np.ndarray
    local: np.ndarray
    puzzle: str = DEFAULT_PUZZLE

    @property
    def size(self) -> int:
        return int(self.moves.size)

    @property
    def cube(self) -> Puzzle:
        return puzzle(self.puzzle)

    def length(self, path: tuple[int, ...] | list[int]) -> int:
        """Length of a path of move ids in this set's metric."""
        if self.puzzle != DEFAULT_PUZZLE:
            return self.cube.length(path, self.name)
        return len(path) if self.name == "htm" else int(MOVE_QTM[list(path)].sum())

    def allowed_after(self, last_local: np.ndarray) -> np.ndarray:
        """(N,) previous local move (-1 for none) -> (N, k) bool of moves pruning allows."""
        allowed = self.follow[np.maximum(last_local, 0)]
        allowed[last_local < 0] = True
        return allowed

    def expand(self, states: np.ndarray) -> np.ndarray:
        """(S, N) -> (S, k N); child ``i * N + j`` is local move i applied to state j."""
        return states[self.child_table].reshape(states.shape[0], -1)

    def children(self, states: np.ndarray, parents: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """(S, N) -> (S, K): column ``k`` is move id ``moves[k]`` applied to column
        ``parents[k]``."""
        if self.puzzle == DEFAULT_PUZZLE:
            return children_of(states, parents, moves)
        tables = self.cube.tables[moves].T  # (S, K)
        return states[tables, parents[None, :]]

    def is_solved(self, states: np.ndarray) -> Any:
        """(S, N) -> (N,) bool, or (S,) -> bool: every face one colour."""
        if self.puzzle == DEFAULT_PUZZLE:
            return is_solved(states)
        if states.ndim == 1:
            return bool(self.cube.is_solved(states))
        return np.atleast_1d(self.cube.is_solved(states))

    def hash(self, states: np.ndarray) -> np.ndarray:
        """(S, N) -> (N,) uint64, equal for equal states; two different states collide with
        probability about 2**-64 (random odd multipliers per sticker, summed mod 2**64)."""
        if self.puzzle == DEFAULT_PUZZLE:
            return state_hash(states)
        with np.errstate(over="ignore"):
            return (states.astype(np.uint64) * _MIX[: states.shape[0], None]).sum(axis=0)

    @property
    def inverse(self) -> np.ndarray:
        """(P,) the id of the move that undoes each of the puzzle's moves."""
        return self.cube.inverse

    @property
    def solved_states(self) -> np.ndarray:
        """(S, R) every solved state the set's moves can end in: one on the 3×3×3 and the
        2×2×2 (whose sets keep a corner home), every orientation on the 4×4×4."""
        return _solved_states(self)

    def orient(self, state: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        """``state`` (S,) turned whole so that the stickers this set never moves are home,
        and how to read a path found from there back in the cube's own frame: (P,) the
        move id doing in the cube's frame what each move does in the turned one (None
        where no turn is needed: 3×3×3 centres, or a set that moves every sticker)."""
        fixed = _fixed_stickers(self)
        solved = self.cube.solved
        if fixed.size == 0 or np.array_equal(state[fixed], solved[fixed]):
            return None, state
        for rotation in _rotations(self.puzzle):
            turned = self.cube.apply(state, rotation)
            if np.array_equal(turned[fixed], solved[fixed]):
                return _relabelling(self.puzzle, rotation), turned
        raise ValueError(f"no {self.puzzle} rotation brings the fixed stickers home")


@cache
def _relabelling(puzzle_name: str, rotation: tuple[int, ...]) -> np.ndarray:
    """(P,) for each move m, the move equal to ``rotation``, m, then ``rotation`` undone:
    a path found after the rotation, so read, solves the cube before it (up to a turn of
    the whole cube, which leaves it solved)."""
    cube = puzzle(puzzle_name)
    undo = [int(cube.inverse[m]) for m in reversed(rotation)]
    by_table = {cube.tables[m].tobytes(): m for m in range(cube.num_moves)}
    start = np.arange(cube.num_stickers)
    out = np.array(
        [
            by_table[cube.apply(start, [*rotation, m, *undo]).tobytes()]
            for m in range(cube.num_moves)
        ]
    )
    out.setflags(write=False)
    return out


def _group_axis(cube: Puzzle, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k,) group (three ids: one face's layers, three amounts) and (k,) axis of each move."""
    group = moves // 3
    axis = np.array([int(np.flatnonzero(cube.layer_turns[m].any(axis=1))[0]) for m in moves])
    return group, axis


def _set_moves(cube: Puzzle, name: str) -> np.ndarray:
    moves = np.array(cube.metrics[name])
    if cube.size == 2:  # U, R, F only: the DBL corner stays home
        moves = moves[moves < 9]
    return moves


def _build(name: Metric, puzzle_name: str = DEFAULT_PUZZLE) -> MoveSet:
    cube = puzzle(puzzle_name)
    moves = _set_moves(cube, name)
    group, axis = _group_axis(cube, moves)
    same_group = group[:, None] == group[None, :]
    descending = (axis[:, None] == axis[None, :]) & (group[None, :] < group[:, None])
    if name == "htm":
        follow = ~(same_group | descending)
        walk_ok = ~same_group
    else:
        inverse = cube.inverse[moves][:, None] == moves[None, :]
        follow = ~(inverse | descending)
        walk_ok = ~inverse
    walk_next = np.array([np.flatnonzero(row) for row in walk_ok])
    child_table = np.ascontiguousarray(cube.tables[moves].T)
    local = np.full(cube.num_moves, -1)
    local[moves] = np.arange(moves.size)
    for array in (moves, follow, walk_next, child_table, local):
        array.setflags(write=False)
    return MoveSet(name, moves, follow, walk_next, child_table, local, puzzle_name)


@cache
def _fixed_stickers(moves: MoveSet) -> np.ndarray:
    """Stickers no move of the set moves, where the puzzle may turn whole (else none)."""
    if moves.cube.fixed_centres:
        return np.zeros(0, dtype=np.intp)
    tables = moves.cube.tables[moves.moves]  # (k, S)
    return np.flatnonzero((tables == np.arange(tables.shape[1])).all(axis=0))


@cache
def _rotations(puzzle_name: str) -> tuple[tuple[int, ...], ...]:
    """The 24 whole-cube rotations as shortest sequences of the puzzle's moves (a rotation
    about an axis: every layer turned, e.g. ``R L'`` on the 2×2×2), identity first."""
    cube = puzzle(puzzle_name)
    ids = {name: i for i, name in enumerate(cube.move_names)}
    generators = []
    for face, opposite in (("U", "D"), ("R", "L"), ("F", "B")):
        if cube.size == 2:
            generators.append((ids[face], ids[opposite + "'"]))
        else:  # 4×4×4: the wide pair and the opposite wide pair
            generators.append((ids[face + "w"], ids[opposite + "w'"]))
    start = np.arange(cube.num_stickers)
    found: dict[bytes, tuple[int, ...]] = {start.tobytes(): ()}
    frontier: list[tuple[int, ...]] = [()]
    while frontier:
        nxt = []
        for seq in frontier:
            for gen in generators:
                path = seq + gen
                state = cube.apply(start, path)
                key = state.tobytes()
                if key not in found:
                    found[key] = path
                    nxt.append(path)
        frontier = nxt
    return tuple(found[k] for k in found if k != start.tobytes())


@cache
def _solved_states(moves: MoveSet) -> np.ndarray:
    solved = moves.cube.solved
    if moves.cube.fixed_centres or _fixed_stickers(moves).size:
        return solved[:, None].copy()
    turned = [solved] + [moves.cube.apply(solved, r) for r in _rotations(moves.puzzle)]
    return np.stack(turned, axis=1)


MOVE_SETS: Final[dict[str, MoveSet]] = {name: _build(name) for name in ("htm", "qtm")}


def move_set(name: str, puzzle_name: str = DEFAULT_PUZZLE) -> MoveSet:
    """The move set named ``name`` on ``puzzle_name``; a clear error for anything but htm
    or qtm."""
    if name not in METRICS:
        raise ValueError(f"metric {name!r}: expected one of {', '.join(METRICS)}")
    if puzzle_name == DEFAULT_PUZZLE:
        return MOVE_SETS[name]
    return _puzzle_move_set(name, puzzle_name)


@cache
def _puzzle_move_set(name: Metric, puzzle_name: str) -> MoveSet:
    return _build(name, puzzle_name)
