"""``bench train NAME [options]``: reproduce a learned solver's shipped checkpoint."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from ..interrupts import Terminated, exit_status
from ..naming import did_you_mean
from ..registry import UnknownSolverError, trainers


def train_command(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(help=f"a solver with a trainer: {', '.join(trainers())}"),
    ],
) -> None:
    """Train a solver; options after NAME go to its trainer (--minutes, --device, --fresh, ...).

    `bench train NAME -- --help` lists that trainer's options.
    """
    known = trainers()
    if name in ("-h", "--help"):
        typer.echo(
            "usage: bench train NAME [trainer options]; NAME is one of "
            f"{', '.join(known)}; `bench train NAME --help` lists its options"
        )
        return
    if name not in known:
        raise UnknownSolverError(f"no trainer for {name!r}; {did_you_mean(name, known)}")
    module_name, _, function = known[name].partition(":")
    try:
        getattr(importlib.import_module(module_name), function)(list(ctx.args))
    except Terminated as exc:  # the sitting saved its state: end as `bench run` does
        raise typer.Exit(exit_status(exc)) from None
