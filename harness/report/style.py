"""The look every figure of a report shares: one colour and one marker per entry (labels
sorted), legends beside the plot, readable log ticks, and PNG + SVG files."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.ticker import FuncFormatter, LogLocator

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")


def palette(labels: list[str]) -> dict[str, tuple]:
    # distinct colours for every entry: tab10's ten, then tab20's twenty, then evenly spaced
    name = "tab10" if len(labels) <= 10 else "tab20" if len(labels) <= 20 else "husl"
    colours = sns.color_palette(name, n_colors=max(10, len(labels)))
    return {label: colours[i] for i, label in enumerate(sorted(labels))}


def marker_of(label: str, colours: dict) -> str:
    """An entry's marker, fixed like its colour: by its place among the sorted labels."""
    return MARKERS[sorted(colours).index(label) % len(MARKERS)]


def line(ax: plt.Axes, x: pd.Series, y: pd.Series, label: str, colours: dict) -> None:
    """One solver's curve: its colour and its marker, the same in every figure."""
    ax.plot(x, y, marker=marker_of(label, colours), ms=4, label=label, color=colours[label])


def outside_legend(ax: plt.Axes, handles_of: plt.Axes | None = None, title: str = "") -> None:
    """The legend right of the axes, where it hides no data (inside, it covered curves)."""
    handles, labels = (handles_of or ax).get_legend_handles_labels()
    if handles:
        ax.legend(
            handles, labels, fontsize=8, title=title or None, loc="upper left",
            bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, frameon=False,
        )  # fmt: skip


def save(fig: plt.Figure, folder: Path, name: str) -> list[Path]:
    paths = [folder / f"{name}.png", folder / f"{name}.svg"]
    fig.savefig(paths[0], dpi=110, bbox_inches="tight")
    fig.savefig(paths[1], bbox_inches="tight")
    plt.close(fig)
    return paths


SHORT_SPAN = 20.0
"""A log axis whose view spans less than this ratio also labels its 2s and 5s: below about a
decade only one decade tick (or none) is in view, and a time axis read "1" alone says nothing."""


def log_ticks(axis: matplotlib.axis.Axis) -> None:
    """Readable log ticks: decades labelled plainly (0.01, 0.1, 1, 10), the 2s and 5s between
    them labelled only on a short span (matplotlib's default labels every minor tick of a
    short range, and they overlap)."""

    def minor(value: float, _: int) -> str:
        low, high = sorted(axis.get_view_interval())
        return f"{value:g}" if low > 0 and high / low < SHORT_SPAN else ""

    axis.set_major_locator(LogLocator(base=10, numticks=12))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_locator(LogLocator(base=10, subs=(2, 5), numticks=12))
    axis.set_minor_formatter(FuncFormatter(minor))
