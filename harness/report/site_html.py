"""The site's HTML pieces: page frame, sortable tables, the address of every page."""

from __future__ import annotations

import hashlib
import html
import json
import re
from typing import Any

import pandas as pd


def slug(text: str) -> str:
    """A file name for ``text``: readable, and unique by a short hash of the original."""
    plain = re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.")[:60] or "x"
    return f"{plain}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"


def esc(value: Any) -> str:
    return html.escape(
        "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
    )


def script_json(data: Any) -> str:
    """``data`` as JSON to sit inside ``<script type='application/json'>``: ``<``, ``>``
    and ``&`` as ``\\u003c``, ``\\u003e``, ``\\u0026``, so no text in it (``<!--<script>``,
    ``</script>``) can end the element or change how the browser reads what follows."""
    text = json.dumps(data)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def page(title: str, body: str, depth: int) -> str:
    up = "../" * depth
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{esc(title)}</title><link rel='icon' href='data:,'>"
        f"<link rel='stylesheet' href='{up}assets/site.css'></head><body>"
        f"<header><nav aria-label='site'><a href='{up}index.html'>Overview</a>"
        f"<a href='{up}index.html#entries'>Entries</a><a href='{up}index.html#runs'>Runs</a>"
        f"</nav></header><main id='main'><h1>{esc(title)}</h1>{body}</main>"
        f"<script src='{up}assets/site.js'></script></body></html>"
    )


def table(frame: pd.DataFrame, links: dict[tuple[int, str], str] | None = None,
           row_class: list[str] | None = None, caption: str = "") -> str:  # fmt: skip
    """A sortable table; ``links[(row, column)]`` makes that cell a link."""
    links = links or {}
    head = "".join(
        f"<th scope='col'><button type='button'>{esc(c)}</button></th>" for c in frame.columns
    )
    rows = []
    for i, row in enumerate(frame.itertuples(index=False)):
        cells = []
        for column, value in zip(frame.columns, row, strict=True):
            text = esc(value)
            href = links.get((i, column))
            cells.append(f"<td><a href='{href}'>{text}</a></td>" if href else f"<td>{text}</td>")
        cls = f" class='{row_class[i]}'" if row_class and row_class[i] else ""
        rows.append(f"<tr{cls}>{''.join(cells)}</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (
        f"<div class='scroll'><table class='sortable'>{cap}<thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def cell_href(suite: str, label: str, depth: int = 0) -> str:
    return f"{'../' * depth}cells/{slug(suite)}/{slug(label)}.html"


def cube_href(suite: str, instance: int, depth: int = 0) -> str:
    return f"{'../' * depth}cubes/{slug(suite)}/{int(instance)}.html"


def entry_href(label: str, depth: int = 0) -> str:
    return f"{'../' * depth}entries/{slug(label)}.html"
