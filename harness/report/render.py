"""Write a report folder: figures (PNG + SVG), ``index.md`` and the results site.

The same computed tables go to the Markdown page (for a repository to show) and to the site
(:mod:`cubebench.harness.report.site`: the front page, a page per entry, per matrix cell
and per cube), which needs nothing outside its folder. Every report names the runs,
commands and manifests behind it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from ..cube.puzzle import DEFAULT_PUZZLE
from ..naming import did_you_mean
from ..outfolder import building, check_out_folder
from ..records.provenance import describe_origin
from ..records.schema import RecordError
from .budgets import within_budgets
from .compare import baseline_label, baseline_matrix, matrix_cells
from .figures import FIGURES, draw_all, draw_head_to_head
from .formatting import (
    format_table,
    latex_leaderboards,
    markdown_table,
    markdown_text,
    write_csv,
)
from .frame import LoadedRun, drop_repeats, load_runs
from .leaderboard import leaderboard
from .rules import NothingToCompareError
from .site import Figure, Section, SiteContent, cubes_drawn, leaderboards, write_site
from .site_charts import charts
from .site_glance import distance_heatmap
from .tables import (
    by_optimal_distance,
    distance_matrix,
    matrix_table,
    summary_table,
)

_BOARD_NOTE = (
    "Quarter-turn metric. Measured rows ran here on the hardware named; % optimal is against "
    "the optimum imported with the set, n is the number of its 1000 cubes the run covered. "
    "Published rows are their authors' figures on their own hardware, not measured here, "
    "with their sources."
)


def _provenance(runs: list[LoadedRun]) -> list[tuple[str, str]]:
    out = []
    for run in runs:
        m = run.manifest
        machine, git = m.machine, m.git
        solvers = "; ".join(
            f"{name} {dict(s.settings)}"
            + (f" checkpoint {s.checkpoint_sha256[:12]}…" if s.checkpoint_sha256 else "")
            + (f" ({describe_origin(dict(s.origin))})" if s.origin else "")
            + (
                f"; loads in {s.pinned['load_s']} s to {s.pinned.get('load_peak_rss_mb')} MB"
                if s.pinned.get("load_s") is not None
                else ""
            )
            for name, s in m.solvers.items()
        )
        suites = ", ".join(f"{n} ({i.sha256[:12]}…)" for n, i in m.suites.items())
        if m.published:  # answers made elsewhere: where they came from, not this machine
            where = (
                f"answers imported from {m.published.get('file')}; hardware as published: "
                f"{m.published.get('hardware')}; times: {m.published.get('times')}"
            )
        else:
            where = (
                f"commit {git.get('commit')} (dirty: {git.get('dirty')}); {machine.get('cpu')}, "
                f"{machine.get('cores')} cores, {machine.get('memory_gb')} GB, "
                f"GPU {machine.get('gpu') or 'none'}"
            )
        text = (
            f"command `{' '.join(m.command)}`; {where}; packages {dict(m.packages)}; started "
            f"{m.started}, finished {m.finished}; solvers: {solvers}; suites: {suites}"
        )
        out.append((m.run_id, text))
    return out


DEFAULT_BASELINE = "kociemba"


def write_report(
    run_folders: list[Path],
    out: Path | str,
    title: str = "cubebench report",
    baseline: str | None = None,
    first: int | None = None,
    labels: dict[str, str] | None = None,
    claims: tuple[str, ...] = (),
) -> Path:
    """Build the report of ``run_folders`` in ``out``; returns the path of ``index.html``.

    ``out`` is a new or empty folder, or one an earlier report or site wrote and nobody
    added to since (:mod:`cubebench.harness.outfolder`): the report is built beside it and
    swapped in whole; any other folder is refused before any work.

    ``baseline``: the entry every other is compared with, head to head on the same cubes
    (default: the reference solver, ``kociemba``, when the runs have it). ``first``: only
    each suite's first ``first`` cubes, so that runs which went to different lengths (a
    long run beside short sweeps) are summed over the same cubes. ``labels``: names for
    entries (``ENTRY`` or ``RUN/ENTRY`` to a name), as :func:`load_runs` takes them;
    ``claims``: entries whose claimed, never replayed lengths count as solved.
    """
    if first is not None and first < 1:
        raise RecordError(f"--first {first}: give a number of cubes, 1 or more")
    out = check_out_folder(out)  # before any work: a folder of the user's is never touched
    data, runs = load_runs(run_folders, labels, claims)
    if first is not None:
        data = data[data["instance"] < first].reset_index(drop=True)
    data, repeats = drop_repeats(data, runs)
    if baseline is not None and baseline_label(data, baseline) is None:
        names = set(data["solver"]) | set(data["label"])
        raise NothingToCompareError(
            f"--baseline {baseline!r}: no such entry in these runs; {did_you_mean(baseline, names)}"
        )
    parts = _by_puzzle(data)
    (main, rows), others = parts[0], parts[1:]
    if others:  # one report a puzzle: the main one here, each other one in a folder of its own
        title = f"{title} ({main}; " + ", ".join(f"{p}: {p}/" for p, _ in others) + ")"
    with building(out, "report") as fresh:
        for name, part in others:
            (fresh / name).mkdir()
            chosen = baseline_label(part, baseline or DEFAULT_BASELINE)
            _write(fresh / name, part, runs, repeats, f"{title}: {name}", chosen, first)
        chosen = baseline_label(rows, baseline or DEFAULT_BASELINE)
        _write(fresh, rows, runs, repeats, title, chosen, first)
    return out / "index.html"


def _by_puzzle(data: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The records split by puzzle, the 3×3×3's first: a table shows one puzzle's cubes
    (:func:`~cubebench.harness.report.frame.one_puzzle`), so a run over several puzzles
    (the default benchmark) gets a report for each."""
    names = sorted(set(data["puzzle"]), key=lambda p: (p != DEFAULT_PUZZLE, p))
    return [(p, data[data["puzzle"] == p].reset_index(drop=True)) for p in names]


