"""Where the shipped cube4-value checkpoints live (one per metric)."""

from __future__ import annotations

from ..common.checkpoint import ShippedModel
from ..common.puzzle_nets import build_net

SHIPPED = ShippedModel(__file__, "cube4-value", build_net)
