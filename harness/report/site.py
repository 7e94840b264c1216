"""The results site: a folder of static pages a reader clicks through, from any file system.

``index.html`` holds the report (the solver × suite matrix, a sortable leaderboard per
suite, the comparison tables, the figures with their captions, the runs); every matrix
cell opens the list of its cubes, with the cubes where the entries disagree first; every
cube opens a page with its state drawn as a net and each entry's answer, verdict and a
stepper that replays the answer on the net. Entry pages say what ran: settings,
checkpoint, package, machine, precision, load time. No page fetches anything from outside
the folder, so it works from ``file://``, a static server, or a copy sent as an archive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .charts import Chart
from .charts import render as render_chart
from .figures import RANDOM_SUITE_PREFIX
from .formatting import format_table, natural_key
from .frame import LoadedRun
from .leaderboard import deepcubea_suites
from .site_assets import CSS, script
from .site_forest import forest
from .site_glance import FAMILIES, families, first_screen, fully_scrambled, heatmap
from .site_html import cell_href, cube_href, entry_href, esc, page, slug, table
from .site_interact import CSS as INTERACT_CSS
from .site_interact import SCRIPT as INTERACT_SCRIPT
from .site_pages import (
    Verdicts,
    cell_page,
    cube_facelets,
    cube_page,
    disagreeing,
    entry_fit,
    entry_page,
    submission_verdicts,
)


@dataclass(frozen=True)
class Section:
    """A table of the front page: heading, the note that says how to read it, the rows."""

    heading: str
    note: str
    table: pd.DataFrame
    anchor: str = ""
    suite: str = ""  # a suite's own table: the suite-family filter hides it with its family
    html: str = ""  # drawn otherwise than as the table (a heatmap), the table kept for the CSV


@dataclass(frozen=True)
class Figure:
    name: str
    caption: str
    path: Path
    cubes: int


@dataclass(frozen=True)
class SiteContent:
    """Everything the report computed, for the site to lay out."""

    title: str
    intro: list[str]
    matrix: pd.DataFrame  # solver (the entry), metric, then one column per suite
    sections: list[Section]
    figures: list[Figure]
    left_out: str
    runs_text: list[tuple[str, str]]
    data: pd.DataFrame  # the records, one row per entry and cube
    runs: list[LoadedRun] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    against: pd.DataFrame | None = None  # compare.baseline_matrix, numbers
    baseline: str = ""


def _filters(data: pd.DataFrame, deepcubea: set[str]) -> str:
    """The filter bar: metric, suite family, entries (the page's script applies them)."""
    present = dict.fromkeys(families(data, deepcubea).values())
    family_options = "".join(
        f"<option value='{f}'>{esc(FAMILIES[f])}</option>" for f in FAMILIES if f in present
    )
    labels = sorted(data["label"].unique(), key=lambda x: natural_key(str(x)))
    boxes = "".join(
        f"<label><input type='checkbox' name='entry' value='{esc(label)}' checked> "
        f"{esc(label)}</label>"
        for label in labels
    )
    return (
        "<form class='filters' aria-label='filters' onsubmit='return false'>"
        "<label>Metric <select name='metric'><option value='all'>all</option>"
        "<option value='htm'>HTM entries</option><option value='qtm'>QTM entries</option>"
        "</select></label><label>Suites <select name='family'><option value='all'>all "
        f"families</option>{family_options}</select></label><details><summary>Entries "
        f"({len(labels)})</summary><div class='entry-list'>{boxes}</div></details></form>"
    )


def _clock(runs: list[LoadedRun]) -> str:
    clocks = {str((r.manifest.config or {}).get("clock") or "wall") for r in runs}
    return "cpu" if clocks == {"cpu"} else "wall"


def _index(content: SiteContent, verdicts: Verdicts) -> str:
    data = content.data
    deepcubea = deepcubea_suites(content.runs)
    body = [
        f"<p class='lede'>{esc(content.intro[0])} <a href='#how'>How to read it</a>.</p>",
        _filters(data, deepcubea),
    ]
    body += [
        first_screen(data, s, _clock([r for r in content.runs if s in r.manifest.suites]))
        for s in fully_scrambled(data, deepcubea)
    ]
    body += [
        "<h2 id='matrix'>Solved, by entry and suite</h2>",
        "<p class='note'>Colour: the solve rate (red none, yellow half, green all); inside, "
        "the mean length of the solved cubes in the metric the entry searched (a dashed "
        "cell: the entry's first cubes only, as many as its row says). Hover for the counts "
        "and the interval; a cell opens its cubes.</p>",
        heatmap(data, deepcubea),
    ]
    if content.against is not None and not content.against.empty:
        body += [
            f"<h2 id='against'>Against {esc(content.baseline)}</h2><p class='note'>"
            f"{esc(FOREST_NOTE)}</p>",
            forest(content.against, data, content.baseline),
        ]
    if content.charts:
        body.append("<h2 id='figures'>Figures</h2><div class='charts'>")
        body += [render_chart(chart) for chart in content.charts]
        body.append("</div>")
    fams = families(data, deepcubea)
    for section in content.sections:
        anchor = f" id='{section.anchor}'" if section.anchor else ""
        family = fams.get(section.suite, "") if section.suite else ""
        body.append(f"<section data-family='{family}'>" if family else "<section>")
        body.append(f"<h2{anchor}>{esc(section.heading)}</h2>")
        if section.note:
            body.append(f"<p class='note'>{esc(section.note)}</p>")
        if section.html:
            body.append(section.html + "</section>")
            continue
        frame = section.table
        peer = [
            "peer" if str(s).startswith(("published", "imported")) else ""
            for s in (frame["source"] if "source" in frame.columns else [""] * len(frame))
        ]
        body.append(table(frame, row_class=peer) + "</section>")
    if content.left_out:
        body.append(f"<p class='note'>{esc(content.left_out)}</p>")
    labels = sorted(data["label"].unique())
    fit = {label: entry_fit(label, data, verdicts) for label in labels}
    body.append(
        "<h2 id='entries'>Entries</h2><p class='note'>✓: the entry's runs pass <code>bench "
        "check</code> (the suite's cubes, each once, every answer replayed, provenance and "
        "times), fit for a leaderboard; ✗: its page says which check fails.</p><ul>"
    )
    body += [
        f"<li><a href='{entry_href(label)}'>{esc(label)}</a> "
        f"<span class='check'>{'✓' if fit[label] else '✗'}</span></li>"
        for label in labels
    ]
    body.append("</ul><h2 id='runs'>Runs</h2><ul>")
    body += [f"<li><b>{esc(rid)}</b>: {esc(text)}</li>" for rid, text in content.runs_text]
    body.append("</ul><h2 id='how'>How to read it</h2>")
    body += [f"<p class='note'>{esc(p)}</p>" for p in content.intro[1:]]
    body += [
        "<p class='note'>Figures for papers (PNG and SVG): "
        + ", ".join(f"<a href='{esc(f.path.name)}'>{esc(f.caption)}</a> ({f.cubes} cubes)"
                    for f in content.figures)
        + ".</p>"
    ] if content.figures else []  # fmt: skip
    return page(content.title, "".join(body), 0)


FOREST_NOTE = (
    "Each entry against the baseline on the cubes both attempted (pick a suite, or all pooled): "
    "the solve-rate difference in points (filled red: McNemar's exact p below 0.05; open: "
    "not significant), and on the cubes both solved the mean paired length difference in "
    "face turns and in quarter turns with its 95% bootstrap interval (left of the dashed "
    "line: shorter than the baseline). Click a point for every number behind it; "
    "against-baseline.csv holds them all."
)


def cubes_drawn(name: str, table: pd.DataFrame, data: pd.DataFrame) -> int:
    """How many cubes a figure stands on: the depth curves those of the depth suites, the
    random-state figures those of the random-state suites (the frontier all when there are
    none), the difficulty figure those with a known optimum, the rest every cube."""
    if "depth" in table.columns:
        shown = data[data["depth"].notna()]
    elif "qdepth" in table.columns or name.endswith("qdepth"):
        shown = data[data["qdepth"].notna()]
    elif name in ("random_lengths", "pareto"):
        shown = data[data["suite"].str.startswith(RANDOM_SUITE_PREFIX)]
        shown = shown if len(shown) or name != "pareto" else data
    elif name == "optimal_by_distance":
        shown = data[data["optimal_htm"].notna() | data["optimal_qtm"].notna()]
    else:
        shown = data
    return len(shown[["suite", "instance"]].drop_duplicates())


def _devices(runs: list[LoadedRun], data: pd.DataFrame) -> dict[str, str]:
    """Each entry's processor: the GPU it searched on, or CPU."""
    by_id = {r.run_id: r.manifest for r in runs}
    out: dict[str, str] = {}
    for label, run, key in (
        data[["label", "run", "solver"]].drop_duplicates().itertuples(index=False)
    ):
        manifest = by_id[run]
        entry = manifest.solvers.get(key)
        device = str(entry.settings.get("device", "cpu")) if entry is not None else "cpu"
        gpu = manifest.machine.get("gpu")
        out.setdefault(label, f"GPU ({gpu})" if device.startswith("cuda") and gpu else "CPU")
    return out


_BOARD_COLUMNS = (
    "entry", "n", "solved %", "95% CI", "mean HTM", "mean QTM", "n with optimum", "mean gap",
    "optimal %", "median s", "median CPU s", "p90 s",
)  # fmt: skip
"""The columns of a suite's leaderboard on the site (summary.csv holds every statistic)."""


def leaderboards(numbers: pd.DataFrame, data: pd.DataFrame, runs: list[LoadedRun]) -> list[Section]:
    """One sortable leaderboard per suite from the summary's numbers; the hardware and the
    processor said once above the table where every row shares them, else in a column."""
    where = data.groupby("label")["hardware"].first()
    devices = _devices(runs, data)
    sections = []
    for suite, group in numbers.groupby("suite", sort=False):
        board = group.drop(columns=["suite"]).rename(columns={"solver": "entry"})
        shown = format_table(board)
        shown["95% CI"] = [
            "" if pd.isna(lo) else f"{lo:.0f}–{hi:.0f}"
            for lo, hi in zip(board["CI low %"], board["CI high %"], strict=True)
        ]
        shown = shown[[c for c in _BOARD_COLUMNS if c in shown.columns]]
        hardware = board["entry"].map(where)
        processor = board["entry"].map(devices)
        note = ""
        if hardware.nunique() <= 1 and processor.nunique() <= 1:
            note = f"Every row on {hardware.iloc[0]}, {processor.iloc[0]}." if len(board) else ""
        else:
            shown = shown.assign(hardware=hardware.to_numpy(), processor=processor.to_numpy())
        sections.append(
            Section(f"Leaderboard: {suite}", note, shown, f"board-{slug(str(suite))}", str(suite))
        )
    return sections


def write_site(out: Path, content: SiteContent) -> Path:
    """Write the site into ``out``, a fresh folder the report builds in (the figures
    already there: :func:`cubebench.harness.outfolder.building`); returns ``index.html``."""
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    (assets / "site.css").write_text(CSS + INTERACT_CSS)
    (assets / "site.js").write_text(INTERACT_SCRIPT + script())
    verdicts = submission_verdicts(content.runs)
    (out / "index.html").write_text(_index(content, verdicts))
    data = content.data
    odd = disagreeing(data)
    for label in data["label"].unique():
        path = out / entry_href(label)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(entry_page(label, content.runs, data, verdicts))
    by_suite = {suite: rows for suite, rows in data.groupby("suite", sort=False)}
    for (suite, label), rows in data.groupby(["suite", "label"], sort=False):
        path = out / cell_href(suite, label)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(cell_page(str(suite), str(label), rows, odd, by_suite[suite]))
    facelets = cube_facelets(content.runs, data)
    for (suite, instance), rows in data.groupby(["suite", "instance"], sort=False):
        path = out / cube_href(suite, instance)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(cube_page(suite, int(instance), rows, facelets.get((suite, int(instance)))))
    return out / "index.html"
