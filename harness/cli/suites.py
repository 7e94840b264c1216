"""``bench suites``: list, show and import scramble suites."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..suites.importers import IMPORTERS
from ..suites.model import SuiteError
from ..suites.registry import (
    check_new_suite_name,
    list_suites,
    load_suite,
    register_user_suite,
)

suites_app = typer.Typer(help="Scramble suites: list, show, import.", no_args_is_help=True)


@suites_app.command("list")
def list_command() -> None:
    """Every registered suite with its size, origin and sha256."""
    table = Table("name", "count", "depth or source", "sha256")
    for info in list_suites():
        table.add_row(info.name, str(info.count), str(info.origin), info.sha256[:16])
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
