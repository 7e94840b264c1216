"""Train the diffusion-distance MLP: ``bench train cayley-mlp [--metric qtm]``.

CayleyPy's recipe (Chervov et al. 2025): random walks from solved that never undo their
last move, every visited state labelled with the number of steps taken, and a mean-squared
regression onto that number. The walk length overestimates the true distance (walks wander),
but it grows with it, and a beam search only needs the order. Every prefix of a walk is a
sample (CayleyPy draws one walk per length; the marginal distribution is the same).
Validation: MSE against the walk length on walks from a seed stream training never uses, and
the mean prediction per walk length.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import partial

import numpy as np
import torch
import torch.nn.functional as F

from ...harness import ArgumentError
from ..common.distance_validation import describe_distance, distance_metrics
from ..common.loop import add_loop_arguments, parse_run, print_flush
from ..common.state import state_path
from ..common.trainer import TrainingTask, model_task, train_model
from ..common.walks import WALK_RULES, WalkRule, walk_samples
from .checkpoint import SHIPPED, stem_for
from .model import ModelConfig, ValueMLP, encode


@dataclass(frozen=True)
class DataConfig:
    metric: str = "qtm"
    walks_per_batch: int = 384  # x walk_length samples per step (~10k, CayleyPy's batch)
    walk_length: int = 26  # QTM's diameter; HTM uses 22
    validation_walks: int = 1000
    # "nonbacktracking" (CayleyPy's) or "canonical": walks along the searches' canonical
    # sequences, whose lengths waste fewer steps (:mod:`cubebench.solvers.common.walks`)
    walks: WalkRule = "nonbacktracking"

    def __post_init__(self) -> None:
        if self.walks not in WALK_RULES:
            raise ArgumentError(f"cayley-mlp walks={self.walks!r}: one of {', '.join(WALK_RULES)}")

    @classmethod
    def for_metric(cls, metric: str, walks: WalkRule = "nonbacktracking") -> DataConfig:
        if metric == "qtm":
            return cls(walks=walks)
        return cls("htm", 448, 22, walks=walks)


def make_task(data: DataConfig, model_config: ModelConfig, device: str, seed: int) -> TrainingTask:
    rng_val = np.random.default_rng([seed, 1])  # a stream training never draws from
    walks = partial(walk_samples, length=data.walk_length, metric=data.metric, rule=data.walks)
    states, _, depths = walks(data.validation_walks, rng=rng_val)
    val_x = encode(states, device)
    val_y = torch.from_numpy(depths.astype(np.float32)).to(device)

    def make_batch(rng: np.random.Generator):
        states, _, depths = walks(data.walks_per_batch, rng=rng)
        return encode(states), torch.from_numpy(depths.astype(np.float32))

    def validate(model) -> dict:
        return distance_metrics(model(val_x), val_y, depths, F.mse_loss)

    return model_task(
        stem_for(data.metric),
        data,
        model_config.to_dict(),
        f"steps of a {data.walks} random walk from solved (diffusion distance)",
        model=ValueMLP(model_config),
        make_batch=make_batch,
        loss=lambda out, y: F.mse_loss(out.float(), y),
        validate=validate,
        describe=describe_distance,
    )


train = partial(train_model, make_task, DataConfig, ModelConfig)
"""``train(loop, data=None, model_config=None, log=print)``: the card of the best weights."""


def main(argv: list[str] | None = None) -> dict:
    """``bench train cayley-mlp`` and ``python -m cubebench.solvers.cayley_mlp.train``.

    The network's size is part of the run (saved with its state): a smaller net trains and
    searches faster, so the size is a measured choice (``benchmarks/cards/value_net_sizes.py``).
    """
    parser = argparse.ArgumentParser(prog="bench train cayley-mlp", description=__doc__)
    add_loop_arguments(parser, SHIPPED.folder)
    parser.add_argument("--metric", choices=["htm", "qtm"], default="qtm", help="move set")
    parser.add_argument(
        "--walks",
        choices=WALK_RULES,
        default=DataConfig.walks,
        help="the training walks' rule: CayleyPy's non-backtracking walks, or canonical sequences",
    )
    default = ModelConfig()
    parser.add_argument("--hidden1", type=int, default=default.hidden1, help="first layer")
    parser.add_argument("--hidden2", type=int, default=default.hidden2, help="second layer")
    parser.add_argument(
        "--residual-blocks", type=int, default=default.residual_blocks, help="blocks of hidden2"
    )
    state = lambda a: state_path(a.out, stem_for(a.metric))  # noqa: E731
    sizes = ("hidden1", "hidden2", "residual_blocks")
    loop, args = parse_run(parser, argv, (*sizes, "walks"), state)
    config = ModelConfig(**{name: getattr(args, name) for name in sizes})
    return train(loop, DataConfig.for_metric(args.metric, args.walks), config, log=print_flush)


if __name__ == "__main__":
    main()
