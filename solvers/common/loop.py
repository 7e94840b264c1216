"""Framework-free parts of training: the loop's config, its schedule and its command line.

Shared by the torch loop (:mod:`solvers.common.trainer`) and the Keras one, so neither pulls
in the other's framework.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LoopConfig:
    minutes: float = 90.0
    device: str = "cpu"
    lr: float = 1e-3
    lr_floor: float = 1e-5
    seed: int = 0
    threads: int = 2
    eval_every_s: float = 120.0
    out: str = "checkpoints"
    resume: bool = True
    init_from: str = ""  # a checkpoint folder to start from (fine-tuning), when not resuming
    # bfloat16 autocast on CPU doubles an MLP's training throughput here but cuts a small
    # transformer's to ~40% (measured), so each trainer picks its default.
    precision: str = "bf16"


def cosine_lr(config: LoopConfig, fraction: float) -> float:
    """Learning rate after ``fraction`` of the time budget: cosine from lr to lr_floor."""
    fraction = min(max(fraction, 0.0), 1.0)
    return config.lr_floor + 0.5 * (config.lr - config.lr_floor) * (
        1 + math.cos(math.pi * fraction)
    )


def add_loop_arguments(parser: argparse.ArgumentParser, out: Path) -> None:
    """The options every ``bench train NAME`` accepts."""
    parser.add_argument("--minutes", type=float, default=90.0, help="training time budget")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", 2)))
    parser.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    parser.add_argument("--out", default=str(out), help="checkpoint folder")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved training state")
    parser.add_argument("--init-from", default="", help="checkpoint folder to fine-tune")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--precision", choices=["bf16", "fp32"], default="bf16", help="CPU autocast or not"
    )


def loop_config(args: argparse.Namespace) -> LoopConfig:
    return LoopConfig(
        minutes=args.minutes,
        device=args.device,
        threads=args.threads,
        lr=args.lr,
        out=args.out,
        resume=not args.fresh,
        seed=args.seed,
        init_from=args.init_from,
        precision=args.precision,
    )


def print_flush(message: str) -> None:
    print(message, flush=True)
