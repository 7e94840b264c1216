"""Solver names -> classes, resolved lazily so nothing heavy loads until a solver is used.

Five ways to name a solver: a built-in name (``kociemba``), a name another package
registers in the entry-point group ``cubebench.solvers`` (value ``"module:Class"``), a
``module:Class`` path directly, a program solver's TOML file (``./my-solver.toml``,
:mod:`~cubebench.harness.programs`) or the name of one kept in ``$CUBEBENCH_HOME/solvers/``.
A solver class takes one argument, its settings (an instance of its ``Settings`` class, a
:class:`cubebench.harness.solver.SolverSettings` subclass).
"""

from __future__ import annotations

import functools
import importlib
import re
import tomllib
import warnings
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from importlib.metadata import EntryPoint, PackageNotFoundError, entry_points, version
from pathlib import Path
from typing import Any

from .errors import InputError
from .naming import did_you_mean
from .paths import home_dir
from .records.provenance import code_origin
from .settings import SettingsError, SolverSettings, parse_settings
from .solver import Solver, prepare_hook, puzzles_of, resources_of

ENTRY_POINT_GROUP = "cubebench.solvers"
TRAINER_GROUP = "cubebench.trainers"
"""``bench train NAME`` targets: functions taking the trainer's command-line arguments."""
DISTRIBUTION = "cubebench"


class UnknownSolverError(InputError, LookupError):
    """A solver name that no registry, entry point or import path resolves."""


@functools.cache
def _entry_points(group: str) -> tuple[EntryPoint, ...]:
    """An entry-point group, read once per process (a scan of every installed package's
    metadata; a package installed while the process runs is seen by the next one)."""
    return tuple(entry_points(group=group))


def forget_entry_points() -> None:
    """Read the entry points again at the next look-up (a package installed since)."""
    _entry_points.cache_clear()


def _registered(group: str) -> tuple[dict[str, str], dict[str, str]]:
    """(built-in, plug-in) name -> ``module:attr`` of an entry-point group.

    Built-ins are this distribution's own entry points, declared in its pyproject.toml like
    any plug-in's, so ``bench ls solvers`` and plug-ins share one path. A plug-in that takes
    a built-in's name is refused rather than silently shadowing it or being shadowed.
    """
    builtin: dict[str, str] = {}
    plugins: dict[str, tuple[str, str]] = {}
    for ep in _entry_points(group):
        dist = ep.dist.metadata["Name"] if ep.dist is not None else None
        target = _EXTRAS.sub("", ep.value)  # "module:Class", without the "[extra]" it may name
        if dist == DISTRIBUTION:
            builtin[ep.name] = target
        else:
            plugins[ep.name] = (target, dist or "an unknown package")
    for name, (value, dist) in list(plugins.items()):
        if name in builtin:  # refused, and only it: every other solver keeps working
            warnings.warn(
                f"entry point {name!r} = {value!r} of {dist} in group {group!r} takes the name "
                f"of cubebench's built-in {name!r} and is ignored: rename it in that package",
                stacklevel=2,
            )
            del plugins[name]
    return builtin, {name: value for name, (value, _) in plugins.items()}


def plugin_distribution(name: str) -> tuple[str, str] | None:
    """(distribution, version) of the package that registers plug-in ``name``; None for a
    built-in (whose name a plug-in cannot take: :func:`_registered`) or an unknown name."""
    if name in builtin_solvers():
        return None
    for ep in _entry_points(ENTRY_POINT_GROUP):
        if ep.name == name and ep.dist is not None and ep.dist.metadata["Name"] != DISTRIBUTION:
            return ep.dist.metadata["Name"], ep.dist.version
    return None


def builtin_solvers() -> dict[str, str]:
    """The solvers cubebench itself ships, name -> ``module:Class``."""
    return _registered(ENTRY_POINT_GROUP)[0]


PROGRAM_TARGET = "cubebench.harness.programs.solver:ProgramSolver"
"""The adapter of every program solver named by its TOML file."""


def program_file(name: str) -> Path | None:
    """The TOML file a solver name stands for: a path to one (``./my-solver.toml``), or a
    name kept in ``$CUBEBENCH_HOME/solvers/NAME.toml``; None for any other name."""
    if name.endswith(".toml"):
        return Path(name).expanduser().resolve()
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", name):
        kept = home_dir() / "solvers" / f"{name}.toml"
        if kept.is_file():
            return kept
    return None


def home_programs() -> dict[str, str]:
    """The program solvers kept in ``$CUBEBENCH_HOME/solvers/``, name -> file."""
    folder = home_dir() / "solvers"
    found = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    return {path.stem: str(path) for path in found}


