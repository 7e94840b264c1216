"""Framework-free parts of training: the loop's config, its schedule and its command line.

A training run is defined by its total budget (``--steps``), which fixes the learning-rate
schedule; ``--minutes`` only caps one sitting, and ``bench train NAME`` run again continues
the run from its saved state until the budget is spent. What defines the run (the budget,
the schedule, the seed, the data and the architecture: the *run options*) is saved with the
state when the run starts and read back when it continues, so a later sitting needs no
options at all and cannot change the run by accident. What may differ between sittings
(minutes, threads, precision, device) is recorded per sitting.

Shared by the torch loop (:mod:`cubebench.solvers.common.trainer`) and the Keras one, so
neither pulls in the other's framework.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...harness import ArgumentError
from .outputs import check_cuda

MAX_MINUTES = 7 * 24 * 60
"""The longest sitting ``--minutes`` accepts: a week."""
MAX_THREADS = 1024

LOOP_RUN_OPTIONS = ("steps", "lr", "lr_floor", "warmup_steps", "seed", "eval_every_steps")
"""The loop's options that define a run (the rest apply to one sitting)."""


@dataclass(frozen=True)
class LoopConfig:
    """How long and how a training run goes.

    ``steps`` (when set) is the run's total budget, whatever the CPU: the learning-rate
    schedule runs over steps, validation comes every ``eval_every_steps``, and ``minutes``
    caps only the current sitting (a later one continues). Without ``steps`` the run is one
    sitting of ``minutes`` and the schedule runs over wall time. Tests always use steps.
    """

    minutes: float = 90.0
    steps: int | None = None
    eval_every_steps: int | None = None
    device: str = "cpu"
    lr: float = 1e-3
    lr_floor: float = 1e-5
    warmup_steps: int = 0  # linear warm-up from 0 to lr (only with steps)
    sitting_steps: int | None = None  # end this sitting after this many steps
    seed: int = 0
    threads: int = 2
    eval_every_s: float = 120.0
    out: str = "checkpoints"
    resume: bool = True
    # a checkpoint folder, or another model's card (X.json) of the same shape, to start from
    init_from: str = ""
    # auto: bfloat16 where the hardware has it natively (cubebench.solvers.common.precision).
    # Even there it doubles an MLP's training throughput but cuts a small transformer's to
    # ~40% (measured), so a trainer may default to fp32.
    precision: str = "auto"
    # a new run may write over a model already in ``out`` (one it did not start)
    replace: bool = False
    # every run option of the command line (loop's and trainer's), saved with the state
    run_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Every option's range, checked before anything loads (a NaN is in no range)."""

        def refuse(name: str, why: str) -> ArgumentError:
            flag = "--" + name.replace("_", "-")
            return ArgumentError(f"training {flag} {getattr(self, name)!r}: {why}")

        for name in ("steps", "eval_every_steps", "sitting_steps"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise refuse(name, "must be at least 1")
        if not 0 < self.minutes <= MAX_MINUTES:
            raise refuse("minutes", f"must be more than 0 and at most {MAX_MINUTES}")
        if not 0 < self.lr <= 1:
            raise refuse("lr", "must be more than 0 and at most 1")
        if not 0 <= self.lr_floor <= self.lr:
            raise refuse("lr_floor", f"must be from 0 to --lr ({self.lr})")
        if self.warmup_steps < 0:
            raise refuse("warmup_steps", "must be 0 or more")
        if not 1 <= self.threads <= MAX_THREADS:
            raise refuse("threads", f"must be from 1 to {MAX_THREADS}")
        if not re.fullmatch(r"cpu|cuda(:\d+)?", self.device):
            raise refuse("device", "choose cpu, cuda or cuda:N")
        if not math.isfinite(self.eval_every_s) or self.eval_every_s <= 0:
            raise refuse("eval_every_s", "must be a positive number of seconds")
        if self.device.startswith("cuda"):
            check_cuda(self.device)


class Progress:
    """Where a training run is against its budget: steps when set, else wall time.

    ``elapsed`` counts every sitting of the run; the ``minutes`` cap of a run with a step
    budget counts only this sitting.
    """

    def __init__(self, config: LoopConfig, elapsed: float = 0.0, step: int = 0) -> None:
        self.config = config
        self.sitting_start = time.monotonic()
        self.start = self.sitting_start - elapsed
        self.step = self.sitting_start_step = step
        self.last_eval_step, self.last_eval_time = step, time.monotonic()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    @property
    def sitting_elapsed(self) -> float:
        return time.monotonic() - self.sitting_start

    def fraction(self) -> float:
        """Share of the budget spent: of the steps if set, else of the minutes."""
        if self.config.steps:
            return self.step / self.config.steps
        return self.elapsed / (self.config.minutes * 60)

    def finished(self) -> bool:
        """The run's budget is spent (not merely this sitting's time)."""
        if self.config.steps:
            return self.step >= self.config.steps
        return self.elapsed >= self.config.minutes * 60

    def running(self) -> bool:
        if self.config.steps:
            over_time = self.sitting_elapsed >= self.config.minutes * 60
        else:
            over_time = self.elapsed >= self.config.minutes * 60
        sitting_steps = self.config.sitting_steps
        over_steps = (
            sitting_steps is not None and self.step - self.sitting_start_step >= sitting_steps
        )
        return not over_time and not over_steps and not self.finished()

    def eval_due(self) -> bool:
        """Validation time: every ``eval_every_steps`` steps if set, else ``eval_every_s``."""
        if self.config.eval_every_steps:
            due = self.step - self.last_eval_step >= self.config.eval_every_steps
        else:
            due = time.monotonic() - self.last_eval_time >= self.config.eval_every_s
        if due:
            self.last_eval_step, self.last_eval_time = self.step, time.monotonic()
        return due


def cosine_lr(config: LoopConfig, fraction: float, step: int | None = None) -> float:
    """Learning rate after ``fraction`` of the budget: a linear warm-up over
    ``warmup_steps`` (when ``step`` is given), then cosine from lr to lr_floor."""
    if step is not None and step < config.warmup_steps:
        return config.lr * (step + 1) / config.warmup_steps
    fraction = min(max(fraction, 0.0), 1.0)
    return config.lr_floor + 0.5 * (config.lr - config.lr_floor) * (
        1 + math.cos(math.pi * fraction)
    )


def add_loop_arguments(parser: argparse.ArgumentParser, out: Path) -> None:
    """The options every ``bench train NAME`` accepts."""
    parser.add_argument(
        "--minutes",
        type=float,
        default=90.0,
        help="cap on this sitting's wall time (the whole run's budget when --steps is unset)",
    )
    parser.add_argument(
        "--steps", type=int, default=None, help="the run's total budget in optimizer steps"
    )
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", 2)))
    parser.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    parser.add_argument("--lr-floor", type=float, default=1e-5, help="final learning rate")
    parser.add_argument("--warmup-steps", type=int, default=0, help="linear warm-up steps")
    parser.add_argument("--eval-every-steps", type=int, default=None, help="validate every N steps")
    parser.add_argument(
        "--sitting-steps", type=int, default=None, help="end this sitting after N steps"
    )
    parser.add_argument("--out", default=str(out), help="checkpoint folder")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved training state")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="let a new run write over the model already in --out (a shipped one included)",
    )
    parser.add_argument(
        "--init-from",
        default="",
        help="checkpoint folder to fine-tune, or another model's card (X.json) of this shape",
    )
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
        eval_every_steps=getattr(args, "eval_every_steps", None),
        device=args.device,
        threads=args.threads,
        lr=args.lr,
        lr_floor=getattr(args, "lr_floor", 1e-5),
        warmup_steps=getattr(args, "warmup_steps", 0),
        sitting_steps=getattr(args, "sitting_steps", None),
        out=args.out,
        resume=not args.fresh,
        seed=args.seed,
        init_from=args.init_from,
        precision=args.precision,
        replace=getattr(args, "replace", False),
        run_options=dict(getattr(args, "run_options", {})),
    )


