"""The site's SVG charts as values: ticks, points with their tooltips, legends, thinning."""

from __future__ import annotations

import itertools
import re

from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness.report.charts import Chart, Point, Series, nice_ticks, render, thin


@given(
    st.floats(-1e4, 1e4, allow_nan=False),
    st.floats(1e-3, 1e4, allow_nan=False),
)
def test_linear_ticks_lie_in_the_range_evenly_spaced(low: float, span: float):
    high = low + span
    ticks = nice_ticks(low, high, log=False)
    assert ticks and all(low - 1e-6 <= t <= high + 1e-6 for t in ticks)
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) <= 1


def test_log_ticks_are_powers_of_ten_or_their_halves_and_fifths():
    assert nice_ticks(0.003, 40.0, log=True) == [0.01, 0.1, 1.0, 10.0]
    assert nice_ticks(0.9, 60.0, log=True) == [1.0, 2.0, 5.0, 10.0, 20.0, 50.0]


def _chart(log_x: bool = False) -> Chart:
    a = Series("solver-a", "#1f77b4", (Point(1, 50, "a at 1: 50% <of 4>", 30, 70),
                                       Point(2, 80, "a at 2"), Point(0, 90, "a at 0")))  # fmt: skip
    b = Series("solver-b", "#ff7f0e", (Point(1, 10, "b at 1"),), metric="qtm", line=False)
    return Chart("x", "A caption", "depth", "solved (%)", (a, b), log_x=log_x, png="x.png")


def test_every_point_carries_its_tooltip_and_every_series_a_legend_button():
    html = render(_chart())
    tips = re.findall(r"<circle [^>]*data-tip='([^']*)'", html)
    assert tips == ["a at 1: 50% &lt;of 4&gt;", "a at 2", "a at 0", "b at 1"]
    keys = re.findall(r"<button [^>]*data-series='(\d)' data-entry='([^']*)' "
                      r"data-metric='([^']*)'", html)  # fmt: skip
    assert keys == [("0", "solver-a", ""), ("1", "solver-b", "qtm")]
    assert html.count("<polyline") == 1  # the scatter series is not joined
    assert html.count("class='bar'") == 1  # the one interval
    assert "<a href='x.png'>PNG for papers</a>" in html


def test_a_log_axis_leaves_out_the_points_it_cannot_place():
    tips = re.findall(r"data-tip='([^']*)'", render(_chart(log_x=True)))
    assert "a at 0" not in tips and len(tips) == 3


def test_thinning_keeps_the_first_and_last_points_and_at_most_the_limit():
    points = [Point(i, i, str(i)) for i in range(1000)]
    kept = thin(points, most=100)
    assert kept[0] is points[0] and kept[-1] is points[-1] and len(kept) <= 101
    assert thin(points[:50], most=100) == points[:50]


def test_the_distance_charts_count_each_entrys_cubes_at_their_optimal_distance(tmp_path):
    from cubebench.harness.report.frame import load_runs
    from cubebench.harness.report.site_charts import by_distance

    from .synthetic import make_run

    run = make_run(tmp_path / "a", {("depth-05-v1", 5): 10}, length_extra=2)
    data, _ = load_runs([run])
    rate, length = by_distance(data)
    known = data[data["optimal_htm"].notna()]
    tips = [p.tip for s in rate.series for p in s.points]
    counted = sum(int(t.split(" of ")[1].split(" ")[0]) for t in tips)
    assert counted == len(known) and len(known) > 0  # every cube with an optimum, once
    (optimum,) = [s for s in length.series if s.name == "optimum"]
    assert all(p.x == p.y for p in optimum.points)  # the diagonal: a length that is optimal
    solved = [p for s in length.series if s.name != "optimum" for p in s.points]
    assert solved and all(p.y >= p.x for p in solved)  # no answer beats the optimum