def _write(
    out: Path,
    data: pd.DataFrame,
    runs: list[LoadedRun],
    repeats: list[str],
    title: str,
    baseline: str | None,
    first: int | None,
) -> Path:
    """Every file of the report, into the fresh folder ``out``."""
    figures = draw_all(data, out)
    against_numbers = _against(data, baseline, out, figures) if baseline else None
    against = matrix_cells(against_numbers) if against_numbers is not None else None
    budget = within_budgets(data)
    if len(budget):
        write_csv(budget, out / "time-budgets.csv")
    budget_shown = format_table(budget) if len(budget) else budget
    difficulty = by_optimal_distance(data)
    if len(difficulty):
        write_csv(difficulty, out / "by-optimal-distance.csv")
    difficulty_shown = distance_matrix(difficulty)
    numbers = summary_table(data)
    write_csv(numbers, out / "summary.csv")  # numbers, intervals in their own columns
    (out / "leaderboards.tex").write_text(latex_leaderboards(numbers))  # for papers
    summary = format_table(numbers)
    matrix = matrix_table(data)
    board = leaderboard(data, runs)
    measured_board = (~board["source"].str.startswith("published: ")).any()
    if measured_board:
        write_csv(board, out / "deepcubea.csv")
    board = format_table(board)
    runs_text = _provenance(runs)
    note = (
        "Depth-k suites are canonical scrambles of exactly k moves; the distance to solved "
        "is at most k and often less. Optimal lengths are exact where a suite holds them: to "
        "10 moves from a breadth-first table, beyond that where the optimal solver proved "
        "them (bench suites annotate). Solve rates carry 95% Wilson intervals; every "
        "solution was replayed and verified by the harness."
    )
    if repeats:
        note += (
            " An entry measured again on the same cubes counts once: " + "; ".join(repeats) + "."
        )
    generated = datetime.now(UTC).isoformat(timespec="seconds")
    scope = f" (the first {first} cubes of each suite)" if first is not None else ""
    missing = [caption for name, (caption, _) in FIGURES.items() if name not in figures]
    left_out = (
        "Not drawn, for want of data in these runs (no depth-k or qdepth-k suite, no "
        "random-state suite, no solved cube or no known optimum): " + "; ".join(missing) + "."
        if missing
        else ""
    )

    md = [
        f"# {markdown_text(title)}",
        "",
        f"Generated {generated} from {len(runs)} run(s){scope}.",
        "",
        markdown_text(note),
        "",
        "## Solved, by solver and suite",
        "",
        "Solve rate, and in brackets the mean length of the solved cubes in the metric the "
        "entry searched.",
        "",
        markdown_table(matrix),
        "",
    ]
    if against is not None:
        md += [
            f"## Against {markdown_text(baseline)}",
            "",
            _AGAINST_NOTE,
            "",
            markdown_table(against),
            "",
        ]
    if measured_board:
        md += ["## The DeepCubeA test set", "", _BOARD_NOTE, "", markdown_table(board), ""]
    if len(difficulty):
        md += [
            "## By optimal distance",
            "",
            _DISTANCE_NOTE,
            "",
            markdown_table(difficulty_shown),
            "",
        ]
    if len(budget):
        md += ["## Within a time budget", "", _BUDGET_NOTE, "", markdown_table(budget_shown), ""]
    md += ["## Summary", "", markdown_table(summary), ""]
    for caption, paths, _ in figures.values():
        md += [f"## {caption}", "", f"![{caption}]({paths[0].name})", ""]
    if left_out:
        md += [left_out, ""]
    md += ["## Runs", ""]
    md += [f"- **{markdown_text(rid)}**: {markdown_text(text)}" for rid, text in runs_text]
    (out / "index.md").write_text("\n".join(md) + "\n")

    sections = [
        Section("The DeepCubeA test set", _BOARD_NOTE, board, "deepcubea")
        if measured_board
        else None,
        *leaderboards(numbers, data, runs),
        Section(
            "By optimal distance",
            _DISTANCE_NOTE + _DISTANCE_SITE,
            difficulty_shown,
            "difficulty",
            html=distance_heatmap(difficulty),
        )
        if len(difficulty)
        else None,
        Section("Within a time budget", _BUDGET_NOTE, budget_shown, "budgets")
        if len(budget)
        else None,
    ]
    content = SiteContent(
        title=title,
        intro=[f"Generated {generated} from {len(runs)} run(s){scope}.", note],
        matrix=matrix,
        sections=[s for s in sections if s is not None],
        figures=[
            Figure(name, caption, paths[0], cubes_drawn(name, table, data))
            for name, (caption, paths, table) in figures.items()
        ],
        left_out=left_out,
        runs_text=runs_text,
        data=data,
        runs=runs,
        charts=charts(figures, data),
        against=against_numbers,
        baseline=baseline or "",
    )
    return write_site(out, content)


