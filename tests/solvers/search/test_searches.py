"""Searches by name, each with its own settings: a solver shows and takes only what acts."""

from __future__ import annotations

import dataclasses

import pytest

from cubebench.harness import SettingsError
from cubebench.harness.registry import resolve_solver_class, settings_class
from cubebench.harness.settings import parse_settings, settings_info
from cubebench.solvers.search.searches import SEARCH_SETTINGS, SEARCHES, SETTINGS_OF
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
    runs = [SETTINGS_OF[s] for s in cls.supported_searches() if s in SEARCHES]
    for settings in SETTINGS_OF.values():
        for setting in settings:
            acts = any(setting in s for s in runs)
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


def test_a_solver_offers_what_its_model_kind_allows():
    policy = settings_class(resolve_solver_class("policy-mlp"))
    value = settings_class(resolve_solver_class("deepcubea"))
    assert policy.supported_searches() == ("beam", "greedy")
    assert value.supported_searches() == ("beam", "greedy", "astar")
    assert settings_class(resolve_solver_class("seq2seq-transformer")).supported_searches()[:2] == (
        "decode-greedy",
        "decode-beam",
    )
    with pytest.raises(SettingsError, match="search='astar': choose one of beam, greedy"):
        parse_settings(policy, {"search": "astar"})
    with pytest.raises(SettingsError, match="choose one of"):
        policy(search="astar")


# a search of a test's own: its module would hold exactly this
from dataclasses import dataclass  # noqa: E402
from typing import Annotated, ClassVar  # noqa: E402

from cubebench.harness import Budget, Range, random_states  # noqa: E402
from cubebench.solvers.search.kinds import SearchKind, SearchOptions  # noqa: E402
from cubebench.solvers.search.models import SearchResult  # noqa: E402
from cubebench.solvers.search.settings import run_search  # noqa: E402


def _first_moves(state, model, kind, settings, moves, meet) -> SearchResult:
    """Play the policy's best move ``steps`` times: a toy search, really run."""
    model(state[:, None])  # one real model call, counted by the search's clock
    return SearchResult(None, info={"gave_up": f"walked {settings.steps} steps"})


@dataclass(frozen=True)
class StepsOptions(SearchOptions):
    steps: Annotated[int, Range(min=1, max=9)] = 3

    KIND: ClassVar[SearchKind] = SearchKind("steps", _first_moves, ("policy",))
    OPTION_HELP: ClassVar[dict[str, str]] = {"steps": "moves walked"}


def test_a_new_search_is_its_module_and_one_registration_line():
    @dataclass(frozen=True)
    class MySettings(StepsOptions, SearchSettings):  # the registration: one base
        MODEL: ClassVar[str] = "policy"

    assert MySettings.supported_searches() == ("steps", "beam", "greedy")
    infos = {info.name: info for info in settings_info(MySettings)}
    assert infos["steps"].help == "moves walked" and infos["steps"].bounds == "≥ 1, ≤ 9"
    with pytest.raises(SettingsError, match="steps=12"):
        parse_settings(MySettings, {"steps": "12"})
    settings = parse_settings(MySettings, {"search": "steps", "steps": "5"})
    calls = []

    def policy(states):
        calls.append(states.shape[1])
        return __import__("numpy").zeros((states.shape[1], 18), "float32")

    cube = random_states(1, __import__("numpy").random.default_rng(0))[:, 0]
    attempt = run_search(cube, Budget(wall_seconds=5), settings, policy=policy)
    assert attempt.info["gave_up"] == "walked 5 steps" and attempt.info["search"] == "steps"
    assert calls == [1]
    assert "steps" not in {f.name for f in dataclasses.fields(SearchSettings)}  # its own
