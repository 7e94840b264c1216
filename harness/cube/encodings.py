"""Model inputs that several solvers share, computed from sticker batches with numpy.

Every function takes a (54, N) sticker-major batch and returns a row-major array with the
batch first, which is what torch and Keras expect. None of them imports a framework.
"""

from __future__ import annotations

import numpy as np

from .cubie import to_cubies
from .geometry import NON_CENTRES, NUM_STICKERS, STICKER_GRID

_NON_CENTRES = np.asarray(NON_CENTRES, dtype=np.intp)
_EYE6 = np.eye(6, dtype=np.uint8)


def _batch(states: np.ndarray) -> np.ndarray:
    return np.asarray(states, dtype=np.uint8).reshape(NUM_STICKERS, -1)


def one_hot(states: np.ndarray, *, drop_centres: bool = True) -> np.ndarray:
    """One-hot stickers, EfficientCube's and DeepCubeA's input.

    Returns:
        (N, 48, 6) uint8, or (N, 54, 6) with ``drop_centres=False``. Centres never move, so
        dropping them loses nothing.
    """
    states = _batch(states)
    rows = states[_NON_CENTRES] if drop_centres else states
    return _EYE6[rows.T]


def face_grid(states: np.ndarray) -> np.ndarray:
    """(N, 6, 3, 3) colour ids: the six faces as 3x3 matrices in kociemba order."""
    return np.ascontiguousarray(_batch(states).T).reshape(-1, 6, 3, 3)


def face_tensor(states: np.ndarray) -> np.ndarray:
    """(N, 6, 3, 3, 6) uint8: the one-hot face tensor ``cnn-faces`` reads."""
    return _EYE6[face_grid(states)]


NUM_CUBELET_LOCATIONS = 48
"""Corner slot x twist (8 x 3) then edge slot x flip (12 x 2)."""


def cubelet_tokens(states: np.ndarray) -> np.ndarray:
    """The cubelet tokens ``value-transformer`` reads: where each movable piece is and how it
    is turned.

    Token ``p`` belongs to piece ``p`` (corners 0..7 then edges 8..19 in kociemba order);
    its value is the piece's location-and-orientation index: ``3 * slot + twist`` for
    corners (0..23), ``24 + 2 * slot + flip`` for edges (24..47). A model adds an
    embedding of the piece identity (the token position) to an embedding of this value.

    Returns:
        (N, 20) uint8 location-orientation indices, in piece order.
    """
    cp, co, ep, eo = to_cubies(_batch(states))
    n = cp.shape[1]
    tokens = np.empty((n, 20), dtype=np.uint8)
    columns = np.arange(n)
    corner_code = 3 * np.arange(8, dtype=np.uint8)[:, None] + co  # (8, N) by slot
    tokens[columns[None, :], cp.astype(np.intp)] = corner_code
    edge_code = 24 + 2 * np.arange(12, dtype=np.uint8)[:, None] + eo  # (12, N) by slot
    tokens[columns[None, :], 8 + ep.astype(np.intp)] = edge_code
    return tokens


def sticker_tokens(states: np.ndarray) -> np.ndarray:
    """The tokens ``seq2seq-transformer`` reads: (colour, i, j, k) per sticker in the 5x5x5
    grid around the cube.

    Returns:
        (N, 54, 4) uint8; coordinates are 0..4 with the cube occupying 1..3 and each sticker
        one step out along its face's normal.
    """
    states = _batch(states)
    n = states.shape[1]
    tokens = np.empty((n, NUM_STICKERS, 4), dtype=np.uint8)
    tokens[:, :, 0] = states.T
    tokens[:, :, 1:] = STICKER_GRID.astype(np.uint8)[None]
    return tokens
