"""Interactive figures for the results site, as inline SVG: no library, no network.

A chart is a value (:class:`Chart`: series of points, each point carrying the text its
tooltip shows) rendered to one ``<figure>``: the plot as SVG, a legend of buttons that hide
and show a series, and the figure's caption. The site's script (``site_interact``) shows a
point's ``data-tip`` beside the pointer and toggles series; without the script the points
still carry ``<title>`` text, which every browser shows on hover.

Why not a charting library: the site must work from ``file://`` with nothing fetched, and
these figures need four things (lines, points with intervals, log axes, toggles) that fit
in this module; the PNG figures stay for the Markdown report and for papers.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 640, 360
_LEFT, _RIGHT, _TOP, _BOTTOM = 58, 14, 12, 46


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    tip: str  # what the tooltip says: entry, the values and their interval
    low: float | None = None  # an interval on y, drawn as a bar
    high: float | None = None
    size: float = 4.0  # the marker's radius in px


@dataclass(frozen=True)
class Series:
    name: str  # an entry's label, or "optimum"
    colour: str  # "#rrggbb"
    points: tuple[Point, ...]
    metric: str = ""  # "htm" / "qtm": the site's metric filter hides other metrics' series
    line: bool = True  # join the points (a scatter does not)
    dashed: bool = False
    step: bool = False  # a step line (the cactus plot)


@dataclass(frozen=True)
class Chart:
    name: str  # unique on its page: ids of the figure's parts
    caption: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    log_x: bool = False
    log_y: bool = False
    y_range: tuple[float, float] | None = None
    png: str = ""  # the static figure of the same data, for papers
    notes: tuple[str, ...] = field(default_factory=tuple)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def nice_ticks(low: float, high: float, log: bool, most: int = 7) -> list[float]:
    """Tick positions over [low, high]: 1-2-5 steps, or powers of ten (with 2 and 5 between
    them where the axis spans under three decades) on a log axis."""
    if log:
        first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
        steps = (1, 2, 5) if last - first <= 3 else (1,)
        ticks = [m * 10.0**e for e in range(first, last + 1) for m in steps]
        return [t for t in ticks if low <= t <= high] or [low, high]
    span = high - low or 1.0
    raw = span / max(most - 1, 1)
    base = 10 ** math.floor(math.log10(raw))
    step = next(m * base for m in (1, 2, 5, 10) if m * base >= raw)
    start = math.ceil(low / step) * step
    count = math.floor((high - start) / step + 1e-9) + 1
    return [round(start + i * step, 10) for i in range(count)]


def tick_text(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 1000 or abs(value) < 0.01:
        return f"{value:.0e}".replace("e+0", "e").replace("e-0", "e-")
    return f"{value:g}"


def _bounds(values: Sequence[float], log: bool, pad: float = 0.05) -> tuple[float, float]:
    values = [v for v in values if v is not None and math.isfinite(v) and (v > 0 or not log)]
    if not values:
        return (1.0, 10.0) if log else (0.0, 1.0)
    low, high = min(values), max(values)
    if log:
        low, high = math.log10(low), math.log10(high)
    if high == low:
        low, high = low - 0.5, high + 0.5
    span = high - low
    low, high = low - pad * span, high + pad * span
    return (10**low, 10**high) if log else (low, high)


class _Scale:
    def __init__(self, low: float, high: float, log: bool, start: float, end: float):
        self.low, self.high, self.log, self.start, self.end = low, high, log, start, end

    def __call__(self, value: float) -> float:
        f = (math.log10(value) - math.log10(self.low)) / (
            math.log10(self.high) - math.log10(self.low)
        ) if self.log else (value - self.low) / (self.high - self.low)  # fmt: skip
        return self.start + f * (self.end - self.start)


def _finite(value: float | None, log: bool) -> bool:
    return value is not None and math.isfinite(value) and (value > 0 or not log)


def render(chart: Chart) -> str:
    """The chart as a ``<figure>``: SVG plot, legend buttons, caption."""
    xs = [p.x for s in chart.series for p in s.points]
    ys = [v for s in chart.series for p in s.points for v in (p.y, p.low, p.high) if v is not None]
    x_low, x_high = _bounds(xs, chart.log_x)
    y_low, y_high = chart.y_range or _bounds(ys, chart.log_y)
    sx = _Scale(x_low, x_high, chart.log_x, _LEFT, WIDTH - _RIGHT)
    sy = _Scale(y_low, y_high, chart.log_y, HEIGHT - _BOTTOM, _TOP)
    parts = [_axes(chart, sx, sy)]
    for index, series in enumerate(chart.series):
        parts.append(_series(chart, index, series, sx, sy))
    svg = (
        f"<svg class='chart' viewBox='0 0 {WIDTH} {HEIGHT}' role='img' "
        f"aria-label='{_esc(chart.caption)}' xmlns='http://www.w3.org/2000/svg'>"
        + "".join(parts)
        + "</svg>"
    )
    legend = "".join(
        f"<button type='button' class='key' aria-pressed='true' data-series='{i}' "
        f"{_entry_attrs(s)}><span class='swatch' style='background:{s.colour}'></span>"
        f"{_esc(s.name)}</button>"
        for i, s in enumerate(chart.series)
    )
    notes = "".join(f" {_esc(n)}" for n in chart.notes)
    png = f" <a href='{_esc(chart.png)}'>PNG for papers</a>." if chart.png else ""
    return (
        f"<figure class='interactive' id='chart-{_esc(chart.name)}'>{svg}"
        f"<div class='legend' role='group' aria-label='show or hide an entry'>{legend}</div>"
        f"<figcaption>{_esc(chart.caption)}.{notes}{png}</figcaption></figure>"
    )


def _entry_attrs(series: Series) -> str:
    if series.name == "optimum":
        return ""
    return f"data-entry='{_esc(series.name)}' data-metric='{_esc(series.metric)}'"


def _axes(chart: Chart, sx: _Scale, sy: _Scale) -> str:
    out = []
    bottom, top, left, right = HEIGHT - _BOTTOM, _TOP, _LEFT, WIDTH - _RIGHT
    for t in nice_ticks(sx.low, sx.high, chart.log_x):
        x = sx(t)
        out.append(
            f"<line class='grid' x1='{x:.1f}' x2='{x:.1f}' y1='{top}' y2='{bottom}'/>"
            f"<text class='tick' x='{x:.1f}' y='{bottom + 15}' text-anchor='middle'>"
            f"{tick_text(t)}</text>"
        )
    for t in nice_ticks(sy.low, sy.high, chart.log_y):
        y = sy(t)
        out.append(
            f"<line class='grid' x1='{left}' x2='{right}' y1='{y:.1f}' y2='{y:.1f}'/>"
            f"<text class='tick' x='{left - 6}' y='{y + 4:.1f}' text-anchor='end'>"
            f"{tick_text(t)}</text>"
        )
    out.append(
        f"<rect class='frame' x='{left}' y='{top}' width='{right - left}' "
        f"height='{bottom - top}'/>"
        f"<text class='axis' x='{(left + right) / 2:.0f}' y='{HEIGHT - 8}' "
        f"text-anchor='middle'>{_esc(chart.x_label)}</text>"
        f"<text class='axis' transform='translate(14 {(top + bottom) / 2:.0f}) rotate(-90)' "
        f"text-anchor='middle'>{_esc(chart.y_label)}</text>"
    )
    return "".join(out)


def _series(chart: Chart, index: int, series: Series, sx: _Scale, sy: _Scale) -> str:
    points = [p for p in series.points if _finite(p.x, chart.log_x) and _finite(p.y, chart.log_y)]
    parts = [f"<g class='series' data-series='{index}' {_entry_attrs(series)}>"]
    if series.line and len(points) > 1:
        coords: list[tuple[float, float]] = []
        for p in points:
            if series.step and coords:
                coords.append((sx(p.x), coords[-1][1]))
            coords.append((sx(p.x), sy(p.y)))
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        dash = " stroke-dasharray='5 4'" if series.dashed else ""
        parts.append(
            f"<polyline points='{path}' fill='none' stroke='{series.colour}' "
            f"stroke-width='1.8'{dash}/>"
        )
    for p in points:
        x, y = sx(p.x), sy(p.y)
        if _finite(p.low, chart.log_y) and _finite(p.high, chart.log_y):
            parts.append(
                f"<line class='bar' x1='{x:.1f}' x2='{x:.1f}' y1='{sy(p.low or 0):.1f}' "
                f"y2='{sy(p.high or 0):.1f}' stroke='{series.colour}'/>"
            )
        tip = _esc(p.tip)
        parts.append(
            f"<circle class='point' cx='{x:.1f}' cy='{y:.1f}' r='{p.size:.1f}' "
            f"fill='{series.colour}' data-tip='{tip}'><title>{tip}</title></circle>"
        )
    parts.append("</g>")
    return "".join(parts)


def thin(points: list[Point], most: int = 160) -> list[Point]:
    """At most ``most`` points, evenly spaced along the series, its last kept: a cactus
    curve of thousands of cubes keeps its shape and the page stays small."""
    if len(points) <= most:
        return points
    step = len(points) / most
    kept = [points[int(i * step)] for i in range(most)]
    return kept if kept[-1] is points[-1] else [*kept, points[-1]]
