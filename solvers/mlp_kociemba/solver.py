"""``mlp-kociemba``: seed 003's next-move MLP, rolled out greedily (the seed's way) or
used as the policy of the search library's beam search (this project's extension)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

import numpy as np

from ...harness import Attempt, Budget, symmetric_scores
from ...harness import symmetry_group as group
from ..common.keras_io import KerasModelSolver, log_softmax
from ..search.kinds import BATCH
from ..search.settings import SearchSettings, run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint
from .model import encode


@dataclass(frozen=True)
class MLPKociembaSettings(SearchSettings):
    MODEL: ClassVar[str] = "policy"
    search: str = "greedy"  # the default of what its model kind offers
    batch_size: Annotated[int, BATCH] = 8192
    precision: Literal["auto", "fp32", "bf16"] = "auto"
    checkpoint: str = ""  # a folder with another mlp-kociemba.keras + .json; empty: shipped
    symmetries: Literal["auto", "none", "ud", "full"] = "auto"

    OPTION_HELP: ClassVar = {
        **SearchSettings.OPTION_HELP,
        "checkpoint": "folder of another mlp-kociemba checkpoint (empty: the shipped one)",
        "symmetries": "average the policy over the cube's symmetries: none, ud (the 16 that "
        "keep kociemba's U-D axis) or full (all 48), costing that many model evaluations a "
        "state; auto: full for greedy (a few states a cube), none for beam (thousands a step)",
    }


class MLPKociembaSolver(KerasModelSolver):
    Settings = MLPKociembaSettings
    name = "mlp-kociemba"

    def __init__(self, settings: MLPKociembaSettings | None = None) -> None:
        super().__init__(settings or MLPKociembaSettings(), load_checkpoint, CHECKPOINT_DIR)
        self.encoding = self.card["architecture"]["encoding"]
        self.symmetry_group = self.settings.symmetries
        if self.symmetry_group == "auto":
            self.symmetry_group = "full" if self.settings.search == "greedy" else "none"
        self.symmetries = group(self.symmetry_group)

    @property
    def runtime_info(self) -> dict[str, object]:
        """How this solver runs here, and what it is; the runner pins it in the manifest."""
        return {
            **self.resolved.to_dict(),
            "threads": self.settings.threads,
            "metric": "htm",
            "encoding": self.encoding,
            "symmetries": self.symmetry_group,
            "parameters": self.card.get("parameters"),
            "train_minutes": self.card.get("total_train_minutes", self.card.get("train_minutes")),
            "trained_on": self.card.get("hardware", {}).get("cpu"),
        }

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the two-phase route's next move.

        Under the ``symmetries`` setting the probabilities (not their logarithms) are averaged
        over the images of each state: a mixture keeps a move that some images rate highly,
        where a mean of log-probabilities lets one confident image veto it. Measured with the
        shipped model's stage-1 base, greedy on depth-07-v1: 890/1000 solved against 865.
        """
        if len(self.symmetries) == 1:
            return self._log_probs(states)
        probs = symmetric_scores(states, self._probs, self.symmetries)
        return np.log(np.maximum(probs, np.finfo(np.float32).tiny))

    def _probs(self, states: np.ndarray) -> np.ndarray:
        return np.exp(self._log_probs(states))

    def _log_probs(self, states: np.ndarray) -> np.ndarray:
        return log_softmax(self.model.predict_on_batch(encode(states.T, self.encoding)))

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy, clock=self.clock)