def available_solvers() -> dict[str, str]:
    """Every known name and its ``module:Class`` target (a kept program's: its file),
    built-ins first."""
    builtin, plugins = _registered(ENTRY_POINT_GROUP)
    kept = {k: v for k, v in home_programs().items() if k not in builtin and k not in plugins}
    return {**builtin, **plugins, **kept}


_EXTRAS = re.compile(r"\s*\[[^\]]*\]\s*$")


def _extra_packages(ep: EntryPoint) -> dict[str, str | None]:
    """The packages an entry point's extras install (``name = "m:C [peers]"``), each with
    its installed version, or None where it is missing."""
    found: dict[str, str | None] = {}
    for line in (ep.dist.requires or []) if ep.dist is not None else []:
        requirement, _, marker = line.partition(";")
        extras = re.findall(r"extra\s*==\s*[\"']([^\"']+)[\"']", marker)
        if not set(extras) & set(getattr(ep, "extras", [])):
            continue
        package = re.split(r"[\s<>=!~\[(]", requirement.strip(), maxsplit=1)[0]
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    return found


def solver_extras(name: str) -> tuple[list[str], dict[str, str | None]]:
    """(extras, packages): what a solver registered with extras needs beyond cubebench
    (the peers' own libraries: ``cubebench[peers]``), and which of it is installed."""
    for ep in _entry_points(ENTRY_POINT_GROUP):
        if ep.name == name and getattr(ep, "extras", None):
            return list(ep.extras), _extra_packages(ep)
    return [], {}


def solver_installed(name: str) -> bool:
    """Whether everything a solver's extras name is installed (a built-in without extras,
    a plug-in: always)."""
    return all(v is not None for v in solver_extras(name)[1].values())


def solver_origin(name: str) -> dict[str, Any]:
    """How a solver name was found and what code provides it (recorded in manifests):
    ``registered`` is ``built-in``, ``entry point`` or ``module:Class``; a plug-in adds its
    distribution, version and source identity (:func:`~cubebench.harness.records.provenance.
    code_origin`). A built-in is cubebench's, whose commit the manifest records already."""
    builtin, plugins = _registered(ENTRY_POINT_GROUP)
    if name not in builtin and name not in plugins and (path := program_file(name)):
        from .programs.spec import read_program_spec

        return read_program_spec(path).origin()
    target = builtin.get(name) or plugins.get(name) or name
    if name in builtin:
        origin = {"registered": "built-in", "target": target, "distribution": DISTRIBUTION}
        extras, packages = solver_extras(name)
        return {**origin, "extras": extras, "packages": packages} if extras else origin
    how = "entry point" if name in plugins else "module:Class"
    return {"registered": how, "target": target, **code_origin(target.partition(":")[0])}


def trainers() -> dict[str, str]:
    """``bench train`` targets, built-ins first."""
    builtin, plugins = _registered(TRAINER_GROUP)
    return {**builtin, **plugins}


def solver_target(name: str) -> str:
    """The ``module:Class`` a solver name stands for: a built-in's or a plug-in's entry
    point, or the name itself when it is a ``module:Class`` path.

    Raises:
        UnknownSolverError: with the names it may have meant.
    """
    known = available_solvers()
    target = known.get(name)
    builtin, plugins = _registered(ENTRY_POINT_GROUP)
    if name not in builtin and name not in plugins and (path := program_file(name)):
        if not path.is_file():
            raise UnknownSolverError(f"program file {name}: no such file")
        return PROGRAM_TARGET
    if target is None and ":" in name:
        target = name
    if target is None:
        raise UnknownSolverError(f"unknown solver {name!r}; {did_you_mean(name, known)}")
    return target


def import_target(target: str, name: str | None = None) -> type:
    """The class at ``module:Class`` (what a worker does with a resolved entry)."""
    name = name or target
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownSolverError(f"solver {name!r}: cannot import {module_name}: {exc}") from exc
    cls = getattr(module, class_name, None)
    if cls is None:
        raise UnknownSolverError(f"solver {name!r}: {module_name} has no {class_name!r}")
    if not isinstance(cls, type):
        raise UnknownSolverError(
            f"solver {name!r}: {target} is a {type(cls).__name__}, not a solver class"
        )
    return cls


def resolve_solver_class(name: str) -> type:
    """Import the class a solver name stands for (the first time it is used)."""
    target = solver_target(name)
    needs_extras(name)  # before the import that would fail on the missing framework
    return import_target(target, name)


