"""Singmaster notation in and out, and solution lengths in both metrics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cubebench.harness.cube.geometry import FACES
from cubebench.harness.cube.moves import MOVE_NAMES, MOVE_QTM

_NAME_TO_ID: Final = {name: i for i, name in enumerate(MOVE_NAMES)}
# accepted spellings beyond the canonical ones: U2' is a half turn, and typographic primes
# (what word processors turn ' into) after a face or a half turn alike
_PRIMES: Final = ("'", "\u2019", "\u2032")
_ALIASES: Final = {f"{f}2{p}": _NAME_TO_ID[f"{f}2"] for f in FACES for p in _PRIMES} | {
    f"{f}{p}": _NAME_TO_ID[f"{f}'"] for f in FACES for p in _PRIMES[1:]
}


class NotationError(ValueError):
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
            raise NotationError(f"bad move {token!r} at position {position}: {_hint(token)}")
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


def length_htm(moves: Sequence[int]) -> int:
    """Length in the half-turn metric: every face turn counts one."""
    return len(moves)


def length_qtm(moves: Sequence[int]) -> int:
    """Length in the quarter-turn metric: a half turn counts two."""
    return int(sum(int(MOVE_QTM[m]) for m in moves))
