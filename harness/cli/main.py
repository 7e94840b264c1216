"""Entry point of ``bench``. Subcommands live in sibling modules and register here."""

from __future__ import annotations

import os
import re
import sys

import typer

from ..errors import InputError
from ..interrupts import Interrupted, exit_status
from ..runner import RunInterruptedError
from .published import check_command, runs_app
from .report import (
    compare_command,
    doc_tables_command,
    leaderboard_command,
    report_command,
    site_command,
)
from .run import run_command
from .settings import settings_command
from .show import ls_command, show_command
from .solve import solve_command
from .suites import suites_app
from .train import train_command

app = typer.Typer(
    help="cubebench: measure learned Rubik's Cube solvers on the same cubes.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"cubebench {version('cubebench')}")
        except PackageNotFoundError:
            typer.echo("cubebench (not installed: run from a checkout)")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: bool = typer.Option(
        False,
        "--version",
        help="print cubebench's version and exit",
        callback=_version,
        is_eager=True,
    ),
) -> None:
    """cubebench: measure learned Rubik's Cube solvers on the same cubes."""


app.add_typer(suites_app, name="suites")
app.add_typer(runs_app, name="runs")
app.command("run")(run_command)
app.command("ls")(ls_command)
app.command("show")(show_command)
app.command("solve")(solve_command)
app.command("settings")(settings_command)
app.command("report")(report_command)
app.command("site")(site_command)
app.command("compare")(compare_command)
app.command("leaderboard")(leaderboard_command)
app.command("doc-tables")(doc_tables_command)
app.command("check")(check_command)
app.command("train", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(
    train_command
)


def _readable_types() -> None:
    """typer 0.2x labels a repeatable parameter with its Python annotation (``<list[Path]>``);
    help reads ``<path>...`` instead. Where typer has no such hook, its own label stays."""
    from typer import core

    for kind in (getattr(core, "TyperArgument", None), getattr(core, "TyperOption", None)):
        original = getattr(kind, "display_type", None)
        if original is None or getattr(original, "readable", False):
            continue

        def display_type(self, ctx, _original=original) -> str:
            label = _original(self, ctx)
            return re.sub(r"<list\[(\w+)\]>", lambda m: f"<{m[1].lower()}>...", label)

        display_type.readable = True  # type: ignore[attr-defined]
        kind.display_type = display_type  # type: ignore[union-attr]


_readable_types()

# Errors that mean "the user's input is wrong": one clear line, no traceback. Every such
# error of the harness is an InputError (harness/errors.py); a missing file is Python's own.
USER_ERRORS = (InputError, FileNotFoundError)


def main() -> None:
    # the solvers' thread pools spin while idle unless told otherwise, which steals the cores
    # that other workers of the run measure on; a user's own setting stays
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        app()
    except USER_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except (RunInterruptedError, Interrupted) as exc:
        print(str(exc), file=sys.stderr)
        sys.exit(128 + exc.signum)
    except KeyboardInterrupt as exc:  # before or after a run's own handling: no traceback
        print("interrupted", file=sys.stderr)
        sys.exit(exit_status(exc))


if __name__ == "__main__":
    main()
