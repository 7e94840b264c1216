"""Facelet strings of any size, and the checks that a 2×2×2 or 4×4×4 state is reachable.

A facelet string has ``6 N²`` letters: faces U R F D L B, ``N × N`` each, row by row as
``kociemba`` draws the 3×3×3; each letter names the face a sticker belongs on when solved.
The 3×3×3 keeps its own checks (:mod:`~cubebench.harness.cube.validation`). The others are
checked piece by piece, each error one line naming the piece:

- every colour ``N²`` times;
- corners (every size): each slot shows a real corner's colours in its clockwise order, every
  corner once, and the twists sum to 0 mod 3;
- wing edges (4×4×4): a wing cannot flip in place, so each edge slot shows a real wing's
  colours in the order its place fixes, every wing once. Centres of one colour are
  indistinguishable, so the counts are their whole check, and the permutation parities of
  the pieces can be anything (an inner slice turn swaps wings and centres alike).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .layers import FACES, corner_stickers, sticker_geometry
from .puzzle import Puzzle
from .validation import InvalidCubeError, validate_state


def facelets_to_state(puzzle: Puzzle, facelets: str, *, validate: bool = True) -> np.ndarray:
    """A facelet string -> a (6 N²,) uint8 state; one line naming the letter or piece."""
    text = facelets.strip()
    if len(text) != puzzle.num_stickers:
        raise InvalidCubeError(
            f"a {puzzle.name} facelet string has {puzzle.num_stickers} letters, got {len(text)}"
        )
    per_face = puzzle.size * puzzle.size
    for index, letter in enumerate(text):
        if letter not in FACES:
            raise InvalidCubeError(
                f"letter {letter!r} at position {index + 1} (face {FACES[index // per_face]}, "
                f"sticker {index % per_face + 1}) is not a face; use only {', '.join(FACES)}"
            )
    state = np.array([FACES.index(letter) for letter in text], dtype=np.uint8)
    if validate:
        validate_puzzle_state(puzzle, state)
    return state


def state_to_facelets(puzzle: Puzzle, state: np.ndarray) -> str:
    state = np.asarray(state)
    if state.shape != (puzzle.num_stickers,) or state.max() > 5:
        raise InvalidCubeError(f"not a ({puzzle.num_stickers},) {puzzle.name} state: {state.shape}")
    return "".join(FACES[int(c)] for c in state)


def _sticker_name(puzzle: Puzzle, sticker: int) -> str:
    per_face = puzzle.size * puzzle.size
    return f"{FACES[sticker // per_face]}{sticker % per_face + 1}"


def _piece_name(puzzle: Puzzle, stickers: np.ndarray) -> str:
    return "-".join(_sticker_name(puzzle, int(s)) for s in stickers)


def validate_puzzle_state(puzzle: Puzzle, state: np.ndarray) -> None:
    """Raise :class:`InvalidCubeError` unless ``state`` is reachable (module doc)."""
    if puzzle.name == "cube3":
        validate_state(state)
        return
    state = np.asarray(state)
    per_face = puzzle.size * puzzle.size
    if state.shape != (puzzle.num_stickers,) or state.min() < 0 or state.max() > 5:
        raise InvalidCubeError(
            f"a {puzzle.name} state is {puzzle.num_stickers} colours 0..5, got shape {state.shape}"
        )
    counts = np.bincount(state, minlength=6)
    if (counts != per_face).any():
        wrong = ", ".join(
            f"{FACES[c]} {counts[c]} times" for c in range(6) if counts[c] != per_face
        )
        raise InvalidCubeError(f"each colour must appear {per_face} times; {wrong}")
    _check_corners(puzzle, state)
    if puzzle.size == 4:
        _check_wings(puzzle, state)


def _colours(state: np.ndarray, stickers: np.ndarray) -> str:
    return ", ".join(FACES[int(c)] for c in state[stickers])


@cache
def _corner_pieces(puzzle: Puzzle) -> dict[tuple[int, ...], tuple[int, int]]:
    """Each corner's colours read from its U/D sticker clockwise, in each of its three
    twists -> (the corner, the twist)."""
    solved = puzzle.solved[corner_stickers(puzzle.size)]  # (8, 3)
    return {
        tuple(int(c) for c in np.roll(row, -k)): (p, k)
        for p, row in enumerate(solved)
        for k in range(3)
    }


def _check_corners(puzzle: Puzzle, state: np.ndarray) -> None:
    slots = corner_stickers(puzzle.size)  # (8, 3), U/D sticker first, clockwise
    pieces = _corner_pieces(puzzle)
    seen: dict[int, int] = {}
    twist = 0
    for slot, stickers in enumerate(slots):
        found = pieces.get(tuple(state[stickers]))
        if found is None:
            raise InvalidCubeError(
                f"corner {_piece_name(puzzle, stickers)} has colours {_colours(state, stickers)}"
                ", which no corner has in that order"
            )
        piece, turn = found
        if piece in seen:
            shown = _colours(puzzle.solved, slots[piece])
            raise InvalidCubeError(
                f"corners {_piece_name(puzzle, slots[seen[piece]])} and "
                f"{_piece_name(puzzle, stickers)} are both the {shown} corner"
            )
        seen[piece] = slot
        twist += turn
    if twist % 3:
        raise InvalidCubeError(
            f"the corners' twists sum to {twist % 3} mod 3: one corner is twisted in place, "
            "which no turn does"
        )


@cache
def wing_slots(puzzle: Puzzle) -> np.ndarray:
    """(24, 2) each wing's stickers, the one in the first sticker orbit first."""
    orbit = _orbits(puzzle)
    positions, _ = sticker_geometry(puzzle.size)
    edge = ((np.abs(positions) == puzzle.size - 1).sum(axis=1) == 2).nonzero()[0]
    slots: dict[tuple[int, ...], list[int]] = {}
    for sticker in edge:
        slots.setdefault(tuple(positions[sticker]), []).append(int(sticker))
    first = min(orbit[s] for s in edge)
    rows = [sorted(pair, key=lambda s: orbit[s] != first) for pair in slots.values()]
    return np.array(sorted(rows), dtype=np.int64)


