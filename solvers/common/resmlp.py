"""The residual MLP over one-hot stickers that EfficientCube and CayleyPy both use.

Two dense layers with batch norm, then residual blocks of the second width, then a linear
head: ``outputs`` = 18 move logits for a policy, 1 distance for a value. The input drops
the six centres (48 x 6 one-hot), which never move.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from cubebench.harness import one_hot


class Residual(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(width, width),
            nn.BatchNorm1d(width),
            nn.ReLU(),
            nn.Linear(width, width),
            nn.BatchNorm1d(width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


def residual_mlp(hidden1: int, hidden2: int, blocks: int, outputs: int) -> nn.Sequential:
    """(B, 288) one-hot -> (B, outputs)."""
    return nn.Sequential(
        nn.Linear(48 * 6, hidden1),
        nn.BatchNorm1d(hidden1),
        nn.ReLU(),
        nn.Linear(hidden1, hidden2),
        nn.BatchNorm1d(hidden2),
        nn.ReLU(),
        *[Residual(hidden2) for _ in range(blocks)],
        nn.Linear(hidden2, outputs),
    )


class ScalarResMLP(nn.Module):
    """The trunk with one output: a value (distance or cost-to-go) per state.

    ``config`` names ``hidden1``, ``hidden2`` and ``residual_blocks``; each value solver
    keeps its own config class, with its own defaults, for its model card.
    """

    def __init__(self, config) -> None:
        super().__init__()
        self.config = config
        self.net = residual_mlp(config.hidden1, config.hidden2, config.residual_blocks, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 288) float one-hot -> (B,) values."""
        return self.net(x)[:, 0]


def encode(states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
    """(54, N) uint8 states -> (N, 288) float32 tensor."""
    flat = one_hot(states).reshape(states.shape[1], -1)
    return torch.from_numpy(flat).to(device=device, dtype=torch.float32)
