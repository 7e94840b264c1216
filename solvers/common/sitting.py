"""One sitting of a training run, whatever the framework: the loop every trainer shares.

The torch loop (:mod:`cubebench.solvers.common.trainer`) and the Keras trainers
(``cnn-faces``, ``mlp-kociemba``) differ in how they take a step and what they save; how a
sitting goes is the same for all of them and lives here once: the learning rate follows the
run's schedule, validation (which saves the best weights and the resumable state) comes when
the :class:`~cubebench.solvers.common.loop.Progress` clock says, a sitting ends at its budget,
at the trainer's own stopping rule, or at the first SIGTERM/SIGHUP/Ctrl-C — after a last
validation, so the steps since the previous one are never lost — and a run stopped by a
signal ends the command with status 128 + its number, as ``bench run`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...harness import Terminated
from .loop import LoopConfig, Progress, cosine_lr, stop_on_signal


@dataclass(frozen=True)
class Sitting:
    """What a trainer plugs into :func:`run_sitting`."""

    # one optimizer step at the given learning rate; returns how many samples it used
    step: Callable[[float], int]
    # validate, keep the best weights and save the resumable state (the progress included)
    checkpoint: Callable[[], None]
    # the trainer's own reason to end the run early (patience): False stops it
    go_on: Callable[[], bool] = lambda: True


def run_sitting(
    sitting: Sitting,
    config: LoopConfig,
    clock: Progress,
    progress: dict[str, Any],
    log: Callable[[str], None] = print,
    validated_step: int | None = None,
) -> None:
    """Train until the budget, this sitting's cap, ``go_on`` or a signal says stop.

    ``progress`` holds the run's ``step`` and ``samples`` (updated here, saved by
    ``checkpoint``). The last step is always validated and saved unless its validation has
    just run (``validated_step``: the step an earlier sitting last validated, where known).

    Raises:
        Terminated: a signal stopped the sitting; its state was saved and the run continues.
    """
    last_checkpoint = validated_step

    def checkpoint() -> None:
        nonlocal last_checkpoint
        sitting.checkpoint()
        last_checkpoint = progress["step"]

    with stop_on_signal() as stop:
        while clock.running() and stop.signum is None and sitting.go_on():
            lr = cosine_lr(config, clock.fraction(), progress["step"] if config.steps else None)
            samples = sitting.step(lr)
            progress["step"] = clock.step = progress["step"] + 1
            progress["samples"] += samples
            if clock.eval_due():
                checkpoint()
        if last_checkpoint != progress["step"]:
            checkpoint()
    if stop.signum is not None:
        log(f"stopped by {stop.name} at step {progress['step']}: state saved, the run continues")
        raise Terminated(stop.signum)
    if clock.finished():
        log(f"run finished: {progress['step']} steps, {progress['samples']:,} samples")
