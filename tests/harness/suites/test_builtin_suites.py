"""The committed suites: present, pinned, reproducible, and their optima right."""

from __future__ import annotations

import shutil
from itertools import pairwise

import numpy as np
import pytest

from cubebench.harness.cube import facelets_to_state
from cubebench.harness.suites import catalog
from cubebench.harness.suites.catalog import list_suites, load_suite, suite_info
from cubebench.harness.suites.generate import (
    DEV_SEED,
    MAX_DEPTH,
    RANDOM_STATE_SUITE,
    UNIFORM_MOVES,
    UNIFORM_MOVES_SUITE,
    depth_instances,
    depth_suite_name,
    random_state_instances,
    uniform_move_instances,
)
from cubebench.harness.suites.model import SuiteError
from cubebench.harness.suites.oracle import DistanceOracle

ALL_BUILTIN = [depth_suite_name(d) for d in range(1, MAX_DEPTH + 1)] + [
    RANDOM_STATE_SUITE,
    UNIFORM_MOVES_SUITE,
]


def test_every_builtin_suite_is_registered_with_1000_instances():
    names = {info.name: info for info in list_suites()}
    for name in ALL_BUILTIN:
        assert names[name].count == 1000


@pytest.mark.parametrize("depth", [1, 7, 20])
def test_depth_suites_load_and_carry_their_optimum(depth):
    suite = load_suite(depth_suite_name(depth))
    assert len(suite) == 1000
    for inst in suite.instances:
        assert inst.depth == depth and inst.scramble.count(" ") == depth - 1
        if depth <= 10:
            assert inst.optimal_htm is not None and inst.optimal_htm <= depth
        else:
            assert (inst.optimal_htm or 0) <= depth
            assert inst.optimal_htm is not None or inst.optimal_htm_min >= 11


def test_generation_is_deterministic():
    # regenerating from the documented seed reproduces the committed facelets and scrambles
    for depth in (3, 15):
        committed = load_suite(depth_suite_name(depth)).instances[:50]
        fresh = depth_instances(depth)[:50]
        assert [(i.facelets, i.scramble) for i in committed] == [
            (i.facelets, i.scramble) for i in fresh
        ]
    committed = load_suite(RANDOM_STATE_SUITE).instances[:50]
    assert [i.facelets for i in committed] == [i.facelets for i in random_state_instances()[:50]]
    committed = load_suite(UNIFORM_MOVES_SUITE).instances[:50]
    assert [(i.facelets, i.scramble) for i in committed] == [
        (i.facelets, i.scramble) for i in uniform_move_instances()[:50]
    ]


def test_development_scrambles_share_no_state_with_the_suite_of_their_depth():
    # benchmarks/tools/dev_suite.py: settings are chosen on these, so none may be a suite's cube
    for depth in (7, 10):
        dev = depth_instances(depth, seed=DEV_SEED)
        assert all(len(i.scramble.split()) == depth for i in dev)
        suite = {i.facelets for i in load_suite(depth_suite_name(depth)).instances}
        assert not {i.facelets for i in dev} & suite
        assert [i.facelets for i in dev[:20]] != [i.facelets for i in depth_instances(depth)[:20]]


def test_uniform_move_scrambles_cancel_as_the_seeds_did():
    # ten independent moves: some cancel or merge, so distances spread below 10, all exact
    suite = load_suite(UNIFORM_MOVES_SUITE)
    scrambles = [i.scramble.split() for i in suite.instances]
    assert all(len(s) == 10 for s in scrambles)
    assert any(a[0] == b[0] for s in scrambles for a, b in pairwise(s))
    optima = np.array([i.optimal_htm for i in suite.instances])
    assert all(i.depth is None for i in suite.instances)
    assert optima.max() <= 10 and optima.mean() < UNIFORM_MOVES
    assert (optima <= 6).mean() > 0.05


def test_committed_optima_agree_with_an_independent_oracle():
    # a radius-4 table + 2 levels is exact to 6 moves: check the depth 5 and 6 suites
    oracle = DistanceOracle.build(4)
    for depth in (5, 6):
        instances = load_suite(depth_suite_name(depth)).instances[:150]
        states = np.stack([facelets_to_state(i.facelets) for i in instances], axis=1)
        distance, exact = oracle.distances(states, max_levels=2)
        assert exact.all()
        assert distance.tolist() == [i.optimal_htm for i in instances]


def test_tampered_suite_file_is_refused(tmp_path, monkeypatch):
    data = tmp_path / "data"
    shutil.copytree(catalog.BUILTIN_DIR, data)
    monkeypatch.setattr(catalog, "BUILTIN_DIR", data)
    path = data / "depth-03-v1.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))  # drop one instance
    with pytest.raises(SuiteError, match=r"depth-03-v1: .* has sha256 .* but the registry pins"):
        load_suite("depth-03-v1")


def test_unknown_suite_gets_did_you_mean():
    with pytest.raises(SuiteError, match="unknown suite 'depth-7-v1'; did you mean 'depth-07-v1'"):
        suite_info("depth-7-v1")


def test_suite_distances_grow_with_depth():
    means = []
    for depth in (2, 5, 8, 10):
        optima = [i.optimal_htm for i in load_suite(depth_suite_name(depth)).instances]
        means.append(np.mean(optima))
    assert means == sorted(means) and means[-1] > 9
