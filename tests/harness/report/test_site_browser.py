"""The results site in a real browser at 1366×900: every page clean and no wider than the
screen, the first screen's leaderboard, the heatmap, the forest plot, the interactive
figures and the filters doing what they say, tables that sort, a cube replayed.

The site is built from a small real run (kociemba, a right, a wrong and a quarter-turn
solver on three built-in suites) and opened in headless Chromium, from a local static
server and from ``file://``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cubebench.harness.report.render import write_report
from cubebench.harness.runner import RunConfig, SolverSpec, run

from .browser import page_problems, screenshot, serve, start_driver, viewport

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

ENTRIES = ("kociemba", "tests.fakes:Right", "tests.fakes:Wrong", "tests.fakes:RightQuarter")
SUITES = ("depth-03-v1", "depth-05-v1", "random-state-v1")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, oracle_tables: Path) -> Path:
    home = tmp_path_factory.mktemp("site-home")
    (home / "cache").mkdir()
    (home / "cache" / "oracle").symlink_to(oracle_tables, target_is_directory=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CUBEBENCH_HOME", str(home))
        config = RunConfig(
            solvers=tuple(SolverSpec(name) for name in ENTRIES),
            suites=SUITES,
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


def _shown(element) -> bool:
    return element.is_displayed()


def _hover(driver, element) -> str:
    """Move the pointer onto ``element``; the tooltip's text once it shows."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element(element).perform()
    tip = driver.find_element("id", "tip")
    assert tip.is_displayed()
    return tip.text


def test_every_page_loads_with_no_console_error_failed_request_or_broken_image(site, driver):
    pages = _pages(site)
    assert len(pages) == 1 + 4 + 4 * 3 + 3 * 3  # front, entries, cells, cubes
    with serve(site) as base:
        problems = {page: page_problems(driver, base + page) for page in pages}
    assert {page: found for page, found in problems.items() if found} == {}
    assert page_problems(driver, (site / "index.html").as_uri()) == []  # from a file, too


def test_every_page_type_fits_a_1366_pixel_screen_without_sideways_scrolling(site, driver):
    width, height = viewport(driver)
    assert (width, height) == (1366, 900)
    kinds = {
        "front": "index.html",
        "entry": next(p for p in _pages(site) if p.startswith("entries/")),
        "cell": next(p for p in _pages(site) if p.startswith("cells/")),
        "cube": next(p for p in _pages(site) if p.startswith("cubes/")),
    }
    for kind, page in kinds.items():
        driver.get((site / page).as_uri())
        scroll = driver.execute_script("return document.documentElement.scrollWidth")
        assert scroll <= width, f"{kind} page {page} is {scroll} px wide"
        # nor does a table scroll sideways inside its own box
        wide = driver.execute_script(
            "return Array.from(document.querySelectorAll('.scroll, table')).filter("
            "e => e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName)"
        )
        assert wide == [], f"{kind} page: {wide} scroll sideways"
        screenshot(driver, f"page-{kind}")


def test_the_first_screen_answers_who_is_best_on_fully_scrambled_cubes(site, driver):
    driver.get((site / "index.html").as_uri())
    screenshot(driver, "first-screen", whole=False)
    board = driver.find_element("css selector", "section.glance table")
    bottom = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", board)
    assert bottom <= viewport(driver)[1]  # seen without scrolling
    heading = driver.find_element("css selector", "section.glance h2").text
    assert heading.startswith("random-state-v1")
    rows = board.find_elements("css selector", "tbody tr")
    assert sorted(r.get_attribute("data-entry") for r in rows) == sorted(ENTRIES)
    wrong = board.find_element("css selector", "tr[data-entry='tests.fakes:Wrong']")
    assert wrong.find_elements("css selector", "td")[0].text == "0.0"
    best = [c.text for c in board.find_elements("css selector", "td.best")]
    assert "100.0 ★" in best  # the solve rate of the entries that solved them all
    reference = board.find_element("css selector", "tfoot tr").text
    assert reference.startswith("optimum (proved), 3 cubes") and "HTM" in reference
    note = driver.find_element("css selector", "section.glance p.note").text
    assert note.count("Processor") + note.count("CPU") >= 1 and "CPU seconds" in note


