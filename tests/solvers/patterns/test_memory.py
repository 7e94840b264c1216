"""The tables' memory: private, aligned to a huge page, and eligible for huge pages."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from cubebench.solvers.patterns import tables
from cubebench.solvers.patterns.memory import HUGE_PAGE, huge_empty, on_huge_pages

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def _mapping(address: int) -> dict[str, str]:
    """The fields of the ``/proc/self/smaps`` entry that holds ``address``."""
    fields: dict[str, str] = {}
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and ":" not in head:
            low, high = (int(x, 16) for x in head.split("-"))
            inside = low <= address < high
            if inside:
                fields["range"] = line
        elif inside and ":" in head:
            fields[head.rstrip(":")] = line.split(":", 1)[1].strip()
    return fields


def test_arrays_are_writable_aligned_and_sized() -> None:
    for count, dtype in ((1, np.uint8), (3 * HUGE_PAGE + 5, np.uint8), (1000, np.int32)):
        array = huge_empty(count, dtype)
        assert array.shape == (count,) and array.dtype == dtype and array.flags.writeable
        array[:] = 7
        assert int(array[-1]) == 7
        if sys.platform == "linux":
            assert array.ctypes.data % HUGE_PAGE == 0


def test_a_copy_keeps_the_values() -> None:
    source = np.random.default_rng(0).integers(-(2**31), 2**31, 5000, dtype=np.int32)
    copy = on_huge_pages(source)
    assert copy.dtype == source.dtype and np.array_equal(copy, source)


@pytest.mark.skipif(
    sys.platform != "linux" or not THP.exists() or "[never]" in THP.read_text(),
    reason="transparent huge pages exist only on Linux with them enabled",
)
def test_the_mapping_is_private_and_eligible_for_huge_pages() -> None:
    # A shared anonymous mapping (mmap.mmap(-1, n)) is shared memory, which the "madvise"
    # setting leaves on 4 KB pages: this is what the check guards against.
    array = huge_empty(4 * HUGE_PAGE, np.uint8)
    array[:] = 1
    fields = _mapping(array.ctypes.data)
    assert fields["range"].split()[1].endswith("p"), fields["range"]
    assert "hg" in fields["VmFlags"].split()
    if "THPeligible" in fields:
        assert fields["THPeligible"] == "1"


def test_a_table_file_reads_back_into_huge_page_memory(tmp_path: Path) -> None:
    entries = np.random.default_rng(1).integers(0, 256, 3 * (1 << 20) + 11, dtype=np.uint8)
    path = tmp_path / "t.npy"
    np.save(path, entries)
    table = tables._read(path)
    assert np.array_equal(table, entries)
    if sys.platform == "linux":
        assert table.ctypes.data % HUGE_PAGE == 0
