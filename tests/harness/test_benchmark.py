"""The default benchmark as the Python API gives it: the run ``bench run`` makes unasked."""

from __future__ import annotations

from cubebench.harness import RunConfig, default_benchmark
from cubebench.harness.benchmark import ALL_SUITES, DEFAULT_ENTRIES, DEFAULT_WORKERS
from cubebench.harness.solver import DEFAULT_TIME_LIMIT_S, Budget


def test_the_default_benchmark_is_every_named_system_over_every_built_in_suite():
    config = default_benchmark(out="elsewhere")
    assert isinstance(config, RunConfig) and config.out == "elsewhere"
    assert [s.name for s in config.solvers] == list(DEFAULT_ENTRIES)
    assert config.suites == ALL_SUITES and len(ALL_SUITES) == 21
    assert config.limit == 100 and config.workers == DEFAULT_WORKERS == 2
    slow = {s.name: s for s in config.solvers}["value-transformer"]
    assert slow.settings == {"beam_width": "300"} and slow.limit == 5
    assert slow.label == "value-transformer[beam_width=300]"


def test_full_runs_every_entry_at_its_defaults_and_missing_solvers_are_left_out():
    config = default_benchmark(available=("kociemba", "deepcubea", "not-installed"), full=True)
    assert [s.name for s in config.solvers] == ["kociemba", "deepcubea"]
    assert all(not s.settings and s.limit is None for s in config.solvers)
    assert config.limit is None


def test_one_time_limit_everywhere_unless_a_run_says_otherwise():
    assert Budget().wall_seconds == DEFAULT_TIME_LIMIT_S == default_benchmark().time_limit
    assert RunConfig(solvers=(), suites=()).time_limit == DEFAULT_TIME_LIMIT_S
