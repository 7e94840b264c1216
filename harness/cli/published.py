"""``bench runs import``: a peer's published run as a run folder."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

runs_app = typer.Typer(help="Runs that did not come from bench run: a peer's published answers.")


@runs_app.command("import")
def import_command(
    fmt: Annotated[str, typer.Argument(help="efficientcube or deepcubea-output")],
    path: Annotated[Path, typer.Argument(help="the peer's file")],
    suite: Annotated[str, typer.Option(help="the suite its answers are for, in order")],
    out: Annotated[Path, typer.Option(help="folder that holds run folders")] = Path("results"),
    run_id: Annotated[str | None, typer.Option(help="name of the run folder")] = None,
    system: Annotated[str | None, typer.Option(help="the entry's name in tables")] = None,
) -> None:
    """Judge a peer's published answers like a run's, into a run folder.

    EfficientCube's result pickle is replayed answer by answer; DeepCubeA's output.txt holds
    lengths only, recorded as claimed and never counted as verified.
    """
    from ..published import import_published

    command = ["bench", *sys.argv[1:]]
    store = import_published(fmt, path, suite, out, run_id, system, command)
    statuses: dict[str, int] = {}
    for record in store.read_records():
        statuses[record.status] = statuses.get(record.status, 0) + 1
    counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    typer.echo(f"imported {store.folder}: {counts}")
