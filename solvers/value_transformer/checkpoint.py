"""Where the shipped value-transformer checkpoint lives, and how to rebuild the model."""

from __future__ import annotations

from pathlib import Path

from cubebench.solvers.common.checkpoint import load_model
from cubebench.solvers.value_transformer.model import TransformerConfig, ValueTransformer

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "value-transformer"


def load_checkpoint(
    folder: Path = CHECKPOINT_DIR, device: str = "cpu", metric: str = "htm"
) -> tuple[ValueTransformer, dict]:
    build = lambda arch: ValueTransformer(TransformerConfig(**arch))  # noqa: E731
    return load_model(folder, STEM, build, device, metric)
