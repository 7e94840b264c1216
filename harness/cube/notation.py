"""Singmaster notation in and out, and solution lengths in both metrics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..errors import InputError
from .geometry import FACES
from .moves import MOVE_NAMES, MOVE_QTM

_NAME_TO_ID: Final = {name: i for i, name in enumerate(MOVE_NAMES)}
# accepted spellings beyond the canonical ones: U2' is a half turn, and typographic primes
# (what word processors turn ' into) after a face or a half turn alike
_PRIMES: Final = ("'", "\u2019", "\u2032")
_ALIASES: Final = {f"{f}2{p}": _NAME_TO_ID[f"{f}2"] for f in FACES for p in _PRIMES} | {
    f"{f}{p}": _NAME_TO_ID[f"{f}'"] for f in FACES for p in _PRIMES[1:]
}


class NotationError(InputError):
    """A move sequence that cannot be parsed; the message names the token and its place."""


def parse_moves(text: str) -> list[int]:
    """Parse ``"R U2 F'"`` into move ids.

    Raises:
        NotationError: naming the first bad token and its 1-based position.
    """
    moves = []
    for position, token in enumerate(text.split(), start=1):
        move = _NAME_TO_ID.get(token, _ALIASES.get(token))
        if move is None:
            shown = token if len(token) <= 20 else token[:20] + "…"  # never a whole file
            raise NotationError(f"bad move {shown!r} at position {position}: {_hint(token)}")
        moves.append(move)
    return moves


def _hint(token: str) -> str:
    if token and token[0] in FACES.lower():
        return "lower-case letters are wide turns, which are not face turns; use upper case"
    if token and token[0] in "xyzMES":
        return "cube rotations and slice moves are not in the face-turn metric"
    return "a move is one of U R F D L B followed by nothing, 2 or '"


def format_moves(moves: Sequence[int]) -> str:
    """Move ids -> ``"R U2 F'"`` (the empty sequence is the empty string)."""
    try:
        return " ".join(MOVE_NAMES[m] for m in moves)
    except (IndexError, TypeError) as exc:
        raise NotationError(f"not a move id in {list(moves)!r}: ids are 0..17") from exc


def reduce_moves(moves: Sequence[int]) -> list[int]:
    """The answer's canonical form: turns of one face merged, and cancelled where they undo.

    Two turns of a face merge across anything that commutes with them, which on the cube is
    turns of the opposite face, so ``U D U`` is ``U2 D`` and ``L R L'`` is ``R``; a block
    that cancels lets its neighbours meet (``U R R' U`` is ``U2``). Within a block of one
    axis the lower face (U, R, F) comes first. The form is unique, so lengths counted on it
    do not depend on how a solver spelled its answer.
    """
    blocks: list[list[int]] = []  # [axis, quarter turns of face axis, of face axis + 3]
    for move in moves:
        face, turns = divmod(int(move), 3)
        axis, side = face % 3, face // 3
        if not blocks or blocks[-1][0] != axis:
            blocks.append([axis, 0, 0])
        block = blocks[-1]
        block[1 + side] = (block[1 + side] + turns + 1) % 4
        if block[1] == block[2] == 0:
            blocks.pop()
    reduced: list[int] = []
    for axis, low, high in blocks:
        reduced += [3 * (axis + 3 * side) + t - 1 for side, t in enumerate((low, high)) if t]
    return reduced


def solution_lengths(moves: Sequence[int]) -> tuple[int, int]:
    """(HTM, QTM) lengths of the canonical form, reduced once for both."""
    reduced = reduce_moves(moves)
    return len(reduced), int(sum(int(MOVE_QTM[m]) for m in reduced))


def length_htm(moves: Sequence[int]) -> int:
    """Length in the half-turn metric: every face turn of the canonical form counts one."""
    return len(reduce_moves(moves))


def length_qtm(moves: Sequence[int]) -> int:
    """Length in the quarter-turn metric: the canonical form's half turns count two."""
    return solution_lengths(moves)[1]
