"""Arrays in private memory backed by transparent huge pages where the kernel offers them.

The search reads its tables at random: each lookup lands anywhere in 1.7 GB (and in the
97 MB array that names a value's symmetry class). With 4 KB pages nearly every
such read also misses the address translation cache and walks the page table, itself a
chain of memory reads; a 2 MB page covers 512 times as much, so the walk mostly stays in
cache. The mapping must be private and anonymous: a shared one (what ``mmap.mmap(-1, n)``
gives) is shared memory, which the kernel's ``madvise`` setting for huge pages leaves out.
Where the platform has no such mapping, a plain array is returned and only speed differs.
"""

from __future__ import annotations

import mmap
from pathlib import Path

import numpy as np


def _huge_page() -> int:
    try:
        return int(Path("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size").read_text())
    except (OSError, ValueError):
        return 2 << 20  # x86-64's, and arm64's with 4 KB pages


HUGE_PAGE: int = _huge_page()
"""Bytes in the kernel's huge page; mappings are aligned to it."""


def huge_empty(count: int, dtype: np.dtype | type) -> np.ndarray:
    """An uninitialised, writable (count,) array of ``dtype`` on huge pages if possible."""
    dtype = np.dtype(dtype)
    nbytes = max(count * dtype.itemsize, 1)
    names = ("MAP_PRIVATE", "MAP_ANONYMOUS", "MADV_HUGEPAGE")
    if not all(hasattr(mmap, name) for name in names):  # Windows
        return np.empty(count, dtype)
    buffer = mmap.mmap(-1, nbytes + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    start = np.frombuffer(buffer, np.uint8, count=1).ctypes.data
    offset = -start % HUGE_PAGE  # the kernel aligns large mappings itself; older ones may not
    buffer.madvise(mmap.MADV_HUGEPAGE, offset, nbytes)
    return np.frombuffer(buffer, dtype, count=count, offset=offset)


def on_huge_pages(array: np.ndarray) -> np.ndarray:
    """A copy of a one-dimensional ``array`` in memory from :func:`huge_empty`."""
    out = huge_empty(array.size, array.dtype)
    out[:] = array
    return out
