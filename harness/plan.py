"""What a user asks for, as a run: solver names, ``--set`` and ``--sweep`` text and suite
names become the entries and :class:`~cubebench.harness.runconfig.RunConfig` of a run.

``bench run`` is a thin layer over :func:`plan_run`; a script that wants what the command
line would run calls it too. With no solver and no suite it is the default benchmark
(:func:`~cubebench.harness.benchmark.default_benchmark`), under any ``--set`` or ``--sweep``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from .benchmark import default_benchmark, default_entries
from .cube.puzzle import DEFAULT_PUZZLE
from .errors import InputError
from .programs.spec import read_program_spec
from .registry import (
    available_solvers,
    checked_settings,
    load_settings_file,
    program_file,
    resolve_solver_class,
    settings_class,
    solver_installed,
)
from .runconfig import RunConfig, SolverSpec
from .settings import SettingsError, parse_assignments, parse_settings
from .solver import puzzles_of
from .suites.catalog import load_suite


def plan_run(
    solvers: list[str] | None = None,
    suites: list[str] | None = None,
    *,
    assignments: list[str] | None = None,
    settings_file: Path | None = None,
    sweeps: list[str] | None = None,
    full: bool = False,
    limit: int | None = None,
    **config: Any,
) -> RunConfig:
    """The run ``bench run`` makes of its arguments: ``solvers`` (default: the default
    benchmark's, those installed), ``suites`` (``NAME`` or ``NAME:N``; default: all the
    benchmark's), ``assignments`` (``--set key=value`` or ``SOLVER.key=value``), a TOML
    ``settings_file``, ``sweeps`` (``SETTING=v1,v2``: an entry per value), ``full`` (every
    entry at its defaults on every cube) and any other :class:`RunConfig` field.

    Raises:
        SettingsError: a setting given twice, for a solver not in the run, or malformed.
    """
    installed = tuple(n for n in available_solvers() if solver_installed(n))
    benchmark = default_benchmark(config.get("out", ""), installed, full=full)
    names = list(solvers or [s.name for s in benchmark.solvers])
    chosen_suites, suite_limits = split_suite_limits(list(suites or benchmark.suites))
    if not solvers and not suites and not full and limit is None:
        limit = benchmark.limit
    entries = sweep_specs(
        names, split_settings(names, assignments or [], settings_file), sweeps or []
    )
    if not solvers and not full:  # the benchmark's own settings, under the user's
        entries = default_entries(entries)
    if not solvers and suites:  # the benchmark's entries that solve the suites asked for
        wanted = {_suite_puzzle(name) for name in chosen_suites}
        entries = [e for e in entries if wanted & set(puzzles_of(resolve_solver_class(e.name)))]
    entries = [_labelled(_program_entry(spec)) for spec in entries]
    return replace(
        benchmark,
        solvers=tuple(entries),
        suites=tuple(chosen_suites),
        limit=limit,
        suite_limits=suite_limits,
        **config,
    )


def _suite_puzzle(name: str) -> str:
    """The puzzle a suite named on the command line is of (a file's by its facelets; an
    unknown name the 3×3×3's, for the run to refuse with its own message)."""
    try:
        return load_suite(name, limit=1).puzzle
    except InputError:
        return DEFAULT_PUZZLE


def split_suite_limits(names: list[str]) -> tuple[list[str], dict[str, int]]:
    """``--suite NAME`` or ``--suite NAME:N`` (that suite's first N cubes): the suites, and
    the limits of those that have one."""
    suites, limits = [], {}
    for text in names:
        name, colon, count = text.partition(":")  # no suite name holds a colon
        if not colon:
            suites.append(text)
            continue
        if not name or not re.fullmatch(r"[0-9]{1,12}", count) or int(count) < 1:
            raise SettingsError(
                f"--suite {text!r}: give NAME or NAME:N, N a whole number of cubes ≥ 1 (digits 0-9)"
            )
        suites.append(name)
        limits[name] = int(count)
    if len(set(suites)) != len(suites):
        raise SettingsError(f"--suite: a suite is named twice ({', '.join(suites)})")
    return suites, limits


def split_settings(
    solvers: list[str], assignments: list[str], settings_file: Path | None
) -> dict[str, dict[str, str]]:
    """``--set`` values: ``key=value`` for a single solver, ``solver.key=value`` for any."""
    per_solver: dict[str, dict] = {name: {} for name in solvers}
    if settings_file is not None:
        for name, values in load_settings_file(settings_file).items():
            if name not in per_solver:
                raise SettingsError(f"settings file names solver {name!r}, which is not in the run")
            per_solver[name].update(values)
    for key, value in parse_assignments(assignments).items():
        target, dot, setting = key.rpartition(".")
        if not dot:
            if len(solvers) != 1:
                raise SettingsError(
                    f"--set {key}=...: name the solver (SOLVER.{key}=...) when the run has several"
                )
            target, setting = solvers[0], key
        if target not in per_solver:
            raise SettingsError(f"--set {key}: solver {target!r} is not in this run")
        per_solver[target][setting] = value
    return per_solver


def sweep_specs(
    solvers: list[str], settings: dict[str, dict[str, str]], sweeps: list[str]
) -> list[SolverSpec]:
    """Entries of the run: one per solver, or one per combination of its swept values.

    ``--sweep beam_width=1024,4096`` (one solver) or ``SOLVER.key=v1,v2`` gives each value
    its own labelled entry, ``policy-mlp[beam_width=1024]``, in the same run folder.
    """
    swept: dict[str, dict[str, list[str]]] = {name: {} for name in solvers}
    for item in sweeps:
        key, eq, values = item.partition("=")
        target, dot, setting = key.strip().rpartition(".")
        if not dot:
            if len(solvers) != 1:
                raise SettingsError(f"--sweep {item}: name the solver (SOLVER.{key}=...)")
            target, setting = solvers[0], key.strip()
        choices = [v.strip() for v in values.split(",") if v.strip()]
        if not eq or not setting or not choices:
            raise SettingsError(f"--sweep {item!r}: expected SETTING=v1,v2,...")
        if target not in swept:
            raise SettingsError(f"--sweep {item}: solver {target!r} is not in this run")
        if setting in settings.get(target, {}):
            raise SettingsError(
                f"--sweep {item}: {target}.{setting} is also given by --set or the settings "
                "file; give it once"
            )
        if setting in swept[target]:
            raise SettingsError(f"--sweep {item}: {target}.{setting} is swept twice")
        parsed = [_parsed(target, setting, value) for value in choices]
        for i, value in enumerate(parsed):
            if value in parsed[:i]:
                first = choices[parsed.index(value)]
                raise SettingsError(
                    f"--sweep {item}: {first!r} and {choices[i]!r} are the same value ({value!r})"
                )
        swept[target][setting] = choices
    specs = []
    for name in solvers:
        keys = list(swept[name])
        for combo in itertools.product(*(swept[name][k] for k in keys)):
            chosen = dict(zip(keys, combo, strict=True))
            label = name + ("[" + ",".join(f"{k}={v}" for k, v in chosen.items()) + "]")
            specs.append(SolverSpec(name, {**settings[name], **chosen}, label if keys else ""))
    return specs


def _parsed(solver: str, setting: str, value: str) -> object:
    """A swept value as the solver's settings read it (``01`` is 1), so that two spellings
    of one value are told apart from two values."""
    cls = settings_class(resolve_solver_class(solver))
    return getattr(parse_settings(cls, {setting: value}), setting)


def _program_entry(spec: SolverSpec) -> SolverSpec:
    """A program solver named by its TOML file: asked for by the file's absolute path (a
    resume from another folder finds it), shown by the name the file gives."""
    if not spec.name.endswith(".toml"):
        return spec
    path = program_file(spec.name)
    assert path is not None  # every .toml name is a file's
    name = read_program_spec(path).name  # a bad file is refused here, in one line
    return replace(spec, name=str(path), label=spec.label or name)


def _labelled(spec: SolverSpec) -> SolverSpec:
    """An entry at other than its defaults, however they were set (``--set``, a settings
    file), is named with the settings that differ: ``policy-mlp[beam_width=4096]``."""
    if spec.label or not spec.settings:
        return spec
    solver_class = resolve_solver_class(spec.name)
    given = checked_settings(spec.name, solver_class, spec.settings)  # errors name the solver
    default = settings_class(solver_class)()
    differ = [k for k in spec.settings if getattr(given, k) != getattr(default, k)]
    if not differ:
        return spec
    label = spec.name + "[" + ",".join(f"{k}={spec.settings[k]}" for k in differ) + "]"
    return replace(spec, label=label)
