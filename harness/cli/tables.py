"""Tables that fit the terminal they are printed in, with nothing cut mid-word.

A table wider than the terminal is split into parts by columns, each part repeating the
first (key) column, and says so in its title; a header wraps only between words, and a
cell never wraps. Written to a file or a pipe, a table keeps every column in one part.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

_GAP = 3  # a column's share of borders and padding in rich's default box


def breakable(header: str) -> str:
    """A header with places to wrap: before ``[`` and ``(``, after ``,``."""
    return re.sub(r"\s*([\[(])", r" \1", header).replace(",", ", ").replace(",  ", ", ").strip()


def _wrapped(header: str, width: int) -> str:
    """The header in lines of at most ``width``, broken between words only."""
    if len(header) <= width:
        return header
    return "\n".join(textwrap.wrap(breakable(header), width, break_long_words=False))


def _width(header: str, cells: Sequence[str]) -> int:
    longest_word = max((len(w) for w in breakable(header).split()), default=1)
    return max([longest_word, *(len(c) for c in cells)])


def parts(widths: Sequence[int], room: int | None) -> list[list[int]]:
    """Column indexes (after the key, column 0) of each part: as many as fit ``room``."""
    if room is None:
        return [list(range(1, len(widths)))]
    out: list[list[int]] = []
    used = widths[0] + _GAP + 1
    for i in range(1, len(widths)):
        if out and out[-1] and used + widths[i] + _GAP <= room:
            out[-1].append(i)
            used += widths[i] + _GAP
        else:
            out.append([i])
            used = widths[0] + _GAP + 1 + widths[i] + _GAP
    return out or [[]]


def print_fitted(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    title: str,
    console: Console | None = None,
) -> None:
    """Print ``rows`` under ``headers`` in as many parts as the terminal's width needs."""
    console = console or Console()
    widths = [_width(h, [r[i] for r in rows]) for i, h in enumerate(headers)]
    room = console.width if console.is_terminal else None
    if room is None:  # a log or a pipe: every column in one part, headers on one line
        widths = [max(w, len(h)) for w, h in zip(widths, headers, strict=True)]
        console = Console(width=sum(w + _GAP for w in widths) + 1, file=console.file)
    chunks = parts(widths, room)
    for n, chunk in enumerate(chunks, start=1):
        shown = [0, *chunk]
        label = f" (columns, part {n} of {len(chunks)})" if len(chunks) > 1 else ""
        table = Table(
            *(
                Column(escape(_wrapped(headers[i], widths[i])), width=widths[i], no_wrap=True)
                for i in shown
            ),
            title=escape(title) + label,
        )
        for row in rows:
            table.add_row(*(escape(row[i]) for i in shown))
        console.print(table)


def say(text: str, console: Console | None = None) -> None:
    """A line of prose, wrapped between words at the terminal's width (whole in a log)."""
    console = console or Console()
    if not console.is_terminal:
        console = Console(width=max(80, len(text) + 1), file=console.file)
    console.print(escape(text), highlight=False)
