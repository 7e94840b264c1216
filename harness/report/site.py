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

from .figures import RANDOM_SUITE_PREFIX
from .formatting import format_table
from .frame import LoadedRun
from .site_assets import CSS, script
from .site_html import cell_href, cube_href, entry_href, esc, page, slug, table
from .site_pages import (
    cell_page,
    cube_facelets,
    cube_page,
    disagreeing,
    Verdicts,
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


def _index(content: SiteContent, verdicts: Verdicts) -> str:
    body = [f"<p class='note'>{esc(p)}</p>" for p in content.intro]
    matrix = content.matrix
    links = {
        (i, suite): cell_href(suite, label)
        for i, label in enumerate(matrix["solver"])
        for suite in matrix.columns[2:]
        if str(matrix.iloc[i][suite]).strip()
    }
    body += [
        "<h2 id='matrix'>Solved, by solver and suite</h2>",
        "<p class='note'>Solve rate, and in brackets the mean length of the solved cubes in "
        "the metric the entry searched. Each cell opens its cubes.</p>",
        table(matrix, links),
    ]
    for section in content.sections:
        anchor = f" id='{section.anchor}'" if section.anchor else ""
        body.append(f"<h2{anchor}>{esc(section.heading)}</h2>")
        if section.note:
            body.append(f"<p class='note'>{esc(section.note)}</p>")
        frame = section.table
        peer = [
            "peer" if str(s).startswith(("published", "imported")) else ""
            for s in (frame["source"] if "source" in frame.columns else [""] * len(frame))
        ]
        body.append(table(frame, row_class=peer))
    for figure in content.figures:
        alt = f"{figure.caption}, on {figure.cubes} cubes"
        body.append(
            f"<figure id='figure-{figure.name}'><img src='{figure.path.name}' alt='{esc(alt)}' "
            f"><figcaption>{esc(figure.caption)}: {figure.cubes} cubes."
            "</figcaption></figure>"
        )
    if content.left_out:
        body.append(f"<p class='note'>{esc(content.left_out)}</p>")
    labels = sorted(content.data["label"].unique())
    fit = {label: entry_fit(label, content.data, verdicts) for label in labels}
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
    body.append("</ul>")
    return page(content.title, "".join(body), 0)


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


def leaderboards(numbers: pd.DataFrame, data: pd.DataFrame, runs: list[LoadedRun]) -> list[Section]:
    """One sortable leaderboard per suite from the summary's numbers."""
    where = data.groupby("label")["hardware"].first()
    devices = _devices(runs, data)
    sections = []
    for suite, group in numbers.groupby("suite", sort=False):
        board = group.drop(columns=["suite"]).rename(columns={"solver": "entry"})
        board = board.drop(columns=[c for c in board.columns if c.startswith(("HTM CI", "mean n"))])
        board["hardware"] = board["entry"].map(where)
        board["processor"] = board["entry"].map(devices)
        sections.append(
            Section(f"Leaderboard: {suite}", "", format_table(board), f"board-{slug(str(suite))}")
        )
    return sections


def write_site(out: Path, content: SiteContent) -> Path:
    """Write the site into ``out``, a fresh folder the report builds in (the figures
    already there: :func:`cubebench.harness.outfolder.building`); returns ``index.html``."""
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    (assets / "site.css").write_text(CSS)
    (assets / "site.js").write_text(script())
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
