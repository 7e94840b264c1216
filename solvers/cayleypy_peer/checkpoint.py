"""The shipped model, in CayleyPy's own format: the card's ``architecture`` is a CayleyPy
``ModelConfig`` and the weights file its bare state dict, so
``cayleypy.ModelConfig.from_dict({**card["architecture"], "weights_path": PT}).load()``
loads it without cubebench. Checked by sha256 like every shipped checkpoint."""

from __future__ import annotations

from typing import Any

from torch import nn

from ..common.checkpoint import CheckpointError, ShippedModel
from ..common.peers import import_peer

DEFAULT_LAYERS = (512, 128, 128)
"""A projection, a second layer and one residual block: the size ``cayley-mlp`` ships."""


def model_config(
    layers: tuple[int, ...], graph_hash: str | None = None, stickers: int = 54
) -> dict[str, Any]:
    """CayleyPy's ``ModelConfig`` (as a dict) of a residual MLP over the sticker colours."""
    return {
        "model_type": "RESMLP",
        "input_size": stickers,
        "num_classes_for_one_hot": 6,
        "layers_sizes": list(layers),
        "weights_kaggle_id": None,
        "weights_path": None,
        "n_outputs": 1,
        "tokenizer_groups": None,
        "graph_hash": graph_hash,
    }


def build(architecture: dict[str, Any]) -> nn.Module:
    cayleypy = import_peer("cayleypy", "cayleypy")
    return cayleypy.ModelConfig.from_dict(architecture).build_model()


SHIPPED = ShippedModel(__file__, "cayleypy", build, metric="qtm")
CHECKPOINT_DIR, STEM = SHIPPED.folder, SHIPPED.stem
stem_for, load_checkpoint = SHIPPED.stem_for, SHIPPED.load
SHIPPED_BY_PUZZLE: dict[str, ShippedModel] = {
    "cube3": SHIPPED,
    "cube2": ShippedModel(__file__, "cayleypy-cube2", build, metric="htm"),
    "cube4": ShippedModel(__file__, "cayleypy-cube4", build, metric="qtm"),
}
"""Each puzzle's models (``cayleypy-cube2`` HTM and ``-qtm``, ``cayleypy-cube4-qtm``)."""

__all__ = [
    "CHECKPOINT_DIR",
    "SHIPPED",
    "SHIPPED_BY_PUZZLE",
    "CheckpointError",
    "load_checkpoint",
    "model_config",
]