_UNSET = object()


def parse_run_arguments(
    parser: argparse.ArgumentParser,
    argv: list[str] | None,
    run_options: Iterable[str],
    saved_options: Callable[[argparse.Namespace], dict[str, Any] | None],
) -> argparse.Namespace:
    """Parse a trainer's command line, continuing a saved run where there is one.

    ``run_options`` are the trainer's own options that define a run (``dest`` names); the
    loop's (:data:`LOOP_RUN_OPTIONS`) are added. ``saved_options(args)`` returns the run
    options saved with the state the command would continue (None when there is none, or
    under ``--fresh``). A continued run takes its saved options; one given again with
    another value is refused, since it would silently change the run.
    """
    names = list(dict.fromkeys([*LOOP_RUN_OPTIONS, *run_options]))
    defaults = {name: parser.get_default(name) for name in names}
    parser.set_defaults(**dict.fromkeys(names, _UNSET))
    try:
        args = parser.parse_args(argv)
    finally:
        parser.set_defaults(**defaults)
    given = {n: getattr(args, n) for n in names if getattr(args, n) is not _UNSET}
    saved = saved_options(args) or {}
    for name, value in given.items():
        if name in saved and saved[name] != value:
            flag = "--" + name.replace("_", "-")
            raise ArgumentError(
                f"{flag} {value}: the saved run continued here was started with "
                f"{flag} {saved[name]}; leave it out to continue, or add --fresh to start anew"
            )
    merged = {**defaults, **{k: v for k, v in saved.items() if k in defaults}, **given}
    for name, value in merged.items():
        setattr(args, name, value)
    args.run_options = merged
    return args


