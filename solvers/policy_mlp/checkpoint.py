"""Where the shipped policy-mlp checkpoint lives, and how to rebuild the model from it."""

from __future__ import annotations

from pathlib import Path

from solvers.common.checkpoint import CheckpointError, build_model, load_weights, save_weights
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
    "save_checkpoint",
]


def save_checkpoint(model: PolicyMLP, card: dict, folder: Path) -> str:
    return save_weights(model, card, folder, STEM)


def load_checkpoint(folder: Path = CHECKPOINT_DIR, device: str = "cpu") -> tuple[PolicyMLP, dict]:
    state, card = load_weights(folder, STEM, device)
    try:
        model = PolicyMLP(ModelConfig(**card["architecture"]))
    except (KeyError, TypeError) as exc:
        raise CheckpointError(f"model card in {folder} has no usable architecture: {exc}") from exc
    return build_model(model, state, Path(folder)).to(device), card
