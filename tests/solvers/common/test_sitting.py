"""The sitting every trainer shares (torch and Keras alike), driven by a fake trainer."""

from __future__ import annotations

import os
import signal

import pytest

from cubebench.harness.interrupts import Terminated
from cubebench.solvers.common.loop import LoopConfig, Progress
from cubebench.solvers.common.sitting import Sitting, run_sitting


class FakeTrainer:
    """Counts its steps, the learning rates it was given and the steps it validated at."""

    def __init__(self, progress: dict, signal_at: int | None = None) -> None:
        self.progress, self.signal_at = progress, signal_at
        self.rates: list[float] = []
        self.validated: list[int] = []

    def step(self, lr: float) -> int:
        self.rates.append(lr)
        if self.signal_at is not None and len(self.rates) == self.signal_at:
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill PID` would, mid-step
        return 8

    def checkpoint(self) -> None:
        self.validated.append(self.progress["step"])


def _sitting(config: LoopConfig, step: int = 0, **kwargs) -> tuple[FakeTrainer, dict]:
    progress = {"step": step, "samples": 8 * step}
    trainer = FakeTrainer(progress, kwargs.pop("signal_at", None))
    go_on = kwargs.pop("go_on", None)
    sitting = Sitting(trainer.step, trainer.checkpoint, **({"go_on": go_on} if go_on else {}))
    run_sitting(sitting, config, Progress(config, 0.0, step), progress, lambda _: None, **kwargs)
    return trainer, progress


def test_a_run_goes_to_its_step_budget_validating_on_schedule_and_at_the_end():
    config = LoopConfig(steps=10, eval_every_steps=4, lr=1e-2, lr_floor=1e-4)
    trainer, progress = _sitting(config)
    assert progress == {"step": 10, "samples": 80}
    assert trainer.validated == [4, 8, 10]
    assert trainer.rates[0] == pytest.approx(1e-2) and trainer.rates[-1] < trainer.rates[0]
    assert trainer.rates == sorted(trainer.rates, reverse=True)  # the cosine schedule


def test_a_later_sitting_continues_the_schedule_and_caps_at_its_own_steps():
    config = LoopConfig(steps=10, eval_every_steps=4, sitting_steps=3)
    first, progress = _sitting(config)
    assert progress["step"] == 3 and first.validated == [3]
    second, progress = _sitting(config, step=3, validated_step=3)
    assert progress["step"] == 6 and second.validated == [6]
    assert second.rates[0] < first.rates[-1]  # the schedule is the run's, not the sitting's


def test_a_finished_sitting_is_not_validated_twice():
    config = LoopConfig(steps=8, eval_every_steps=4)
    trainer, _ = _sitting(config)
    assert trainer.validated == [4, 8]  # the last step's validation just ran


def test_the_trainer_s_own_rule_stops_the_run_early():
    config = LoopConfig(steps=100, eval_every_steps=5)
    progress = {"step": 0, "samples": 0}
    trainer = FakeTrainer(progress)
    sitting = Sitting(trainer.step, trainer.checkpoint, lambda: progress["step"] < 12)
    run_sitting(sitting, config, Progress(config), progress, lambda _: None)
    assert progress["step"] == 12 and trainer.validated == [5, 10, 12]


def test_a_signal_ends_the_sitting_after_its_step_with_the_state_saved():
    config = LoopConfig(steps=100, eval_every_steps=50)
    lines: list[str] = []
    progress = {"step": 0, "samples": 0}
    trainer = FakeTrainer(progress, signal_at=7)
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated) as stopped:
        run_sitting(Sitting(trainer.step, trainer.checkpoint), config, Progress(config),
                    progress, lines.append)  # fmt: skip
    assert stopped.value.signum == signal.SIGTERM  # the command exits 128 + 15
    assert progress["step"] == 7 and trainer.validated == [7]  # the 7 steps are kept
    assert "stopped by SIGTERM at step 7" in lines[-1]
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is put back
