"""Solver names -> classes, resolved lazily so nothing heavy loads until a solver is used.

Three ways to name a solver: a built-in name (``kociemba``), a name another package
registers in the entry-point group ``cubebench.solvers`` (value ``"module:Class"``), or a
``module:Class`` path directly. A solver class takes one argument, its settings (an
instance of its ``Settings`` class, a :class:`cubebench.harness.solver.SolverSettings` subclass).
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Mapping
from dataclasses import asdict
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from cubebench.harness.naming import did_you_mean
from cubebench.harness.solver import SettingsError, Solver, SolverSettings, parse_settings

ENTRY_POINT_GROUP = "cubebench.solvers"

BUILTIN_SOLVERS: dict[str, str] = {
    "kociemba": "cubebench.solvers.kociemba_ref.solver:KociembaSolver",
    "random": "cubebench.solvers.random_moves.solver:RandomSolver",
    "policy-mlp": "cubebench.solvers.policy_mlp.solver:PolicyMLPSolver",
    "cayley-mlp": "cubebench.solvers.cayley_mlp.solver:CayleyMLPSolver",
    "deepcubea": "cubebench.solvers.deepcubea.solver:DeepCubeASolver",
    "seq2seq-transformer": "cubebench.solvers.seq2seq_transformer.solver:Seq2SeqSolver",
    "cnn-faces": "cubebench.solvers.cnn_faces.solver:CNNFacesSolver",
    "mlp-kociemba": "cubebench.solvers.mlp_kociemba.solver:MLPKociembaSolver",
    "value-transformer": "cubebench.solvers.value_transformer.solver:ValueTransformerSolver",
}

TRAINERS: dict[str, str] = {
    "policy-mlp": "cubebench.solvers.policy_mlp.train:main",
    "cayley-mlp": "cubebench.solvers.cayley_mlp.train:main",
    "deepcubea": "cubebench.solvers.deepcubea.train:main",
    "seq2seq-transformer": "cubebench.solvers.seq2seq_transformer.train:main",
    "value-transformer": "cubebench.solvers.value_transformer.train:main",
    "cnn-faces": "cubebench.solvers.cnn_faces.train:main",
    "mlp-kociemba": "cubebench.solvers.mlp_kociemba.train:main",
}
"""``bench train NAME`` targets: functions taking (minutes, device, fresh, extra settings)."""


class UnknownSolverError(LookupError):
    """A solver name that no registry, entry point or import path resolves."""


def available_solvers() -> dict[str, str]:
    """Every known name and its ``module:Class`` target, built-ins first."""
    names = dict(BUILTIN_SOLVERS)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        names.setdefault(ep.name, ep.value)
    return names


def resolve_solver_class(name: str) -> type:
    """Import the class a solver name stands for (the first time it is used)."""
    known = available_solvers()
    target = known.get(name)
    if target is None and ":" in name:
        target = name
    if target is None:
        raise UnknownSolverError(f"unknown solver {name!r}; {did_you_mean(name, known)}")
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownSolverError(f"solver {name!r}: cannot import {module_name}: {exc}") from exc
    cls = getattr(module, class_name, None)
    if cls is None:
        raise UnknownSolverError(f"solver {name!r}: {module_name} has no {class_name!r}")
    return cls


def settings_class(cls: type) -> type[SolverSettings]:
    settings = getattr(cls, "Settings", SolverSettings)
    if not (isinstance(settings, type) and issubclass(settings, SolverSettings)):
        raise UnknownSolverError(f"{cls.__name__}.Settings must subclass SolverSettings")
    return settings


def checked_settings(name: str, cls: type, settings: Mapping[str, Any] | None) -> SolverSettings:
    """``settings`` parsed against the solver's class; errors name the solver too."""
    try:
        return parse_settings(settings_class(cls), settings or {})
    except SettingsError as exc:
        raise SettingsError(f"solver {name}: {exc}") from None


def make_solver(name: str, settings: Mapping[str, Any] | None = None) -> Solver:
    """Resolve, validate settings, construct. Settings errors name the bad key or value."""
    cls = resolve_solver_class(name)
    parsed = checked_settings(name, cls, settings)
    solver = cls(parsed)
    if not isinstance(solver, Solver):
        raise UnknownSolverError(f"solver {name!r}: {cls.__name__} has no name/solve()")
    return solver


def describe_settings(name: str, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The full, validated settings of a solver as plain data (for manifests)."""
    return asdict(checked_settings(name, resolve_solver_class(name), settings))


def load_settings_file(path: Path) -> dict[str, dict[str, Any]]:
    """A TOML file of ``[solver-name]`` tables of settings."""
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"settings file {path}: {exc}") from exc
    if not all(isinstance(v, dict) for v in data.values()):
        raise SettingsError(f"settings file {path}: use one [solver-name] table per solver")
    return data


def solver_resources(name: str, settings: Mapping[str, Any] | None = None) -> dict[str, float]:
    """What one replica of a solver needs from a cluster scheduler: CPUs and GPUs.

    A solver class may declare it with a ``resources(settings)`` classmethod returning
    ``{"num_cpus": ..., "num_gpus": ...}`` (a GPU fraction lets replicas share one). By
    default: its ``threads`` setting in CPUs (1 without one) and one GPU when its
    ``device`` setting names cuda.
    """
    cls = resolve_solver_class(name)
    checked = checked_settings(name, cls, settings)
    declared = getattr(cls, "resources", None)
    if callable(declared):
        return dict(declared(checked))
    device = str(getattr(checked, "device", "cpu"))
    return {
        "num_cpus": float(getattr(checked, "threads", 1)),
        "num_gpus": 1.0 if device.startswith("cuda") else 0.0,
    }
