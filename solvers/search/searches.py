"""The searches a learned solver can run, by name, each with the settings it reads.

A search is one module (its algorithm and its options class, :mod:`.kinds`) and one line:
its options class among :class:`~cubebench.solvers.search.settings.SearchSettings`' bases.
This registry is read from there. A solver offers the searches whose model kind is its own;
the settings of the others do nothing for it, so ``bench settings`` leaves them out and a
value given for one is refused
(:meth:`~cubebench.solvers.search.settings.SearchSettings.inert`).
"""

from __future__ import annotations

from .kinds import SearchKind, searches_of
from .settings import SearchSettings

SEARCHES: dict[str, SearchKind] = {
    name: kind for name, (kind, _) in searches_of(SearchSettings).items()
}
"""Every built-in search by the name a solver's ``search`` setting gives it."""

SETTINGS_OF: dict[str, tuple[str, ...]] = {
    name: names for name, (_, names) in searches_of(SearchSettings).items()
}
"""The settings each search reads beyond those every search shares."""

SEARCH_SETTINGS = frozenset(name for names in SETTINGS_OF.values() for name in names)
"""The settings that belong to one search or another (the rest every search shares)."""
