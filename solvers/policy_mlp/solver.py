"""``policy-mlp``: the EfficientCube-style policy network with greedy or beam search."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import torch

from harness.solver import Attempt, Budget
from solvers.policy_mlp.checkpoint import CHECKPOINT_DIR, load_checkpoint
from solvers.policy_mlp.model import encode
from solvers.search.settings import SearchSettings, run_search


@dataclass(frozen=True)
class PolicyMLPSettings(SearchSettings):
    search: Literal["beam", "greedy"] = "beam"
    precision: Literal["bf16", "fp32"] = "bf16"
    checkpoint: str = ""  # a folder with policy-mlp.pt + .json; empty: the shipped one


class PolicyMLPSolver:
    Settings = PolicyMLPSettings

    def __init__(self, settings: PolicyMLPSettings | None = None) -> None:
        self.settings = settings or PolicyMLPSettings()
        self.name = "policy-mlp"
        torch.set_num_threads(self.settings.threads)
        folder = Path(self.settings.checkpoint) if self.settings.checkpoint else CHECKPOINT_DIR
        self.model, self.card = load_checkpoint(folder, self.settings.device)
        self.checkpoint_sha256 = self.card["sha256"]

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the move that solves next."""
        bf16 = self.settings.precision == "bf16" and self.settings.device == "cpu"
        with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
            logits = self.model(encode(states, self.settings.device))
        return torch.log_softmax(logits.float(), dim=1).cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy)