@cache
def _orbits(puzzle: Puzzle) -> np.ndarray:
    """(stickers,) the least sticker each sticker can be carried to by turns."""
    label = np.arange(puzzle.num_stickers)
    while True:
        spread = np.minimum.reduce([label, *(label[table] for table in puzzle.tables)])
        if np.array_equal(spread, label):
            return label
        label = spread


@cache
def _wing_pieces(puzzle: Puzzle) -> dict[tuple[int, ...], int]:
    """Each wing's colours in the order its place fixes -> the wing."""
    solved = puzzle.solved[wing_slots(puzzle)]  # (24, 2)
    return {tuple(int(c) for c in row): p for p, row in enumerate(solved)}


def _check_wings(puzzle: Puzzle, state: np.ndarray) -> None:
    slots = wing_slots(puzzle)
    pieces = _wing_pieces(puzzle)
    wings: dict[tuple[int, ...], list[int]] = {}
    for slot, stickers in enumerate(slots):
        colours = tuple(state[stickers])
        if colours not in pieces:
            raise InvalidCubeError(
                f"edge {_piece_name(puzzle, stickers)} has colours {_colours(state, stickers)}"
                ", which no wing has in that order (a wing cannot flip in place)"
            )
        wings.setdefault(colours, []).append(slot)
    for colours, where in wings.items():
        if len(where) > 1:
            named = " and ".join(_piece_name(puzzle, slots[s]) for s in where)
            shown = ", ".join(FACES[int(c)] for c in colours)
            raise InvalidCubeError(f"edges {named} are both the {shown} wing")