def test_a_heatmap_cell_shows_its_counts_and_interval_on_hover(site, driver):
    driver.get((site / "index.html").as_uri())
    heatmap = driver.find_element("css selector", "table.heatmap")
    heads = [th.text for th in heatmap.find_elements("css selector", "thead tr + tr th")]
    assert heads == ["3", "5"]  # depth suites by their depth, under their family's heading
    alone = heatmap.find_element("css selector", "thead th[rowspan='2'][data-family='random']")
    assert alone.text == "random states" and alone.get_attribute("title") == "random-state-v1"
    cell = heatmap.find_element(
        "css selector", "tr[data-entry='tests.fakes:Wrong'] td[data-family='depth']"
    )
    text = _hover(driver, cell)
    assert text.startswith("tests.fakes:Wrong on depth-03-v1: 0 of 3 solved (0%, 95% CI 0–")
    right = heatmap.find_element(
        "css selector", "tr[data-entry='tests.fakes:Right'] td[data-family='random']"
    )
    assert "3 of 3 solved (100%" in _hover(driver, right)
    colours = {cell.value_of_css_property("background-color"),
               right.value_of_css_property("background-color")}  # fmt: skip
    assert len(colours) == 2  # none solved and all solved look different


def test_a_figure_has_tooltips_and_a_legend_that_hides_and_shows_an_entry(site, driver):
    driver.get((site / "index.html").as_uri())
    figure = driver.find_element("id", "chart-solve_rate_vs_depth")
    key = figure.find_element("css selector", ".legend .key[data-entry='tests.fakes:Wrong']")
    series = figure.find_element(
        "css selector", f"g.series[data-series='{key.get_attribute('data-series')}']"
    )
    point = series.find_element("css selector", "circle.point")
    text = _hover(driver, point)
    assert text.startswith("tests.fakes:Wrong, depth ") and "solved of 3 (95% CI" in text
    key.click()
    assert key.get_attribute("aria-pressed") == "false" and not _shown(point)
    key.click()
    assert key.get_attribute("aria-pressed") == "true" and _shown(point)
    screenshot(driver, "figure", whole=False)


def test_the_filters_change_what_every_part_of_the_page_shows(site, driver):
    from selenium.webdriver.support.ui import Select

    driver.get((site / "index.html").as_uri())

    def rows(selector: str) -> set[str]:
        found = driver.find_elements("css selector", f"{selector} [data-entry]")
        return {r.get_attribute("data-entry") for r in found if r.is_displayed()}

    assert rows("table.heatmap") == set(ENTRIES)
    Select(driver.find_element("name", "metric")).select_by_value("qtm")
    assert rows("table.heatmap") == rows("section.glance") == {"tests.fakes:RightQuarter"}
    Select(driver.find_element("name", "metric")).select_by_value("all")
    driver.find_element("css selector", ".filters summary").click()
    driver.find_element("css selector", "input[name=entry][value='tests.fakes:Wrong']").click()
    assert "tests.fakes:Wrong" not in rows("table.heatmap") | rows("section.glance")
    assert "tests.fakes:Wrong" not in rows("#chart-solve_rate_vs_depth .legend")
    Select(driver.find_element("name", "family")).select_by_value("depth")
    heads = driver.find_elements("css selector", "table.heatmap thead th[data-family]")
    assert {h.get_attribute("data-family") for h in heads if h.is_displayed()} == {"depth"}
    boards = driver.find_elements("css selector", "section[data-family] h2")
    assert {b.text for b in boards if b.is_displayed()} == {
        "Leaderboard: depth-03-v1", "Leaderboard: depth-05-v1"
    }  # fmt: skip
    screenshot(driver, "filtered", whole=False)


