"""``deepcubea``: the value-iteration cost-to-go network with batch-weighted A* or a beam."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import numpy as np
import torch
from torch import nn

from ...harness import Attempt, Budget, Metric, is_solved
from ..common.inference import TorchModelSolver, TorchSearchSettings
from ..common.resmlp import GatherResMLP
from ..search.kinds import BATCH, DEPTH, WEIGHT
from ..search.settings import run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint


@dataclass(frozen=True)
class DeepCubeASettings(TorchSearchSettings):
    search: str = "astar"  # the default of what its model kind offers
    # DeepCubeA lives in the quarter-turn metric; its test set's optima are QTM
    metric: Metric = "qtm"
    # DeepCubeA's own lambda and batch (0.6, B = 10,000), which fit 60 s a cube on one core
    # with the value-iteration model from the walk-length start (chosen on development
    # random cubes; the model card); mitm_radius=7 takes a third of the time, 0.4 QTM longer
    weight: Annotated[float, WEIGHT] = 0.6
    astar_batch: Annotated[int, BATCH] = 10000
    max_depth: Annotated[int, DEPTH] = 60


class DeepCubeASolver(TorchModelSolver):
    Settings = DeepCubeASettings
    name = "deepcubea"
    METRICS = ("qtm",)  # a half-turn model trains with --metric htm; load it by checkpoint

    def __init__(self, settings: DeepCubeASettings | None = None) -> None:
        super().__init__(settings or DeepCubeASettings(), load_checkpoint, CHECKPOINT_DIR)

    def inference_model(self, model: nn.Module) -> nn.Module:
        return GatherResMLP(model.net, self.resolved.precision)

    def value(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N,) estimated moves to solved: 0 at solved, as in training."""
        with torch.inference_mode():
            rows = self.model.rows(states, self.settings.device)
            cost = self.model(rows)[:, 0].float().clamp_min(0)
        cost = cost.cpu().numpy()
        cost[is_solved(states)] = 0.0
        return cost

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, value=self.value, clock=self.clock)
