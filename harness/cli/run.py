"""``bench run``: run solvers over suites (or the default benchmark) into a run folder."""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..benchmark import (
    ALL_SUITES,
    DEFAULT_LIMIT,
    DEFAULT_SOLVERS,
    DEFAULT_WORKERS,
    default_entries,
)
from ..registry import (
    available_solvers,
    load_settings_file,
    resolve_solver_class,
    settings_class,
)
from ..runner import RunConfig, SolverSpec, resume, run
from ..solver import DEFAULT_TIME_LIMIT_S, SettingsError, parse_assignments, parse_settings
from ..suites.catalog import user_registry_problem
from .show import print_matrix


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


RESUME_MAY_CHANGE = ("limit", "workers", "quiet", "report", "resume_run")
"""Options a ``--resume`` accepts: ``--limit`` may extend the run and ``--workers`` change how
many cubes run at once (recorded with the part it ran); everything else that defines a run
(solvers, settings, suites, budgets, where it runs) is fixed by the manifest, and giving it
is refused rather than silently ignored."""


def _refuse_changes_on_resume(ctx: typer.Context) -> None:
    for param in ctx.command.params:
        if param.name in RESUME_MAY_CHANGE:
            continue
        source = ctx.get_parameter_source(param.name)
        # by name: typer may bring its own copy of click, whose enum is not click's
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            option = max(param.opts, key=len)
            raise SettingsError(
                f"{option} cannot be given with --resume: the run keeps the options it "
                "was started with (only --limit may grow and --workers change)"
            )


def run_command(
    ctx: typer.Context,
    solver: Annotated[
        list[str] | None,
        typer.Option("--solver", "-s", metavar="NAME", help="solver name (repeat)"),
    ] = None,
    setting: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="KEY=VALUE", help="key=value or SOLVER.key=value"),
    ] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            metavar="SETTING=V1,V2",
            help="SETTING=v1,v2,... or SOLVER.SETTING=...: an entry per value",
        ),
    ] = None,
    settings_file: Annotated[
        Path | None,
        typer.Option("--settings", help="TOML file: a \\[solver] table of settings each"),
    ] = None,
    suite: Annotated[
        list[str] | None,
        typer.Option(
            "--suite", metavar="SUITE", help="suite name, or NAME:N for its first N cubes (repeat)"
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="first N instances of each suite")] = None,
    time_limit: Annotated[
        float, typer.Option(help="wall seconds per instance")
    ] = DEFAULT_TIME_LIMIT_S,
    max_nodes: Annotated[int | None, typer.Option(help="node budget per instance")] = None,
    max_model_calls: Annotated[
        int | None, typer.Option(help="model-call budget per instance")
    ] = None,
    max_length: Annotated[
        int | None, typer.Option(help="longest answer accepted, in moves as returned")
    ] = None,
    workers: Annotated[int, typer.Option(help="worker processes per solver")] = DEFAULT_WORKERS,
    executor: Annotated[
        str, typer.Option(help="local (worker processes) or ray (actors on a Ray cluster)")
    ] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster: auto or HOST:PORT; none starts one here")
    ] = None,
    memory_limit_gb: Annotated[float, typer.Option(help="kill a worker above this size")] = 8.0,
    out: Annotated[Path, typer.Option(help="folder that holds run folders")] = Path("results"),
    run_id: Annotated[str | None, typer.Option(help="name of the run folder")] = None,
    resume_run: Annotated[
        Path | None, typer.Option("--resume", help="run folder to finish")
    ] = None,
    full: Annotated[
        bool, typer.Option(help="default benchmark on every instance, every solver at defaults")
    ] = False,
    seed: Annotated[int, typer.Option(help="seed recorded with the run")] = 0,
    timing: Annotated[
        str,
        typer.Option(
            help="shared: each entry's --workers solve at once; alone: one worker, the only "
            "process solving (times to compare)"
        ),
    ] = "shared",
    quiet: Annotated[bool, typer.Option(help="no progress bars")] = False,
    report: Annotated[bool, typer.Option(help="write the run's report at the end")] = True,
) -> None:
    """Run solvers over suites. With no solver and no suite: the default benchmark."""
    if resume_run is not None:
        _refuse_changes_on_resume(ctx)
        given = ctx.get_parameter_source("workers")
        explicit = given is not None and given.name not in ("DEFAULT", "DEFAULT_MAP")
        store = resume(
            resume_run, show_progress=not quiet, limit=limit, workers=workers if explicit else None
        )
    else:
        problem = user_registry_problem()
        if problem is not None:  # the built-in suites still run; the user should know
            typer.echo(f"warning: {problem}; imported suites cannot be used", err=True)
        solvers = list(solver or DEFAULT_SOLVERS)
        unknown_default = [s for s in solvers if s not in available_solvers() and ":" not in s]
        if unknown_default and not solver:
            solvers = [s for s in solvers if s not in unknown_default]
        suites, suite_limits = split_suite_limits(suite or list(ALL_SUITES))
        if not solver and not suite and not full and limit is None:
            limit = DEFAULT_LIMIT
        specs = split_settings(solvers, setting or [], settings_file)
        entries = sweep_specs(solvers, specs, sweep or [])
        if not solver and not full:
            entries = default_entries(entries)
        if timing == "alone":
            given = ctx.get_parameter_source("workers")
            if given is None or given.name in ("DEFAULT", "DEFAULT_MAP"):
                workers = 1  # alone is one worker; an explicit --workers 2 is refused
        config = RunConfig(
            solvers=tuple(entries),
            suites=tuple(suites),
            limit=limit,
            suite_limits=suite_limits,
            time_limit=time_limit,
            max_nodes=max_nodes,
            max_model_calls=max_model_calls,
            max_length=max_length,
            workers=workers,
            memory_limit_gb=memory_limit_gb,
            timing=timing,
            out=str(out),
            seed=seed,
            executor=executor,
            address=address,
        )
        store = run(
            config, show_progress=not quiet, command=["bench", *sys.argv[1:]], run_id=run_id
        )
    print_matrix(store)  # the long table: bench show RUN, and the report
    typer.echo(f"run folder: {store.folder}")
    if report:
        from ..report.render import write_report  # heavy: loaded on use

        path = write_report([store.folder], store.folder / "report", f"run {store.run_id}")
        typer.echo(f"report: {path}")
