"""The default benchmark as the Python API gives it: the run ``bench run`` makes unasked."""

from __future__ import annotations

from cubebench.harness import RunConfig, default_benchmark
from cubebench.harness.benchmark import ALL_SUITES, DEFAULT_ENTRIES, DEFAULT_WORKERS
from cubebench.harness.solver import DEFAULT_TIME_LIMIT_S, Budget


def test_the_default_benchmark_is_every_named_system_over_every_built_in_suite():
    config = default_benchmark(out="elsewhere")
    assert isinstance(config, RunConfig) and config.out == "elsewhere"
    assert [s.name for s in config.solvers] == list(DEFAULT_ENTRIES)
    assert config.suites == ALL_SUITES and len(ALL_SUITES) == 23
    assert ALL_SUITES[-2:] == ("cube2-random-state-v1", "cube4-depth-15-v1")
    assert config.limit == 100 and config.workers == DEFAULT_WORKERS == 2
    slow = {s.name: s for s in config.solvers}["value-transformer"]
    assert slow.settings == {"beam_width": "300"} and slow.limit == 3
    assert slow.label == "value-transformer[beam_width=300]"
    flagship = {s.name: s for s in config.solvers}["cayley-mlp"]
    assert flagship.settings == {} and flagship.label == "" and flagship.limit == 5


def test_full_runs_every_entry_at_its_defaults_and_missing_solvers_are_left_out():
    config = default_benchmark(available=("kociemba", "deepcubea", "not-installed"), full=True)
    assert [s.name for s in config.solvers] == ["kociemba", "deepcubea"]
    assert all(not s.settings and s.limit is None for s in config.solvers)
    assert config.limit is None


def test_one_time_limit_everywhere_unless_a_run_says_otherwise():
    assert Budget().wall_seconds == DEFAULT_TIME_LIMIT_S == default_benchmark().time_limit
    assert RunConfig(solvers=(), suites=()).time_limit == DEFAULT_TIME_LIMIT_S


def test_bench_run_unasked_is_the_api_s_default_benchmark():
    """``bench run`` with no solver and no suite plans exactly ``default_benchmark()``, and
    ``--set`` on it keeps the benchmark's own settings for the other entries."""
    from cubebench.harness.benchmark import default_benchmark
    from cubebench.harness.plan import plan_run
    from cubebench.harness.registry import available_solvers

    assert plan_run() == default_benchmark(available=tuple(available_solvers()))
    assert plan_run(full=True) == default_benchmark(available=tuple(available_solvers()), full=True)
    planned = plan_run(assignments=["deepcubea.weight=0.8"])
    by_name = {s.name: s for s in planned.solvers}
    assert by_name["deepcubea"].settings == {"weight": "0.8"}
    assert by_name["value-transformer"].settings == {"beam_width": "300"}


def test_suites_asked_for_keep_the_benchmarks_entries_of_their_puzzle():
    from cubebench.harness.plan import plan_run

    cube2 = {s.name for s in plan_run(suites=["cube2-random-state-v1"]).solvers}
    assert {"cube2-optimal", "cube2-policy", "dietz-cu2", "random"} <= cube2
    assert not cube2 & {"kociemba", "policy-mlp", "cube4-policy"}
    cube3 = {s.name for s in plan_run(suites=["depth-03-v1"]).solvers}
    assert "kociemba" in cube3 and not cube3 & {"cube2-optimal", "dietz-mcube"}
