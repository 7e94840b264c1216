"""``cnn-faces``: seed 004's CNN policy with greedy rollout (the seed's way) or beam search."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import numpy as np

from cubebench.harness import POSITIVE, Attempt, Budget, native_bf16
from cubebench.solvers.cnn_faces.checkpoint import CHECKPOINT_DIR, load_checkpoint
from cubebench.solvers.cnn_faces.model import KERAS_POLICY, configure_threads, encode
from cubebench.solvers.common.frameworks import require
from cubebench.solvers.common.keras_io import log_softmax
from cubebench.solvers.common.metric import check_metric, check_metric_offered
from cubebench.solvers.common.precision import resolve
from cubebench.solvers.search.models import ModelClock
from cubebench.solvers.search.settings import SearchSettings, run_search


@dataclass(frozen=True)
class CNNFacesSettings(SearchSettings):
    search: Literal["greedy", "beam"] = "greedy"
    batch_size: Annotated[int, POSITIVE] = 4096
    precision: Literal["auto", "fp32", "bf16"] = "auto"
    checkpoint: str = ""  # a folder with another cnn-faces.keras + .json; empty: shipped


class CNNFacesSolver:
    Settings = CNNFacesSettings
    name = "cnn-faces"

    METRICS = ("htm",)

    def __init__(self, settings: CNNFacesSettings | None = None) -> None:
        self.settings = settings or CNNFacesSettings()
        metric, checkpoint = self.settings.metric, self.settings.checkpoint
        check_metric_offered(self.name, self.METRICS, metric, checkpoint)
        require("tensorflow", self.name)  # after the settings: a bad metric needs no framework
        # Keras runs CPU matmuls through oneDNN as torch does: the same hardware answer
        self.resolved = resolve(
            self.settings.precision, native_bf16=native_bf16(), offered=("fp32", "bf16")
        )
        configure_threads(self.settings.threads)
        folder = Path(self.settings.checkpoint) if self.settings.checkpoint else CHECKPOINT_DIR
        self.model, self.card = load_checkpoint(folder, KERAS_POLICY[self.resolved.precision])
        check_metric(self.card, metric, folder)
        self.checkpoint_sha256 = self.card["sha256"]
        self.variant = self.card["architecture"]["variant"]
        self.clock = ModelClock()

    @property
    def runtime_info(self) -> dict[str, object]:
        """How this solver runs here; the runner pins it in the manifest."""
        return {**self.resolved.to_dict(), "threads": self.settings.threads, "metric": "htm"}

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the move that solves next."""
        return log_softmax(self.model.predict_on_batch(encode(states, self.variant)))

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return run_search(cube, budget, self.settings, policy=self.policy, clock=self.clock)
