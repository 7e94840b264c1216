"""``bench report`` and ``bench compare``. pandas/seaborn load only when these run."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ..naming import ArgumentError, check_entry_name
from ..paths import home_dir
from ..report.rules import Rule

RunsArgument = Annotated[
    list[Path], typer.Argument(metavar="RUN...", help="run folders to put in one report")
]
BaselineOption = Annotated[
    str | None,
    typer.Option(help="entry every other is compared with (default: kociemba if present)"),
]
FirstOption = Annotated[
    int | None, typer.Option(help="only each suite's first N cubes (runs of different lengths)")
]
ClaimsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--claims",
        metavar="ENTRY",
        help="count ENTRY's claimed, never replayed lengths as solved (repeat); "
        "no claim counts otherwise",
    ),
]
LabelOption = Annotated[
    list[str] | None,
    typer.Option(
        "--label",
        metavar="ENTRY=NAME",
        help="ENTRY=NAME or RUN/ENTRY=NAME: the name a report row shows (repeat)",
    ),
]


def report_command(
    runs: RunsArgument,
    out: Annotated[
        str | None,
        typer.Option(
            help="report folder: new, empty, or an earlier report's "
            "[default: $CUBEBENCH_HOME/reports/latest]"
        ),
    ] = None,
    title: Annotated[str, typer.Option(help="report title")] = "cubebench report",
    baseline: BaselineOption = None,
    first: FirstOption = None,
    label: LabelOption = None,
    claims: ClaimsOption = None,
    latex: Annotated[
        bool, typer.Option(help="also print each suite's leaderboard as a LaTeX table (booktabs)")
    ] = False,
) -> None:
    """A report of one or more runs: index.md and the results site (index.html), figures,
    and leaderboards.tex (each suite's table for a paper).

    An entry is a solver with everything that can change its answers (code, version,
    settings, checkpoint); two that differ in any of these are two rows, never merged.
    """
    from ..report.render import write_report  # heavy: loaded on use

    names = parse_labels(label or [])
    folder = out if out is not None else str(home_dir() / "reports" / "latest")
    path = write_report(runs, folder, title, baseline, first, names, tuple(claims or ()))
    if latex:
        typer.echo(path.with_name("leaderboards.tex").read_text(), nl=False)
    typer.echo(f"report: {path} (and {path.with_name('index.md')}, leaderboards.tex)")


def site_command(
    runs: RunsArgument,
    out: Annotated[
        str | None,
        typer.Option(
            help="site folder: new, empty, or an earlier site's [default: $CUBEBENCH_HOME/site]"
        ),
    ] = None,
    title: Annotated[str, typer.Option(help="site title")] = "cubebench results",
    baseline: BaselineOption = None,
    first: FirstOption = None,
    label: LabelOption = None,
    claims: ClaimsOption = None,
) -> None:
    """A static results site to click through: sortable leaderboards, figures, a page per
    entry, per solver-and-suite cell and per cube, with each answer replayed on the cube.

    The same pages `bench report` writes (one renderer); the folder needs nothing outside
    itself: open index.html from disk or publish the folder on any static file server.
    """
    from ..report.render import write_report  # heavy: loaded on use

    names = parse_labels(label or [])
    folder = out if out is not None else str(home_dir() / "site")
    path = write_report(runs, folder, title, baseline, first, names, tuple(claims or ()))
    pages = sum(1 for _ in path.parent.rglob("*.html"))
    typer.echo(f"site: {path} ({pages} pages)")


def parse_labels(texts: list[str]) -> dict[str, str]:
    """``--label ENTRY=NAME`` pairs; the name follows the last ``=`` (sweep entries' keys
    hold one, ``policy-mlp[beam_width=1024]``)."""
    names: dict[str, str] = {}
    for text in texts:
        entry, sep, name = text.rpartition("=")
        if not sep or not entry.strip() or not name.strip():
            raise ArgumentError(f"--label {text!r}: give ENTRY=NAME or RUN/ENTRY=NAME")
        if entry in names:
            raise ArgumentError(f"--label {entry}: given twice")
        names[entry] = check_entry_name(name.strip(), "--label")
    return names


def compare_command(
    runs: Annotated[
        list[Path], typer.Argument(metavar="RUN...", help="one run folder, or BASE and NEW")
    ],
    base: Annotated[
        str | None, typer.Option(help="entry of the (first) run to compare against")
    ] = None,
    new: Annotated[str | None, typer.Option(help="entry of the (last) run compared")] = None,
    fail_if: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-if",
            metavar="RULE",
            help="e.g. 'solve_rate<-1pp', 'length>+0.5', 'time>+20%' (repeat)",
        ),
    ] = None,
    csv: Annotated[Path | None, typer.Option(help="also write the full table here")] = None,
    claims: ClaimsOption = None,
) -> None:
    """Two entries head to head on the cubes both attempted; exit 1 when a threshold is crossed.

    One run: ``--base A --new B`` name two of its entries. Two runs: entries of the same name
    are paired (a regression check), or ``--base`` of the first against ``--new`` of the
    second. Nothing to pair is an error (exit 2), never an empty pass.
    """
    from ..report.compare import (  # heavy: loaded on use
        failures,
        head_to_head,
        printable_groups,
    )
    from ..report.formatting import write_csv

    rules = [Rule.parse(text) for text in fail_if or []]
    if csv is not None:
        check_csv_path(csv)
    table = head_to_head(runs, base, new, tuple(claims or ()))
    if csv is not None:
        try:
            write_csv(table, csv)
        except OSError as exc:
            raise ArgumentError(f"--csv {csv}: cannot write it ({exc.strerror or exc})") from None
    with __import__("pandas").option_context("display.width", 250, "display.max_columns", 30):
        for heading, part in printable_groups(table):
            typer.echo(heading)
            typer.echo(part.to_string(index=False))
    crossed = failures(table, rules)
    for line in crossed:
        typer.echo(f"FAIL: {line}", err=True)
    if crossed:
        raise typer.Exit(1)


def leaderboard_command(
    runs: Annotated[list[Path], typer.Argument(metavar="RUN...", help="run folders, any suites")],
    claims: ClaimsOption = None,
    first: FirstOption = None,
) -> None:
    """The DeepCubeA-set table: runs on that set (QTM) beside the published results.

    ``--first N``: every run on the set's first N cubes only, so that a short run of yours
    stands beside the same cubes of a peer's imported run (the rows copied from papers
    cover all 1000, and say so)."""
    from ..report.frame import drop_repeats, load_runs  # heavy: on use
    from ..report.leaderboard import leaderboard
    from ..report.render import format_table, markdown_table

    if first is not None and first < 1:
        raise ArgumentError(f"--first {first}: give a number of cubes, 1 or more")
    data, loaded = load_runs(runs, claims=tuple(claims or ()))
    data, _ = drop_repeats(data, loaded)
    if first is not None:
        data = data[data["instance"] < first].reset_index(drop=True)
    table = leaderboard(data, loaded)
    if table["source"].str.startswith("published: ").all():
        typer.echo(
            "none of these runs covers the DeepCubeA test set; import it with "
            "`bench suites import deepcubea data_0.pkl --name deepcubea-test` and run on it",
            err=True,
        )
    typer.echo(markdown_table(format_table(table)))
    from ..report.leaderboard import deepcubea_suites
    from ..report.tables import by_optimal_distance, distance_matrix

    difficulty = by_optimal_distance(data[data["suite"].isin(deepcubea_suites(loaded))])
    if len(difficulty):
        typer.echo("\nShare solved optimally, by optimal distance (cubes at that distance):\n")
        typer.echo(markdown_table(distance_matrix(difficulty)))


def doc_tables_command(
    files: Annotated[
        list[Path], typer.Argument(metavar="FILE...", help="Markdown documents with results-tables")
    ],
    results: Annotated[Path, typer.Option(help="folder of the cited runs")] = Path("results"),
    write: Annotated[bool, typer.Option(help="regenerate stale tables in place")] = False,
) -> None:
    """Check (or --write) the result tables in documents against the runs they cite."""
    from ..report.doctables import BLOCK, check_files  # heavy: loaded on use

    stale = check_files(files, results, write)
    for path in stale:
        typer.echo(f"{'rewrote' if write else 'stale'}: {path}")
    tables = sum(len(BLOCK.findall(path.read_text(encoding="utf-8"))) for path in files)
    if not stale:
        typer.echo(f"{tables} tables in {len(files)} files checked: all match their runs")
    if stale and not write:
        raise typer.Exit(1)


def check_csv_path(path: Path) -> None:
    """Refuse a ``--csv`` that cannot be written (a folder, a missing or read-only folder)
    before any work; an existing file there is replaced, as the option says."""
    if path.is_dir() or path.is_symlink():
        raise ArgumentError(f"--csv {path}: is a folder or a link; give a file's path")
    parent = path.absolute().parent
    if not parent.is_dir():
        raise ArgumentError(f"--csv {path}: its folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ArgumentError(f"--csv {path}: its folder {parent} is not writable")
