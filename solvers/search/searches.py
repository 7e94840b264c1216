"""The searches a learned solver can run, by name, each with the settings it reads.

A search is one module (its algorithm, and a :class:`SearchKind` that names it, the model
kinds it works with, and its own settings) and one line in :data:`SEARCHES`. A solver's
settings say which searches it supports (the choices of its ``search`` setting); the
settings of the others do nothing for it, so ``bench settings`` leaves them out and a value
given for one is refused (:meth:`~cubebench.solvers.search.settings.SearchSettings.inert`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .astar import astar
from .beam import beam_search
from .greedy import greedy_rollout
from .models import CheckedModel, SearchResult


@dataclass(frozen=True)
class SearchKind:
    """A search: how to run it from a solver's settings, and what it needs."""

    name: str
    run: Callable[[np.ndarray, CheckedModel, str, Any, Any, Any], SearchResult]
    """``run(state, model, kind, settings, moves, meet)``: ``kind`` is "value" or "policy"."""
    models: tuple[str, ...]  # the model kinds it searches with
    settings: tuple[str, ...]  # the settings it reads beyond those every search shares


def _beam(state, model, kind, settings, moves, meet) -> SearchResult:
    return beam_search(state, model, settings.beam_width, kind, moves, meet)


def _greedy(state, model, kind, settings, moves, meet) -> SearchResult:
    return greedy_rollout(state, model, kind, settings.avoid_revisits, moves, meet)


def _astar(state, model, kind, settings, moves, meet) -> SearchResult:
    return astar(state, model, settings.astar_batch, settings.weight, moves, meet)


SEARCHES: dict[str, SearchKind] = {
    s.name: s
    for s in (
        SearchKind("beam", _beam, ("value", "policy"), ("beam_width",)),
        SearchKind("greedy", _greedy, ("value", "policy"), ("avoid_revisits",)),
        SearchKind("astar", _astar, ("value",), ("weight", "astar_batch")),
    )
}
"""Every search by the name a solver's ``search`` setting gives it."""

SEARCH_SETTINGS = frozenset(name for s in SEARCHES.values() for name in s.settings)
"""The settings that belong to one search or another (the rest every search shares)."""
