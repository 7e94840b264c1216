"""``bench ls`` and ``bench show``: what exists, and how a run went."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ..naming import did_you_mean
from ..paths import runs_dir
from ..records.provenance import describe_origin
from ..records.schema import RecordError
from ..records.store import RunStore
from ..registry import available_solvers, plugin_distribution, solver_extras
from ..suites.catalog import list_suites
from .tables import breakable, print_fitted, say


def print_matrix(store: RunStore, console: Console | None = None) -> None:
    """Suite by entry: the solve rate and mean length of each, one cell each (``bench show
    --matrix``). Fitted to the terminal: entries that do not fit beside the suites follow in
    a further part."""
    from ..report.frame import load_runs  # pandas: loaded on use
    from ..report.tables import matrix_table

    data, _ = load_runs([store.folder])
    for puzzle, part in data.groupby("puzzle"):  # one table a puzzle, never two side by side
        _print_matrix(store, matrix_table(part).set_index("solver"), str(puzzle), console)


def _print_matrix(store: RunStore, matrix: Any, puzzle: str, console: Console | None) -> None:
    headers = ["suite", *(f"{s} ({m})" for s, m in matrix["metric"].items())]
    rows = [
        [suite, *(str(matrix.loc[s, suite]) for s in matrix.index)]
        for suite in matrix.columns.drop("metric")
    ]
    title = f"run {store.run_id}{_on(puzzle)}: solved (mean length of the solved cubes)"
    print_fitted(headers, rows, title, console)


def _on(puzzle: str) -> str:
    """What a title says of a table's puzzle: nothing on the 3×3×3, every table's cube."""
    return "" if puzzle == "cube3" else f" ({puzzle})"


CLOSING_WIDTH = 100
"""The closing table's widest line, on a terminal, in a log or through ``tee`` alike."""
KEY_SUITES = (
    "random-state-v1", "depth-20-v1", "depth-10-v1", "depth-05-v1", "depth-15-v1",
    "depth-07-v1", "depth-03-v1",
)  # fmt: skip
"""The suites the closing table shows first, most telling first (as the README's table)."""


def closing_columns(suites: list[str], widths: dict[str, int], room: int) -> list[str]:
    """The suites that fit ``room`` characters, most telling first, in the run's order."""
    ranked = [s for s in KEY_SUITES if s in suites] + [s for s in suites if s not in KEY_SUITES]
    chosen: list[str] = []
    for suite in ranked:
        if sum(widths[s] + 3 for s in [*chosen, suite]) <= room:
            chosen.append(suite)
    return [s for s in suites if s in chosen]


def _column_head(suite: str) -> str:
    """A suite's name as a column head: ``depth-10-v1`` is ``depth 10``."""
    for prefix in ("depth-", "qdepth-"):
        if suite.startswith(prefix) and suite.endswith("-v1"):
            return f"{prefix[:-1]} {int(suite[len(prefix) : -3])}"
    return suite.removesuffix("-v1")


def print_closing(store: RunStore, console: Console | None = None) -> None:
    """The short answer a run ends with: entries as rows, the most telling suites as
    columns, at most :data:`CLOSING_WIDTH` characters wide on any output; the whole matrix
    is ``bench show RUN --matrix``."""
    from ..report.frame import load_runs  # pandas: loaded on use
    from ..report.tables import matrix_table

    data, _ = load_runs([store.folder])
    for puzzle, part in data.groupby("puzzle"):  # one table a puzzle, never two side by side
        _print_closing(store, matrix_table(part), str(puzzle), console)


def _print_closing(store: RunStore, matrix: Any, puzzle: str, console: Console | None) -> None:
    import re

    from rich.markup import escape
    from rich.table import Column, Table

    suites = [c for c in matrix.columns if c not in ("solver", "metric")]
    names, cells = [], []
    for _, row in matrix.iterrows():
        counts = {m[1] for s in suites if (m := re.search(r" of (\d+)", str(row[s])))}
        plain = {s: re.sub(r" of \d+", "", str(row[s])) for s in suites}
        each = f", {counts.pop()} a suite" if len(counts) == 1 else ""
        names.append(f"{row['solver']} ({row['metric']}{each})")
        cells.append(plain if each else {s: str(row[s]) for s in suites})
    first = min(max(len(n) for n in names), 30)
    widths = {s: max(len(_column_head(s)), *(len(c[s]) for c in cells)) for s in suites}
    shown = closing_columns(suites, widths, CLOSING_WIDTH - first - 4)
    title = f"run {store.run_id}{_on(puzzle)}: solved (mean length of the solved cubes)"
    heads = [Column("entry", max_width=first)]
    heads += [Column(_column_head(s), no_wrap=True) for s in shown]
    table = Table(*heads)
    for name, row in zip(names, cells, strict=True):
        shown_name = breakable(name) if len(name) > first else name  # break only to fit
        table.add_row(escape(shown_name), *(row[s] for s in shown))
    out = Console(width=CLOSING_WIDTH, file=(console or Console()).file, force_terminal=False)
    out.print(title, highlight=False)
    out.print(table)
    left = len(suites) - len(shown)
    if left:
        out.print(f"{left} more suites: bench show {store.folder} --matrix", highlight=False)


