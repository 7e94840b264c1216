"""The site's front page at a glance: who is best on fully scrambled cubes, and how far from
the optimum (the first screen), then every entry against every suite as a heatmap.

Every row and column carries ``data-entry``, ``data-metric`` or ``data-family``, which the
page's filters act on (``site_interact``).
"""

from __future__ import annotations

import itertools

import pandas as pd

from ..metrics import wilson_interval
from .figures import RANDOM_SUITE_PREFIX
from .formatting import natural_key, suite_key
from .site_html import cell_href, esc
from .stats import BY_NAME, entry_metric
from .tables import OPTIMUM_ROW

FAMILIES = {
    "depth": "scramble depth (face turns)",
    "qdepth": "scramble depth (quarter turns)",
    "random": "fully scrambled",
    "deepcubea": "DeepCubeA test set",
    "other": "other suites",
}
"""The suite families, in the order the heatmap groups them, with their headings."""


def suite_family(suite: str, depth: float, qdepth: object, deepcubea: set[str]) -> str:
    if suite in deepcubea:
        return "deepcubea"
    if suite.startswith(RANDOM_SUITE_PREFIX):
        return "random"
    if not pd.isna(depth):
        return "depth"
    return "qdepth" if qdepth is not None and not pd.isna(qdepth) else "other"


def families(data: pd.DataFrame, deepcubea: set[str]) -> dict[str, str]:
    """Each suite's family, suites in the heatmap's order (by family, then by depth)."""
    firsts = data.groupby("suite")[["depth", "qdepth"]].first()
    found = {s: suite_family(s, r.depth, r.qdepth, deepcubea) for s, r in firsts.iterrows()}
    order = list(FAMILIES)
    return dict(sorted(found.items(), key=lambda kv: (order.index(kv[1]), suite_key(kv[0]))))


def _short(suite: str, family: str) -> str:
    """A column head that fits: the depth for depth suites, else the name without ``-v1``."""
    if family in ("depth", "qdepth"):
        digits = "".join(c for c in suite.split("-v")[0] if c.isdigit())
        return digits.lstrip("0") or digits
    if family == "random":
        return "random"
    if family == "deepcubea":
        return "set"
    name = suite.rsplit("-v", 1)[0]
    return name if len(name) <= 8 else name[:7] + "…"


_ALONE = {"random": "random states", "deepcubea": "DeepCubeA set"}
DENSE = 24
"""Above this many suites the heatmap's cells use a smaller type."""


def _rate_colour(rate: float) -> str:
    """A cell's background by solve rate: pale red at 0, pale yellow at 50%, green at 100%."""
    stops = ((0.0, (244, 204, 200)), (0.5, (250, 232, 160)), (1.0, (150, 210, 160)))
    for (r0, c0), (r1, c1) in itertools.pairwise(stops):
        if rate <= r1:
            f = (rate - r0) / (r1 - r0)
            rgb = [round(a + f * (b - a)) for a, b in zip(c0, c1, strict=True)]
            return "#" + "".join(f"{v:02x}" for v in rgb)
    return "#96d2a0"


def _entries(data: pd.DataFrame) -> list[tuple[str, str]]:
    """(label, metric) per entry, in natural order."""
    groups = sorted(data.groupby("label", sort=False), key=lambda kv: natural_key(str(kv[0])))
    return [(str(label), entry_metric(group)) for label, group in groups]


