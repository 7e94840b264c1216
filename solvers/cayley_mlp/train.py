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

from dataclasses import dataclass
from functools import partial

import numpy as np
import torch
import torch.nn.functional as F

from cubebench.solvers.cayley_mlp.checkpoint import SHIPPED, stem_for
from cubebench.solvers.cayley_mlp.model import ModelConfig, ValueMLP, encode
from cubebench.solvers.common.trainer import Task, main_for_metric, model_task, train_model
from cubebench.solvers.common.walks import walk_samples


@dataclass(frozen=True)
class DataConfig:
    metric: str = "qtm"
    walks_per_batch: int = 384  # x walk_length samples per step (~10k, CayleyPy's batch)
    walk_length: int = 26  # QTM's diameter; HTM uses 22
    validation_walks: int = 1000

    @classmethod
    def for_metric(cls, metric: str) -> DataConfig:
        return cls() if metric == "qtm" else cls("htm", 448, 22)


def make_task(data: DataConfig, model_config: ModelConfig, device: str, seed: int) -> Task:
    rng_val = np.random.default_rng([seed, 1])  # a stream training never draws from
    states, _, depths = walk_samples(data.validation_walks, data.walk_length, rng_val, data.metric)
    val_x = encode(states, device)
    val_y = torch.from_numpy(depths.astype(np.float32)).to(device)

    def make_batch(rng: np.random.Generator):
        states, _, depths = walk_samples(data.walks_per_batch, data.walk_length, rng, data.metric)
        return encode(states), torch.from_numpy(depths.astype(np.float32))

    def validate(model) -> dict:
        pred = model(val_x).float()
        mean_by_depth = {
            int(d): round(float(pred[torch.from_numpy(depths == d)].mean()), 3)
            for d in np.unique(depths)
        }
        return {
            "val_loss": round(F.mse_loss(pred, val_y).item(), 5),
            "mean_by_depth": mean_by_depth,
        }

    def describe(m: dict) -> str:
        means = m["mean_by_depth"]
        shown = "  ".join(f"d{d} {means[d]:.2f}" for d in (1, 5, 10, 15, max(means)))
        return f"val mse {m['val_loss']:.4f}  mean prediction {shown}"

    return model_task(
        stem_for(data.metric),
        data,
        model_config.to_dict(),
        "steps of a non-backtracking random walk from solved (diffusion distance)",
        model=ValueMLP(model_config),
        make_batch=make_batch,
        loss=lambda out, y: F.mse_loss(out.float(), y),
        validate=validate,
        describe=describe,
    )


train = partial(train_model, make_task, DataConfig, ModelConfig)
"""``train(loop, data=None, model_config=None, log=print)``: the card of the best weights."""


def main(argv: list[str] | None = None) -> dict:
    """``bench train cayley-mlp`` and ``python -m cubebench.solvers.cayley_mlp.train``."""
    return main_for_metric(
        argv, "cayley-mlp", __doc__, SHIPPED, train, DataConfig.for_metric, "qtm"
    )


if __name__ == "__main__":
    main()
