"""``cnn-faces``: seed 004's CNN policy with greedy rollout (the seed's way) or beam search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

import numpy as np

from ...harness import Attempt, Budget
from ..common.keras_io import KerasModelSolver, log_softmax
from ..search.kinds import BATCH
from ..search.settings import SearchSettings, run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint
from .model import encode


@dataclass(frozen=True)
class CNNFacesSettings(SearchSettings):
    MODEL: ClassVar[str] = "policy"
    search: str = "greedy"  # the default of what its model kind offers
    batch_size: Annotated[int, BATCH] = 4096
    precision: Literal["auto", "fp32", "bf16"] = "auto"
    checkpoint: str = ""  # a folder with another cnn-faces.keras + .json; empty: shipped


class CNNFacesSolver(KerasModelSolver):
    Settings = CNNFacesSettings
    name = "cnn-faces"

    def __init__(self, settings: CNNFacesSettings | None = None) -> None:
        super().__init__(settings or CNNFacesSettings(), load_checkpoint, CHECKPOINT_DIR)
        self.variant = self.card["architecture"]["variant"]

    @property
    def runtime_info(self) -> dict[str, object]:
        """How this solver runs here; the runner pins it in the manifest."""
        return {**self.resolved.to_dict(), "threads": self.settings.threads, "metric": "htm"}

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the move that solves next."""
        return log_softmax(self.model.predict_on_batch(encode(states, self.variant)))

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy, clock=self.clock)
