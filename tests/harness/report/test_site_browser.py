"""The results site in a real browser: every page clean, tables that sort, a cube replayed.

The site is built from a small real run (a right and a wrong solver on two built-in suites)
and opened in headless Chromium, from a local static server and from ``file://``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cubebench.harness.report.render import write_report
from cubebench.harness.runner import RunConfig, SolverSpec, run

from .browser import page_problems, screenshot, serve, start_driver

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, oracle_tables: Path) -> Path:
    home = tmp_path_factory.mktemp("site-home")
    (home / "cache").mkdir()
    (home / "cache" / "oracle").symlink_to(oracle_tables, target_is_directory=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CUBEBENCH_HOME", str(home))
        config = RunConfig(
            solvers=(SolverSpec("tests.fakes:Right"), SolverSpec("tests.fakes:Wrong")),
            suites=("depth-03-v1", "random-state-v1"),
            limit=3,
            out=str(tmp_path_factory.mktemp("runs")),
            workers=1,
        )
        store = run(config, show_progress=False, run_id="small")
        out = store.folder / "site"
        write_report([store.folder], out, "a small run")
    return out


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory):
    browser = start_driver(tmp_path_factory.mktemp("chromium-profile"))
    yield browser
    browser.quit()


def _pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))


def test_every_page_loads_with_no_console_error_failed_request_or_broken_image(site, driver):
    pages = _pages(site)
    assert len(pages) == 1 + 2 + 2 * 2 + 2 * 3  # front, entries, cells, cubes
    with serve(site) as base:
        problems = {page: page_problems(driver, base + page) for page in pages}
    assert {page: found for page, found in problems.items() if found} == {}
    assert page_problems(driver, (site / "index.html").as_uri()) == []  # from a file, too


def _column(driver, table, name: str) -> list[str]:
    heads = [th.text.strip() for th in table.find_elements("css selector", "thead th")]
    col = heads.index(name)
    return [row.find_elements("css selector", "td")[col].text for row in
            table.find_elements("css selector", "tbody tr")]  # fmt: skip


def test_clicking_a_leaderboard_header_sorts_its_rows(site, driver):
    driver.get((site / "index.html").as_uri())
    board = driver.find_element("css selector", "h2[id^=board-depth] + div table")
    button = board.find_element("xpath", ".//th[normalize-space()='solved %']//button")
    button.click()
    up = [float(v) for v in _column(driver, board, "solved %")]
    assert up == sorted(up) and up[0] < up[-1]
    entries_up = _column(driver, board, "entry")
    button.click()
    down = [float(v) for v in _column(driver, board, "solved %")]
    assert down == sorted(down, reverse=True)
    assert _column(driver, board, "entry") == entries_up[::-1]
    assert board.find_element("xpath", ".//th[@aria-sort]").get_attribute("aria-sort") == (
        "descending"
    )
    screenshot(driver, "leaderboard")


def _net(driver) -> tuple[list[str], str]:
    net = driver.find_element("id", "net")
    fills = [r.get_attribute("fill") for r in net.find_elements("css selector", "rect")]
    return fills, net.get_attribute("data-solved")


def test_a_matrix_cell_leads_to_a_cube_whose_answers_replay_on_the_net(site, driver):
    driver.get((site / "index.html").as_uri())
    matrix = driver.find_element("css selector", "#matrix + p + div table")
    matrix.find_element("xpath", ".//tr[td[1][normalize-space()='tests.fakes:Right']]//a").click()
    assert "tests.fakes:Right" in driver.title
    cells = driver.find_element("css selector", "table.sortable")
    assert set(_column(driver, cells, "entries agree")) == {"no"}  # the other one is wrong
    assert set(_column(driver, cells, "the other entries")) == {"tests.fakes:Wrong wrong"}
    driver.find_element("css selector", "tbody tr td a").click()
    assert driver.title.startswith("Cube ")
    start, solved = _net(driver)
    assert solved == "false" and len(start) == 54

    driver.find_element("xpath", "//label[contains(., 'tests.fakes:Right')]/input").click()
    driver.find_element("id", "next").click()
    assert driver.find_element("id", "net").get_attribute("data-step") == "1"
    assert _net(driver)[0] != start  # one move changed the net
    screenshot(driver, "cube-page")
    driver.find_element("id", "last").click()
    fills, solved = _net(driver)
    assert solved == "true"
    assert all(len(set(fills[9 * f : 9 * f + 9])) == 1 for f in range(6))  # each face one colour
    assert "solved" in driver.find_element("id", "position").text

    driver.find_element("xpath", "//label[contains(., 'tests.fakes:Wrong')]/input").click()
    driver.find_element("id", "last").click()
    fills, solved = _net(driver)
    assert solved == "false"
    assert any(len(set(fills[9 * f : 9 * f + 9])) > 1 for f in range(6))


def test_the_checks_catch_a_missing_figure_and_a_script_error(site, driver, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    figure = next(broken.glob("*.png"))
    figure.unlink()
    script = broken / "assets" / "site.js"
    script.write_text("throw new Error('deliberately broken');\n" + script.read_text())
    with serve(broken) as base:
        problems = page_problems(driver, base + "index.html")
    assert any(f"broken image: {figure.name}" == p for p in problems), problems
    assert any("deliberately broken" in p for p in problems), problems
    assert any(figure.name in p and p.startswith("console:") for p in problems), problems
    assert "the site's script did not run to its end" in problems
