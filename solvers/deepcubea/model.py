"""The cost-to-go network: one-hot stickers -> estimated moves to solved (one number).

DeepCubeA's shape (Agostinelli et al. 2019): two dense layers with batch norm, residual
blocks of the second width, a linear head (:mod:`cubebench.solvers.common.resmlp`). Theirs is
5000 and 1000 wide with four blocks (14.5M parameters); the default here is 1000/500 with two
(1.8M), because A* calls it on every child it generates and on two CPU cores the search's
speed is the network's speed: 45k states/s against 5.8k for theirs (one thread, bf16,
AMD EPYC Zen 4; ``benchmarks/cards/value_net_sizes.py``). ``ModelConfig.deepcubea()``
builds their size.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..common.resmlp import ScalarResMLP, encode

__all__ = ["CostToGo", "ModelConfig", "encode"]


@dataclass(frozen=True)
class ModelConfig:
    hidden1: int = 1000
    hidden2: int = 500
    residual_blocks: int = 2

    @classmethod
    def deepcubea(cls) -> ModelConfig:
        return cls(5000, 1000, 4)

    def to_dict(self) -> dict:
        return asdict(self)


class CostToGo(ScalarResMLP):
    def __init__(self, config: ModelConfig = ModelConfig()) -> None:
        super().__init__(config)
