"""Result tables in the documents are generated from the runs they cite; a committed table
that differs from its runs fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from cubebench.harness.report.doctables import DocTableError, check_files, regenerate

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "solvers").glob("*/README.md"))]


def test_every_committed_table_is_what_its_runs_give():
    with_tables = [d for d in DOCUMENTS if "<!-- results-table" in d.read_text()]
    assert ROOT / "README.md" in with_tables and len(with_tables) >= 2
    assert check_files(with_tables, ROOT / "results") == []


def test_a_changed_figure_is_caught_and_write_restores_it(tmp_path):
    doc = tmp_path / "README.md"
    original = (ROOT / "README.md").read_text()
    generated = original.split("<!-- results-table", 1)[1].split("<!-- /results-table", 1)[0]
    row = next(line for line in generated.splitlines() if line.startswith("| kociemba |"))
    doc.write_text(original.replace(row, row.replace("| kociemba |", "| kociemba | 0 |", 1)))
    assert doc.read_text() != original  # the edit hit a generated row
    assert check_files([doc], ROOT / "results") == [doc]
    assert check_files([doc], ROOT / "results", write=True) == [doc]
    assert doc.read_text() == original


def test_a_marker_naming_a_missing_run_or_column_is_refused():
    results = ROOT / "results"
    block = '<!-- results-table runs="{}" columns="{}" -->\n<!-- /results-table -->'
    with pytest.raises(DocTableError, match="not there"):
        regenerate(block.format("no-such-run", "n"), results, "doc.md")
    with pytest.raises(DocTableError, match=r"columns \['speed'\]"):
        regenerate(block.format("cube2-optimal", "speed"), results, "doc.md")


def test_a_table_of_two_runs_counts_a_shared_entry_once():
    """Both committed DeepCubeA-set runs carry kociemba on the same 1000 cubes."""
    block = (
        '<!-- results-table runs="deepcubea-set-cayley-mlp-2starts deepcubea-set-cayley-mlp" '
        'solvers="kociemba" columns="n" -->\n<!-- /results-table -->'
    )
    table = regenerate(block, ROOT / "results", "doc.md")
    assert "| kociemba | 1000 |" in table


def test_an_unclosed_marker_or_a_run_outside_results_is_refused(tmp_path):
    results = ROOT / "results"
    unclosed = 'text\n<!-- results-table runs="no-such-run" -->\n| old |\n'
    with pytest.raises(DocTableError, match="line 2: 1 results-table marker"):
        regenerate(unclosed, results, "doc.md")
    block = '<!-- results-table runs="{}" -->\n<!-- /results-table -->'
    for outside in ("../x", "/etc", "..", "default-v14/../default-v14"):
        with pytest.raises(DocTableError, match="name a run folder inside"):
            regenerate(block.format(outside), results, "doc.md")
    doc = tmp_path / "latin1.md"
    doc.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(DocTableError, match="not UTF-8"):
        check_files([doc], results)


def test_a_table_never_puts_two_puzzles_side_by_side():
    block = (
        '<!-- results-table runs="default-v14 cube2-optimal"{} columns="n" -->\n'
        "<!-- /results-table -->"
    )
    with pytest.raises(DocTableError, match=r"cubes of cube2, cube3, cube4; .*name the suites="):
        regenerate(block.format(""), ROOT / "results", "doc.md")
    one = regenerate(block.format(' suites="cube2-random-state-v1"'), ROOT / "results", "doc.md")
    assert "| cube2-optimal[metric=htm] | 200 |" in one and "kociemba" not in one


def test_the_best_known_row_takes_each_cubes_shortest_answer_across_entries():
    import json

    block = (
        '<!-- results-table runs="cube4-baselines" suites="cube4-depth-03-v1" optimum="best" '
        'columns="n | solved % | mean HTM | mean QTM" -->\n<!-- /results-table -->'
    )
    table = regenerate(block, ROOT / "results", "doc.md")
    best = next(line for line in table.splitlines() if line.startswith("| best known (entries)"))
    shortest: dict[int, int] = {}
    for line in (ROOT / "results" / "cube4-baselines" / "records.jsonl").read_text().splitlines():
        r = json.loads(line)
        if r["suite"] == "cube4-depth-03-v1" and r["status"] == "solved":
            shortest[r["instance"]] = min(shortest.get(r["instance"], 10**9), r["length_htm"])
    cells = [c.strip() for c in best.strip("|").split("|")]
    assert cells[1] == "100" and float(cells[2]) == 100.0 * len(shortest) / 100
    assert float(cells[3]) == pytest.approx(sum(shortest.values()) / len(shortest), abs=0.005)
    assert best == table.splitlines()[-2]  # after every entry, before the closing marker
    with pytest.raises(DocTableError, match="optimum='maybe': yes, no or best"):
        regenerate(block.replace('"best"', '"maybe"'), ROOT / "results", "doc.md")
