"""``policy-mlp``: the EfficientCube-style policy network with greedy or beam search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch

from harness.solver import Attempt, Budget
from solvers.common.inference import TorchSearchSettings, inference, load_for
from solvers.policy_mlp.checkpoint import CHECKPOINT_DIR, load_checkpoint
from solvers.policy_mlp.model import encode
from solvers.search.settings import run_search


@dataclass(frozen=True)
class PolicyMLPSettings(TorchSearchSettings):
    search: Literal["beam", "greedy"] = "beam"


class PolicyMLPSolver:
    Settings = PolicyMLPSettings

    def __init__(self, settings: PolicyMLPSettings | None = None) -> None:
        self.settings = settings or PolicyMLPSettings()
        self.name = "policy-mlp"
        self.model, self.card = load_for(self.settings, load_checkpoint, CHECKPOINT_DIR)
        self.checkpoint_sha256 = self.card["sha256"]

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the move that solves next."""
        with inference(self.settings):
            logits = self.model(encode(states, self.settings.device))
        return torch.log_softmax(logits.float(), dim=1).cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy)
