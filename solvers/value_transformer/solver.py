"""``value-transformer``: the seed-001 value network with beam search, A* or greedy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import torch

from harness.solver import Attempt, Budget
from solvers.search.settings import SearchSettings, run_search
from solvers.value_transformer.checkpoint import CHECKPOINT_DIR, load_checkpoint
from solvers.value_transformer.model import encode


@dataclass(frozen=True)
class ValueTransformerSettings(SearchSettings):
    search: Literal["beam", "astar", "greedy"] = "beam"
    beam_width: int = 1000
    readout: Literal["mean", "mode"] = "mean"
    precision: Literal["bf16", "fp32"] = "bf16"
    checkpoint: str = ""  # a folder with value-transformer.pt + .json; empty: the shipped one


class ValueTransformerSolver:
    Settings = ValueTransformerSettings

    def __init__(self, settings: ValueTransformerSettings | None = None) -> None:
        self.settings = settings or ValueTransformerSettings()
        self.name = "value-transformer"
        torch.set_num_threads(self.settings.threads)
        folder = Path(self.settings.checkpoint) if self.settings.checkpoint else CHECKPOINT_DIR
        self.model, self.card = load_checkpoint(folder, self.settings.device)
        self.checkpoint_sha256 = self.card["sha256"]

    def value(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N,) estimated distances to solved."""
        bf16 = self.settings.precision == "bf16" and self.settings.device == "cpu"
        with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
            out = self.model(encode(states, self.settings.device))
            return self.model.distance(out, self.settings.readout).float().cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, value=self.value)
