"""alphacube: AlphaCube's own loading, cube and beam search behind the harness.

No network: the tests write a model of AlphaCube's "small" architecture (its ``Model_v1``,
random weights) into a temporary cache, so the whole path runs — AlphaCube's loader and int8
quantization, the sticker conversion, its beam search, the moves mapped back, the harness's
verification. A beam wider than the depth-3 ball finds every solution whatever the weights.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.harness import random_states
from cubebench.harness.cube import apply_move
from tests.harness.bench_process import bench

alphacube = pytest.importorskip("alphacube", reason="the peers extra (cubebench[peers])")

from cubebench.solvers.alphacube_peer.solver import _env_tables  # noqa: E402


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    folder = tmp_path_factory.mktemp("alphacube-cache")
    torch.manual_seed(0)
    torch.save(alphacube.model.Model_v1(1024, 7).state_dict(), folder / "small.zip")
    return folder


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_alphacubes_cube_and_the_harness_agree_move_for_move(seed):
    names, cube = _env_tables()
    state = random_states(1, np.random.default_rng(seed))  # (54, 1)
    for g, name in enumerate(names):
        env = alphacube.env.Cube3(allow_wide=False)
        env.state[:] = cube.states_to_peer(state)[0]
        env.finger(name)
        ours = cube.states_to_peer(apply_move(state, int(cube.moves[g])))[0]
        assert (env.state == ours).all(), name


def test_the_adapter_runs_alphacubes_own_search_through_bench_run(cache, tmp_path):
    # (check_solver runs on it in tests/harness/test_registry.py, with a narrower beam)
    done = bench(
        "run", "-s", "alphacube", "--set", f"cache_dir={cache}", "--set", "beam_width=8192",
        "--suite", "depth-03-v1", "--limit", "10", "--out", str(tmp_path), "--run-id", "ac",
        "--quiet", "--no-report",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in (tmp_path / "ac/records.jsonl").open()]
    assert [r["status"] for r in records] == ["solved"] * 10
    assert all(r["length_htm"] <= r["optimal_htm"] for r in records)  # the ball is exhaustive
    assert {r["info"]["alphacube"] for r in records} == {"0.1.6"}
    manifest = json.loads((tmp_path / "ac/manifest.json").read_text())
    assert manifest["packages"]["alphacube"] == "0.1.6"


def test_missing_weights_are_refused_in_one_line_before_anything_is_written(tmp_path):
    empty = tmp_path / "empty-cache"
    done = bench(
        "run", "-s", "alphacube", "--set", f"cache_dir={empty}", "--suite", "depth-03-v1",
        "--limit", "2", "--out", str(tmp_path / "runs"), "--run-id", "none", "--quiet",
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"no weights at {empty / 'small.zip'}" in lines[0]
    assert "alphacube.load('small')" in lines[0]
    assert not (tmp_path / "runs" / "none").exists()
    assert not empty.exists()  # nothing fetched, nothing made


@pytest.mark.parametrize(
    "content",
    [
        b"not a zip at all",  # corrupt
        "wrong-shape",  # a model of another size: the wrong version of the file
    ],
)
def test_a_bad_weights_file_is_refused_and_left_as_it_was(tmp_path, content):
    """AlphaCube deletes a model file it fails to load; the user's file is never handed to it."""
    weights = tmp_path / "mine" / "small.zip"
    weights.parent.mkdir()
    if content == "wrong-shape":
        torch.save(alphacube.model.Model_v1(64, 2).state_dict(), weights)
    else:
        weights.write_bytes(content)
    before = weights.read_bytes()
    done = bench(
        "run", "-s", "alphacube", "--set", f"weights={weights}", "--suite", "depth-03-v1",
        "--limit", "2", "--out", str(tmp_path / "runs"), "--run-id", "bad", "--quiet",
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "is not a loadable AlphaCube small model" in lines[0] and "left as it is" in lines[0]
    assert weights.read_bytes() == before
    assert sorted(p.name for p in weights.parent.iterdir()) == ["small.zip"]
