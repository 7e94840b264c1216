"""Meet in the middle: a beam ends when it touches the table of every state near solved.

CayleyPy and DeepCubeA's successors finish their searches this way: a breadth-first table of
all states within ``r`` moves of solved (the harness's optimum oracle builds and caches it),
looked up for every child a beam makes. The first child found in the table ends the search,
and the table's own optimal path finishes it, so the last ``r`` moves are optimal and the
beam needs ``r`` fewer steps. The table is built once per process and metric (a minute for
the largest, then read from ``$CUBEBENCH_HOME/cache/oracle``), at solver load, never inside
a timed solve.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...harness import DistanceOracle, cache_dir

# the largest tables the oracle builds: 8.2M half-turn states (6 moves), 9.2M quarter-turn (7)
MAX_RADIUS = {"htm": 6, "qtm": 7}


@lru_cache(maxsize=4)
def meet_table(metric: str, radius: int) -> DistanceOracle:
    """Every state within ``radius`` moves of solved in ``metric``, built or read once."""
    if not 1 <= radius <= MAX_RADIUS[metric]:
        raise ValueError(f"mitm_radius={radius}: 1..{MAX_RADIUS[metric]} in {metric}")
    return DistanceOracle.cached(radius, cache_dir("oracle"), metric=metric)


def finish_from(meet: DistanceOracle | None, state: np.ndarray) -> tuple[int, ...] | None:
    """The table's optimal path from ``state`` (54,) to solved, or None when there is no
    table or ``state`` lies outside it: every search asks this before it spends a model call."""
    if meet is None:
        return None
    state = np.asarray(state, np.uint8)
    if meet.table_distance(state[:, None])[0] > meet.radius:
        return None
    return meet.path_to_solved(state)
