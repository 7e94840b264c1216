"""Where the shipped cayley-mlp checkpoints live (one per metric), and how to rebuild them."""

from __future__ import annotations

from cubebench.solvers.cayley_mlp.model import ModelConfig, ValueMLP
from cubebench.solvers.common.checkpoint import CheckpointError, ShippedModel

SHIPPED = ShippedModel(__file__, "cayley-mlp", lambda arch: ValueMLP(ModelConfig(**arch)))
CHECKPOINT_DIR, STEM = SHIPPED.folder, SHIPPED.stem
stem_for, load_checkpoint = SHIPPED.stem_for, SHIPPED.load

__all__ = ["CHECKPOINT_DIR", "SHIPPED", "STEM", "CheckpointError", "load_checkpoint", "stem_for"]
