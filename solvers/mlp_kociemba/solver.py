"""``mlp-kociemba``: seed 003's next-move MLP, rolled out greedily (the seed's way) or
used as the policy of the search library's beam search (this project's extension)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from harness.hardware import native_bf16
from harness.solver import Attempt, Budget
from solvers.common.keras_io import KERAS_POLICY, configure_threads, log_softmax
from solvers.common.metric import check_metric, check_metric_offered
from solvers.common.precision import resolve
from solvers.mlp_kociemba.checkpoint import CHECKPOINT_DIR, load_checkpoint
from solvers.mlp_kociemba.model import encode
from solvers.search.models import ModelClock
from solvers.search.settings import SearchSettings, run_search


@dataclass(frozen=True)
class MLPKociembaSettings(SearchSettings):
    search: Literal["greedy", "beam"] = "greedy"
    batch_size: int = 8192
    precision: Literal["auto", "fp32", "bf16"] = "auto"
    checkpoint: str = ""  # a folder with another mlp-kociemba.keras + .json; empty: shipped


class MLPKociembaSolver:
    Settings = MLPKociembaSettings
    name = "mlp-kociemba"

    METRICS = ("htm",)

    def __init__(self, settings: MLPKociembaSettings | None = None) -> None:
        self.settings = settings or MLPKociembaSettings()
        metric, checkpoint = self.settings.metric, self.settings.checkpoint
        check_metric_offered(self.name, self.METRICS, metric, checkpoint)
        self.resolved = resolve(
            self.settings.precision, native_bf16=native_bf16(), offered=("fp32", "bf16")
        )
        configure_threads(self.settings.threads)
        folder = Path(checkpoint) if checkpoint else CHECKPOINT_DIR
        self.model, self.card = load_checkpoint(folder, KERAS_POLICY[self.resolved.precision])
        check_metric(self.card, metric, folder)
        self.checkpoint_sha256 = self.card["sha256"]
        self.encoding = self.card["architecture"]["encoding"]
        self.clock = ModelClock()

    @property
    def runtime_info(self) -> dict[str, object]:
        """How this solver runs here, and what it is; the runner pins it in the manifest."""
        return {
            **self.resolved.to_dict(),
            "threads": self.settings.threads,
            "metric": "htm",
            "encoding": self.encoding,
            "parameters": self.card.get("parameters"),
            "train_minutes": self.card.get("train_minutes"),
            "trained_on": self.card.get("hardware", {}).get("cpu"),
        }

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the two-phase route's next move."""
        return log_softmax(self.model.predict_on_batch(encode(states.T, self.encoding)))

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy, clock=self.clock)
