"""Where the shipped seq2seq-transformer checkpoint lives, and how to rebuild it."""

from __future__ import annotations

from ..common.checkpoint import CheckpointError, ShippedModel
from .model import ModelConfig, Seq2SeqTransformer

SHIPPED = ShippedModel(
    __file__, "seq2seq-transformer", lambda arch: Seq2SeqTransformer(ModelConfig(**arch))
)
CHECKPOINT_DIR, STEM = SHIPPED.folder, SHIPPED.stem
stem_for, load_checkpoint = SHIPPED.stem_for, SHIPPED.load

__all__ = ["CHECKPOINT_DIR", "SHIPPED", "STEM", "CheckpointError", "load_checkpoint", "stem_for"]
