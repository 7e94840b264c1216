"""Result tables inside documents, generated from the runs they cite, so they cannot drift.

A generated table sits between two HTML comments that name where it comes from::

    <!-- results-table runs="default-v14" suites="depth-05-v1 random-state-v1"
         columns="solved % | mean HTM | median s" -->
    | ... |
    <!-- /results-table -->

``runs`` are folders under ``results/`` (space-separated); ``suites`` and ``solvers``
(entry labels) narrow the rows; ``kind`` is ``summary`` (the default: one row per entry and
suite, with the named columns of the report's summary table) or ``matrix`` (one row per
entry, one column per suite: the solve rate and, in brackets, the mean length of the
solved cubes in the metric the entry searched). ``bench doc-tables --check FILES`` fails
when a committed table differs from what its runs give; ``--write`` regenerates them.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..records.schema import RecordError
from ..solver import ArgumentError
from .frame import drop_repeats, load_runs, one_puzzle
from .render import format_table, markdown_table
from .tables import (
    BEST_ROW,
    OPTIMUM_ROW,
    best_known_rows,
    matrix_table,
    optimum_rows,
    summary_table,
)

BLOCK = re.compile(
    r"(?P<open><!-- results-table (?P<spec>.*?)-->\n)(?P<body>.*?)"
    r"(?P<close><!-- /results-table -->)",
    re.S,
)


class DocTableError(ArgumentError):
    """A table marker that names no runs, an unknown column, or a run that is missing."""


@dataclass(frozen=True)
class TableSpec:
    runs: tuple[str, ...]
    kind: str = "summary"
    suites: tuple[str, ...] = ()
    solvers: tuple[str, ...] = ()
    columns: tuple[str, ...] = ("n", "solved %", "mean HTM", "median s")
    # a row beside the solvers: "yes", the suites' proved optima; "best", the shortest
    # answer any entry of the table found for each cube (where no optimum is known)
    optimum: str = "no"

    @classmethod
    def parse(cls, text: str, where: str) -> TableSpec:
        try:
            fields = dict(part.split("=", 1) for part in shlex.split(text))
        except ValueError as exc:
            raise DocTableError(f"{where}: results-table marker {text!r}: {exc}") from None
        unknown = set(fields) - {"runs", "kind", "suites", "solvers", "columns", "optimum"}
        if unknown or not fields.get("runs"):
            raise DocTableError(f"{where}: results-table needs runs=...; unknown {sorted(unknown)}")
        kind = fields.get("kind", "summary")
        if kind not in ("summary", "matrix"):
            raise DocTableError(f"{where}: results-table kind={kind!r}: summary or matrix")
        split = lambda key: tuple(fields[key].split()) if key in fields else ()  # noqa: E731
        columns = tuple(c.strip() for c in fields.get("columns", "").split("|") if c.strip())
        optimum = fields.get("optimum", "no")
        if optimum not in ("yes", "no", "best"):
            raise DocTableError(f"{where}: results-table optimum={optimum!r}: yes, no or best")
        return cls(
            split("runs"),
            kind,
            split("suites"),
            split("solvers"),
            columns or cls.columns,
            optimum,
        )


def render_table(spec: TableSpec, results: Path, where: str = "") -> str:
    """The Markdown table a marker stands for, from its runs."""
    for run in spec.runs:  # a plain folder name under --results, nothing outside it
        if run in (".", "..") or Path(run).is_absolute() or Path(run).name != run:
            raise DocTableError(
                f"{where}: results-table runs={run!r}: name a run folder inside {results}"
            )
    folders = [results / run for run in spec.runs]
    missing = [str(f) for f in folders if not (f / "manifest.json").exists()]
    if missing:
        raise DocTableError(f"{where}: results-table cites runs that are not there: {missing}")
    data, _ = drop_repeats(*load_runs(folders))
    if spec.suites:
        data = data[data["suite"].isin(spec.suites)]
    if spec.solvers:
        data = data[data["label"].isin(spec.solvers)]
    if data.empty:
        raise DocTableError(f"{where}: results-table {spec.runs}: no records match")
    try:
        one_puzzle(data, f"{where}: results-table {spec.runs}", "name the suites= of one")
    except RecordError as exc:
        raise DocTableError(str(exc)) from None
    if spec.kind == "matrix":
        table = matrix_table(data)
        keep = ["solver", "metric", *(s for s in spec.suites if s in table.columns)]
        return markdown_table(table[keep] if spec.suites else table)
    table = summary_table(data)
    if spec.optimum != "no":
        extra = optimum_rows(data) if spec.optimum == "yes" else best_known_rows(data)
        table = pd.concat([table, extra], ignore_index=True)
    if spec.suites:  # in the order the marker names them
        table["_order"] = table["suite"].map({s: i for i, s in enumerate(spec.suites)})
        table = table.sort_values(["solver", "_order"], kind="stable")
    added = table["solver"].isin((OPTIMUM_ROW, BEST_ROW))
    table = pd.concat([table[~added], table[added]])
    # an interval is two number columns, "X low" and "X high", which a document shows as "X"
    pairs = {c[: -len(" low")] for c in table.columns if c.endswith(" low")}
    unknown = [c for c in spec.columns if c not in table.columns and c not in pairs]
    if unknown:
        choices = sorted(set(table.columns) | pairs)
        raise DocTableError(f"{where}: results-table columns {unknown}: choose from {choices}")
    wanted = ["solver", "suite"]
    for column in spec.columns:
        wanted += [column] if column in table.columns else [f"{column} low", f"{column} high"]
    shown = format_table(table[wanted])
    if len(set(table["suite"])) == 1:
        shown = shown.drop(columns="suite")
    return markdown_table(pd.DataFrame(shown))


def regenerate(text: str, results: Path, where: str) -> str:
    """``text`` with every results-table block regenerated."""

    def replace(match: re.Match) -> str:
        spec = TableSpec.parse(match["spec"].replace("\n", " "), where)
        return f"{match['open']}{render_table(spec, results, where)}\n{match['close']}"

    opens = len(re.findall(r"<!-- results-table ", text))
    closes = len(re.findall(r"<!-- /results-table -->", text))
    blocks = len(BLOCK.findall(text))
    if not opens == closes == blocks:
        line = _unclosed_line(text)
        raise DocTableError(
            f"{where}{f' line {line}' if line else ''}: {opens} results-table marker(s), "
            f"{closes} closing one(s): every <!-- results-table ... --> needs its "
            "<!-- /results-table -->"
        )
    return BLOCK.sub(replace, text)


def _unclosed_line(text: str) -> int | None:
    """The line of the first opening marker with no closing one before the next opening."""
    depth_line = None
    for number, line in enumerate(text.splitlines(), start=1):
        if "<!-- results-table " in line:
            if depth_line is not None:
                return depth_line
            depth_line = number
        if "<!-- /results-table -->" in line:
            depth_line = None
    return depth_line


def check_files(files: list[Path], results: Path, write: bool = False) -> list[Path]:
    """The documents whose tables differ from their runs (rewritten with ``write``)."""
    stale = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise DocTableError(f"{path}: not UTF-8 text (byte {exc.start})") from None
        fresh = regenerate(text, results, str(path))
        if fresh != text:
            stale.append(path)
            if write:
                path.write_text(fresh)
    return stale


def cited_runs(text: str) -> set[str]:
    """Runs the results-table markers of a document name."""
    return {run for m in BLOCK.finditer(text) for run in TableSpec.parse(m["spec"], "").runs}
