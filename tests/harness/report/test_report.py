"""Reports render for real: valid images, right data, a site needing nothing outside it."""

from __future__ import annotations

import json
import re
import shutil

import matplotlib.image as mpimg
import pandas as pd
import pytest

from cubebench.harness.records.schema import RecordError
from cubebench.harness.records.store import RunStore
from cubebench.harness.report.figures import draw_all, paired_differences, palette, pareto
from cubebench.harness.report.frame import SuiteMismatchError, drop_repeats, load_runs
from cubebench.harness.report.render import format_table, write_report
from cubebench.harness.report.rules import NothingToCompareError
from cubebench.harness.runner import RunConfig, SolverSpec, run

from .synthetic import make_run

FIGURES = [
    "solve_rate_vs_depth", "length_vs_depth", "time_vs_depth", "random_lengths", "pareto", "cactus",
    "optimal_by_distance",
]  # fmt: skip


def _check_report(folder, extra=()):
    figures = [*FIGURES, *extra]
    for name in figures:
        png = folder / f"{name}.png"
        assert (folder / f"{name}.svg").stat().st_size > 1000
        image = mpimg.imread(png)
        assert 300 < image.shape[1] < 1500 and 200 < image.shape[0] < 1000, image.shape
        assert image.std() > 0.01  # not a blank canvas
    html = (folder / "index.html").read_text()
    assert not re.search(r"(src|href)\s*=\s*['\"](https?:|//)", html)  # nothing from outside
    for page in folder.rglob("*.html"):  # every page's own links and sources are in the folder
        for target in re.findall(r"(?:src|href)='([^'#]+)", page.read_text()):
            if not target.startswith("data:"):
                assert (page.parent / target).resolve().is_file(), (page, target)
    assert all(f"href='{name}.png'" in html for name in figures)  # the files for papers
    assert all(f"id='chart-{name}" in html for name in FIGURES)  # each drawn interactively
    md = (folder / "index.md").read_text()
    assert all(f"({name}.png)" in md for name in figures)
    return md


def test_synthetic_run_report_has_the_right_data(tmp_path):
    a = make_run(
        tmp_path / "a",
        {("depth-01-v1", 1): 20, ("depth-05-v1", 5): 10, ("random-state-v1", None): 5},
    )
    data, _ = load_runs([a])
    figures = draw_all(data, tmp_path)
    rates = figures["solve_rate_vs_depth"][2].set_index("depth")["rate"]
    assert rates.to_dict() == {1: 1.0, 5: 0.5}
    lengths = figures["length_vs_depth"][2].set_index("depth")
    assert lengths.loc[5, "length_htm"] == 5 and lengths.loc[5, "optimum"] == 5
    assert len(figures["random_lengths"][2]) == 5
    pareto = figures["pareto"][2]
    assert pareto.loc[0, "rate"] == 0.25 and pareto.loc[0, "mean_htm"] == 20
    write_report([a], tmp_path / "report")
    md = _check_report(tmp_path / "report")
    assert "| alpha | depth-05-v1 | 20 | 50.0 |" in md
    assert "command `bench run`" in md and "commit abc" in md


def test_quarter_turn_depth_suites_get_their_own_curve(tmp_path):
    a = make_run(tmp_path / "a", {("qdepth-02-v1", 2): 20, ("qdepth-06-v1", 6): 5}, kind="qdepth")
    data, _ = load_runs([a])
    figures = draw_all(data, tmp_path)
    rates = figures["solve_rate_vs_qdepth"][2].set_index("depth")["rate"]
    assert rates.to_dict() == {2: 1.0, 6: 0.25}
    assert "solve_rate_vs_depth" not in figures  # a quarter turn is not a face-turn depth
    assert mpimg.imread(tmp_path / "solve_rate_vs_qdepth.png").std() > 0.01


