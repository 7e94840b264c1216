"""The shipped cnn-faces checkpoint: ``cnn-faces.keras`` and its model card
(:mod:`cubebench.solvers.common.keras_io`: sha256 checked, safe-mode loading)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..common.keras_io import load_keras, save_keras
from .model import CNNConfig, build_model

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "cnn-faces"


def save_checkpoint(model, config: CNNConfig, card: dict, folder: Path) -> str:
    return save_keras(build_model(config), model, card, folder, STEM)


def _rebuild(architecture: dict, policy: str):
    return build_model(replace(CNNConfig(**architecture), precision=policy))


def load_checkpoint(folder: Path = CHECKPOINT_DIR, policy: str | None = None):
    """(keras model, model card), run at the Keras dtype ``policy`` when given."""
    return load_keras(folder, STEM, policy, _rebuild)
