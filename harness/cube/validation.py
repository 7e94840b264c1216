"""Checks for states that come from outside: files, the command line, other tools.

Every check says what is wrong and where, in the cube's own words ("corner URF has colours
U, U, F"), so a user can find the bad sticker without reading a traceback.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from .cubie import (
    CORNER_FACELETS,
    CORNER_NAMES,
    EDGE_FACELETS,
    EDGE_NAMES,
    one_to_cubies,
)
from .geometry import CENTRES, FACES, NUM_STICKERS

_UNKNOWN = 255


class InvalidCubeError(InputError):
    """A state that no sequence of face turns can reach from the solved cube."""


def _colours(state: np.ndarray, facelets: np.ndarray) -> str:
    return ", ".join(FACES[int(c)] for c in state[facelets])


def validate_state(state: np.ndarray) -> None:
    """Raise :class:`InvalidCubeError` unless ``state`` is a legal cube.

    Args:
        state: (54,) colour ids in kociemba facelet order.
    """
    state = np.asarray(state)
    if state.shape != (NUM_STICKERS,):
        raise InvalidCubeError(f"a cube has 54 stickers, got an array of shape {state.shape}")
    if not np.issubdtype(state.dtype, np.integer) or state.min() < 0 or state.max() > 5:
        raise InvalidCubeError("sticker colours must be integers 0..5 (U R F D L B)")
    state = state.astype(np.uint8)
    counts = np.bincount(state, minlength=6)
    if (counts != 9).any():
        wrong = ", ".join(f"{FACES[c]} {counts[c]} times" for c in range(6) if counts[c] != 9)
        raise InvalidCubeError(f"each colour must appear 9 times; {wrong}")
    if (state[_CENTRES] != _FACE_IDS).any():
        face = int(np.flatnonzero(state[_CENTRES] != _FACE_IDS)[0])
        raise InvalidCubeError(
            f"centre of face {FACES[face]} (facelet {FACES[face]}5) shows colour "
            f"{FACES[int(state[CENTRES[face]])]}; centres never move in face turns"
        )
    # one state: plain ints from here, where numpy's cost per call outweighs the work
    cp, co, ep, eo = one_to_cubies(state)
    if _UNKNOWN in cp:
        slot = cp.index(_UNKNOWN)
        raise InvalidCubeError(
            f"corner {CORNER_NAMES[slot]} has colours "
            f"{_colours(state, CORNER_FACELETS[slot])}, which no corner piece has"
        )
    if _UNKNOWN in ep:
        slot = ep.index(_UNKNOWN)
        raise InvalidCubeError(
            f"edge {EDGE_NAMES[slot]} has colours "
            f"{_colours(state, EDGE_FACELETS[slot])}, which no edge piece has"
        )
    _check_each_once(cp, CORNER_NAMES, "corner")
    _check_each_once(ep, EDGE_NAMES, "edge")
    twist = sum(co) % 3
    if twist:
        raise InvalidCubeError(
            f"corner twists sum to {twist} mod 3 instead of 0: a corner is twisted in place"
        )
    if sum(eo) % 2:
        raise InvalidCubeError("edge flips sum to 1 mod 2 instead of 0: an edge is flipped")
    corner_parity, edge_parity = _parity(cp), _parity(ep)
    if corner_parity != edge_parity:
        raise InvalidCubeError(
            f"corner permutation is {('even', 'odd')[corner_parity]} but edge permutation is "
            f"{('even', 'odd')[edge_parity]}: two pieces are swapped"
        )


_CENTRES = np.array(CENTRES)
_FACE_IDS = np.arange(len(FACES))


def _parity(perm: list[int]) -> int:
    """0 for an even permutation, 1 for an odd one: its length less its number of cycles."""
    seen = [False] * len(perm)
    cycles = 0
    for start in range(len(perm)):
        if not seen[start]:
            cycles += 1
            at = start
            while not seen[at]:
                seen[at] = True
                at = perm[at]
    return (len(perm) - cycles) % 2


def _check_each_once(pieces: list[int], names: tuple[str, ...], kind: str) -> None:
    counts = [pieces.count(p) for p in range(len(names))]
    if all(c == 1 for c in counts):
        return
    repeated = next(p for p, c in enumerate(counts) if c > 1)
    slots = ", ".join(names[s] for s, p in enumerate(pieces) if p == repeated)
    missing = [names[p] for p, c in enumerate(counts) if c == 0]
    gone = f"{kind} {missing[0]} is" if len(missing) == 1 else f"{kind}s {', '.join(missing)} are"
    raise InvalidCubeError(
        f"{kind} {names[repeated]} appears {counts[repeated]} times (in slots {slots}); "
        f"{gone} missing"
    )