SUMMARY_HEADERS = (
    "solver", "n", "solved", "95% CI", "HTM", "QTM", "gap", "optimal", "median s", "p90 s",
    "nodes", "other",
)  # fmt: skip


def seconds(value: float | None) -> str:
    """A time as a reader sees it: three decimals, or two significant digits under 1 ms."""
    if value is None:
        return "-"
    if value == 0 or abs(value) >= 0.001:
        return f"{value:.3f}"
    return f"{value:.2g}"


def summary_rows(store: RunStore):  # -> pd.DataFrame (pandas loads on use)
    """The run's summary: :data:`~cubebench.harness.report.stats.SUMMARY` per entry and
    suite, from the records with the optima their suites hold now, as every view has it."""
    from ..report.frame import load_runs  # pandas: loaded on use
    from ..report.stats import summarize

    data, _ = load_runs([store.folder])
    return summarize(data, statuses=True)


def print_summary(
    store: RunStore, console: Console | None = None, suites: list[str] | None = None
) -> None:
    """A table per suite of the run (``suites``: those only): each entry's solve rate with
    its 95% interval, lengths, gap, time and effort, fitted to the terminal."""
    manifest = store.read_manifest()  # refuses a folder that is not a run
    unknown = [s for s in suites or [] if s not in manifest.suites]
    if unknown:
        raise RecordError(
            f"--suite {unknown[0]!r}: not a suite of run {store.folder}; "
            f"{did_you_mean(unknown[0], manifest.suites)}"
        )

    def fmt(value: float, spec: str, suffix: str = "") -> str:
        return "-" if value is None or value != value else format(value, spec) + suffix

    by_suite: dict[str, list[list[str]]] = {}
    for row in summary_rows(store).to_dict("records"):
        by_suite.setdefault(row["suite"], []).append(
            [
                row["solver"],
                str(row["n"]),
                fmt(row["solved %"], ".1f", "%"),
                f"{row['CI low %']:.1f}–{row['CI high %']:.1f}",
                fmt(row["mean HTM"], ".2f"),
                fmt(row["mean QTM"], ".2f"),
                fmt(row["mean gap"], ".2f"),
                fmt(row["optimal %"], ".0f", "%"),
                seconds(None if row["median s"] != row["median s"] else row["median s"]),
                seconds(None if row["p90 s"] != row["p90 s"] else row["p90 s"]),
                fmt(row["mean nodes"], ".3g"),
                row["other"] or "-",
            ]
        )
    for suite, rows in by_suite.items():
        if not suites or suite in suites:
            print_fitted(SUMMARY_HEADERS, rows, f"run {store.run_id}, suite {suite}", console)


LISTS = ("solvers", "suites", "runs")


def ls_command(
    what: Annotated[str | None, typer.Argument(help="solvers, suites or runs")] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="folder that holds run folders [default: $CUBEBENCH_HOME/runs]"),
    ] = None,
) -> None:
    """List registered solvers, suites, or stored runs."""
    if what is None:
        typer.echo("bench ls solvers | suites | runs: what to list (" + ", ".join(LISTS) + ")")
        return
    if what == "solvers":
        for name, target in available_solvers().items():
            _, packages = solver_extras(name)
            found = [f"{p} {v}" for p, v in packages.items() if v]
            missing = [p for p, v in packages.items() if not v]
            extra = f"  [with {', '.join(found)}]" if found else ""
            extra += f"  [needs {', '.join(missing)}: not installed]" if missing else ""
            plugin = plugin_distribution(name)
            extra += f"  ({plugin[0]} {plugin[1]})" if plugin else ""
            typer.echo(f"{name:<20} {target}{extra}")
    elif what == "suites":
        for info in list_suites():
            typer.echo(f"{info.name:<20} {info.count:>6}  {info.sha256[:16]}  {info.origin}")
    elif what == "runs":
        # a hidden folder is one being written (an import's, a report's): never a run yet
        folder = out if out is not None else runs_dir()
        runs = (p for p in folder.glob("*") if not p.name.startswith("."))
        for folder in sorted(p for p in runs if (p / "manifest.json").exists()):
            try:
                manifest = RunStore(folder).read_manifest()
            except RecordError as exc:  # one bad manifest does not hide the others
                typer.echo(f"{folder.name:<44} unreadable  {str(exc)[:120]}")
                continue
            state = "finished" if manifest.finished else "unfinished"
            solvers = ", ".join(manifest.solvers)
            typer.echo(f"{folder.name:<44} {state:<10} {solvers}")
    else:
        raise typer.BadParameter(f"cannot list {what!r}; choose solvers, suites or runs")


