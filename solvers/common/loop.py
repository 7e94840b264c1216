"""Framework-free parts of training: the loop's config, its schedule and its command line.

Shared by the torch loop (:mod:`cubebench.solvers.common.trainer`) and the Keras one, so
neither pulls in the other's framework.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from cubebench.harness.solver import ArgumentError


@dataclass(frozen=True)
class LoopConfig:
    """How long and how a training run goes.

    ``steps`` (when set) makes the run a fixed amount of work, whatever the CPU: training
    stops there, the learning-rate schedule runs over steps and validation comes every
    ``eval_every_steps``; ``minutes`` then only caps the wall time. Tests always use steps.
    """

    minutes: float = 90.0
    steps: int | None = None
    eval_every_steps: int | None = None
    device: str = "cpu"
    lr: float = 1e-3
    lr_floor: float = 1e-5
    seed: int = 0
    threads: int = 2
    eval_every_s: float = 120.0
    out: str = "checkpoints"
    resume: bool = True
    init_from: str = ""  # a checkpoint folder to start from (fine-tuning), when not resuming
    # auto: bfloat16 where the hardware has it natively (cubebench.solvers.common.precision).
    # Even there it doubles an MLP's training throughput but cuts a small transformer's to ~40%
    # (measured), so a trainer may default to fp32.
    precision: str = "auto"

    def __post_init__(self) -> None:
        for name in ("steps", "eval_every_steps"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ArgumentError(f"training {name}={value}: must be at least 1")
        if self.minutes <= 0:
            raise ArgumentError(f"training minutes={self.minutes}: must be positive")


class Progress:
    """Where a training run is against its budget: steps when set, else wall time."""

    def __init__(self, config: LoopConfig, elapsed: float = 0.0, step: int = 0) -> None:
        self.config = config
        self.start = time.monotonic() - elapsed
        self.step = step
        self.last_eval_step, self.last_eval_time = step, time.monotonic()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def fraction(self) -> float:
        """Share of the budget spent: of the steps if set, else of the minutes."""
        if self.config.steps:
            return self.step / self.config.steps
        return self.elapsed / (self.config.minutes * 60)

    def running(self) -> bool:
        over_time = self.elapsed >= self.config.minutes * 60
        return not over_time and (not self.config.steps or self.step < self.config.steps)

    def eval_due(self) -> bool:
        """Validation time: every ``eval_every_steps`` steps if set, else ``eval_every_s``."""
        if self.config.eval_every_steps:
            due = self.step - self.last_eval_step >= self.config.eval_every_steps
        else:
            due = time.monotonic() - self.last_eval_time >= self.config.eval_every_s
        if due:
            self.last_eval_step, self.last_eval_time = self.step, time.monotonic()
        return due


def cosine_lr(config: LoopConfig, fraction: float) -> float:
    """Learning rate after ``fraction`` of the time budget: cosine from lr to lr_floor."""
    fraction = min(max(fraction, 0.0), 1.0)
    return config.lr_floor + 0.5 * (config.lr - config.lr_floor) * (
        1 + math.cos(math.pi * fraction)
    )


def add_loop_arguments(parser: argparse.ArgumentParser, out: Path) -> None:
    """The options every ``bench train NAME`` accepts."""
    parser.add_argument("--minutes", type=float, default=90.0, help="training time budget")
    parser.add_argument("--steps", type=int, default=None, help="stop after this many steps")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", 2)))
    parser.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    parser.add_argument("--out", default=str(out), help="checkpoint folder")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved training state")
    parser.add_argument("--init-from", default="", help="checkpoint folder to fine-tune")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--precision",
        choices=["auto", "bf16", "fp32"],
        default="auto",
        help="auto: bfloat16 where the hardware has it natively, else float32",
    )


def loop_config(args: argparse.Namespace) -> LoopConfig:
    return LoopConfig(
        minutes=args.minutes,
        steps=args.steps,
        device=args.device,
        threads=args.threads,
        lr=args.lr,
        out=args.out,
        resume=not args.fresh,
        seed=args.seed,
        init_from=args.init_from,
        precision=args.precision,
    )


def parse_training_args(
    argv: list[str] | None, prog: str, doc: str | None, out: Path, metric: str | None = None
) -> tuple[LoopConfig, str | None]:
    """A trainer's command line: the loop options, and ``--metric`` where the solver trains
    one model per move set (``metric`` is then its default)."""
    parser = argparse.ArgumentParser(prog=prog, description=doc)
    add_loop_arguments(parser, out)
    if metric is not None:
        parser.add_argument("--metric", choices=["htm", "qtm"], default=metric, help="move set")
    args = parser.parse_args(argv)
    return loop_config(args), getattr(args, "metric", None)


def print_flush(message: str) -> None:
    print(message, flush=True)
