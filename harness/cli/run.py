"""``bench run``: run solvers over suites (or the default benchmark) into a run folder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..benchmark import DEFAULT_WORKERS
from ..plan import plan_run
from ..runner import NothingToDoError, resume, run
from ..settings import SettingsError
from ..solver import DEFAULT_TIME_LIMIT_S
from ..suites.catalog import user_registry_problem
from .show import print_closing

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
        float, typer.Option(help="seconds per instance, of the --budget clock")
    ] = DEFAULT_TIME_LIMIT_S,
    budget: Annotated[
        str,
        typer.Option(
            "--budget",
            help="what --time-limit counts: cpu, the solver's CPU seconds (a busy machine "
            "changes no answer; the wall clock stops a cube at 3x), or wall (a GPU solver)",
        ),
    ] = "cpu",
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
    out: Annotated[
        Path | None,
        typer.Option(help="folder that holds run folders [default: $CUBEBENCH_HOME/runs]"),
    ] = None,
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
        try:
            store = resume(
                resume_run,
                show_progress=not quiet,
                limit=limit,
                workers=workers if explicit else None,
            )
        except NothingToDoError as done:
            typer.echo(str(done))
            return
    else:
        problem = user_registry_problem()
        if problem is not None:  # the built-in suites still run; the user should know
            typer.echo(f"warning: {problem}; imported suites cannot be used", err=True)
        if timing == "alone":
            given = ctx.get_parameter_source("workers")
            if given is None or given.name in ("DEFAULT", "DEFAULT_MAP"):
                workers = 1  # alone is one worker; an explicit --workers 2 is refused
        config = plan_run(
            solver or None,
            suite or None,
            assignments=setting or [],
            settings_file=settings_file,
            sweeps=sweep or [],
            full=full,
            limit=limit,
            time_limit=time_limit,
            clock=budget,
            max_nodes=max_nodes,
            max_model_calls=max_model_calls,
            max_length=max_length,
            workers=workers,
            memory_limit_gb=memory_limit_gb,
            timing=timing,
            out=str(out) if out is not None else "",
            seed=seed,
            executor=executor,
            address=address,
        )
        store = run(
            config, show_progress=not quiet, command=["bench", *sys.argv[1:]], run_id=run_id
        )
    print_closing(store)  # the short answer; bench show RUN --matrix has every suite
    typer.echo(f"run folder: {store.folder}")
    if report:
        from ..report.render import write_report  # heavy: loaded on use

        typer.echo("writing the run's report (tables, figures and the site) ...")
        path = write_report([store.folder], store.folder / "report", f"run {store.run_id}")
        typer.echo(f"report: {path}")