def show_command(
    run: Annotated[Path, typer.Argument(help="run folder")],
    output: Annotated[
        str, typer.Option("--format", help="table (with provenance), json or csv (for scripts)")
    ] = "table",
    matrix: Annotated[
        bool, typer.Option("--matrix", help="only the suite × entry matrix, every suite")
    ] = False,
    suite: Annotated[
        list[str] | None,
        typer.Option("--suite", metavar="SUITE", help="only this suite's table (repeat)"),
    ] = None,
) -> None:
    """Summary table of one run, with its provenance; ``--format json`` or ``csv`` prints
    the same statistics as data (the report's ``summary.csv`` columns, and ``other``)."""
    if output not in ("table", "json", "csv"):
        raise RecordError(f"--format {output!r}: choose table, json or csv")
    store = RunStore(run)
    manifest = store.read_manifest()
    if matrix:
        print_matrix(store)
        return
    if output != "table":
        _print_data(summary_rows(store), output)
        return
    git, machine = manifest.git, manifest.machine
    say(f"command: {' '.join(manifest.command)}")
    if manifest.published:  # answers made elsewhere: say where, not this machine's blanks
        published = manifest.published
        say(
            f"answers of {published.get('system')}, from {published.get('file')} (replayed: "
            f"{'yes' if published.get('replayed') else 'no, lengths only'}); hardware as "
            f"published: {published.get('hardware')}; times: {published.get('times')}"
        )
        print_closing(store)
        print_summary(store, suites=suite or None)
        return
    isa = machine.get("isa", "isa not recorded")
    native = machine.get("native_bf16")
    bf16 = ", native bf16" if native is True else ", no native bf16" if native is False else ""
    if machine.get("onednn_max_isa"):
        bf16 += f", capped: ONEDNN_MAX_CPU_ISA={machine['onednn_max_isa']}"
    say(
        f"commit {git.get('commit')} (dirty: {git.get('dirty')}); {machine.get('cpu')} "
        f"({isa}{bf16}), {machine.get('cores')} cores; started {manifest.started}, "
        f"finished {manifest.finished}"
    )
    for name, pin in manifest.solvers.items():
        origin = dict(pin.origin or {})
        if origin.get("registered", "built-in") != "built-in" or origin.get("packages"):
            say(f"{name}: {describe_origin(origin)}")
        solver = pin.pinned
        skip = {"name", "precision", "precision_reason", "threads", "metric"}
        runtime = {k: v for k, v in solver.items() if k not in skip and v is not None}
        if runtime:  # what the solver reported of how it runs (its runtime_info), and pins
            say(f"{name}: " + ", ".join(f"{k} {_short(v)}" for k, v in runtime.items()))
        if "precision" in solver:
            say(
                f"{name}: precision {solver['precision']} ({solver.get('precision_reason')}), "
                f"{solver.get('threads')} thread(s) per worker"
                + (f", searching {solver['metric']}" if solver.get("metric") else "")
            )
    print_closing(store)  # the short answer first; a table a suite follows
    print_summary(store, suites=suite or None)


def _print_data(table, kind: str) -> None:  # table: pd.DataFrame
    """The summary as JSON (a list of rows, no number rounded, NaN as null) or CSV."""
    import io
    import json

    if kind == "json":
        rows = [
            {k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
            for row in table.to_dict("records")
        ]
        typer.echo(json.dumps(rows, indent=1, default=int))
        return
    from ..report.formatting import csv_safe

    buffer = io.StringIO()
    csv_safe(table).to_csv(buffer, index=False)
    typer.echo(buffer.getvalue(), nl=False)


def _short(value: object) -> str:
    text = str(value)
    return text[:12] + "…" if len(text) == 64 and text.isalnum() else text[:80]
