"""``bench solve``: one cube, one solver, a verified answer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..cube import facelets_to_state, state_to_facelets
from ..cube.pieces import facelets_to_state as puzzle_facelets_to_state
from ..cube.puzzle import DEFAULT_PUZZLE, puzzle, puzzle_of_facelets
from ..executors.local import LocalExecutor
from ..executors.messages import LoadReport, Outcome, Task, TaskKey
from ..interrupts import exit_status, terminate_as_interrupt
from ..records.schema import Record, Status
from ..registry import load_settings_file, resolve
from ..runconfig import RunConfig, SolverSpec
from ..settings import SettingsError, parse_assignments
from ..sink import failure_record, verdict
from ..solver import DEFAULT_TIME_LIMIT_S, Budget
from ..suites.model import MAX_SCRAMBLE_MOVES


class _OneAnswer:
    """The sink for a single cube: the run's own verdicts, kept instead of written."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.record: Record | None = None

    def ready(self, report: LoadReport) -> None:
        pass

    def result(self, task: Task, message: Outcome) -> None:
        self.record = verdict(message, task, (None, None), self.budget)

    def failure(self, task: Task, status: Status, error: str, wall: float | None) -> None:
        self.record = failure_record(task, status, error, wall)


def solve_command(
    scramble: Annotated[str | None, typer.Argument(help='a scramble, e.g. "R U2 F\'"')] = None,
    facelets: Annotated[
        str | None, typer.Option(help="the cube as a 54-letter facelet string")
    ] = None,
    solver: Annotated[str, typer.Option("--solver", "-s")] = "kociemba",
    setting: Annotated[
        list[str] | None, typer.Option("--set", metavar="KEY=VALUE", help="key=value")
    ] = None,
    settings_file: Annotated[
        Path | None, typer.Option("--settings", help="TOML file: a \\[solver] table")
    ] = None,
    time_limit: Annotated[
        float, typer.Option(help="seconds, of the --budget clock")
    ] = DEFAULT_TIME_LIMIT_S,
    budget: Annotated[
        str,
        typer.Option(
            "--budget",
            help="what --time-limit counts: cpu, the solver's CPU seconds (a busy machine "
            "changes no answer; the wall clock stops a cube at 3x), or wall (a GPU solver)",
        ),
    ] = "cpu",
    memory_limit_gb: Annotated[float, typer.Option(help="kill the solver above this size")] = 8.0,
    puzzle_name: Annotated[
        str,
        typer.Option(
            "--puzzle", help="cube2, cube3 or cube4; default: the facelets' size, else cube3"
        ),
    ] = "",
) -> None:
    """Solve one cube and print the solution the harness verified.

    The solver runs in a worker process under the same outside limits as ``bench run``: a
    solver that hangs, crashes, exits or overspends gives a status line, never a hang.
    """
    if (scramble is None) == (facelets is None):
        raise SettingsError("give either a scramble or --facelets, not both or neither")
    if scramble is not None and len(scramble.split()) > MAX_SCRAMBLE_MOVES:
        raise SettingsError(  # before a long parse: said at once
            f"the scramble has {len(scramble.split())} moves; a scramble holds at most "
            f"{MAX_SCRAMBLE_MOVES}"
        )
    cube = puzzle(puzzle_name or (puzzle_of_facelets(facelets) if facelets else DEFAULT_PUZZLE))
    if scramble is not None:
        moves = cube.parse_moves(scramble)
        if len(moves) > MAX_SCRAMBLE_MOVES:  # "R2U" spellings without spaces
            raise SettingsError(
                f"the scramble has {len(moves)} moves; a scramble holds at most "
                f"{MAX_SCRAMBLE_MOVES}"
            )
        state = cube.apply(cube.solved, moves)
    else:
        assert facelets is not None  # one of the two, checked above
        if cube.name == DEFAULT_PUZZLE:
            state = facelets_to_state(facelets)
        else:
            state = puzzle_facelets_to_state(cube, facelets)
    settings = {}
    if settings_file is not None:
        tables = load_settings_file(settings_file)
        unknown = set(tables) - {solver}
        if unknown:
            raise SettingsError(
                f"settings file {settings_file} names solver {sorted(unknown)[0]!r}, not {solver!r}"
            )
        settings.update(tables.get(solver, {}))
    settings.update(parse_assignments(setting or []))
    # one cube as a run of one entry: the same limits, checks, job and verdicts as bench run
    spec = SolverSpec(solver, settings)
    config = RunConfig(
        solvers=(spec,),
        suites=(),
        time_limit=time_limit,
        memory_limit_gb=memory_limit_gb,
        clock=budget,
    )
    entry = resolve(solver, settings)  # a bad setting is refused before a worker starts
    if cube.name not in entry.puzzles:
        raise SettingsError(f"solver {solver} solves {', '.join(entry.puzzles)}, not {cube.name}")
    job = config.job(spec, entry)
    sink = _OneAnswer(config.budget)
    executor = LocalExecutor()
    shown = (
        state_to_facelets(state)
        if cube.name == DEFAULT_PUZZLE
        else "".join("URFDLB"[c] for c in state)
    )
    task = Task(TaskKey(solver, "cli", 0), shown, cube.name)
    try:
        with terminate_as_interrupt():
            executor.run(job, [task], sink, executor.preload([job])[solver])
    except KeyboardInterrupt as exc:
        typer.echo("interrupted", err=True)
        raise typer.Exit(exit_status(exc)) from None
    record = sink.record
    if record is None:  # an executor reports every task it is given
        raise RuntimeError("the executor returned without an answer")
    if record.length_htm is None:  # no answer to show: say so, not "None"
        typer.echo(f"cube:     {shown}")
        typer.echo(f"status:   {record.status} ({record.error})")
        raise typer.Exit(1)
    typer.echo(f"cube:     {shown}")
    typer.echo(f"status:   {record.status}" + (f" ({record.error})" if record.error else ""))
    typer.echo(f"solution: {record.moves}")
    wall = "-" if record.wall_s is None else f"{record.wall_s:.3f} s"
    if record.cpu_s is not None:
        wall += f" ({record.cpu_s:.3f} CPU s)"
    typer.echo(
        f"length:   {record.length_htm} HTM, {record.length_qtm} QTM; "
        f"{wall}, {record.nodes} nodes, {record.model_calls} model calls"
    )
    if record.status != "solved":
        if record.info:  # what the solver said about it (a reason for giving up, its effort)
            typer.echo(f"info:     {record.info}")
        raise typer.Exit(1)
