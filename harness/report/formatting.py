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


def suite_key(suite: str) -> tuple:
    """A suite's place in a table by its name alone: face-turn depth suites by depth, then
    quarter-turn ones by depth, then the rest by name (``depth-10-v1`` after ``depth-9-v1``)."""
    match = re.fullmatch(r"(q?)depth-(\d+)-v\d+", suite)
    if match:
        return (1 if match[1] else 0, int(match[2]), suite)
    return (2, 0, suite)


def natural_key(text: str) -> tuple:
    """Text with its numbers compared as numbers: ``w=64`` before ``w=256`` before ``w=4096``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


_LATEX = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


def latex_text(value: object) -> str:
    """Text as LaTeX typesets it, never as commands: every special character escaped."""
    return "".join(_LATEX.get(c, c) for c in str(value))


LATEX_COLUMNS = (
    "solved %", "CI low %", "CI high %", "mean HTM", "mean QTM", "mean gap", "optimal %",
    "median s",
)  # fmt: skip


def latex_leaderboards(numbers: pd.DataFrame) -> str:
    r"""The summary as LaTeX: a ``booktabs`` table a suite (``\usepackage{booktabs}``), an
    entry a row, ready for a paper; the numbers as the report prints them."""
    out = []
    for suite, group in numbers.groupby("suite", sort=False):
        shown = format_table(group[["solver", "n", *LATEX_COLUMNS]].reset_index(drop=True))
        interval = [f"{a}–{b}" for a, b in zip(shown["CI low %"], shown["CI high %"], strict=True)]
        shown.insert(3, "95% CI", interval)
        shown = shown.drop(columns=["CI low %", "CI high %"])
        caption = (
            f"{latex_text(suite)}: cubes solved (95\\% Wilson interval), mean lengths of the "
            "solved cubes, gap to the optimum and median seconds a cube."
        )
        out += [
            r"\begin{table}[t]",
            r"\centering",
            rf"\caption{{{caption}}}",
            r"\begin{tabular}{l" + "r" * (len(shown.columns) - 1) + "}",
            r"\toprule",
            " & ".join(latex_text(c) for c in shown.columns) + r" \\",
            r"\midrule",
            *(
                " & ".join(latex_text(v) for v in row) + r" \\"
                for row in shown.itertuples(index=False)
            ),
            r"\bottomrule",
            r"\end{tabular}",
            r"\end{table}",
            "",
        ]
    return "\n".join(out)
