"""``bench ls`` and ``bench show``: what exists, and how a run went."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

from cubebench.harness.metrics import summarize
from cubebench.harness.records.provenance import describe_origin
from cubebench.harness.records.store import RunStore
from cubebench.harness.registry import available_solvers, solver_extras
from cubebench.harness.suites.registry import list_suites


def print_matrix(store: RunStore) -> None:
    """Suite by entry: the solve rate and mean length of each, one cell each (what a run's
    terminal ends with; ``bench show`` and the report keep the long table)."""
    from cubebench.harness.report.frame import load_runs  # pandas: loaded on use
    from cubebench.harness.report.tables import matrix_table

    data, _ = load_runs([store.folder])
    matrix = matrix_table(data).set_index("solver")
    headers = [f"{escape(s)} ({m})" for s, m in matrix["metric"].items()]
    table = Table(*(Column(h, no_wrap=True) for h in ["suite", *headers]))
    table.title = f"run {store.run_id}: solved (mean length of the solved cubes)"
    rows = [
        [escape(suite), *(str(matrix.loc[s, suite]) for s in matrix.index)]
        for suite in matrix.columns.drop("metric")
    ]
    for row in rows:
        table.add_row(*row)
    console = Console()
    if not console.is_terminal:  # a log or a pipe: no terminal width to fit, keep cells whole
        columns = zip(["suite", *headers], *rows, strict=True)
        widths = [max(len(c) for c in column) for column in columns]
        console = Console(width=max(80, sum(w + 3 for w in widths) + 1))
    console.print(table)


def print_summary(store: RunStore) -> None:
    """A table per run: solve rate with its 95% interval, lengths, gap, time, effort."""
    store.read_manifest()  # refuses a folder that is not a run
    table = Table(
        "solver",
        "suite",
        "n",
        "solved",
        "95% CI",
        "HTM",
        "QTM",
        "gap",
        "optimal",
        "median s",
        "p90 s",
        "nodes",
        "other",
        title=f"run {store.run_id}",  # the folder's name: what the user typed and sees
    )
    fmt = lambda v, spec: "-" if v is None else format(v, spec)  # noqa: E731
    for s in summarize(store.read_records()):
        other = ", ".join(f"{k} {v}" for k, v in s.statuses.items() if k != "solved")
        table.add_row(
            escape(s.solver),  # a sweep's label has [brackets], which rich reads as markup
            escape(s.suite),
            str(s.n),
            f"{100 * s.rate:.1f}%",
            f"{100 * s.rate_low:.1f}–{100 * s.rate_high:.1f}",
            fmt(s.mean_htm, ".2f"),
            fmt(s.mean_qtm, ".2f"),
            fmt(s.mean_gap, ".2f"),
            fmt(None if s.optimal_share is None else 100 * s.optimal_share, ".0f")
            + ("%" if s.optimal_share is not None else ""),
            fmt(s.median_s, ".3f"),
            fmt(s.p90_s, ".3f"),
            fmt(s.mean_nodes, ".3g"),
            other,
        )
    console = Console()
    if not console.is_terminal:  # files and pipes get the whole table, not 80 columns
        console = Console(width=200)
    console.print(table)


def ls_command(
    what: Annotated[str, typer.Argument(help="solvers, suites or runs")],
    out: Annotated[Path, typer.Option(help="folder that holds run folders")] = Path("results"),
) -> None:
    """List registered solvers, suites, or stored runs."""
    if what == "solvers":
        for name, target in available_solvers().items():
            _, packages = solver_extras(name)
            needs = ", ".join(f"{p} {v or '(not installed)'}" for p, v in packages.items())
            extra = f"  [needs {needs}]" if packages else ""
            typer.echo(f"{name:<20} {target}{extra}")
    elif what == "suites":
        for info in list_suites():
            typer.echo(f"{info.name:<20} {info.count:>6}  {info.sha256[:16]}  {info.origin}")
    elif what == "runs":
        for folder in sorted(p for p in out.glob("*") if (p / "manifest.json").exists()):
            manifest = RunStore(folder).read_manifest()
            state = "finished" if manifest.get("finished") else "unfinished"
            solvers = ", ".join(manifest.get("solvers", {}))
            typer.echo(f"{folder.name:<44} {state:<10} {solvers}")
    else:
        raise typer.BadParameter(f"cannot list {what!r}; choose solvers, suites or runs")


def show_command(run: Annotated[Path, typer.Argument(help="run folder")]) -> None:
    """Summary table of one run, with its provenance."""
    store = RunStore(run)
    manifest = store.read_manifest()
    git = manifest.get("git", {})
    machine = manifest.get("machine", {})
    typer.echo(f"command: {' '.join(manifest.get('command', []))}")
    isa = machine.get("isa", "isa not recorded")
    bf16 = {True: ", native bf16", False: ", no native bf16"}.get(machine.get("native_bf16"), "")
    if machine.get("onednn_max_isa"):
        bf16 += f", capped: ONEDNN_MAX_CPU_ISA={machine['onednn_max_isa']}"
    typer.echo(
        f"commit {git.get('commit')} (dirty: {git.get('dirty')}); {machine.get('cpu')} "
        f"({isa}{bf16}), {machine.get('cores')} cores; started {manifest.get('started')}, "
        f"finished {manifest.get('finished')}"
    )
    for name, solver in manifest.get("solvers", {}).items():
        origin = solver.get("origin", {})
        if origin.get("registered", "built-in") != "built-in" or origin.get("packages"):
            typer.echo(f"{name}: {describe_origin(solver['origin'])}")
        if "precision" in solver:
            typer.echo(
                f"{name}: precision {solver['precision']} ({solver.get('precision_reason')}), "
                f"{solver.get('threads')} thread(s) per worker"
                + (f", searching {solver['metric']}" if solver.get("metric") else "")
            )
    print_summary(store)
