"""Validation of a value model that regresses a walk's step count (cayley-mlp, cayleypy):
the loss on held-out walks and the mean prediction at each step, whose rise with the step
is what a beam needs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch


def distance_metrics(
    pred: torch.Tensor,
    target: torch.Tensor,
    depths: np.ndarray,
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
) -> dict[str, Any]:
    """(N,) predictions and targets, (N,) int steps -> ``val_loss`` and ``mean_by_depth``."""
    pred = pred.float().cpu()
    mean_by_depth = {
        int(d): round(float(pred[torch.from_numpy(depths == d)].mean()), 3)
        for d in np.unique(depths)
    }
    return {"val_loss": round(float(loss(pred, target.cpu())), 5), "mean_by_depth": mean_by_depth}


def describe_distance(metrics: dict[str, Any]) -> str:
    """One log line: the loss and the mean prediction at a few steps."""
    means = metrics["mean_by_depth"]
    steps = sorted({d for d in (1, 5, 10, 15, 25, 35) if d in means} | {max(means)})
    shown = "  ".join(f"d{d} {means[d]:.2f}" for d in steps)
    return f"val mse {metrics['val_loss']:.4f}  mean prediction {shown}"
