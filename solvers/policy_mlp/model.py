"""The network: one-hot stickers -> logits of the 18 moves.

EfficientCube's architecture: two dense layers (1024, 512) then residual blocks of 512 with
batch norm, and an 18-way head (:mod:`cubebench.solvers.common.resmlp`). A quarter-turn model keeps
the 18-way head; it is trained on quarter-turn labels only and searched with the half
turns masked out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from ..common.resmlp import encode, residual_mlp

__all__ = ["ModelConfig", "PolicyMLP", "encode", "parameter_count"]


@dataclass(frozen=True)
class ModelConfig:
    hidden1: int = 1024
    hidden2: int = 512
    residual_blocks: int = 2

    def to_dict(self) -> dict:
        return asdict(self)


class PolicyMLP(nn.Module):
    def __init__(self, config: ModelConfig = ModelConfig()) -> None:
        super().__init__()
        self.config = config
        self.net = residual_mlp(config.hidden1, config.hidden2, config.residual_blocks, 18)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 288) float one-hot -> (B, 18) logits."""
        return self.net(x)


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
