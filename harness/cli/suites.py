"""``bench suites``: list, show and import scramble suites."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Column, Table

from ..cube.puzzle import puzzle_of_meta
from ..interrupts import Interrupted, exit_status, terminate_as_interrupt
from ..suites.annotate import Outcome, annotatable, annotate_suite
from ..suites.catalog import (
    check_new_suite_name,
    list_suites,
    load_suite,
    register_user_suite,
)
from ..suites.importers import IMPORTERS
from ..suites.model import SuiteError

suites_app = typer.Typer(
    help="Scramble suites: list, show, import, annotate with exact optima.", no_args_is_help=True
)


@suites_app.command("list")
def list_command() -> None:
    """Every registered suite with its puzzle, size, origin and sha256."""
    # a name and its puzzle are never cut: the other columns give way on a narrow terminal
    table = Table(
        Column("name", no_wrap=True), Column("puzzle", no_wrap=True), "count",
        "depth or source", "sha256",
    )  # fmt: skip
    for info in list_suites():
        puzzle = puzzle_of_meta(info.meta)
        table.add_row(info.name, puzzle, str(info.count), str(info.origin), info.sha256[:16])
    Console().print(table)


@suites_app.command("show")
def show_command(
    name: Annotated[str, typer.Argument(help="suite name, or path of a .jsonl suite file")],
    fmt: Annotated[str, typer.Option("--format", help="table or jsonl")] = "table",
    limit: Annotated[int, typer.Option(help="instances to show in the table")] = 20,
) -> None:
    """Print a suite's instances; ``--format jsonl`` prints the stable file form."""
    if limit < 1:
        raise SuiteError(f"--limit {limit}: give a number of instances ≥ 1")
    if fmt not in ("table", "jsonl"):
        raise SuiteError(f"unknown format {fmt!r}; use table or jsonl")
    # the table needs only its first cubes: a large registered suite is not parsed whole
    suite = load_suite(name, limit=limit if fmt == "table" else None)
    if fmt == "jsonl":
        for inst in suite.instances:
            typer.echo(inst.to_json())
        return
    table = Table(
        "id", "facelets", "scramble", "optimal HTM", title=f"{suite.name} ({suite.total})"
    )
    for inst in suite.instances[:limit]:
        optimum = (
            inst.optimal_htm
            if inst.optimal_htm is not None
            else (f">= {inst.optimal_htm_min}" if inst.optimal_htm_min is not None else "")
        )
        table.add_row(str(inst.id), inst.facelets, inst.scramble or "", str(optimum))
    Console().print(table)
    typer.echo(f"sha256 {suite.sha256}")


@suites_app.command("annotate")
def annotate_command(
    name: Annotated[str, typer.Argument(help="a registered suite")],
    optimal: Annotated[
        bool, typer.Option("--optimal", help="prove exact optima (the only annotation)")
    ] = False,
    metric: Annotated[str, typer.Option(help="htm, qtm or both")] = "htm",
    limit: Annotated[
        int | None, typer.Option(help="annotate the first N instances (default: all)")
    ] = None,
    time_limit: Annotated[
        float, typer.Option(help="seconds the search may spend on one instance")
    ] = 600.0,
    tables: Annotated[
        str,
        typer.Option(
            help="the optimal solver's tables: small, large, xlarge (htm) or dense (the "
            "fastest: 2.6 GB a metric, built once in minutes)"
        ),
    ] = "dense",
    workers: Annotated[int, typer.Option(help="processes proving at once")] = 1,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="a built-in suite: write into its shipped file (a source checkout's, for a "
            "release) instead of $CUBEBENCH_HOME/suites/proved",
        ),
    ] = False,
) -> None:
    """Add exact optima to a suite's instances, proved by the ``optimal`` solver.

    Resumable: each result is written as soon as it is proved, and instances that already
    have an exact optimum are skipped. An instance whose search runs out of time keeps the
    lower bound it proved and is tried again only after the others. The cubes, and so the
    suite's states hash, do not change.
    """
    if not optimal:
        raise SuiteError("bench suites annotate: say what to add (--optimal)")
    metrics = ("htm", "qtm") if metric == "both" else (metric,)
    if any(m not in ("htm", "qtm") for m in metrics):
        raise SuiteError(f"--metric {metric!r}: use htm, qtm or both")
    if limit is not None and limit < 1:
        raise SuiteError(f"--limit {limit}: give a number of instances ≥ 1")
    if not (math.isfinite(time_limit) and time_limit > 0):
        raise SuiteError(f"--time-limit {time_limit}: give a finite, positive number of seconds")
    if workers < 1:
        raise SuiteError(f"--workers {workers}: give a number of processes ≥ 1")
    if tables not in ("small", "large", "xlarge", "dense"):
        raise SuiteError(f"--tables {tables!r}: use small, large, xlarge or dense")
    if tables == "xlarge" and "qtm" in metrics:
        raise SuiteError(f"--tables xlarge with --metric {metric}: xlarge is for htm only")
    annotatable(name)  # a path or an unknown name fails here, before tables are loaded

    def show(o: Outcome) -> None:
        found = f"{o.optimum}" if o.optimum is not None else f">= {o.lower_bound} (budget)"
        typer.echo(f"{name} #{o.instance} {o.metric}: {found}  {o.seconds:.1f} s")

    for m in metrics:
        try:
            with terminate_as_interrupt():  # SIGTERM ends the workers as Ctrl-C does
                outcomes = annotate_suite(
                    name,
                    m,
                    limit=limit,
                    time_limit_s=time_limit,
                    tables=tables,
                    on_result=show,
                    workers=workers,
                    shipped=write,
                )
        except KeyboardInterrupt as exc:
            raise Interrupted(
                exit_status(exc) - 128,
                f"interrupted: every optimum proved so far is kept; the same command goes on "
                f"from there (bench suites annotate {name} --optimal --metric {metric} ...)",
            ) from None
        proved = sum(o.optimum is not None for o in outcomes)
        if outcomes:
            typer.echo(f"{name} {m}: {proved} of {len(outcomes)} attempted proved exact")
        else:
            asked = load_suite(name).instances[:limit]
            exact = sum(getattr(i, f"optimal_{m}") is not None for i in asked)
            rest = f"; another annotation is proving the other {len(asked) - exact}"
            typer.echo(
                f"{name} {m}: nothing to do: {exact} of the {len(asked)} instances asked for "
                f"carry exact optima{rest if exact < len(asked) else ''}"
            )


@suites_app.command("import")
def import_command(
    fmt: Annotated[str, typer.Argument(help=f"one of {', '.join(IMPORTERS)}")],
    path: Annotated[Path, typer.Argument(help="the file to import", exists=True, dir_okay=False)],
    name: Annotated[str, typer.Option(help="name to register the suite under")],
    overwrite: Annotated[bool, typer.Option(help="replace a user suite of that name")] = False,
) -> None:
    """Import a peer's test set (DeepCubeA pickle, EfficientCube JSON, CayleyPy tensor, text)."""
    if fmt not in IMPORTERS:
        raise SuiteError(f"unknown format {fmt!r}; formats: {', '.join(IMPORTERS)}")
    check_new_suite_name(name, overwrite=overwrite)
    instances = IMPORTERS[fmt](path)
    info = register_user_suite(
        name, instances, {"source": f"{fmt}:{path.name}", "kind": "imported"}, overwrite=overwrite
    )
    typer.echo(f"imported {info.count} cubes as {info.name} (sha256 {info.sha256}) -> {info.path}")
