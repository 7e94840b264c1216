"""A new run's folder: automatic ids that are plain, whole names, unique within a second."""

from __future__ import annotations

from cubebench.harness.runconfig import RunConfig, SolverSpec


def test_automatic_run_ids_are_whole_names_and_unique_within_a_second(tmp_path):
    from datetime import UTC, datetime

    from cubebench.harness.runfolder import automatic_run_id, claim_automatic_folder

    names = ["kociemba", "policy-mlp", "cnn-faces", "mlp-kociemba", "seq2seq-transformer"]
    config = RunConfig(solvers=tuple(SolverSpec(n) for n in names), suites=("depth-01-v1",))
    stamp = datetime(2026, 11, 27, 7, 0, 0, tzinfo=UTC)
    run_id = automatic_run_id(stamp, config)
    assert run_id == "20261127T070000Z-kociemba-policy-mlp-cnn-faces-mlp-kociemba-and-1"
    first, _ = claim_automatic_folder(tmp_path, stamp, config)
    second, _ = claim_automatic_folder(tmp_path, stamp, config)
    assert (first.folder.name, second.folder.name) == (run_id, run_id + "-2")
    first.close()
    second.close()
