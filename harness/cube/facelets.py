"""The public cube format: the 54-letter facelet string of the ``kociemba`` package.

Faces U R F D L B, nine stickers each, row by row as seen from outside with U above F;
each letter names the face whose centre has that colour.
"""

from __future__ import annotations

import numpy as np

from .geometry import FACES, NUM_STICKERS
from .validation import InvalidCubeError, validate_state

_LETTER_TO_COLOUR = np.full(256, 255, dtype=np.uint8)
for _i, _f in enumerate(FACES):
    _LETTER_TO_COLOUR[ord(_f)] = _i
_FACE_BYTES = np.frombuffer(FACES.encode(), dtype=np.uint8)

SOLVED_FACELETS = "".join(f * 9 for f in FACES)


def facelets_to_state(facelets: str, *, validate: bool = True) -> np.ndarray:
    """Parse a facelet string into a (54,) uint8 state.

    Raises:
        InvalidCubeError: for a wrong length, a letter that is not a face, or (unless
            ``validate`` is False) a state no face turns can reach. The message says where.
    """
    if not isinstance(facelets, str):
        raise InvalidCubeError(f"a facelet string must be str, got {type(facelets).__name__}")
    text = facelets.strip()
    if len(text) != NUM_STICKERS:
        raise InvalidCubeError(f"a facelet string has 54 letters, got {len(text)}: {text!r}")
    if not text.isascii():
        bad = next(i for i, ch in enumerate(text) if not ch.isascii())
        raise InvalidCubeError(_bad_letter(text, bad))
    state = _LETTER_TO_COLOUR[np.frombuffer(text.encode(), dtype=np.uint8)]
    if (state == 255).any():
        raise InvalidCubeError(_bad_letter(text, int(np.flatnonzero(state == 255)[0])))
    if validate:
        validate_state(state)
    return state


def _bad_letter(text: str, index: int) -> str:
    name = f"{FACES[index // 9]}{index % 9 + 1}"
    return (
        f"letter {text[index]!r} at position {index + 1} (facelet {name}) is not a face; "
        f"use only {', '.join(FACES)}"
    )


def state_to_facelets(state: np.ndarray) -> str:
    """(54,) state -> facelet string."""
    state = np.asarray(state, dtype=np.uint8)
    if state.shape != (NUM_STICKERS,) or state.max() > 5:
        raise InvalidCubeError(f"not a (54,) state of colours 0..5: shape {state.shape}")
    return _FACE_BYTES[state].tobytes().decode()
