"""Another library's cube as this harness's: which sticker is which, and which move is which.

A peer library (CayleyPy, AlphaCube) numbers its stickers, colours and moves its own way.
Rather than type a sticker table in by hand, the mapping is *derived* from the peer's own
move permutations: for each candidate (a choice of turning direction per face or axis, and
on a cube without fixed centres a whole-cube rotation), random move sequences are played in
both engines, and every peer sticker is matched to the harness sticker that shows the same
colour after every sequence. Exactly one candidate gives a one-to-one match; it is the
mapping, and the interop tests then check both engines agree move for move on random states.

The rotation matters on the 2×2×2: CayleyPy's ``fixed`` graphs turn F, L and D and keep the
UBR corner home, the harness's move set turns U, R and F and keeps DBL home; a rotation
(with the colours renamed to match) makes the two one puzzle, so a cube turned with its DBL
corner home (:meth:`~cubebench.harness.MoveSet.orient`) converts to a peer state its own
graph solves, and the peer's path comes back in the harness's moves.

Conventions: a *gather table* ``t`` applies a move as ``new = old[t]`` (the harness's, and
CayleyPy's and AlphaCube's too once written that way); harness states are sticker-major
``(S, N)`` colour ids in ``FACES`` order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...harness import FACES, puzzle

Candidate = tuple[np.ndarray, str]
"""(G,) the harness move id of each peer generator, and the face letter of each peer colour."""


@dataclass(frozen=True)
class PeerCube:
    """How a peer's cube maps onto the harness's.

    ``moves[g]`` is the harness move id of peer generator ``g``; ``to_peer[p]`` the harness
    sticker shown at peer sticker ``p``; ``colour_to_peer[c]`` the peer's colour id of
    harness colour ``c``.
    """

    moves: np.ndarray  # (G,) int64
    to_peer: np.ndarray  # (S,) intp
    colour_to_peer: np.ndarray  # (6,) uint8

    def states_to_peer(self, states: np.ndarray) -> np.ndarray:
        """(S, N) harness states -> (N, S) peer colour ids (int64, the peers' dtype)."""
        return self.colour_to_peer[states[self.to_peer]].T.astype(np.int64)

    def peer_moves(self, generators: Sequence[int]) -> list[int]:
        """Peer generator ids -> harness move ids."""
        return [int(self.moves[g]) for g in generators]


def _play(tables: np.ndarray, start: np.ndarray, sequences: np.ndarray) -> np.ndarray:
    """Apply ``sequences`` (K, L) of gather tables ``tables`` (G, S) to ``start`` (S,):
    (S, K) final states, one column per sequence."""
    states = np.repeat(start[:, None], sequences.shape[0], axis=1)
    for step in range(sequences.shape[1]):
        moved = tables[sequences[:, step]]  # (K, 54)
        states = np.take_along_axis(states, moved.T, axis=0)
    return states


def derive_peer_cube(
    peer_tables: np.ndarray,
    peer_solved: np.ndarray,
    candidates: Sequence[Candidate],
    *,
    puzzle_name: str = "cube3",
    sequences: int = 48,
    length: int = 30,
    seed: int = 0,
) -> PeerCube:
    """The mapping from the peer's move tables and solved state.

    Args:
        peer_tables: (G, S) gather tables of the peer's generators.
        peer_solved: (S,) the peer's solved state (its colour ids).
        candidates: the alternatives (:func:`direction_options`, :func:`layer_options`).
        puzzle_name: the harness puzzle the peer's cube is.

    Raises:
        ValueError: when no candidate makes the two engines agree, naming the peer's
            generator count, so a changed peer library fails loudly, never silently.
    """
    cube = puzzle(puzzle_name)
    peer_tables = np.asarray(peer_tables, dtype=np.intp)
    peer_solved = np.asarray(peer_solved, dtype=np.int64)
    rng = np.random.default_rng(seed)
    played = rng.integers(0, len(peer_tables), size=(sequences, length))
    peer_states = _play(peer_tables, peer_solved, played)  # (S, K)
    peer_keys = {row.tobytes(): p for p, row in enumerate(peer_states)}
    ours_by_moves: dict[bytes, np.ndarray] = {}
    for choice, colour_faces in candidates:
        moves = np.asarray(choice, dtype=np.int64)
        colour_to_peer = np.array([colour_faces.index(f) for f in FACES], dtype=np.uint8)
        key = moves.tobytes()
        if key not in ours_by_moves:
            ours_by_moves[key] = _play(cube.tables, cube.solved, moves[played])
        translated = colour_to_peer[ours_by_moves[key]].astype(np.int64)  # (S, K) peer ids
        to_peer = np.full(cube.num_stickers, -1, dtype=np.intp)
        for h, row in enumerate(translated):
            p = peer_keys.get(row.tobytes())
            if p is None or to_peer[p] != -1:
                break
            to_peer[p] = h
        else:
            solved_agree = (colour_to_peer[cube.solved[to_peer]] == peer_solved).all()
            if (to_peer >= 0).all() and solved_agree:
                return PeerCube(moves, to_peer, colour_to_peer)
    raise ValueError(
        f"no mapping of the peer's {len(peer_tables)} generators onto the harness's "
        f"{puzzle_name} moves makes both engines agree: the peer's cube definition is not the "
        "one this adapter knows"
    )


def direction_options(face_moves: Sequence[tuple[str, int]], colour_faces: str) -> list[Candidate]:
    """The alternatives for 3×3×3 generators named by face and clockwise quarter turns (1, 2
    or 3): whether a library's "clockwise" is the harness's is unknown until tried, so each
    face's quarter turns may all be reversed together (2**faces alternatives); half turns are
    fixed. ``colour_faces``: the face letter of each peer colour id."""
    names = puzzle("cube3").move_names
    named = [names.index(f + _SUFFIX[q]) for f, q in face_moves]
    inverse = puzzle("cube3").inverse
    faces = sorted({f for f, _ in face_moves})
    options: list[Candidate] = []
    for flips in itertools.product((False, True), repeat=len(faces)):
        flipped = {f for f, flip in zip(faces, flips, strict=True) if flip}
        moves = [
            int(inverse[m]) if f in flipped else m
            for m, (f, _) in zip(named, face_moves, strict=True)
        ]
        options.append((np.array(moves, dtype=np.int64), colour_faces))
    return options


_SUFFIX: dict[int, str] = {1: "", 2: "2", 3: "'"}
_OPPOSITE: dict[str, str] = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
_QUARTER_ROTATIONS: tuple[dict[str, str], ...] = (
    {"U": "U", "D": "D", "F": "L", "L": "B", "B": "R", "R": "F"},  # y: the whole cube as U
    {"R": "R", "L": "L", "F": "U", "U": "B", "B": "D", "D": "F"},  # x: as R
    {"F": "F", "B": "B", "U": "R", "R": "D", "D": "L", "L": "U"},  # z: as F
)


def _rotations() -> list[dict[str, str]]:
    """The 24 whole-cube rotations as maps from the face a sticker is on to the face it
    goes to (identity first): the closure of the quarter rotations about three axes."""
    identity = {f: f for f in FACES}
    found = [identity]
    frontier = [identity]
    while frontier:
        nxt = []
        for rotation in frontier:
            for quarter in _QUARTER_ROTATIONS:
                composed = {f: quarter[rotation[f]] for f in FACES}
                if composed not in found:
                    found.append(composed)
                    nxt.append(composed)
        frontier = nxt
    return found


def layer_options(
    layer_moves: Sequence[tuple[str, int, int]],
    colour_faces: str,
    puzzle_name: str,
    *,
    rotate: bool = False,
    any_side: bool = False,
    within: Sequence[int] | None = None,
) -> list[Candidate]:
    """The alternatives for generators that turn one layer each, named as CayleyPy names
    them: ``(face, depth, quarters)`` turns the layer ``depth`` layers in from ``face``
    (0: the face itself) by ``quarters`` (1, 2, 3) in the sense of turning ``face``, every
    layer of an axis in the same sense. Whether that sense is the harness's clockwise is
    tried per axis (8 alternatives); with ``any_side``, whether the depth counts from the
    named face or the opposite one too (for names typed in by hand); with ``rotate``, under
    each of the 24 whole-cube rotations, the colours renamed with it. Only alternatives
    whose moves all lie in ``within`` are kept (the harness move set the converted states
    are searched in)."""
    cube = puzzle(puzzle_name)
    ids = {name: i for i, name in enumerate(cube.move_names)}
    axes = sorted({_axis_of(face) for face, _, _ in layer_moves})
    allowed = None if within is None else set(within)
    options: list[Candidate] = []
    for rotation in _rotations() if rotate else [{f: f for f in FACES}]:
        colours = "".join(rotation[f] for f in colour_faces)
        for flips in itertools.product((False, True), repeat=len(axes)):
            for sides in itertools.product(
                (False, True) if any_side else (False,), repeat=len(axes)
            ):
                flipped = {a for a, flip in zip(axes, flips, strict=True) if flip}
                mirrored = {a for a, side in zip(axes, sides, strict=True) if side}
                moves = []
                for face, depth, quarters in layer_moves:
                    axis = _axis_of(face)
                    turn = 4 - quarters if axis in flipped else quarters
                    layer = cube.size - 1 - depth if axis in mirrored else depth
                    name = _layer_name(rotation[face], layer, turn, cube.size)
                    moves.append(ids.get(name, -1))
                if -1 in moves or (allowed is not None and not set(moves) <= allowed):
                    continue
                options.append((np.array(moves, dtype=np.int64), colours))
    return options


def _axis_of(face: str) -> str:
    return min(face, _OPPOSITE[face])


def _layer_name(face: str, depth: int, quarters: int, size: int) -> str:
    """The harness's name of turning the layer ``depth`` in from ``face`` by ``quarters`` in
    ``face``'s sense: an outer or inner layer named from the nearer face."""
    if depth >= size - 1 - depth and depth != 0:  # nearer the opposite face: its own sense
        face, depth, quarters = _OPPOSITE[face], size - 1 - depth, 4 - quarters
    prefix = "" if depth == 0 else f"{depth + 1}"
    return f"{prefix}{face}{_SUFFIX[quarters]}"
