"""The shipped mlp-kociemba checkpoint: ``mlp-kociemba.keras`` and its model card
(:mod:`cubebench.solvers.common.keras_io`: sha256 checked, safe-mode loading)."""

from __future__ import annotations

from pathlib import Path

from ..common.keras_io import load_keras, save_keras
from .model import MLPConfig, build_model

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "mlp-kociemba"


def config_from(architecture: dict, policy: str | None = None) -> MLPConfig:
    fields = {**architecture, **({"precision": policy} if policy else {})}
    return MLPConfig(**fields)


def save_checkpoint(model, config: MLPConfig, card: dict, folder: Path) -> str:
    return save_keras(build_model(config), model, card, folder, STEM)


def load_checkpoint(folder: Path = CHECKPOINT_DIR, policy: str | None = None):
    """(keras model, model card), run at the Keras dtype ``policy`` when given."""
    return load_keras(folder, STEM, policy, lambda arch, p: build_model(config_from(arch, p)))