def needs_extras(name: str) -> None:
    """Refuse, in one line naming the extra to install, a solver whose extras' packages are
    missing (a learned built-in in an install without ``cubebench[models]``).

    Raises:
        UnknownSolverError: naming the packages and the extra.
    """
    extras, packages = solver_extras(name)
    missing = [p for p, v in packages.items() if v is None]
    if missing:
        raise UnknownSolverError(
            f"solver {name!r} needs {', '.join(missing)}, not installed here: "
            f"pip install 'cubebench[{','.join(extras)}]'"
        )


@dataclass(frozen=True)
class Resolved:
    """A solver entry resolved once, in the process that plans the run: its registered
    name, the ``module:Class`` that provides it and its typed, checked settings. Workers
    get this value and construct ``cls(settings)``: they neither look the name up nor
    parse a setting again."""

    name: str
    target: str
    settings: SolverSettings
    source: str = ""  # a program solver's TOML file (the name a run asked for)
    puzzles: tuple[str, ...] = ("cube3",)  # what it solves (SolverHooks.puzzles)

    @property
    def asked_as(self) -> str:
        """The name the run gives it when resolving it again (a program's file)."""
        return self.source or self.name

    def settings_dict(self) -> dict[str, Any]:
        """Every setting's value, defaults included, as plain data (the manifest's)."""
        return asdict(self.settings)


def resolve(name: str, settings: Mapping[str, Any] | None = None) -> Resolved:
    """The one place a solver name is looked up and its settings parsed.

    Raises:
        UnknownSolverError: no such solver (with "did you mean").
        SettingsError: a setting that does not exist, parse or fit its range.
    """
    target = solver_target(name)
    needs_extras(name)  # before the import that would fail on the missing framework
    cls = import_target(target, name)
    path = program_file(name) if target == PROGRAM_TARGET else None
    if path is None:
        return Resolved(name, target, checked_settings(name, cls, settings), "", puzzles_of(cls))
    from .programs.spec import read_program_spec

    spec = read_program_spec(path)  # its errors name the file and the key
    parsed = checked_settings(spec.name, cls, {**(settings or {}), "program": str(path)})
    return Resolved(spec.name, target, parsed, str(path), spec.puzzles)


def construct(entry: Resolved) -> Solver:
    """The solver of a resolved entry, made from its typed settings."""
    cls = import_target(entry.target, entry.name)
    solver = cls(entry.settings)
    if not isinstance(solver, Solver):
        raise UnknownSolverError(f"solver {entry.name!r}: {cls.__name__} has no name/solve()")
    return solver


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
    return construct(resolve(name, settings))


def prepare(entry: Resolved) -> None:
    """:func:`prepare_solver` for a resolved entry: its class's ``prepare`` hook, if any."""
    hook = prepare_hook(import_target(entry.target, entry.name))
    if hook is not None:
        hook(entry.settings)


def prepare_solver(name: str, settings: Mapping[str, Any] | None = None) -> None:
    """Do the one-time work a solver's first load would do (a table built into the cache),
    here, before any worker loads.

    A solver class may declare it with a ``prepare(settings)`` classmethod. It runs in the
    calling process with no time limit and its progress on standard error, so a build of
    minutes is not taken for a load that hangs (executors give a load 5 minutes); the loads
    after it find the cache filled. Solvers without one need nothing.
    """
    prepare(resolve(name, settings))


def describe_settings(name: str, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The full, validated settings of a solver as plain data (for manifests)."""
    return resolve(name, settings).settings_dict()


def load_settings_file(path: Path) -> dict[str, dict[str, Any]]:
    """A TOML file of ``[solver-name]`` tables of settings."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise SettingsError(f"settings file {path}: not UTF-8 text (byte {exc.start})") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"settings file {path}: {exc}") from exc
    if not all(isinstance(v, dict) for v in data.values()):
        raise SettingsError(f"settings file {path}: use one [solver-name] table per solver")
    return data


def solver_resources(name: str, settings: Mapping[str, Any] | None = None) -> dict[str, float]:
    """What one worker of a solver needs from a cluster scheduler: CPUs and GPUs.

    A solver class may declare it with a ``resources(settings)`` classmethod returning
    ``{"num_cpus": ..., "num_gpus": ...}`` (a GPU fraction lets workers share one). By
    default: its ``threads`` setting in CPUs (1 without one) and one GPU when its
    ``device`` setting names cuda.
    """
    return entry_resources(resolve(name, settings))


def entry_resources(entry: Resolved) -> dict[str, float]:
    """:func:`solver_resources` of a resolved entry."""
    return resources_of(import_target(entry.target, entry.name), entry.settings)
