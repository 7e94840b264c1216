"""Where the shipped policy-mlp checkpoints live (one per metric), and how to rebuild them."""

from __future__ import annotations

from pathlib import Path

from cubebench.solvers.common.checkpoint import CheckpointError, load_model
from cubebench.solvers.common.metric import metric_stem
from cubebench.solvers.policy_mlp.model import ModelConfig, PolicyMLP

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "policy-mlp"
WEIGHTS = f"{STEM}.pt"
CARD = f"{STEM}.json"

__all__ = [
    "CARD",
    "CHECKPOINT_DIR",
    "WEIGHTS",
    "CheckpointError",
    "load_checkpoint",
    "stem_for",
]


def stem_for(metric: str) -> str:
    return metric_stem(STEM, metric)


def load_checkpoint(
    folder: Path = CHECKPOINT_DIR, device: str = "cpu", metric: str = "htm"
) -> tuple[PolicyMLP, dict]:
    build = lambda arch: PolicyMLP(ModelConfig(**arch))  # noqa: E731
    return load_model(folder, STEM, build, device, metric)
