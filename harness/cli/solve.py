"""``bench solve``: one cube, one solver, a verified answer."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    facelets_to_state,
    parse_moves,
    state_to_facelets,
)
from cubebench.harness.registry import make_solver
from cubebench.harness.solver import Budget, SettingsError, parse_assignments
from cubebench.harness.verify import judge, to_raw


def solve_command(
    scramble: Annotated[str | None, typer.Argument(help='a scramble, e.g. "R U2 F\'"')] = None,
    facelets: Annotated[
        str | None, typer.Option(help="the cube as a 54-letter facelet string")
    ] = None,
    solver: Annotated[str, typer.Option("--solver", "-s")] = "kociemba",
    setting: Annotated[list[str] | None, typer.Option("--set", help="key=value")] = None,
    time_limit: Annotated[float, typer.Option(help="wall seconds")] = 60.0,
) -> None:
    """Solve one cube and print the solution the harness verified."""
    if (scramble is None) == (facelets is None):
        raise SettingsError("give either a scramble or --facelets, not both or neither")
    state = (
        apply_sequence(SOLVED, parse_moves(scramble))
        if scramble is not None
        else facelets_to_state(facelets)
    )
    instance = make_solver(solver, parse_assignments(setting or []))
    budget = Budget(wall_seconds=time_limit)
    frozen = state.copy()
    frozen.setflags(write=False)
    start = time.perf_counter()
    attempt = instance.solve(frozen, budget)
    record = judge(
        state,
        to_raw(attempt, time.perf_counter() - start),
        budget,
        solver=solver,
        suite="cli",
        instance=0,
        optimal=(None, None),
    )
    typer.echo(f"cube:     {state_to_facelets(state)}")
    typer.echo(f"status:   {record.status}" + (f" ({record.error})" if record.error else ""))
    typer.echo(f"solution: {record.moves}")
    typer.echo(
        f"length:   {record.length_htm} HTM, {record.length_qtm} QTM; "
        f"{record.wall_s:.3f} s, {record.nodes} nodes, {record.model_calls} model calls"
    )
    if record.status != "solved":
        raise typer.Exit(1)
