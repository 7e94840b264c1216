"""``bench train NAME [options]``: reproduce a learned solver's shipped checkpoint."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from cubebench.harness.naming import did_you_mean
from cubebench.harness.registry import TRAINERS, UnknownSolverError


def train_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help=f"one of: {', '.join(TRAINERS)}")],
) -> None:
    """Train a solver; options after NAME go to its trainer (--minutes, --device, --fresh, ...).

    `bench train NAME -- --help` lists that trainer's options.
    """
    if name in ("-h", "--help"):
        typer.echo(
            "usage: bench train NAME [trainer options]; NAME is one of "
            f"{', '.join(TRAINERS)}; `bench train NAME --help` lists its options"
        )
        return
    if name not in TRAINERS:
        raise UnknownSolverError(f"no trainer for {name!r}; {did_you_mean(name, TRAINERS)}")
    module_name, _, function = TRAINERS[name].partition(":")
    getattr(importlib.import_module(module_name), function)(list(ctx.args))
