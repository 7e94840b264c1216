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

import importlib
from typing import Any

from .cube import __all__ as _CUBE_NAMES

_EXPORTS: dict[str, tuple[str, str]] = {}


def _export(module: str, *names: str, **renamed: str) -> None:
    for name in names:
        _EXPORTS[name] = (module, name)
    for public, private in renamed.items():
        _EXPORTS[public] = (module, private)


_export(
    "solver",
    "Attempt",
    "Budget",
    "Solver",
    "SolverSettings",
    "Range",
    "POSITIVE",
    "ArgumentError",
    "SettingsError",
    "SolverLoadError",
)
_export("testing", "check_solver", "ConformanceError")
_export("registry", "make_solver", "available_solvers", "UnknownSolverError")
_export("runner", "run", "RunConfig", "SolverSpec")
_export("records.store", "RunStore")
_export("records.provenance", "machine_info")
_export("report.frame", "load_runs")
_export("hardware", "instruction_set", "native_bf16")
_export("paths", "cache_dir", "home_dir")
_export("suites.registry", "load_suite", "list_suites")
_export("suites.model", "Instance", "Suite")
_export("suites.oracle", "DistanceOracle")
_export("cube", *_CUBE_NAMES)  # the engine package is public as a whole
_export("cube.movesets", "METRICS", "MOVE_SETS", "Metric", "MoveSet", "move_set")
_export("cube.scramble", "canonical_quarter_scrambles", "count_canonical")
_export(
    "cube.symmetry",
    "GROUPS",
    "NUM_SYMMETRIES",
    "SYMMETRY_COLOURS",
    "SYMMETRY_MOVES",
    "conjugate",
    "conjugate_rows",
    "symmetric_scores",
    "symmetric_values",
    symmetry_group="group",
)
_export("cube.geometry", "NON_CENTRES", "STICKER_GRID")
_export("cube.cubie", "CORNER_FACELETS", "EDGE_FACELETS")
_export("cube.encodings", "NUM_CUBELET_LOCATIONS", "cubelet_tokens", "face_tensor", "one_hot")

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