def test_the_forest_plot_picks_a_suite_and_reads_out_a_point(site, driver):
    from selenium.webdriver.support.ui import Select

    driver.get((site / "index.html").as_uri())
    forest = driver.find_element("css selector", ".forest")
    panels = forest.find_elements("css selector", ".forest-panel")
    assert len(panels) == 1 + len(SUITES)  # pooled, then each suite
    assert [p.is_displayed() for p in panels] == [True, False, False, False]
    Select(forest.find_element("css selector", "select")).select_by_index(3)
    assert [p.is_displayed() for p in panels] == [False, False, False, True]
    shown = panels[3]
    point = shown.find_element(
        "css selector", "g.forest-row[data-entry='tests.fakes:Wrong'] circle"
    )
    assert "solved -100.0 points vs kociemba" in _hover(driver, point)
    point.click()
    readout = forest.find_element("css selector", "output").text
    assert readout.startswith("tests.fakes:Wrong against kociemba on random-state-v1: 3 cubes")
    assert "McNemar exact p 0.25" in readout
    screenshot(driver, "forest", whole=False)


def _column(driver, table, name: str) -> list[str]:
    heads = [th.text.strip() for th in table.find_elements("css selector", "thead th")]
    col = heads.index(name)
    return [row.find_elements("css selector", "td")[col].text for row in
            table.find_elements("css selector", "tbody tr")]  # fmt: skip


def test_clicking_a_leaderboard_header_sorts_its_rows(site, driver):
    driver.get((site / "index.html").as_uri())
    board = driver.find_element(
        "xpath", "//h2[starts-with(@id,'board-depth')]/following-sibling::div[1]//table"
    )
    button = board.find_element("xpath", ".//th[normalize-space()='solved %']//button")
    button.click()
    up = [float(v) for v in _column(driver, board, "solved %")]
    assert up == sorted(up) and up[0] < up[-1]
    entries_up = _column(driver, board, "entry")
    button.click()
    down = [float(v) for v in _column(driver, board, "solved %")]
    assert down == sorted(down, reverse=True)
    assert _column(driver, board, "entry")[-1] == entries_up[0] == "tests.fakes:Wrong"
    assert board.find_element("xpath", ".//th[@aria-sort]").get_attribute("aria-sort") == (
        "descending"
    )


def _net(driver) -> tuple[list[str], str]:
    net = driver.find_element("id", "net")
    fills = [r.get_attribute("fill") for r in net.find_elements("css selector", "rect")]
    return fills, net.get_attribute("data-solved")


def test_a_matrix_cell_leads_to_a_cube_whose_answers_replay_on_the_net(site, driver):
    driver.get((site / "index.html").as_uri())
    driver.find_element(
        "css selector", "table.heatmap tr[data-entry='tests.fakes:Right'] td a"
    ).click()
    assert "tests.fakes:Right" in driver.title
    cells = driver.find_element("css selector", "table.sortable")
    assert set(_column(driver, cells, "entries agree")) == {"no"}  # the wrong one disagrees
    others = _column(driver, cells, "the other entries")
    assert all("tests.fakes:Wrong wrong" in o for o in others)
    driver.find_element("css selector", "tbody tr td a").click()
    assert driver.title.startswith("Cube ")
    start, solved = _net(driver)
    assert solved == "false" and len(start) == 54

    driver.find_element("xpath", "//label[contains(., 'tests.fakes:Right')]/input").click()
    driver.find_element("id", "next").click()
    assert driver.find_element("id", "net").get_attribute("data-step") == "1"
    assert _net(driver)[0] != start  # one move changed the net
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
    assert any("deliberately broken" in p for p in problems), problems
    assert any(p.startswith("broken link: ") and p.endswith(figure.name) for p in problems)
    assert "the site's script did not run to its end" in problems
