"""How far the walk goes between two looks at the clock: a timed search stops near its
deadline whatever its speed, and an untimed one keeps the long chunks."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from cubebench.solvers.optimal.solver import (
    CHUNK_NODES,
    FIRST_CHUNK_NODES,
    LAST_CHUNK_NODES,
    next_chunk,
)


def test_an_untimed_search_walks_long_chunks_and_a_timed_one_starts_short():
    assert next_chunk(0.0, math.inf) == next_chunk(5e6, math.inf) == CHUNK_NODES
    assert next_chunk(0.0, 60.0) == FIRST_CHUNK_NODES < CHUNK_NODES


@given(
    rate=st.floats(min_value=1.0, max_value=1e9),
    left=st.floats(min_value=-10.0, max_value=1e4),
)
def test_a_chunk_takes_at_most_half_the_time_left_at_the_measured_rate(rate, left):
    chunk = next_chunk(rate, left)
    assert LAST_CHUNK_NODES <= chunk <= CHUNK_NODES
    assert chunk <= max(LAST_CHUNK_NODES, rate * max(left, 0.0) / 2)
    if rate * left / 2 >= CHUNK_NODES:
        assert chunk == CHUNK_NODES  # far from the deadline nothing changes


def test_chunks_shrink_as_the_deadline_nears():
    rate = 4e6  # the small tables' speed on a 2.5 GHz core
    chunks = [next_chunk(rate, left) for left in (10.0, 1.0, 0.1, 0.01, 0.0)]
    assert chunks == sorted(chunks, reverse=True) and chunks[0] == CHUNK_NODES
    assert chunks[-1] == LAST_CHUNK_NODES and chunks[2] == 200_000
