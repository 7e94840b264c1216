"""``value-transformer``: the seed-001 value network with beam search, A* or greedy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import numpy as np

from ...harness import Attempt, Budget
from ..common.inference import TorchModelSolver, TorchSearchSettings
from ..search.kinds import BATCH, BEAM_WIDTH
from ..search.settings import run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint
from .model import encode


@dataclass(frozen=True)
class ValueTransformerSettings(TorchSearchSettings):
    search: str = "beam"  # the default of what its model kind offers
    beam_width: Annotated[int, BEAM_WIDTH] = 1000
    # ~0.3 s per call at the shipped model's ~7.6k states/s (bf16, one thread), so a wall
    # budget is checked often enough (a beam of 1000 scores ~13,500 children per step)
    batch_size: Annotated[int, BATCH] = 2048
    readout: Literal["mean", "mode"] = "mean"


class ValueTransformerSolver(TorchModelSolver):
    Settings = ValueTransformerSettings
    name = "value-transformer"
    # torch's dynamic quantization breaks nn.MultiheadAttention inside
    # nn.TransformerEncoderLayer, and no quantized attention path exists to use instead
    OFFERED = ("fp32", "bf16")

    def __init__(self, settings: ValueTransformerSettings | None = None) -> None:
        super().__init__(settings or ValueTransformerSettings(), load_checkpoint, CHECKPOINT_DIR)

    def value(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N,) estimated distances to solved."""
        with self.inference():
            out = self.model(encode(states, self.settings.device))
            return self.model.distance(out, self.settings.readout).float().cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, value=self.value, clock=self.clock)