_DISTANCE_NOTE = (
    "Difficulty: on the cubes whose optimum is known, the share each entry solved optimally "
    "at each optimal distance (in the metric it searched), with the number of cubes at that "
    "distance; by-optimal-distance.csv also holds the solve rate. A peer's published lengths "
    "that could not be replayed (moves unpublished) count only where the report was asked "
    "to count them (--claims ENTRY)."
)

_DISTANCE_SITE = (
    " Here each cell is the share solved optimally (%), coloured as the matrix; hover for "
    "the counts."
)

_BUDGET_NOTE = (
    "On the fully scrambled cubes: for a budget of 1, 10 and 60 s a cube, among the entries "
    "that attempted the suite's most cubes and solved every one with a median time within "
    "the budget, the shortest mean length, who reaches it and its median time. Times are "
    "the records' own, taken on the hardware named, with the number of processes that solved "
    "at once (more than one share the cores); published figures are never on this axis."
)

_AGAINST_NOTE = (
    "Each entry against the baseline on the cubes both attempted: the solve-rate difference "
    "in points with McNemar's exact p on the cubes only one of them solved; then, on the cubes "
    "both solved, the mean paired length difference in each metric (HTM, QTM) with its 95% "
    "bootstrap interval (negative: shorter than the baseline). The head-to-head figure shows "
    "every such cube's face-turn difference."
)


def _against(data: pd.DataFrame, baseline: str, out: Path, figures: dict) -> pd.DataFrame | None:
    """The baseline matrix's numbers (``against-baseline.csv``), and the head-to-head
    figure added to ``figures``."""
    table = baseline_matrix(data, baseline)
    if table.empty:
        return None
    drawn = draw_head_to_head(data, out, baseline)
    if drawn is not None:
        figures["head_to_head"] = drawn
    write_csv(table, out / "against-baseline.csv")
    return table