def heatmap(data: pd.DataFrame, deepcubea: set[str]) -> str:
    """Entries × suites: each cell coloured by solve rate, the mean length of the solved
    cubes (in the entry's metric) inside, the counts and the interval on hover; a cell
    opens its cubes."""
    fams = families(data, deepcubea)
    most = data.groupby(["suite", "label"]).size().groupby("suite").max()
    groups = [(f, [s for s, g in fams.items() if g == f]) for f in FAMILIES]
    groups = [(f, suites) for f, suites in groups if suites]
    # a family of one suite is one column: its heading spans both header rows
    top = "".join(
        f"<th scope='colgroup' colspan='{len(s)}' data-family='{f}'>{esc(FAMILIES[f])}</th>"
        if len(s) > 1
        else f"<th scope='col' rowspan='2' data-family='{f}' title='{esc(s[0])}' class='alone'>"
        f"{esc(_ALONE.get(f, _short(s[0], f)))}</th>"
        for f, s in groups
    )
    heads = "".join(
        f"<th scope='col' data-family='{fams[s]}' title='{esc(s)}'>{esc(_short(s, fams[s]))}</th>"
        for _, suites in groups
        if len(suites) > 1
        for s in suites
    )
    cells = {key: g for key, g in data.groupby(["label", "suite"], sort=False)}
    rows = []
    for label, metric in _entries(data):
        mine = [(len(g), most[suite]) for (lb, suite), g in cells.items() if lb == label]
        sizes = {n for n, top in mine if n < top}
        full = any(n >= top for n, top in mine)
        few = f"<small>first {sizes.pop()} a suite</small>" if len(sizes) == 1 and not full else ""
        out = [
            f"<tr data-entry='{esc(label)}' data-metric='{metric}'>"
            f"<th scope='row' class='entry'>{esc(label)}{few}</th>"
            f"<td class='metric'>{metric.upper()}</td>"
        ]
        for _, suites in groups:
            for suite in suites:
                out.append(_cell(label, suite, metric, cells.get((label, suite)), fams, most))
        rows.append("".join(out) + "</tr>")
    dense = " dense" if len(fams) > DENSE else ""
    return (
        f"<table class='heatmap{dense}'><thead><tr>"
        "<th scope='col' rowspan='2' class='entry'>entry</th>"
        f"<th scope='col' rowspan='2' class='metric'>metric</th>{top}</tr><tr>{heads}</tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _cell(
    label: str,
    suite: str,
    metric: str,
    group: pd.DataFrame | None,
    fams: dict[str, str],
    most: pd.Series,
) -> str:
    family = fams[suite]
    if group is None:
        return f"<td data-family='{family}' class='empty'></td>"
    n, solved = len(group), int(group["solved"].sum())
    low, high = wilson_interval(solved, n)
    lengths = group.loc[group["solved"], f"length_{metric}"]
    mean = f"{lengths.mean():.1f}" if len(lengths) else "–"
    median = BY_NAME["median s"].of(group)
    few = n < most[suite]
    tip = (
        f"{label} on {suite}: {solved} of {n} solved ({100 * solved / n:.0f}%, 95% CI "
        f"{100 * low:.0f}–{100 * high:.0f}%)"
        + (f"; mean length {mean} {metric.upper()}" if len(lengths) else "")
        + (f"; median {median:.3g} s a cube" if not pd.isna(median) else "")
        + (f"; the first {n} cubes only" if few else "")
    )
    return (
        f"<td data-family='{family}' style='background:{_rate_colour(solved / n)}'"
        f"{' class=few' if few else ''} data-tip='{esc(tip)}' title='{esc(tip)}'>"
        f"<a href='{cell_href(suite, label)}'>{mean}</a></td>"
    )


def fully_scrambled(data: pd.DataFrame, deepcubea: set[str]) -> list[str]:
    """The suites the first screen answers for: the random-state suites and the DeepCubeA
    set; where a run has neither, its deepest suite."""
    fams = families(data, deepcubea)
    chosen = [s for s, f in fams.items() if f in ("random", "deepcubea")]
    if chosen:
        return chosen
    depth = data.groupby("suite")["depth"].first().dropna()
    return [str(depth.idxmax())] if len(depth) else list(fams)[-1:]


def _or(value: float, default: float) -> float:
    return default if pd.isna(value) else value


def _best(values: dict[str, float], lower: bool) -> set[str]:
    """The keys holding the best value, where it is best: none when every candidate ties."""
    finite = {k: v for k, v in values.items() if not pd.isna(v)}
    if len(set(finite.values())) < 2:
        return set()
    target = min(finite.values()) if lower else max(finite.values())
    return {k for k, v in finite.items() if abs(v - target) < 1e-9}


def first_screen(data: pd.DataFrame, suite: str, clock: str) -> str:
    """The compact leaderboard of one suite: entry, solved, mean length in its metric, gap to
    the optimum, % optimal, median time; the best value of each column marked (lengths,
    gaps and times among the entries with the top solve rate, in each metric), the proved
    optimum as the reference row, the hardware said once above it."""
    rows = data[data["suite"] == suite]
    stats = []
    for label, metric in _entries(rows):
        g = rows[rows["label"] == label]
        published = g["hardware"].astype(str).str.startswith("published").any()
        stats.append(
            {
                "label": label,
                "metric": metric,
                "n": len(g),
                "solved": BY_NAME["solved %"].of(g),
                "length": BY_NAME["mean QTM" if metric == "qtm" else "mean HTM"].of(g),
                "gap": BY_NAME["mean gap"].of(g),
                "optimal": BY_NAME["optimal %"].of(g),
                "seconds": float("nan") if published else BY_NAME["median s"].of(g),
                "published": published,
            }
        )
    top = {
        m: max((s["solved"] for s in stats if s["metric"] == m), default=0) for m in ("htm", "qtm")
    }
    leaders = [s for s in stats if s["solved"] == top[s["metric"]] and s["solved"] > 0]
    best = {
        "solved": _best({s["label"]: s["solved"] for s in stats}, lower=False),
        "optimal": _best({s["label"]: s["optimal"] for s in stats}, lower=False),
        "seconds": _best({s["label"]: s["seconds"] for s in leaders}, lower=True),
        "length": set(),
        "gap": set(),
    }
    for m in ("htm", "qtm"):
        mine = [s for s in leaders if s["metric"] == m]
        best["length"] |= _best({s["label"]: s["length"] for s in mine}, lower=True)
        best["gap"] |= _best({s["label"]: s["gap"] for s in mine}, lower=True)
    most = max((s["n"] for s in stats), default=0)
    stats.sort(key=lambda s: (-s["solved"], _or(s["gap"], 1e9), _or(s["length"], 1e9)))
    body = [_board_row(s, best, most) for s in stats]
    hardware = sorted({h for h in rows["hardware"].astype(str) if not h.startswith("published")})
    where = "; ".join(hardware) or "as published"
    clock_text = "CPU seconds" if clock == "cpu" else "wall-clock seconds"
    return (
        f"<section class='glance' id='glance-{esc(suite)}'><h2>{esc(suite)}: who solves "
        f"fully scrambled cubes, how short</h2><p class='note'>Measured on {esc(where)}; "
        f"budget in {clock_text} a cube, times shown are the median wall-clock seconds. "
        "Lengths and gaps are in the metric each entry searched; ★ marks the best of a "
        "column (lengths, gaps and times among the entries that solved the most).</p>"
        "<table class='sortable board'><thead><tr>"
        + "".join(
            f"<th scope='col'><button type='button'>{h}</button></th>"
            for h in ("entry", "solved %", "mean length", "gap", "optimal %", "median s")
        )
        + f"</tr></thead><tbody>{''.join(body)}</tbody><tfoot>{_optimum_row(rows)}</tfoot>"
        "</table></section>"
    )


