"""``cayley-mlp``: the CayleyPy-style diffusion-distance MLP with a wide value beam."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Annotated, ClassVar

import numpy as np
import torch
from torch import nn

from ...harness import Attempt, Budget, Metric
from ..common.inference import TorchModelSolver, TorchSearchSettings
from ..common.resmlp import GatherResMLP
from ..search.kinds import BATCH, BEAM_WIDTH
from ..search.settings import run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint


@dataclass(frozen=True)
class CayleyMLPSettings(TorchSearchSettings):
    search: str = "beam"  # the default of what its model kind offers
    # the field's table is quarter-turn; CayleyPy searched with beams up to 2^24 on a GPU
    metric: Metric = "qtm"
    beam_width: Annotated[int, BEAM_WIDTH] = 8192
    batch_size: Annotated[int, BATCH] = 16384

    ENSEMBLE: ClassVar[bool] = True  # CayleyPy's multi-agent search: each model in turn


class CayleyMLPSolver(TorchModelSolver):
    Settings = CayleyMLPSettings
    name = "cayley-mlp"
    METRICS = ("qtm", "htm")

    def __init__(self, settings: CayleyMLPSettings | None = None) -> None:
        super().__init__(settings or CayleyMLPSettings(), load_checkpoint, CHECKPOINT_DIR)

    def inference_model(self, model: nn.Module) -> nn.Module:
        return GatherResMLP(model.net, self.resolved.precision)

    def value(self, states: np.ndarray, model: nn.Module | None = None) -> np.ndarray:
        """(54, N) states -> (N,) estimated diffusion distances to solved, by ``model`` (an
        ensemble's member; default: the first)."""
        model = model or self.model
        with torch.inference_mode():
            rows = model.rows(states, self.settings.device)
            return model(rows)[:, 0].float().cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        members = [partial(self.value, model=member) for member in self.members]
        return run_search(
            cube, budget, self.settings, value=self.value, clock=self.clock, ensemble=members
        )
