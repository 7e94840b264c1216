"""Where the shipped cayley-mlp checkpoints live (one per metric), and how to rebuild them."""

from __future__ import annotations

from ..common.checkpoint import CheckpointError, ShippedModel
from .model import ModelConfig, ValueMLP

SHIPPED = ShippedModel(__file__, "cayley-mlp", lambda arch: ValueMLP(ModelConfig(**arch)))
CHECKPOINT_DIR, STEM = SHIPPED.folder, SHIPPED.stem
stem_for, load_checkpoint = SHIPPED.stem_for, SHIPPED.load

__all__ = ["CHECKPOINT_DIR", "SHIPPED", "STEM", "CheckpointError", "load_checkpoint", "stem_for"]
