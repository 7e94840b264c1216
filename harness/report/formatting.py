"""How numbers and tables read in a report: the same text in Markdown, HTML and CSV views."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd


def _number(value: float, column: str) -> str:
    if pd.isna(value):
        return ""
    if column.endswith(" s"):  # times: three decimals, or two significant digits under 1 ms
        if value == 0 or abs(value) >= 0.001:
            return f"{value:.3f}"
        return np.format_float_positional(value, precision=2, fractional=False)
    return f"{value:.{1 if '%' in column else 2}f}"


def format_table(table: pd.DataFrame) -> pd.DataFrame:
    """Numbers as a reader sees them; a ``X low``/``X high`` pair becomes one ``X`` column."""
    shown = table.copy()
    for col in shown.columns:
        if shown[col].dtype.kind == "f":
            shown[col] = shown[col].map(lambda v, c=col: _number(v, c))
    for low in [c for c in shown.columns if c.endswith(" low") and c != "CI low %"]:
        name, high = low[: -len(" low")], low[: -len(" low")] + " high"
        if high in shown.columns:
            joined = [f"{a}–{b}" if a else "" for a, b in zip(shown[low], shown[high], strict=True)]
            shown.insert(shown.columns.get_loc(low), name, joined)
            shown = shown.drop(columns=[low, high])
    return shown


def markdown_text(value: object) -> str:
    """Text as Markdown shows it and never runs: ``&``, ``<`` and ``>`` as entities (a name
    or setting holding ``<img onerror=…>`` stays text), line breaks flattened."""
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"[\r\n]+", " ", text)


def markdown_table(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (pandas' own needs the optional tabulate); every
    cell through :func:`markdown_text`, with ``|`` escaped."""

    def cell(value: object) -> str:
        return markdown_text(value).replace("|", "\\|")

    header = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


_FORMULA = re.compile(r"^[=+\-@\t\r]")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def csv_safe(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every text cell a spreadsheet would take for a formula (``=``, ``+``,
    ``-``, ``@``, a tab or a return first, and not a number) prefixed with ``'``, so that a
    name such as ``=HYPERLINK(…)`` opens as the text it is."""
    safe = table.copy()
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = [
                "'" + v if isinstance(v, str) and _FORMULA.match(v) and not _NUMBER.match(v) else v
                for v in safe[column]
            ]
    return safe


def write_csv(table: pd.DataFrame, path: object) -> None:
    """``table`` as CSV at ``path``, through :func:`csv_safe`."""
    csv_safe(table).to_csv(path, index=False)
