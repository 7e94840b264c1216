"""What a search declares about itself, so that adding one is its module and one line.

A search module holds its algorithm and an options class: a frozen dataclass of the
settings only it reads (with their ranges and help), whose ``KIND`` names the search, the
model kinds it works with and how to run it from a solver's settings. A settings class
offers a search by having its options class among its bases: :class:`~cubebench.solvers.
search.settings.SearchSettings` lists every built-in one, and a solver's own settings class
may add another. :func:`searches_of` reads them back from the class.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...harness import Range
from .models import CheckedModel, SearchResult

# upper bounds: the widest beam the field reports (2^24, CayleyPy), batches a model call can
# hold, and paths no longer than the answers the harness replays
BEAM_WIDTH = Range(min=1, max=2**24)
BATCH = Range(min=1, max=2**22)
DEPTH = Range(min=1, max=1000)
WEIGHT = Range(min=0, max=100, open_min=True)


@dataclass(frozen=True)
class SearchKind:
    """A search: its name, how to run it from a solver's settings, and what it needs."""

    name: str
    run: Callable[[np.ndarray, CheckedModel, str, Any, Any, Any], SearchResult]
    """``run(state, model, kind, settings, moves, meet)``: ``kind`` is "value" or "policy"."""
    models: tuple[str, ...]  # the model kinds it searches with


@dataclass(frozen=True)
class SearchOptions:
    """Base of a search's options class: its fields are the settings only it reads."""

    KIND: ClassVar[SearchKind]
    OPTION_HELP: ClassVar[dict[str, str]] = {}

    @classmethod
    def own_settings(cls) -> tuple[str, ...]:
        """The fields this class declares itself (not those of the classes it extends)."""
        inherited = {
            f.name
            for base in cls.__bases__
            if dataclasses.is_dataclass(base)
            for f in dataclasses.fields(base)
        }
        return tuple(f.name for f in dataclasses.fields(cls) if f.name not in inherited)


def searches_of(settings: type) -> dict[str, tuple[SearchKind, tuple[str, ...]]]:
    """Every search a settings class offers, in the order of its bases: name -> (the
    search, the settings it reads)."""
    found: dict[str, tuple[SearchKind, tuple[str, ...]]] = {}
    for klass in settings.__mro__:
        if issubclass(klass, SearchOptions) and "KIND" in klass.__dict__:
            found.setdefault(klass.KIND.name, (klass.KIND, klass.own_settings()))
    return found
