"""``bench runs import`` and ``bench runs export``: runs that did not come from ``bench run``,
and one entry's answers written out; ``bench check``: is a submission fit for a leaderboard."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..paths import runs_dir

runs_app = typer.Typer(
    help="Runs that did not come from bench run (a peer's published answers, answers files), "
    "and answers written out."
)


@runs_app.command("import")
def import_command(
    fmt: Annotated[str, typer.Argument(help="answers, efficientcube or deepcubea-output")],
    path: Annotated[Path, typer.Argument(help="the file")],
    suite: Annotated[str, typer.Option(help="the suite its answers are for")],
    out: Annotated[
        Path | None,
        typer.Option(help="folder that holds run folders [default: $CUBEBENCH_HOME/runs]"),
    ] = None,
    run_id: Annotated[str | None, typer.Option(help="name of the run folder")] = None,
    system: Annotated[str | None, typer.Option(help="the entry's name in tables")] = None,
    metric: Annotated[str | None, typer.Option(help="answers: htm or qtm")] = None,
    hardware: Annotated[str | None, typer.Option(help="answers: where they were computed")] = None,
    version: Annotated[str | None, typer.Option(help="answers: the system's version")] = None,
    code: Annotated[str | None, typer.Option(help="answers: a code URL or commit")] = None,
    licence: Annotated[str | None, typer.Option(help="answers: the code's licence")] = None,
) -> None:
    """Judge answers computed elsewhere like a run's, into a run folder.

    ``answers``: the cubebench answers format (docs/harness.md), JSON Lines with its metadata
    first, or a CSV of ``id,moves`` with the metadata given as options (which also override a
    JSON Lines file's). EfficientCube's result pickle is replayed answer by answer;
    DeepCubeA's output.txt holds lengths only, recorded as claimed and never counted as verified.
    """
    command = ["bench", *sys.argv[1:]]
    out = out if out is not None else runs_dir()
    if fmt == "answers":
        from ..submissions import import_answers

        given = {"system": system, "metric": metric, "hardware": hardware, "version": version}
        given |= {"code": code, "licence": licence}
        meta = {k: v for k, v in given.items() if v is not None}
        store = import_answers(path, suite, out, run_id, meta, command)
    else:
        from ..published import import_published

        store = import_published(fmt, path, suite, out, run_id, system, command)
    statuses: dict[str, int] = {}
    for record in store.read_records():
        statuses[record.status] = statuses.get(record.status, 0) + 1
    counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    typer.echo(f"imported {store.folder}: {counts}")


@runs_app.command("export")
def export_command(
    run: Annotated[Path, typer.Argument(help="run folder")],
    entry: Annotated[str, typer.Option(help="the entry whose answers to write")],
    out: Annotated[Path, typer.Option(help="the answers file to write (a new file)")],
    suite: Annotated[str | None, typer.Option(help="the suite (where the run has several)")] = None,
) -> None:
    """Write one entry's answers on one suite in the cubebench answers format."""
    from ..submissions import export_answers

    written, count = export_answers(run, entry, out, suite)
    typer.echo(f"wrote {count} answers to {written}")


def check_command(
    path: Annotated[Path, typer.Argument(help="a run folder, or an answers file")],
    suite: Annotated[
        str | None, typer.Option(help="the suite, where the file does not say")
    ] = None,
) -> None:
    """Is a submission fit for a leaderboard? One line a check; exit 0 only when all pass."""
    from ..check import check_submission

    findings = check_submission(path, suite)
    for finding in findings:
        typer.echo(f"{'pass' if finding.ok else 'FAIL'}  {finding.check:<10}  {finding.message}")
    failed = [f.check for f in findings if not f.ok]
    typer.echo(
        f"{path}: {'fit' if not failed else 'not fit'} for a leaderboard"
        + (f" ({', '.join(failed)} failed)" if failed else "")
    )
    raise typer.Exit(1 if failed else 0)
