"""Model-agnostic batched search: greedy rollout, beam search, batch-weighted A*.

Models enter through two tiny protocols (:mod:`cubebench.solvers.search.models`): a policy scores
the 18 moves of each state, a value estimates each state's distance to solved. Every search
works on sticker-major engine batches and reports nodes expanded and model calls.
"""

from .astar import astar
from .beam import beam_search
from .greedy import greedy_rollout
from .models import CheckedModel, SearchError, SearchLimits, SearchResult

__all__ = [
    "CheckedModel",
    "SearchError",
    "SearchLimits",
    "SearchResult",
    "astar",
    "beam_search",
    "greedy_rollout",
]
