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
    permutation_parity,
    to_cubies,
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
    for face, centre in enumerate(CENTRES):
        if state[centre] != face:
            raise InvalidCubeError(
                f"centre of face {FACES[face]} (facelet {FACES[face]}5) shows colour "
                f"{FACES[int(state[centre])]}; centres never move in face turns"
            )
    cp, co, ep, eo = (a[:, 0] for a in to_cubies(state[:, None]))
    for slot, piece in enumerate(cp):
        if piece == _UNKNOWN:
            raise InvalidCubeError(
                f"corner {CORNER_NAMES[slot]} has colours "
                f"{_colours(state, CORNER_FACELETS[slot])}, which no corner piece has"
            )
    for slot, piece in enumerate(ep):
        if piece == _UNKNOWN:
            raise InvalidCubeError(
                f"edge {EDGE_NAMES[slot]} has colours "
                f"{_colours(state, EDGE_FACELETS[slot])}, which no edge piece has"
            )
    _check_each_once(cp, CORNER_NAMES, "corner")
    _check_each_once(ep, EDGE_NAMES, "edge")
    twist = int(co.sum()) % 3
    if twist:
        raise InvalidCubeError(
            f"corner twists sum to {twist} mod 3 instead of 0: a corner is twisted in place"
        )
    if int(eo.sum()) % 2:
        raise InvalidCubeError("edge flips sum to 1 mod 2 instead of 0: an edge is flipped")
    corner_parity = int(permutation_parity(cp[:, None])[0])
    edge_parity = int(permutation_parity(ep[:, None])[0])
    if corner_parity != edge_parity:
        raise InvalidCubeError(
            f"corner permutation is {('even', 'odd')[corner_parity]} but edge permutation is "
            f"{('even', 'odd')[edge_parity]}: two pieces are swapped"
        )


def _check_each_once(pieces: np.ndarray, names: tuple[str, ...], kind: str) -> None:
    counts = np.bincount(pieces, minlength=len(names))
    if (counts == 1).all():
        return
    repeated = int(np.flatnonzero(counts > 1)[0])
    slots = ", ".join(names[s] for s in np.flatnonzero(pieces == repeated))
    missing = [names[p] for p in np.flatnonzero(counts == 0)]
    gone = f"{kind} {missing[0]} is" if len(missing) == 1 else f"{kind}s {', '.join(missing)} are"
    raise InvalidCubeError(
        f"{kind} {names[repeated]} appears {counts[repeated]} times (in slots {slots}); "
        f"{gone} missing"
    )
