"""The Ray executor on a local Ray instance: the same records as the local executor, and
the same guarantees when workers hang, die or the driver is killed."""

from __future__ import annotations

import builtins
import os
import signal
import sys

import pytest

from cubebench.harness.executors import make_executor
from cubebench.harness.records.store import RunStore
from cubebench.harness.runner import RunConfig, SolverSpec, resume, run
from cubebench.harness.solver import ArgumentError
from tests.harness.test_resume import _start_run, _wait_for_records


def test_asking_for_ray_without_it_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    monkeypatch.delitem(sys.modules, "cubebench.harness.executors.ray_cluster", raising=False)
    with pytest.raises(ArgumentError, match=r"pip install 'cubebench\[ray\]'"):
        make_executor("ray")
    with pytest.raises(ArgumentError, match="executor 'dask'"):
        RunConfig(solvers=(SolverSpec("random"),), suites=("depth-01-v1",), executor="dask")


ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cubebench[ray]')")
pytestmark = pytest.mark.xdist_group("ray")  # one Ray instance at a time on the machine


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray instance for the module; runs join it and leave it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _config(tmp_path, solver, executor, **kwargs) -> RunConfig:
    return RunConfig(
        solvers=(SolverSpec(f"tests.fakes:{solver}", kwargs.pop("settings", {})),),
        suites=(kwargs.pop("suite", "depth-03-v1"),),
        out=str(tmp_path / executor),
        executor=executor,
        **{"workers": 2, "limit": 12, **kwargs},
    )


def _comparable(records) -> list[tuple]:
    return sorted((r.key, r.status, r.moves, r.length_htm, r.gap_htm) for r in records)


def test_both_executors_give_the_same_records(tmp_path, local_ray):
    local = run(_config(tmp_path, "Right", "local"), show_progress=False, run_id="r")
    on_ray = run(_config(tmp_path, "Right", "ray"), show_progress=False, run_id="r")
    assert _comparable(on_ray.read_records()) == _comparable(local.read_records())
    assert len(on_ray.read_records()) == 12
    manifest = on_ray.read_manifest()
    assert manifest.config["executor"] == "ray" and manifest.finished
    (node,) = manifest.nodes.values()  # one node: this machine, as Ray saw it
    assert node["cpu"] == manifest.machine["cpu"] and "isa" in node


def test_a_worker_that_dies_mid_instance_is_replaced_and_the_instance_recorded_once(
    tmp_path, local_ray
):
    marker = tmp_path / "died"
    config = _config(tmp_path, "DiesOnce", "ray", settings={"marker": str(marker)})
    records = run(config, show_progress=False, run_id="r").read_records()
    assert marker.exists()  # one worker did die
    keys = [r.key for r in records]
    assert len(keys) == len(set(keys)) == 12
    assert all(r.status == "solved" for r in records)  # the lost instance was retried


def test_a_hanging_solver_times_out_and_the_run_goes_on(tmp_path, local_ray):
    config = _config(tmp_path, "Hanging", "ray", limit=3, time_limit=1)
    records = run(config, show_progress=False, run_id="r").read_records()
    assert [r.status for r in records] == ["timeout"] * 3
    assert all("killed after" in r.error for r in records)


def test_a_solver_that_cannot_load_stops_the_run_before_anything_is_written(tmp_path, local_ray):
    from cubebench.harness.solver import SolverLoadError

    with pytest.raises(SolverLoadError, match="weights.pt is corrupt"):
        run(_config(tmp_path, "BrokenLoad", "ray"), show_progress=False, run_id="r")
    assert not (tmp_path / "ray" / "r").exists()


def test_sigkill_of_the_driver_then_resume_loses_and_duplicates_nothing(tmp_path):
    out = tmp_path / "runs"
    proc = _start_run(
        out, "killed", "depth-04-v1", 60, 2, "--executor", "ray", start_new_session=True
    )
    records = out / "killed" / "records.jsonl"
    _wait_for_records(records, 10)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and what it started here
    proc.wait(timeout=10)
    before = [line for line in records.read_text().split("\n") if line.endswith("}")]
    assert 10 <= len(before) < 60

    store = resume(out / "killed", show_progress=False)
    after = store.read_records()
    keys = [r.key for r in after]
    assert len(keys) == len(set(keys)) == 60
    assert records.read_text().splitlines()[: len(before)] == before
    assert all(r.status == "solved" for r in after)
    assert RunStore(out / "killed").read_manifest().finished


def test_a_program_solver_runs_on_ray_as_here_and_a_hang_costs_one_cube(tmp_path, local_ray):
    """The protocol's program under Ray: the same records as the local executor, and a
    program that hangs on one cube is killed, restarted and goes on."""
    from tests.harness.programs.test_program_solver import fake_toml

    def program(executor: str, *args: str) -> list:
        spec = SolverSpec(str(fake_toml(tmp_path, *args)), label="fake")
        config = RunConfig(
            solvers=(spec,),
            suites=("depth-03-v1",),
            out=str(tmp_path / executor / "-".join(args)),
            executor=executor,
            workers=1,
            limit=4,
            time_limit=2.0,
        )
        return run(config, show_progress=False, run_id="r").read_records()

    on_ray = program("ray", "right")
    assert _comparable(on_ray) == _comparable(program("local", "right"))
    assert all(r.status == "solved" and r.cpu_s is not None for r in on_ray)
    hung = sorted(program("ray", "hang", "2"), key=lambda r: r.instance)
    assert [r.status for r in hung] == ["solved", "timeout", "solved", "solved"]
