"""Searches by name, each with its own settings: a solver shows and takes only what acts."""

from __future__ import annotations

import dataclasses

import pytest

from cubebench.harness import SettingsError
from cubebench.harness.registry import resolve_solver_class, settings_class
from cubebench.harness.solver import parse_settings, settings_info
from cubebench.solvers.search.searches import SEARCH_SETTINGS, SEARCHES
from cubebench.solvers.search.settings import SearchSettings

SEARCH_SOLVERS = [
    "policy-mlp", "cayley-mlp", "deepcubea", "value-transformer", "seq2seq-transformer",
    "cnn-faces", "mlp-kociemba",
]  # fmt: skip


def _shown(name: str) -> set[str]:
    return {info.name for info in settings_info(settings_class(resolve_solver_class(name)))}


def test_every_search_reads_settings_the_shared_class_declares():
    fields = {f.name for f in dataclasses.fields(SearchSettings)}
    assert fields >= SEARCH_SETTINGS
    assert set(SEARCHES) == {"beam", "greedy", "astar"}


@pytest.mark.parametrize("name", SEARCH_SOLVERS)
def test_a_solver_shows_the_settings_of_the_searches_it_runs_and_no_other(name):
    cls = settings_class(resolve_solver_class(name))
    shown = _shown(name)
    runs = [SEARCHES[s] for s in cls.supported_searches() if s in SEARCHES]
    for search in SEARCHES.values():
        for setting in search.settings:
            acts = any(setting in s.settings for s in runs)
            assert (setting in shown) == acts, (name, setting)
    assert ("value_symmetries" in shown) == (cls.MODEL == "value")
    assert ("value_bound" in shown) == (cls.MODEL == "value")


def test_policy_mlp_lists_no_a_star_symmetry_or_ensemble_knob_and_refuses_one():
    shown = _shown("policy-mlp")
    assert not shown & {"weight", "astar_batch", "value_symmetries", "ensemble"}
    assert {"beam_width", "avoid_revisits", "starts", "mitm_radius"} <= shown
    cls = settings_class(resolve_solver_class("policy-mlp"))
    with pytest.raises(SettingsError, match=r"weight='0.9': does nothing for this solver"):
        parse_settings(cls, {"weight": "0.9"})
    assert parse_settings(cls, {"weight": "0.6"}).weight == 0.6  # the default: a stored run
    assert {"ensemble", "weight", "value_symmetries"} <= _shown("cayley-mlp")