def test_real_short_run_report(tmp_path):
    config = RunConfig(
        solvers=(SolverSpec("kociemba"), SolverSpec("random")),
        suites=("depth-02-v1", "depth-06-v1", "random-state-v1"),
        limit=6,
        workers=2,
        out=str(tmp_path),
    )
    store = run(config, show_progress=False, run_id="short")
    write_report([store.folder], tmp_path / "report")
    md = _check_report(tmp_path / "report", extra=["head_to_head"])
    assert "| kociemba | random-state-v1 | 6 | 100.0 |" in md
    assert "| random | random-state-v1 | 6 | 0.0 |" in md
    # kociemba is the baseline by default: random against it, on the same cubes
    assert "## Against kociemba" in md
    section = md.split("## Against kociemba")[1]
    row = next(line for line in section.splitlines() if line.startswith("| random | "))
    assert "-100.0 pp (p 0.031)" in row  # random-state: 6 discordant cubes, all kociemba's
    against = pd.read_csv(tmp_path / "report" / "against-baseline.csv")
    assert set(against["suite"]) == {"depth-02-v1", "depth-06-v1", "random-state-v1", "(pooled)"}
    numbers = pd.read_csv(tmp_path / "report" / "summary.csv")
    assert numbers["HTM CI low"].dtype.kind == "f" and "HTM CI" not in numbers
    write_report([store.folder], tmp_path / "report", baseline="random")
    assert "## Against random" in (tmp_path / "report" / "index.md").read_text()
    with pytest.raises(NothingToCompareError, match="did you mean 'random'"):
        write_report([store.folder], tmp_path / "report", baseline="randon")


def test_the_head_to_head_figure_plots_every_paired_cube(tmp_path):
    runs = [
        make_run(tmp_path / "kociemba", {("depth-04-v1", 4): 20}, solver="kociemba"),
        make_run(tmp_path / "b", {("depth-04-v1", 4): 10}, length_extra=2, solver="beta"),
    ]
    data, _ = load_runs(runs)
    paired = paired_differences(data, "kociemba")
    assert len(paired) == 10 and set(paired["difference"]) == {2}
    folder = tmp_path / "report"
    write_report(runs, folder)
    assert mpimg.imread(folder / "head_to_head.png").std() > 0.01
    write_report(runs[1:], folder)  # no baseline in these runs: no stale figure left behind
    assert not (folder / "head_to_head.png").exists()


def test_times_under_a_millisecond_keep_their_digits():
    assert format_table(pd.DataFrame({"median s": [0.000024, 0.0123, 0.0]}))[
        "median s"
    ].tolist() == ["0.000024", "0.012", "0.000"]


def test_mixing_suite_hashes_is_refused(tmp_path):
    a = make_run(tmp_path / "a", {("depth-03-v1", 3): 5})
    b = make_run(tmp_path / "b", {("depth-03-v1", 3): 5}, sha="b" * 64)
    with pytest.raises(
        SuiteMismatchError,
        match=r"suite depth-03-v1 has sha256 aaaa.* in run a "
        r"but bbbb.* in run b: results are only comparable on the same cubes",
    ):
        load_runs([a, b])


def test_labels_tell_runs_of_one_solver_apart(tmp_path):
    a = make_run(tmp_path / "a", {("depth-03-v1", 3): 5}, settings={"beam_width": 1024})
    b = make_run(tmp_path / "b", {("depth-03-v1", 3): 9}, settings={"beam_width": 4096})
    data, _ = load_runs([a, b])
    assert set(data["label"]) == {"alpha [beam_width=1024]", "alpha [beam_width=4096]"}


def test_a_run_that_predates_a_setting_is_labelled_as_it_ran(tmp_path, monkeypatch):
    """``starts`` came after runs of ``policy-mlp`` were recorded: one without it ran one
    start, whatever the installed code's default is now."""
    depth3 = {("depth-03-v1", 3): 5}
    old = make_run(tmp_path / "old", depth3, solver="policy-mlp", settings={"beam_width": 64})
    same = make_run(tmp_path / "same", depth3, solver="policy-mlp",
                    settings={"beam_width": 64, "starts": 1})  # fmt: skip
    longer = make_run(tmp_path / "more", depth3, solver="policy-mlp",
                      settings={"beam_width": 64, "starts": 2})  # fmt: skip
    assert set(load_runs([old, same])[0]["label"]) == {"policy-mlp"}
    labels = {"policy-mlp [starts=1]", "policy-mlp [starts=2]"}
    assert set(load_runs([old, longer])[0]["label"]) == labels
    # the installed solver's default changes to 2 starts: the stored runs read as before
    import dataclasses

    from cubebench.harness import registry
    from cubebench.harness.report import frame

    real = registry.settings_class

    def changed(cls):
        base = real(cls)
        return dataclasses.make_dataclass(
            base.__name__, [("starts", int, dataclasses.field(default=2))], bases=(base,)
        )

    for module in (registry, frame):
        monkeypatch.setattr(module, "settings_class", changed, raising=False)
    assert set(load_runs([old, same])[0]["label"]) == {"policy-mlp"}
    assert set(load_runs([old, longer])[0]["label"]) == labels
    # a setting the harness knows no first default of: unknown, never equal
    a = make_run(tmp_path / "a", depth3, settings={"seed": 0})
    b = make_run(tmp_path / "b", depth3, settings={"seed": 0, "beam_width": 4096})
    data, _ = load_runs([a, b])
    assert set(data["label"]) == {"alpha [beam_width=None]", "alpha [beam_width=4096]"}


