"""The cube: states, moves, notation, validation and shared model encodings.

The public format is the ``kociemba`` facelet string; batches are sticker-major ``(54, N)``
uint8 arrays (see :mod:`cubebench.harness.cube.engine` for why).
"""

from .cubie import from_cubies, invert_states, random_states, to_cubies
from .engine import (
    SOLVED,
    apply_move,
    apply_moves,
    apply_sequence,
    children_of,
    expand,
    invert_sequence,
    is_solved,
    scrambled_batch,
    solved_batch,
    state_hash,
    state_keys,
)
from .facelets import SOLVED_FACELETS, facelets_to_state, state_to_facelets
from .geometry import FACES
from .moves import MOVE_INVERSE, MOVE_NAMES, MOVE_TABLES, NUM_MOVES
from .notation import (
    NotationError,
    format_moves,
    length_htm,
    length_qtm,
    parse_moves,
    reduce_moves,
)
from .scramble import canonical_scrambles
from .validation import InvalidCubeError, validate_state

__all__ = [
    "FACES",
    "MOVE_INVERSE",
    "MOVE_NAMES",
    "MOVE_TABLES",
    "NUM_MOVES",
    "SOLVED",
    "SOLVED_FACELETS",
    "InvalidCubeError",
    "NotationError",
    "apply_move",
    "apply_moves",
    "apply_sequence",
    "canonical_scrambles",
    "children_of",
    "expand",
    "facelets_to_state",
    "format_moves",
    "from_cubies",
    "invert_sequence",
    "invert_states",
    "is_solved",
    "length_htm",
    "length_qtm",
    "parse_moves",
    "random_states",
    "reduce_moves",
    "scrambled_batch",
    "solved_batch",
    "state_hash",
    "state_keys",
    "state_to_facelets",
    "to_cubies",
    "validate_state",
]
