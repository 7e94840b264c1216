"""cubebench's public API: what adapters, scripts and the built-in solvers may use.

Everything a solver needs comes from here (``from cubebench.harness import Attempt, Budget,
move_set``); the modules behind these names are internal and may change. Names outside the cube
engine load lazily, so ``import cubebench.harness`` stays light: pandas, the runner and
the optimum oracle are imported only when used. A test keeps every module under ``solvers/``
to this list.

- **The solver protocol**: :class:`Solver`, :class:`SolverSettings` (settings with types
  and ranges: :class:`Range`, :data:`POSITIVE`), :class:`Budget`, :class:`Attempt`, the
  errors a solver raises, and :func:`check_solver`, the conformance kit.
- **The cube**: the batched engine over sticker-major ``(54, N)`` uint8 states, notation,
  validation, scrambles, move sets (HTM and QTM), the 48 symmetries and the encodings the
  seed models use.
- **Suites and runs**: :func:`load_suite`, :func:`run` with :class:`RunConfig`, stored runs
  (:class:`RunStore`, :func:`load_runs`), the exact distance oracle.
- **Provenance** a trainer records: :func:`machine_info`, :func:`instruction_set`,
  :func:`native_bf16`, and :func:`cache_dir` for data worth keeping between runs.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

# The public API, declared once: what a type checker sees here is what the module serves,
# each name loaded from its module on first use (``_EXPORTS`` is read from this block).
if TYPE_CHECKING:
    from .benchmark import default_benchmark as default_benchmark
    from .cube import (
        FACES as FACES,
        MOVE_INVERSE as MOVE_INVERSE,
        MOVE_NAMES as MOVE_NAMES,
        MOVE_TABLES as MOVE_TABLES,
        NUM_MOVES as NUM_MOVES,
        SOLVED as SOLVED,
        SOLVED_FACELETS as SOLVED_FACELETS,
        InvalidCubeError as InvalidCubeError,
        NotationError as NotationError,
        apply_move as apply_move,
        apply_moves as apply_moves,
        apply_sequence as apply_sequence,
        canonical_scrambles as canonical_scrambles,
        children_of as children_of,
        expand as expand,
        facelets_to_state as facelets_to_state,
        format_moves as format_moves,
        from_cubies as from_cubies,
        invert_sequence as invert_sequence,
        invert_states as invert_states,
        is_solved as is_solved,
        length_htm as length_htm,
        length_qtm as length_qtm,
        parse_moves as parse_moves,
        random_states as random_states,
        reduce_moves as reduce_moves,
        scrambled_batch as scrambled_batch,
        solved_batch as solved_batch,
        state_hash as state_hash,
        state_keys as state_keys,
        state_to_facelets as state_to_facelets,
        to_cubies as to_cubies,
        validate_state as validate_state,
    )
    from .cube.cubie import (
        CORNER_COLOURS as CORNER_COLOURS,
        CORNER_FACELETS as CORNER_FACELETS,
        EDGE_FACELETS as EDGE_FACELETS,
    )
    from .cube.encodings import (
        NUM_CUBELET_LOCATIONS as NUM_CUBELET_LOCATIONS,
        cubelet_tokens as cubelet_tokens,
        face_tensor as face_tensor,
        one_hot as one_hot,
    )
    from .cube.geometry import NON_CENTRES as NON_CENTRES, STICKER_GRID as STICKER_GRID
    from .cube.moves import (
        CANONICAL_FOLLOW as CANONICAL_FOLLOW,
        MOVE_FACE as MOVE_FACE,
        QUARTER_TURN_MOVES as QUARTER_TURN_MOVES,
    )
    from .cube.movesets import (
        METRICS as METRICS,
        MOVE_SETS as MOVE_SETS,
        Metric as Metric,
        MoveSet as MoveSet,
        move_set as move_set,
    )
    from .cube.scramble import (
        canonical_quarter_scrambles as canonical_quarter_scrambles,
        count_canonical as count_canonical,
    )
    from .cube.symmetry import (
        GROUPS as GROUPS,
        NUM_SYMMETRIES as NUM_SYMMETRIES,
        SYMMETRY_COLOURS as SYMMETRY_COLOURS,
        SYMMETRY_MOVES as SYMMETRY_MOVES,
        conjugate as conjugate,
        conjugate_rows as conjugate_rows,
        group as symmetry_group,  # noqa: F401  (re-exported under a name that says what)
        symmetric_scores as symmetric_scores,
        symmetric_values as symmetric_values,
    )
    from .errors import InputError as InputError
    from .hardware import instruction_set as instruction_set, native_bf16 as native_bf16
    from .interrupts import Terminated as Terminated
    from .paths import cache_dir as cache_dir, home_dir as home_dir
    from .records.provenance import machine_info as machine_info
    from .records.store import RunStore as RunStore
    from .registry import (
        UnknownSolverError as UnknownSolverError,
        available_solvers as available_solvers,
        make_solver as make_solver,
    )
    from .report.frame import load_runs as load_runs
    from .runner import RunConfig as RunConfig, SolverSpec as SolverSpec, run as run
    from .solver import (
        POSITIVE as POSITIVE,
        ArgumentError as ArgumentError,
        Attempt as Attempt,
        Budget as Budget,
        Range as Range,
        SettingsError as SettingsError,
        Solver as Solver,
        SolverLoadError as SolverLoadError,
        SolverSettings as SolverSettings,
    )
    from .suites.catalog import list_suites as list_suites, load_suite as load_suite
    from .suites.model import Instance as Instance, Suite as Suite
    from .suites.oracle import DistanceOracle as DistanceOracle
    from .testing import ConformanceError as ConformanceError, check_solver as check_solver


def _declared() -> dict[str, tuple[str, str]]:
    """public name -> (module, name in it), from the ``TYPE_CHECKING`` block above."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    (block,) = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    return {
        alias.asname or alias.name: (node.module or "", alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


_EXPORTS = _declared()
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'cubebench.harness' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
