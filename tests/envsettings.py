"""How the tests run training, from the environment: a fixed amount of work, any CPU.

``CUBEBENCH_TEST_THREADS`` sets training threads (default 2) and ``CUBEBENCH_PRECISION``
(read by the solvers and trainers themselves) forces what ``precision=auto`` resolves to,
so ``CUBEBENCH_PRECISION=fp32 CUBEBENCH_TEST_THREADS=1 OMP_NUM_THREADS=1 pytest`` runs
the suite as the slowest supported CPU would. Outcomes never depend on speed: training
runs a number of steps, and ``minutes`` is only a cap far above what the steps need.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from cubebench.solvers.common.loop import LoopConfig

if TYPE_CHECKING:  # torch stays out of the TensorFlow tests' process, which read this too
    import numpy as np

    from cubebench.solvers.common.trainer import Batch, TrainingTask

THREADS = int(os.environ.get("CUBEBENCH_TEST_THREADS", "2"))
CAP_MINUTES = 600.0
"""Wall-clock cap of a test's training run: a guard against a hang, never the budget."""


def loop_for_tests(*, steps: int, out: str) -> LoopConfig:
    """``steps`` of training with one validation at the end, into ``out``."""
    return LoopConfig(
        minutes=CAP_MINUTES,
        steps=steps,
        eval_every_steps=steps,
        out=out,
        resume=False,
        threads=THREADS,
    )


class KilledError(Exception):
    """What :func:`killed_at` raises: a run dying between two validations."""


def killed_at(task: TrainingTask, batch: int) -> TrainingTask:
    """``task`` whose ``batch``-th training batch raises :class:`KilledError`, as a kill
    between two validations would: the state on disk is the last validation's."""
    make_batch, calls = task.make_batch, [0]

    def dying(rng: np.random.Generator) -> Batch:
        calls[0] += 1
        if calls[0] == batch:
            raise KilledError
        return make_batch(rng)

    task.make_batch = dying
    return task
