"""TensorFlow and torch's compiler stack crash together in one process: a solver of one
framework asked for where the other is loaded either works (no ``triton``: torch's CPU
build) or is refused in one line naming the other framework, never a segfault. Each case
runs in a process of its own, so this test process keeps to one framework."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
import cubebench.solvers.common.frameworks as frameworks
from cubebench.harness import SolverLoadError, make_solver
import {first}
frameworks.compiler_stack_installed = lambda: {triton}  # as on torch's CUDA build, or not
try:
    make_solver("{solver}")
except SolverLoadError as exc:
    print("refused:", exc)
else:
    print("loaded", sorted(m for m in ("torch", "tensorflow") if m in sys.modules))
"""


def _probe(first: str, solver: str, triton: bool) -> str:
    code = PROBE.format(first=first, solver=solver, triton=triton)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]  # never a crash
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("first", "solver", "other"),
    [("torch", "cnn-faces", "torch"), ("tensorflow", "policy-mlp", "tensorflow")],
)
def test_the_other_framework_with_triton_is_refused_in_one_line(first, solver, other):
    line = _probe(first, solver, triton=True)
    assert line.startswith(f"refused: {solver} needs ")
    assert f"this process has already loaded {other}" in line and "triton" in line


def test_without_triton_both_load_side_by_side():
    assert _probe("torch", "cnn-faces", triton=False) == "loaded ['tensorflow', 'torch']"
