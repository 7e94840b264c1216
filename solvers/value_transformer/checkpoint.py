"""Where the shipped value-transformer checkpoint lives, and how to rebuild the model."""

from __future__ import annotations

from ..common.checkpoint import CheckpointError, ShippedModel
from .model import TransformerConfig, ValueTransformer

SHIPPED = ShippedModel(
    __file__, "value-transformer", lambda arch: ValueTransformer(TransformerConfig(**arch))
)
CHECKPOINT_DIR, STEM = SHIPPED.folder, SHIPPED.stem
stem_for, load_checkpoint = SHIPPED.stem_for, SHIPPED.load

__all__ = ["CHECKPOINT_DIR", "SHIPPED", "STEM", "CheckpointError", "load_checkpoint", "stem_for"]