def test_a_manifest_keeps_each_entrys_identity_as_the_run_made_it(tmp_path):
    run = make_run(tmp_path / "r", {("depth-03-v1", 3): 2}, n=2, solver="policy-mlp",
                   settings={"beam_width": 64}, entry={"checkpoint_sha256": "c" * 64})  # fmt: skip
    stored = json.loads((run / "manifest.json").read_text())
    identity = stored["solvers"]["policy-mlp"]["identity"]
    assert identity["parts"]["setting.beam_width"] == 64
    assert identity["parts"]["checkpoint_sha256"] == "c" * 64 and len(identity["sha256"]) == 64
    assert stored["manifest_version"] == 3
    # what the file says is what every reader takes, whatever the fields beside it say now
    identity["parts"]["setting.beam_width"] = 65
    (run / "manifest.json").write_text(json.dumps(stored))
    pin = RunStore(run).read_manifest().solvers["policy-mlp"]
    assert pin.identity["setting.beam_width"] == 65 and pin.settings["beam_width"] == 64


@pytest.mark.parametrize(
    ("suites", "absent"),
    [
        ({("depth-03-v1", 3): 5, ("depth-07-v1", 7): 9}, {"random_lengths"}),
        (
            {("random-state-v1", None): 12},
            {"solve_rate_vs_depth", "length_vs_depth", "time_vs_depth", "optimal_by_distance"},
        ),
    ],
)
def test_figures_without_data_are_left_out_not_drawn_empty(tmp_path, suites, absent):
    folder = tmp_path / "report"
    every = {("depth-03-v1", 3): 5, ("depth-07-v1", 7): 9, ("random-state-v1", None): 12}
    write_report([make_run(tmp_path / "every", every)], folder)  # an earlier report, here
    assert all((folder / f"{name}.png").is_file() for name in absent)
    write_report([make_run(tmp_path / "a", suites)], folder)
    drawn = [name for name in FIGURES if name not in absent]
    for name in drawn:
        assert mpimg.imread(folder / f"{name}.png").std() > 0.01
    assert not any((folder / f"{name}.{ext}").exists() for name in absent for ext in ("png", "svg"))
    md = (folder / "index.md").read_text()
    assert [name for name in FIGURES if f"({name}.png)" in md] == drawn
    assert "Not drawn, for want of data in these runs" in md
    html = (folder / "index.html").read_text()
    assert [n for n in FIGURES if f"href='{n}.png'" in html] == drawn
    assert [n for n in FIGURES if f"id='chart-{n}" in html] == drawn


def test_a_sweep_names_each_setting_on_a_time_axis_labelled_within_a_decade(tmp_path):
    """Two widths of one solver, 0.2 s and 0.9 s a cube: a frontier within one decade."""
    runs = [
        make_run(
            tmp_path / f"w{width}",
            {("random-state-v1", None): 20},
            time_s=seconds,
            settings={"beam_width": width},
        )
        for width, seconds in ((1024, 0.2), (4096, 0.9))
    ]
    data, _ = load_runs(runs)
    assert set(data["label"]) == {"alpha [beam_width=1024]", "alpha [beam_width=4096]"}
    fig, table = pareto(data, palette(sorted(data["label"].unique())))
    assert list(table["setting"]) == ["beam_width=1024", "beam_width=4096"]
    fig.canvas.draw()
    htm = fig.axes[0]
    assert sorted(t.get_text() for t in htm.texts) == ["beam_width=1024", "beam_width=4096"]
    ticks = htm.xaxis.get_majorticklabels() + htm.xaxis.get_minorticklabels()
    shown = {t.get_text() for t in ticks if t.get_text()}
    assert {"0.2", "0.5"} <= shown, shown  # not "1" alone
    # the setting comes from the manifests, not from parsing a label: renamed entries keep it
    named, _ = load_runs(runs, labels={"w1024/alpha": "narrow", "w4096/alpha": "wide"})
    _, renamed = pareto(named, palette(["narrow", "wide"]))
    assert list(renamed["setting"]) == ["beam_width=1024", "beam_width=4096"]
    htm.set_xlim(0.001, 10)  # four decades: the decades alone, as before
    fig.canvas.draw()
    assert not any(t.get_text() for t in htm.xaxis.get_minorticklabels())


