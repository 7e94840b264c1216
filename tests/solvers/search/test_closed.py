"""A*'s compiled closed set agrees with a dictionary, through growth and rehashing."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cubebench.solvers.search.closed import NodeStore

batches = st.lists(
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 9)), min_size=1, max_size=60),
    min_size=1,
    max_size=12,
)


@given(batches=batches, capacity=st.sampled_from([1, 2, 8, 1024]))
@settings(max_examples=150, deadline=None)
def test_admission_keeps_the_cheapest_path_to_each_state(batches, capacity):
    start = np.zeros(54, np.uint8)
    store = NodeStore(start, 0, capacity=capacity)
    best = {0: (0, 0)}  # hash -> (g, node id), the reference
    for batch in batches:
        hashes = np.array([h for h, _ in batch], np.uint64)
        g = np.array([c for _, c in batch], np.int32)
        states = np.tile(np.arange(len(batch), dtype=np.uint8), (54, 1))  # column i holds i
        ids = store.admit(states, hashes, g, np.zeros(len(batch), np.int64), np.zeros(len(batch)))
        expected = []
        for i, (h, cost) in enumerate(batch):
            if h not in best or best[h][0] > cost:
                best[h] = (cost, store.size - len(ids) + len(expected))
                expected.append(i)
        assert list(store.states[0, ids]) == expected  # the admitted columns, in order
        assert list(store.g[ids]) == [batch[i][1] for i in expected]
    alive = set(np.flatnonzero(store.alive[: store.size]).tolist())
    assert alive == {node for _, node in best.values()}  # one live node a state, the cheapest
