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
- **Program solvers**: :class:`ProgramSolver`, a solver that is any executable speaking
  the cubebench solver protocol (``docs/protocol.md``), described by a :class:`ProgramSpec`.
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
    )
    from .cube import (
        MOVE_INVERSE as MOVE_INVERSE,
    )
    from .cube import (
        MOVE_NAMES as MOVE_NAMES,
    )
    from .cube import (
        MOVE_TABLES as MOVE_TABLES,
    )
    from .cube import (
        NUM_MOVES as NUM_MOVES,
    )
    from .cube import (
        SOLVED as SOLVED,
    )
    from .cube import (
        SOLVED_FACELETS as SOLVED_FACELETS,
    )
    from .cube import (
        InvalidCubeError as InvalidCubeError,
    )
    from .cube import (
        NotationError as NotationError,
    )
    from .cube import (
        apply_move as apply_move,
    )
    from .cube import (
        apply_moves as apply_moves,
    )
    from .cube import (
        apply_sequence as apply_sequence,
    )
    from .cube import (
        canonical_scrambles as canonical_scrambles,
    )
    from .cube import (
        children_of as children_of,
    )
    from .cube import (
        expand as expand,
    )
    from .cube import (
        facelets_to_state as facelets_to_state,
    )
    from .cube import (
        format_moves as format_moves,
    )
    from .cube import (
        from_cubies as from_cubies,
    )
    from .cube import (
        invert_sequence as invert_sequence,
    )
    from .cube import (
        invert_states as invert_states,
    )
    from .cube import (
        is_solved as is_solved,
    )
    from .cube import (
        length_htm as length_htm,
    )
    from .cube import (
        length_qtm as length_qtm,
    )
    from .cube import (
        parse_moves as parse_moves,
    )
    from .cube import (
        random_states as random_states,
    )
    from .cube import (
        reduce_moves as reduce_moves,
    )
    from .cube import (
        scrambled_batch as scrambled_batch,
    )
    from .cube import (
        solved_batch as solved_batch,
    )
    from .cube import (
        state_hash as state_hash,
    )
    from .cube import (
        state_keys as state_keys,
    )
    from .cube import (
        state_to_facelets as state_to_facelets,
    )
    from .cube import (
        to_cubies as to_cubies,
    )
    from .cube import (
        validate_state as validate_state,
    )
    from .cube.cubie import (
        CORNER_COLOURS as CORNER_COLOURS,
    )
    from .cube.cubie import (
        CORNER_FACELETS as CORNER_FACELETS,
    )
    from .cube.cubie import (
        EDGE_FACELETS as EDGE_FACELETS,
    )
    from .cube.encodings import (
        NUM_CUBELET_LOCATIONS as NUM_CUBELET_LOCATIONS,
    )
    from .cube.encodings import (
        cubelet_tokens as cubelet_tokens,
    )
    from .cube.encodings import (
        face_tensor as face_tensor,
    )
    from .cube.encodings import (
        one_hot as one_hot,
    )
    from .cube.geometry import NON_CENTRES as NON_CENTRES
    from .cube.geometry import STICKER_GRID as STICKER_GRID
    from .cube.moves import (
        CANONICAL_FOLLOW as CANONICAL_FOLLOW,
    )
    from .cube.moves import (
        MOVE_FACE as MOVE_FACE,
    )
    from .cube.moves import (
        QUARTER_TURN_MOVES as QUARTER_TURN_MOVES,
    )
    from .cube.movesets import (
        METRICS as METRICS,
    )
    from .cube.movesets import (
        MOVE_SETS as MOVE_SETS,
    )
    from .cube.movesets import (
        Metric as Metric,
    )
    from .cube.movesets import (
        MoveSet as MoveSet,
    )
    from .cube.movesets import (
        move_set as move_set,
    )
    from .cube.puzzle import PUZZLES as PUZZLES
    from .cube.puzzle import Puzzle as Puzzle
    from .cube.puzzle import puzzle as puzzle
    from .cube.puzzle import puzzle_of_stickers as puzzle_of_stickers
    from .cube.scramble import (
        canonical_quarter_scrambles as canonical_quarter_scrambles,
    )
    from .cube.scramble import (
        count_canonical as count_canonical,
    )
    from .cube.symmetry import (
        GROUPS as GROUPS,
    )
    from .cube.symmetry import (
        NUM_SYMMETRIES as NUM_SYMMETRIES,
    )
    from .cube.symmetry import (
        SYMMETRY_COLOURS as SYMMETRY_COLOURS,
    )
    from .cube.symmetry import (
        SYMMETRY_MOVES as SYMMETRY_MOVES,
    )
    from .cube.symmetry import (
        conjugate as conjugate,
    )
    from .cube.symmetry import (
        conjugate_rows as conjugate_rows,
    )
    from .cube.symmetry import (
        group as symmetry_group,  # noqa: F401  (re-exported under a name that says what)
    )
    from .cube.symmetry import (
        symmetric_scores as symmetric_scores,
    )
    from .cube.symmetry import (
        symmetric_values as symmetric_values,
    )
    from .errors import InputError as InputError
    from .hardware import instruction_set as instruction_set
    from .hardware import native_bf16 as native_bf16
    from .interrupts import Terminated as Terminated
    from .paths import cache_dir as cache_dir
    from .paths import home_dir as home_dir
    from .programs.protocol import PROTOCOL_VERSION as PROTOCOL_VERSION
    from .programs.serve import serve_protocol as serve_protocol
    from .programs.solver import ProgramSettings as ProgramSettings
    from .programs.solver import ProgramSolver as ProgramSolver
    from .programs.spec import ProgramSpec as ProgramSpec
    from .programs.spec import read_program_spec as read_program_spec
    from .records.provenance import machine_info as machine_info
    from .records.store import RunStore as RunStore
    from .registry import (
        UnknownSolverError as UnknownSolverError,
    )
    from .registry import (
        available_solvers as available_solvers,
    )
    from .registry import (
        make_solver as make_solver,
    )
    from .report.frame import load_runs as load_runs
    from .runner import RunConfig as RunConfig
    from .runner import SolverSpec as SolverSpec
    from .runner import run as run
    from .settings import (
        POSITIVE as POSITIVE,
    )
    from .settings import (
        Range as Range,
    )
    from .settings import (
        SettingsError as SettingsError,
    )
    from .settings import (
        SolverSettings as SolverSettings,
    )
    from .solver import (
        ArgumentError as ArgumentError,
    )
    from .solver import (
        Attempt as Attempt,
    )
    from .solver import (
        Budget as Budget,
    )
    from .solver import (
        Solver as Solver,
    )
    from .solver import (
        SolverLoadError as SolverLoadError,
    )
    from .suites.catalog import list_suites as list_suites
    from .suites.catalog import load_suite as load_suite
    from .suites.cube2_distances import cube2_distances as cube2_distances
    from .suites.model import Instance as Instance
    from .suites.model import Suite as Suite
    from .suites.oracle import DistanceOracle as DistanceOracle
    from .testing import ConformanceError as ConformanceError
    from .testing import check_solver as check_solver


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
