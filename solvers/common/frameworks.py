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

import contextlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Iterator

from ...harness import SolverLoadError

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
    if framework == "tensorflow" and "tensorflow" not in sys.modules:
        import_tensorflow_quietly()


@contextlib.contextmanager
def _stderr_to_file() -> Iterator[tempfile.SpooledTemporaryFile]:
    """Send file descriptor 2 (where TensorFlow's C++ start-up lines go, past Python's
    ``sys.stderr``) to a temporary file for the block."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield sink
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def import_tensorflow_quietly() -> None:
    """Import TensorFlow without its start-up lines (oneDNN, CPU features, absl's notice),
    which it writes to the process's standard error at import whatever the caller wants:
    a benchmark's log would carry a dozen of them. ``TF_CPP_MIN_LOG_LEVEL`` keeps the
    user's value where set. An import that fails shows what TensorFlow wrote."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    with _stderr_to_file() as sink:
        try:
            import tensorflow  # noqa: F401
        except BaseException:
            sink.seek(0)
            sys.stderr.write(sink.read().decode(errors="replace"))
            raise
