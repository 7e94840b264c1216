"""An entry is everything that can change its answers: reports never merge two, nor drop a
suite that only a later run holds."""

from __future__ import annotations

import pandas as pd
import pytest

from cubebench.harness.records.schema import RecordError
from cubebench.harness.report.compare import head_to_head, printable, printable_groups
from cubebench.harness.report.figures import FIGURES, head_to_head_figure, palette
from cubebench.harness.report.frame import drop_repeats, load_runs
from cubebench.harness.report.render import write_report

from .synthetic import add_solver, make_run

DEPTHS = {("depth-01-v1", 1): 20, ("depth-02-v1", 2): 20}
RANDOM = "random-state-v1"


def _plugin(version: str, source: str) -> dict:
    return {
        "solver": "my-solver",
        "origin": {
            "registered": "entry point",
            "target": "my_solver:MySolver",
            "distribution": "my-solver",
            "version": version,
            "source_sha256": source,
        },
    }


def test_a_suite_only_the_second_run_holds_is_compared(tmp_path):
    """Depth suites in one run, random states in another: the plug-in solved none of the 6
    random states kociemba solved, and the comparison says so."""
    first = make_run(tmp_path / "depths", DEPTHS, solver="kociemba")
    add_solver(first, "my-solver", DEPTHS, entry=_plugin("1.0", "a" * 64))
    second = make_run(tmp_path / "random", {(RANDOM, None): 6}, n=6, solver="kociemba")
    add_solver(second, "my-solver", {(RANDOM, None): 0}, n=6, entry=_plugin("1.0", "a" * 64))
    for order in ([first, second], [second, first]):
        out = tmp_path / f"report-{order[0].name}"
        write_report(order, out)
        against = pd.read_csv(out / "against-baseline.csv")
        mine = against[against["entry"] == "my-solver"].set_index("suite")
        assert set(mine.index) == {"depth-01-v1", "depth-02-v1", RANDOM, "(pooled)"}
        assert mine.loc[RANDOM, "solve_rate_diff_pp"] == -100
        assert mine.loc["(pooled)", "n"] == 46 and mine.loc["(pooled)", "only_base"] == 6
        assert RANDOM in (out / "index.md").read_text().split("## Against kociemba")[1]


@pytest.mark.parametrize(
    ("old", "new", "label"),
    [
        (_plugin("1.0", "a" * 64), _plugin("1.1", "a" * 64), "version=1.1"),
        (_plugin("1.0", "a" * 64), _plugin("1.0", "b" * 64), "source_sha256=bbbbbbbbbbbb"),
        (
            {"checkpoint_sha256": "d" * 64},
            {"checkpoint_sha256": "c" * 64},
            "checkpoint_sha256=cccccccccccc",
        ),
    ],
)
def test_a_regressed_re_run_is_its_own_row(tmp_path, old, new, label):
    v1 = make_run(tmp_path / "v1", DEPTHS, solver="my-solver", entry=old)
    v2 = make_run(tmp_path / "v2", {k: 0 for k in DEPTHS}, solver="my-solver", entry=new)
    data, _ = drop_repeats(*load_runs([v1, v2]))
    rates = data.groupby("label")["solved"].mean()
    assert len(rates) == 2 and len(data) == 80  # no cube taken from the other run
    assert rates[f"my-solver [{label}]"] == 0.0
    assert sorted(rates) == [0.0, 1.0]
    write_report([v1, v2], tmp_path / "report")
    md = (tmp_path / "report" / "index.md").read_text()
    assert "taken from run" not in md and f"my-solver [{label}]" in md


def test_the_same_code_and_settings_in_two_runs_is_one_entry(tmp_path):
    v1 = make_run(tmp_path / "v1", DEPTHS, solver="my-solver", entry=_plugin("1.0", "a" * 64))
    v2 = make_run(tmp_path / "v2", DEPTHS, solver="my-solver", entry=_plugin("1.0", "a" * 64))
    data, notes = drop_repeats(*load_runs([v1, v2]))
    assert set(data["label"]) == {"my-solver"} and len(data) == 40 and notes


