"""Where the shipped policy-mlp checkpoint lives, and how to rebuild the model from it."""

from __future__ import annotations

from pathlib import Path

from solvers.common.checkpoint import CheckpointError, load_model
from solvers.policy_mlp.model import ModelConfig, PolicyMLP

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
]


def load_checkpoint(folder: Path = CHECKPOINT_DIR, device: str = "cpu") -> tuple[PolicyMLP, dict]:
    return load_model(folder, STEM, lambda arch: PolicyMLP(ModelConfig(**arch)), device)
