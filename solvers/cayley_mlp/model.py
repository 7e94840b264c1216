"""The network: one-hot stickers -> estimated diffusion distance (one number).

CayleyPy's 3x3x3 configuration (Chervov et al. 2025; their repository's README: N1 = 1024,
N2 = 256, one residual block): two dense layers with batch norm, residual blocks, a linear
head (:mod:`cubebench.solvers.common.resmlp`). Small on purpose: a wide value beam calls it on every
child of every beam state, so its speed is the search's speed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ...harness import ArgumentError
from ..common.resmlp import ScalarResMLP, encode

__all__ = ["ModelConfig", "ValueMLP", "encode"]


@dataclass(frozen=True)
class ModelConfig:
    hidden1: int = 1024
    hidden2: int = 256
    residual_blocks: int = 1

    def __post_init__(self) -> None:
        for name, low in (("hidden1", 1), ("hidden2", 1), ("residual_blocks", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or not low <= value <= 16384:
                raise ArgumentError(f"cayley-mlp {name}={value!r}: must be {low}..16384")

    def to_dict(self) -> dict:
        return asdict(self)


class ValueMLP(ScalarResMLP):
    def __init__(self, config: ModelConfig = ModelConfig()) -> None:
        super().__init__(config)
