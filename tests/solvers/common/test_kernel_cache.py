"""A long search does not grow its worker: oneDNN's kernels, kept per batch shape, are
capped (``ONEDNN_PRIMITIVE_CACHE_CAPACITY``, set where the torch solvers load)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# a fresh process: oneDNN reads its cache size once, at its first kernel
_GROWTH = """
from cubebench.harness import SOLVED, move_set
from cubebench.harness.registry import make_solver
def resident():
    return int(open("/proc/self/statm").read().split()[1]) * 4096
solver = make_solver("cayley-mlp", {"threads": 1, "precision": "bf16"})
qtm, states = move_set("qtm"), SOLVED[:, None]
while states.shape[1] < 16384:
    states = qtm.expand(states)
with solver.inference():
    solver.value(states[:, :16384])
    before = resident()
    for n in range(8000, 16000, 100):  # 80 batch sizes, as a search's last chunks are
        solver.value(states[:, :n])
print(resident() - before)
"""


def _growth(capacity: str | None) -> int:
    env = {k: v for k, v in os.environ.items() if k != "ONEDNN_PRIMITIVE_CACHE_CAPACITY"}
    if capacity is not None:
        env["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] = capacity
    out = subprocess.run(
        [sys.executable, "-c", _GROWTH], capture_output=True, text=True, env=env, timeout=600
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
def test_batches_of_many_sizes_do_not_grow_the_process():
    pytest.importorskip("torch")
    kept = _growth("1024")  # oneDNN's own default: a kernel kept for every shape
    if kept < 400e6:
        pytest.skip(f"torch here keeps little per batch shape ({kept / 1e6:.0f} MB for 80)")
    assert _growth(None) < 0.6 * kept