def test_a_renamed_run_folder_keeps_its_settings_in_the_label(tmp_path):
    """A run copied or renamed after it was written (its manifest still names the old folder)
    is still told apart from another width of the same solver, not merged into one label."""
    narrow = make_run(tmp_path / "w1024", {("depth-05-v1", 5): 20}, settings={"beam_width": 1024})
    wide = make_run(tmp_path / "w4096", {("depth-05-v1", 5): 10}, settings={"beam_width": 4096})
    renamed = shutil.move(wide, tmp_path / "w4096-kept")
    data, _ = load_runs([narrow, renamed])
    rates = data.groupby("label")["solved"].mean().to_dict()
    assert rates == {"alpha [beam_width=1024]": 1.0, "alpha [beam_width=4096]": 0.5}


def test_first_sums_runs_of_different_lengths_over_the_same_cubes(tmp_path):
    # a long run that solved its first 5 of 20 cubes beside a short sweep of the first 8
    long = make_run(tmp_path / "long", {("random-state-v1", None): 5}, n=20)
    short = make_run(tmp_path / "short", {("random-state-v1", None): 8}, n=8, solver="beta")
    write_report([long, short], tmp_path / "all")
    write_report([long, short], tmp_path / "first", first=8)
    rows = {
        name: pd.read_csv(tmp_path / name / "summary.csv").set_index("solver")
        for name in ("all", "first")
    }
    assert rows["all"].loc["alpha", "n"] == 20 and rows["all"].loc["alpha", "solved %"] == 25
    assert rows["first"].loc["alpha", "n"] == 8 and rows["first"].loc["alpha", "solved %"] == 62.5
    assert rows["first"].loc["beta", "n"] == 8
    assert "the first 8 cubes of each suite" in (tmp_path / "first" / "index.md").read_text()
    with pytest.raises(RecordError, match="--first 0"):
        write_report([long, short], tmp_path / "none", first=0)
    assert not (tmp_path / "none").exists()


def test_an_entry_two_runs_measured_on_the_same_cubes_counts_once(tmp_path):
    """Every benchmark run carries the kociemba reference: a report of two runs shows it
    once, from the first run given, and never against itself; cubes only a later run
    measured still count."""
    first = make_run(tmp_path / "first", {("random-state-v1", None): 8}, n=8, solver="kociemba")
    again = make_run(tmp_path / "again", {("random-state-v1", None): 2}, n=12, solver="kociemba")
    other = make_run(tmp_path / "other", {("random-state-v1", None): 4}, n=8, solver="beta")
    write_report([first, again, other], tmp_path / "out")
    rows = pd.read_csv(tmp_path / "out" / "summary.csv").set_index("solver")
    # cubes 0-7 from the first run (all solved), 8-11 only the second run has (unsolved)
    assert rows.loc["kociemba", "n"] == 12
    assert rows.loc["kociemba", "solved %"] == pytest.approx(100 * 8 / 12, abs=0.1)
    md = (tmp_path / "out" / "index.md").read_text()
    against = md.split("## Against kociemba")[1].split("##")[0]
    assert "| beta |" in against and "| kociemba |" not in against
    assert "kociemba: 8 cube(s) of run again are taken from run first" in md
    # runs that share no entry are left as they are
    data, runs = load_runs([first, other])
    assert drop_repeats(data, runs)[0].equals(data)


def test_every_report_writes_its_leaderboards_as_latex_for_a_paper(tmp_path):
    run = make_run(
        tmp_path / "a", {("depth-05-v1", 5): 10, ("random-state-v1", None): 5}, solver="my_solver%"
    )
    write_report([run], tmp_path / "report")
    tex = (tmp_path / "report" / "leaderboards.tex").read_text()
    assert tex.count(r"\begin{tabular}") == 2 and tex.count(r"\toprule") == 2
    assert r"my\_solver\% & 20 & 50.0 & " in tex  # names escaped, never LaTeX commands
    assert r"\caption{depth-05-v1: cubes solved (95\% Wilson interval)" in tex


def test_an_entrys_page_lists_its_worst_cubes_first(tmp_path):
    run = make_run(tmp_path / "a", {("depth-05-v1", 5): 10}, solver="alpha")
    write_report([run], tmp_path / "report")
    (page,) = (tmp_path / "report" / "entries").glob("alpha-*.html")
    text = page.read_text()
    assert text.index("<h2>Results") < text.index("Its worst cubes") < text.index("In run a")
    worst = text.split("Its worst cubes")[1]
    statuses = re.findall(r"<td>(solved|unsolved)</td>", worst)
    assert statuses[:10] == ["unsolved"] * 10 and statuses[10:] == ["solved"] * 10
