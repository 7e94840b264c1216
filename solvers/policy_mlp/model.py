"""The network: one-hot stickers -> log-probabilities of the 18 moves.

EfficientCube's architecture: two dense layers (1024, 512) then residual blocks of 512 with
batch norm, and an 18-way head. The input drops the six centres (48 x 6 one-hot).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from harness.cube.encodings import one_hot


@dataclass(frozen=True)
class ModelConfig:
    hidden1: int = 1024
    hidden2: int = 512
    residual_blocks: int = 2

    def to_dict(self) -> dict:
        return asdict(self)


class _Residual(nn.Module):
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


class PolicyMLP(nn.Module):
    def __init__(self, config: ModelConfig = ModelConfig()) -> None:
        super().__init__()
        self.config = config
        self.net = nn.Sequential(
            nn.Linear(48 * 6, config.hidden1),
            nn.BatchNorm1d(config.hidden1),
            nn.ReLU(),
            nn.Linear(config.hidden1, config.hidden2),
            nn.BatchNorm1d(config.hidden2),
            nn.ReLU(),
            *[_Residual(config.hidden2) for _ in range(config.residual_blocks)],
            nn.Linear(config.hidden2, 18),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 288) float one-hot -> (B, 18) logits."""
        return self.net(x)


def encode(states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
    """(54, N) uint8 states -> (N, 288) float32 tensor."""
    flat = one_hot(states).reshape(states.shape[1], -1)
    return torch.from_numpy(flat).to(device=device, dtype=torch.float32)


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
