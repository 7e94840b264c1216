"""The prefetch intrinsic: a hint that compiles for the search's table types, reads nothing
into the program and changes no value."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core.errors import TypingError

from cubebench.solvers.optimal.prefetch import prefetch


@numba.njit
def _sum_with_prefetch(values, order):  # pragma: no cover
    total = 0
    for k in range(order.size):
        prefetch(values, order[k])
    for k in range(order.size):
        total += values[order[k]]
    return total


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.int64])
def test_prefetching_changes_no_value(dtype: type) -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(0, 200, 10_000).astype(dtype)
    before = values.copy()
    order = rng.permutation(values.size)
    assert _sum_with_prefetch(values, order) == int(values.sum())
    assert np.array_equal(values, before)


def test_only_one_dimensional_arrays_and_integer_indices_type_check() -> None:
    @numba.njit
    def on_rows(a):  # pragma: no cover
        prefetch(a, 0)

    @numba.njit
    def at_float(a):  # pragma: no cover
        prefetch(a, 0.5)

    with pytest.raises(TypingError):
        on_rows(np.zeros((2, 2), np.uint8))
    with pytest.raises(TypingError):
        at_float(np.zeros(4, np.uint8))
