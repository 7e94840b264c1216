"""Train the policy MLP on scrambles streamed from the engine: ``bench train policy-mlp``.

Each step draws ``walks_per_batch`` random walks of ``walk_length`` moves and trains on every
prefix (one state per depth 1..walk_length), labelled with the move that undoes the walk's
last step; cross-entropy loss. Validation: accuracy per depth on walks from a separate seed
stream. The loop (time budget, cosine decay, bf16, checkpoints, resume) is
:mod:`cubebench.solvers.common.trainer`; ``--device cuda`` with more ``--minutes`` trains further.
``--metric qtm`` trains the quarter-turn model (EfficientCube's DeepCubeA-set
configuration): walks of 26 quarter turns that never undo their last move, shipped as
``policy-mlp-qtm``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import torch
import torch.nn.functional as F

from ..common.trainer import TrainingTask, main_for_metric, model_task, train_model
from ..common.walks import walk_samples
from .checkpoint import SHIPPED, stem_for
from .model import ModelConfig, PolicyMLP, encode


@dataclass(frozen=True)
class DataConfig:
    walks_per_batch: int = 256  # x walk_length samples per step
    walk_length: int = 20
    validation_walks: int = 500
    metric: str = "htm"

    @classmethod
    def for_metric(cls, metric: str) -> DataConfig:
        # QTM: 26 quarter turns, God's number in that metric (EfficientCube's setting)
        return cls(walks_per_batch=200, walk_length=26, metric=metric) if metric == "qtm" else cls()


def make_task(data: DataConfig, model_config: ModelConfig, device: str, seed: int) -> TrainingTask:
    rng_val = np.random.default_rng([seed, 1])  # a stream training never draws from
    val_states, val_labels, val_depths = walk_samples(
        data.validation_walks, data.walk_length, rng_val, data.metric
    )
    val_x, val_y = encode(val_states, device), torch.from_numpy(val_labels).to(device)

    def make_batch(rng: np.random.Generator):
        states, labels, _ = walk_samples(data.walks_per_batch, data.walk_length, rng, data.metric)
        return encode(states), torch.from_numpy(labels)

    def validate(model) -> dict:
        logits = model(val_x).float()
        correct = (logits.argmax(1) == val_y).cpu().numpy()
        return {
            "val_loss": round(F.cross_entropy(logits, val_y).item(), 5),
            "accuracy_by_depth": {
                int(d): round(float(correct[val_depths == d].mean()), 4)
                for d in np.unique(val_depths)
            },
        }

    def describe(m: dict) -> str:
        acc = m["accuracy_by_depth"]
        return (
            f"val loss {m['val_loss']:.4f}  accuracy d1 {acc[1]:.3f} d5 {acc[5]:.3f} "
            f"d10 {acc[10]:.3f} d{max(acc)} {acc[max(acc)]:.3f}"
        )

    return model_task(
        stem_for(data.metric),
        data,
        model_config.to_dict(),
        "move that undoes the last scramble move",
        model=PolicyMLP(model_config),
        make_batch=make_batch,
        loss=lambda logits, y: F.cross_entropy(logits.float(), y),
        validate=validate,
        describe=describe,
    )


train = partial(train_model, make_task, DataConfig, ModelConfig)
"""``train(loop, data=None, model_config=None, log=print)``: the card of the best weights."""


def main(argv: list[str] | None = None) -> dict:
    """``bench train policy-mlp`` and ``python -m cubebench.solvers.policy_mlp.train``."""
    return main_for_metric(
        argv, "policy-mlp", __doc__, SHIPPED, train, DataConfig.for_metric, "htm"
    )


if __name__ == "__main__":
    main()
