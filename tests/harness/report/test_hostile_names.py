"""Names a user or a peer's file chooses reach every page as text: never as markup, never
as a formula, never as a row the harness adds itself."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from cubebench.harness.cube import (
    apply_sequence,
    format_moves,
    invert_sequence,
    parse_moves,
    solved_batch,
    state_to_facelets,
)
from cubebench.harness.published import import_published
from cubebench.harness.report.render import write_report
from cubebench.harness.suites.catalog import register_user_suite
from cubebench.harness.suites.model import Instance
from tests.harness.bench_process import bench, bench_here

from .browser import page_problems, serve, start_driver

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

COMMENT = "<!--<script>"
IMAGE = "<img src=x onerror=document.title='pwned'>"
FORMULA = '=HYPERLINK("http://example.invalid","x")'
SCRAMBLES = ["R U F'", "L' D B", "U U R'"]


def _answers(tmp_path: Path) -> Path:
    solutions = [format_moves(invert_sequence(parse_moves(t))).split() for t in SCRAMBLES]
    path = tmp_path / "answers.pkl"
    data = {"solutions": solutions, "times": [1.0] * 3, "num_nodes_generated": [5] * 3}
    path.write_bytes(pickle.dumps(data))
    return path


@pytest.fixture
def hostile_site(tmp_path, isolated_home) -> Path:
    instances = [
        Instance(
            i,
            state_to_facelets(apply_sequence(solved_batch(1), parse_moves(t))[:, 0]),
            optimal_qtm=3,
        )
        for i, t in enumerate(SCRAMBLES)
    ]
    register_user_suite("tiny", instances, {"source": "test"})
    answers = _answers(tmp_path)
    runs = [
        import_published("efficientcube", answers, "tiny", tmp_path / "runs", f"r{i}", system)
        .folder
        for i, system in enumerate([f"{COMMENT}a", IMAGE, FORMULA])
    ]  # fmt: skip
    out = tmp_path / "site"
    write_report(runs, out, f"report {COMMENT}", labels={"r0/" + f"{COMMENT}a": f"{COMMENT}b"})
    return out


def test_markdown_and_csv_carry_names_as_text(hostile_site):
    md = (hostile_site / "index.md").read_text()
    assert "<img" not in md and "<!--" not in md and "&lt;img src=x" in md
    summary = (hostile_site / "summary.csv").read_text()
    assert "'=HYPERLINK(" in summary and "\n=HYPERLINK" not in summary
    for page in hostile_site.rglob("*.html"):
        text = page.read_text()
        assert "<img src=x" not in text and "<!--<script>" not in text, page


def test_every_page_works_in_a_browser_whatever_the_names(hostile_site, tmp_path):
    driver = start_driver(tmp_path / "profile")
    try:
        pages = sorted(str(p.relative_to(hostile_site)) for p in hostile_site.rglob("*.html"))
        with serve(hostile_site) as base:
            problems = {page: page_problems(driver, base + page) for page in pages}
            assert {page: found for page, found in problems.items() if found} == {}
            cube = next(p for p in pages if p.startswith("cubes/"))
            driver.get(base + cube)
            assert driver.title != "pwned"
            driver.find_element("css selector", "fieldset input[type=radio]").click()
            driver.find_element("id", "last").click()  # the stepper runs: site.js was read
            assert driver.find_element("id", "net").get_attribute("data-solved") == "true"
            driver.get(base + "index.html")
            links = "#entries ~ ul li a"  # each entry's link (its check mark stands beside)
            labels = [e.text for e in driver.find_elements("css selector", links)]
            assert f"{COMMENT}b" in labels and IMAGE in labels
    finally:
        driver.quit()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("optimum (proved)", "is the name of a row the tables add themselves"),
        ("Optimum (Proved)", "is the name of a row the tables add themselves"),
        ("EfficientCube, beam 2^18", "is the name of a row the tables add themselves"),
        ("a|b|c", "holds |, which would break a results table"),
        ("line\nbreak", "holds a control character"),
    ],
)
def test_a_label_cannot_impersonate_a_row_or_break_a_table(tmp_path, isolated_home, name, message):
    run = bench("run", "-s", "kociemba", "--suite", "depth-01-v1:2", "--out",
                     str(tmp_path), "--run-id", "r", "--quiet", "--no-report")  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = bench_here("report", str(tmp_path / "r"), "--out", str(tmp_path / "rep"),
                        "--label", f"kociemba={name}")  # fmt: skip
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "rep").exists()
    imported = bench_here("runs", "import", "efficientcube", str(_answers(tmp_path)), "--suite",
                          "depth-01-v1", "--system", name, "--out", str(tmp_path))  # fmt: skip
    assert imported.returncode == 2 and message in imported.stderr
