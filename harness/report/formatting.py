"""How numbers and tables read in a report: the same text in Markdown, HTML and CSV views."""

from __future__ import annotations

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


def markdown_table(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (pandas' own needs the optional tabulate)."""
    header = "| " + " | ".join(str(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *rows])