def test_labels_name_the_rows_and_refuse_ambiguity(tmp_path):
    v1 = make_run(tmp_path / "v1", DEPTHS, solver="my-solver", entry=_plugin("1.0", "a" * 64))
    v2 = make_run(tmp_path / "v2", DEPTHS, solver="my-solver", entry=_plugin("1.0", "b" * 64))
    data, _ = load_runs([v1, v2], {"v1/my-solver": "before", "v2/my-solver": "after"})
    assert set(data["label"]) == {"before", "after"}
    with pytest.raises(RecordError, match="2 different entries in these runs"):
        load_runs([v1, v2], {"my-solver": "mine"})
    with pytest.raises(RecordError, match="would name 2 different entries"):
        load_runs([v1, v2], {"v1/my-solver": "same", "v2/my-solver": "same"})
    with pytest.raises(RecordError, match="no such entry"):
        load_runs([v1, v2], {"v3/my-solver": "x"})


def test_a_two_run_compare_names_its_entries(tmp_path):
    v1 = make_run(tmp_path / "v1", DEPTHS, solver="my-solver")
    v2 = make_run(tmp_path / "v2", DEPTHS, solver="my-solver")
    shown = printable(head_to_head([v1, v2]))
    assert set(shown["base"]) == {"my-solver in v1"} and set(shown["new"]) == {"my-solver in v2"}
    ((heading, part),) = printable_groups(head_to_head([v1, v2]))
    assert heading == "my-solver (run v2) against my-solver (run v1)"
    assert "base" not in part.columns  # the runs are said once, in the heading


def _styles(fig) -> dict[str, set]:
    """Colour and marker of every labelled artist of a figure, by its legend label."""
    seen: dict[str, set] = {}
    for ax in fig.axes:
        for line in ax.get_lines():
            if not line.get_label().startswith("_"):
                seen.setdefault(line.get_label(), set()).add(
                    (
                        tuple(round(c, 4) for c in matplotlib_rgb(line.get_color())),
                        line.get_marker(),
                    )
                )
        for coll in ax.collections:
            label = coll.get_label()
            if label and not label.startswith("_") and len(coll.get_facecolor()):
                seen.setdefault(label, set()).add(
                    (tuple(round(c, 4) for c in coll.get_facecolor()[0][:3]), None)
                )
    return seen


def matplotlib_rgb(colour) -> tuple:
    from matplotlib.colors import to_rgb

    return to_rgb(colour)


def test_every_figure_gives_an_entry_one_colour(tmp_path):
    suites = {**DEPTHS, (RANDOM, None): 10}
    run = make_run(tmp_path / "run", suites, solver="kociemba")
    for name in ("policy-mlp", "my-solver", "cnn-faces"):
        add_solver(
            run, name, suites, entry=_plugin("1.0", "a" * 64) if name == "my-solver" else None
        )
    data, _ = load_runs([run])
    colours = palette(sorted(data["label"].unique()))
    expected = {label: tuple(round(c, 4) for c in colours[label]) for label in colours}
    drawn = [draw(data, colours)[0] for _, draw in FIGURES.values()]
    drawn.append(head_to_head_figure(data, colours, "kociemba")[0])
    found = 0
    for fig in drawn:
        for label, styles in _styles(fig).items():
            entry = next((e for e in expected if label == e or label.startswith(e + " (")), None)
            if entry is None:
                continue  # the optimum's line, a frontier
            found += 1
            assert {colour for colour, _ in styles} == {expected[entry]}, (label, styles)
            markers = {m for _, m in styles if m is not None}
            assert len(markers) <= 1
        for ax in fig.axes:  # a legend sits outside the data area
            legend = ax.get_legend()
            if legend is not None:
                fig.canvas.draw()
                box = legend.get_window_extent()
                assert box.x0 >= ax.get_window_extent().x1 - 1, type(fig)
    assert found >= 4 * 3


def test_compare_takes_a_solver_name_where_the_run_has_one_entry_of_it(tmp_path):
    run = make_run(tmp_path / "run", DEPTHS, solver="kociemba")
    add_solver(
        run, "value-transformer[beam_width=300]", DEPTHS, entry={"solver": "value-transformer"}
    )
    table = head_to_head([run], "kociemba", "value-transformer")
    assert set(table["new"]) == {"value-transformer[beam_width=300]"}


@pytest.mark.parametrize("count", [3, 10, 15, 25])
def test_every_entry_of_a_large_report_gets_its_own_colour(count):
    colours = palette([f"entry-{i}" for i in range(count)])
    assert len(set(colours.values())) == count
