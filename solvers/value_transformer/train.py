"""Train the value transformer: ``bench train value-transformer``.

Two phases, as in seed 001. ``plain``: one state per random walk, at a uniformly random
length, labelled with that length (the walk length estimates the distance: shorter paths are
likelier to reach a state, so the minimum dominates). ``path`` (the seed's "path
finetuning"): every state along each walk, labelled with its position; run after ``plain``
with ``--fresh --init-from <folder> --lr 1e-4`` (the seed fine-tuned at a 10-100x lower
rate). Validation: mean squared error and within-k
accuracy against the *true* distance of shallow states (exact, from the meet-in-the-middle
oracle) and against the walk length on deep ones, on a seed stream training never uses.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np
import torch
import torch.nn.functional as F

from ...harness import ArgumentError, DistanceOracle
from ..common.loop import LoopConfig, add_loop_arguments, parse_run, print_flush
from ..common.state import state_path
from ..common.trainer import TrainingTask, train_loop
from ..common.walks import walk_samples
from .checkpoint import CHECKPOINT_DIR, STEM
from .model import TransformerConfig, ValueTransformer, encode

EXACT_RADIUS = 5  # oracle table radius; with 2 search levels, exact to 7 moves


@dataclass(frozen=True)
class DataConfig:
    """What a training step sees. ``walks_per_batch`` 0 means the phase's default: 1,024
    walks in ``plain`` (a state each), and in ``path`` as many walks as give about the same
    number of states (every state of each walk), so that fine-tuning on N states takes as
    many optimizer steps as plain training on N."""

    phase: Literal["plain", "path"] = "plain"
    walks_per_batch: int = 0
    walk_length: int = 24
    validation_walks: int = 200

    def __post_init__(self) -> None:
        for name in ("walks_per_batch", "walk_length", "validation_walks"):
            low = 0 if name == "walks_per_batch" else 1
            if getattr(self, name) < low:
                raise ArgumentError(
                    f"value-transformer {name}={getattr(self, name)}: must be at least {low}"
                )

    @property
    def walks(self) -> int:
        """Walks a step, the phase's default resolved."""
        if self.walks_per_batch:
            return self.walks_per_batch
        return 1024 if self.phase == "plain" else max(1, 1024 // self.walk_length)


def _validation(data: DataConfig, seed: int, device: str) -> dict:
    rng = np.random.default_rng([seed, 1])
    shallow, _, shallow_walk = walk_samples(data.validation_walks, 7, rng)
    oracle = DistanceOracle.build(EXACT_RADIUS)
    truth, exact = oracle.distances(shallow, max_levels=2)
    if not exact.all():
        raise RuntimeError("validation states beyond the oracle's exact range")
    deep, _, deep_walk = walk_samples(data.validation_walks // 4, data.walk_length, rng)
    return {
        "shallow": encode(shallow, device),
        "truth": truth,
        "shallow_walk": shallow_walk,
        "deep": encode(deep, device),
        "deep_walk": deep_walk,
    }


def _metrics(pred: np.ndarray, target: np.ndarray) -> dict:
    err = pred - target
    return {
        "mse": round(float(np.mean(err**2)), 4),
        "within_3": round(float(np.mean(np.abs(err) <= 3)), 4),
        "rounded_exact": round(float(np.mean(np.rint(pred) == target)), 4),
    }


def make_task(data: DataConfig, config: TransformerConfig, device: str, seed: int) -> TrainingTask:
    model = ValueTransformer(config)
    val = _validation(data, seed, device)
    classify = config.head == "classification"

    def make_batch(rng: np.random.Generator):
        walks = data.walks
        states, _, depths = walk_samples(walks, data.walk_length, rng)
        if data.phase == "plain":  # one random prefix per walk
            pick = rng.integers(0, data.walk_length, size=walks)
            columns = pick * walks + np.arange(walks)
            states, depths = states[:, columns], depths[columns]
        target = np.minimum(depths, config.max_distance)
        return encode(states), torch.from_numpy(target if classify else target.astype(np.float32))

    def loss(output, target):
        if classify:
            return F.cross_entropy(output.float(), target)
        return F.mse_loss(output.float(), target)

    def validate(m) -> dict:
        shallow = m.distance(m(val["shallow"])).float().cpu().numpy()
        deep = m.distance(m(val["deep"])).float().cpu().numpy()
        exact = _metrics(shallow, val["truth"])
        return {
            "val_loss": exact["mse"],
            "vs_true_distance_depth_le_7": exact,
            "vs_walk_length_depth_le_7": _metrics(shallow, val["shallow_walk"]),
            "vs_walk_length_deep": _metrics(deep, val["deep_walk"]),
        }

    def describe(m: dict) -> str:
        t, w = m["vs_true_distance_depth_le_7"], m["vs_walk_length_deep"]
        return (
            f"true-distance mse {t['mse']:.3f} within-3 {t['within_3']:.3f}  "
            f"walk-length (deep) mse {w['mse']:.3f} within-3 {w['within_3']:.3f}"
        )

    return TrainingTask(
        stem=STEM,
        model=model,
        make_batch=make_batch,
        loss=loss,
        validate=validate,
        describe=describe,
        card={
            "model": STEM,
            "architecture": config.to_dict(),
            "data": {**asdict(data), "walks_per_batch": data.walks},
        },
    )


def train(
    loop: LoopConfig,
    data: DataConfig | None = None,
    config: TransformerConfig | None = None,
    log=print,
) -> dict:
    task = make_task(data or DataConfig(), config or TransformerConfig(), loop.device, loop.seed)
    return train_loop(task, loop, log)


def main(argv: list[str] | None = None) -> dict:
    """``bench train value-transformer`` and
    ``python -m cubebench.solvers.value_transformer.train``."""
    parser = argparse.ArgumentParser(prog="bench train value-transformer", description=__doc__)
    add_loop_arguments(parser, CHECKPOINT_DIR)
    parser.add_argument("--phase", choices=["plain", "path"], default="plain")
    parser.add_argument(
        "--walks-per-batch",
        type=int,
        default=0,
        help="random walks a step (0: 1,024 in plain, 1,024 // walk length in path)",
    )
    parser.add_argument(  # regression measured better (docs/experiments/value-transformer.md)
        "--head", choices=["regression", "classification"], default="regression"
    )
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--width", type=int, default=96)
    # the recipe of the shipped run (README: "Training"); bf16 autocast trains this model
    # 2.7x slower here, so float32
    parser.set_defaults(
        steps=30_000, warmup_steps=300, eval_every_steps=250, lr=1e-3, precision="fp32"
    )
    state = lambda a: state_path(a.out, STEM)  # noqa: E731
    run_options = ("phase", "walks_per_batch", "head", "layers", "width")
    loop, args = parse_run(parser, argv, run_options, state)
    config = TransformerConfig(
        layers=args.layers,
        width=args.width,
        heads=max(1, args.width // 16),
        feedforward=2 * args.width,
        head=args.head,
    )
    data = DataConfig(phase=args.phase, walks_per_batch=args.walks_per_batch)
    return train(loop, data, config, log=print_flush)


if __name__ == "__main__":
    main()
