"""Tables fit the terminal they are printed in: parts by columns, nothing cut mid-word."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from cubebench.harness.cli.show import print_matrix, print_summary, seconds
from cubebench.harness.cli.tables import print_fitted
from cubebench.harness.records.store import RunStore
from tests.harness.report.synthetic import add_solver, make_run

ENTRIES = ("kociemba", "value-transformer[beam_width=300]", "seq2seq-transformer", "cnn-faces")


def _terminal(width: int) -> tuple[Console, io.StringIO]:
    sink = io.StringIO()
    return Console(file=sink, width=width, force_terminal=True, color_system=None), sink


def _lines(sink: io.StringIO) -> list[str]:
    return [line.rstrip() for line in sink.getvalue().splitlines()]


@pytest.mark.parametrize("width", [80, 120])
def test_a_wide_table_is_split_into_parts_that_fit(width):
    headers = ["suite", *(f"{e} (HTM)" for e in ENTRIES * 2)]
    rows = [[f"depth-{d:02d}-v1", *(f"100% of 5 ({d}.0)" for _ in ENTRIES * 2)] for d in (1, 2)]
    console, sink = _terminal(width)
    print_fitted(headers, rows, "run x: solved", console)
    lines = _lines(sink)
    assert max(len(line) for line in lines) <= width
    text = "\n".join(lines)
    assert "…" not in text and "part 1 of" in text
    for word in ("value-transformer", "[beam_width=300]", "seq2seq-transformer"):
        assert word in text  # headers wrap between words, never inside one
    assert text.count("depth-01-v1") == text.count("part ") and "100% of 5 (1.0)" in text


def test_a_log_gets_the_whole_table_in_one_part():
    sink = io.StringIO()
    console = Console(file=sink, width=80, force_terminal=False)
    headers = ["suite", *(f"{e} (HTM)" for e in ENTRIES * 2)]
    print_fitted(headers, [["depth-01-v1", *("100% (1.0)" for _ in ENTRIES * 2)]], "t", console)
    assert "part" not in sink.getvalue()
    assert "value-transformer[beam_width=300] (HTM)" in sink.getvalue()


def test_show_and_the_run_matrix_fit_80_columns(tmp_path):
    run = make_run(tmp_path / "run", {("depth-01-v1", 1): 20, ("random-state-v1", None): 3})
    for name in ENTRIES:
        add_solver(run, name, {("depth-01-v1", 1): 10, ("random-state-v1", None): 1})
    console, sink = _terminal(80)
    print_matrix(RunStore(run), console)
    print_summary(RunStore(run), console)
    lines = _lines(sink)
    assert max(len(line) for line in lines) <= 80
    assert re.search(r"suite depth-01-v1", sink.getvalue())  # each summary says its suite


def test_times_under_a_millisecond_keep_two_digits():
    assert seconds(0.000026) == "2.6e-05" and seconds(0.0123) == "0.012" and seconds(None) == "-"