def parse_training_args(
    argv: list[str] | None,
    prog: str,
    doc: str | None,
    out: Path,
    metric: str | None = None,
    state_file: Callable[[argparse.Namespace], Path] | None = None,
) -> tuple[LoopConfig, str | None]:
    """A trainer's command line: the loop options, and ``--metric`` where the solver trains
    one model per move set (``metric`` is then its default). With ``state_file`` (the state
    a command would continue), a saved run's options are read back."""
    parser = argparse.ArgumentParser(prog=prog, description=doc)
    add_loop_arguments(parser, out)
    if metric is not None:
        parser.add_argument("--metric", choices=["htm", "qtm"], default=metric, help="move set")
    if state_file is None:
        args = parser.parse_args(argv)
    else:
        args = parse_run_arguments(parser, argv, (), saved_reader(state_file))
    return loop_config(args), getattr(args, "metric", None)


def parse_run(
    parser: argparse.ArgumentParser,
    argv: list[str] | None,
    run_options: Iterable[str],
    state_file: Callable[[argparse.Namespace], Path],
) -> tuple[LoopConfig, argparse.Namespace]:
    """:func:`parse_run_arguments` continuing the run saved at ``state_file(args)``; the
    loop's config and the parsed arguments (the trainer's own options among them)."""
    args = parse_run_arguments(parser, argv, run_options, saved_reader(state_file))
    return loop_config(args), args


def saved_reader(
    state_file: Callable[[argparse.Namespace], Path],
) -> Callable[[argparse.Namespace], dict[str, Any] | None]:
    """``saved_options`` for :func:`parse_run_arguments` from a state file's location."""

    def read(args: argparse.Namespace) -> dict[str, Any] | None:
        if args.fresh:
            return None
        from .state import read_run_options

        return read_run_options(state_file(args))

    return read


@dataclass
class StopRequest:
    """Set by the first SIGTERM, SIGHUP or Ctrl-C inside :func:`stop_on_signal`."""

    signum: int | None = None

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""


@contextlib.contextmanager
def stop_on_signal() -> Iterator[StopRequest]:
    """Within the block, the first SIGTERM, SIGHUP or SIGINT asks the loop to stop after its
    current step (it then validates and saves, so ``kill PID`` ends a sitting without losing
    the steps since the last validation); a second one acts as usual, to force the stop.
    Only the main thread can handle signals; elsewhere nothing is installed."""
    request = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return
    names = ("SIGTERM", "SIGHUP", "SIGINT")
    signals = [getattr(signal, n) for n in names if hasattr(signal, n)]
    previous = {sig: signal.getsignal(sig) for sig in signals}

    def handler(signum: int, frame: object) -> None:
        request.signum = signum
        for sig, old in previous.items():
            signal.signal(sig, old)

    for sig in signals:
        signal.signal(sig, handler)
    try:
        yield request
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def print_flush(message: str) -> None:
    print(message, flush=True)
