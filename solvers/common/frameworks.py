"""One deep-learning framework per process.

TensorFlow and the torch build most Linux users get from the package index (the CUDA
build, which brings ``triton``) crash together in one process: importing ``triton`` beside
TensorFlow's native libraries ends in a segmentation fault, and torch imports it on its
first optimizer step. ``bench run`` is safe because every solver loads in a worker process
of its own; anything that loads solvers of both frameworks in one process (a script using
the Python API, a notebook) asks :func:`require` first and gets one clear line instead.
On torch's CPU build there is no ``triton`` and both load side by side.
"""

from __future__ import annotations

import importlib.util
import sys

from cubebench.harness import SolverLoadError

FRAMEWORKS = ("torch", "tensorflow")


def loaded() -> list[str]:
    """The frameworks this process has imported."""
    return [name for name in FRAMEWORKS if name in sys.modules]


def compiler_stack_installed() -> bool:
    """Whether torch's compiler stack (``triton``), the part that crashes beside TensorFlow,
    is installed."""
    return importlib.util.find_spec("triton") is not None


def require(framework: str, who: str) -> None:
    """Refuse to load ``who`` (a solver or trainer needing ``framework``) into a process that
    holds the other framework, where the two would crash together.

    Raises:
        SolverLoadError: naming the other framework and what to do instead.
    """
    if framework not in FRAMEWORKS:
        raise ValueError(f"framework {framework!r}: expected one of {FRAMEWORKS}")
    other = next(name for name in FRAMEWORKS if name != framework)
    if other in sys.modules and compiler_stack_installed():
        raise SolverLoadError(
            f"{who} needs {framework}, but this process has already loaded {other}, and with "
            f"torch's compiler stack (triton) installed the two crash together: load {who} in "
            "a process of its own (bench run gives every solver its own worker), or install "
            "torch's CPU build, which has no triton"
        )
