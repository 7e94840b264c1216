"""Where the shipped value-transformer checkpoint lives, and how to rebuild the model."""

from __future__ import annotations

from pathlib import Path

from solvers.common.checkpoint import CheckpointError, build_model, load_weights
from solvers.value_transformer.model import TransformerConfig, ValueTransformer

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "value-transformer"


def load_checkpoint(
    folder: Path = CHECKPOINT_DIR, device: str = "cpu"
) -> tuple[ValueTransformer, dict]:
    state, card = load_weights(folder, STEM, device)
    try:
        model = ValueTransformer(TransformerConfig(**card["architecture"]))
    except (KeyError, TypeError) as exc:
        raise CheckpointError(f"model card in {folder} has no usable architecture: {exc}") from exc
    return build_model(model, state, Path(folder)).to(device), card
