"""Where the shipped deepcubea checkpoints live (one per metric), and how to rebuild them."""

from __future__ import annotations

from ..common.checkpoint import CheckpointError, ShippedModel
from .model import CostToGo, ModelConfig

SHIPPED = ShippedModel(__file__, "deepcubea", lambda arch: CostToGo(ModelConfig(**arch)), "qtm")
CHECKPOINT_DIR, STEM = SHIPPED.folder, SHIPPED.stem
stem_for, load_checkpoint = SHIPPED.stem_for, SHIPPED.load

__all__ = ["CHECKPOINT_DIR", "SHIPPED", "STEM", "CheckpointError", "load_checkpoint", "stem_for"]