def _board_row(s: dict, best: dict[str, set[str]], most: int) -> str:
    label = s["label"]

    def cell(key: str, text: str) -> str:
        if label in best[key]:
            return f"<td class='best' title='best in this column'>{text} ★</td>"
        return f"<td>{text}</td>"

    def num(value: float, digits: int) -> str:
        return "" if pd.isna(value) else f"{value:.{digits}f}"

    of = f" of {s['n']}" if s["n"] < most else ""
    length = num(s["length"], 2)
    seconds = "published" if s["published"] else num(s["seconds"], 3)
    return (
        f"<tr data-entry='{esc(label)}' data-metric='{s['metric']}'"
        f"{' class=peer' if s['published'] else ''}><th scope='row'>{esc(label)}</th>"
        + cell("solved", f"{num(s['solved'], 1)}{of}")
        + cell("length", f"{length} {s['metric'].upper()}" if length else "")
        + cell("gap", num(s["gap"], 2))
        + cell("optimal", num(s["optimal"], 1))
        + cell("seconds", seconds)
        + "</tr>"
    )


def _optimum_row(rows: pd.DataFrame) -> str:
    cubes = rows.drop_duplicates("instance")
    known = cubes[cubes["optimal_htm"].notna()]
    if known.empty:
        return ""
    parts = [f"{known['optimal_htm'].astype(float).mean():.2f} HTM"]
    if known["optimal_qtm"].notna().all():
        parts.append(f"{known['optimal_qtm'].astype(float).mean():.2f} QTM")
    return (
        f"<tr class='reference'><th scope='row'>{OPTIMUM_ROW}, {len(known)} cubes</th>"
        f"<td>100.0</td><td>{' · '.join(parts)}</td><td>0.00</td><td>100.0</td><td></td></tr>"
    )


def distance_heatmap(table: pd.DataFrame) -> str:
    """:func:`~cubebench.harness.report.tables.by_optimal_distance` as a heatmap: an entry
    per row, an optimal distance per column, coloured by the share solved optimally, the
    share inside, the counts on hover."""
    if table.empty:
        return ""
    distances = sorted(int(d) for d in table["distance"].unique())
    heads = "".join(f"<th scope='col'>{d}</th>" for d in distances)
    rows = []
    for (label, metric), g in table.groupby(["solver", "metric"], sort=False):
        by = {int(r.distance): r for r in g.rename(columns={"optimal %": "optimal",
              "solved %": "solved"}).itertuples(index=False)}  # fmt: skip
        cells = []
        for d in distances:
            r = by.get(d)
            if r is None:
                cells.append("<td class='empty'></td>")
                continue
            tip = (f"{label}: {r.n} cubes at optimal distance {d} {metric}; solved "
                   f"{r.solved:.0f}%, optimally {r.optimal:.0f}%")  # fmt: skip
            cells.append(
                f"<td style='background:{_rate_colour(r.optimal / 100)}' data-tip='{esc(tip)}' "
                f"title='{esc(tip)}'>{r.optimal:.0f}</td>"
            )
        rows.append(
            f"<tr data-entry='{esc(label)}' data-metric='{str(metric).lower()}'><th scope='row' "
            f"class='entry'>{esc(label)}</th><td class='metric'>{esc(metric)}</td>"
            f"{''.join(cells)}</tr>"
        )
    return (
        "<table class='heatmap'><thead><tr><th scope='col' class='entry'>entry</th>"
        f"<th scope='col' class='metric'>metric</th>{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
