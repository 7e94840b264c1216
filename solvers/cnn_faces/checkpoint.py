"""The shipped cnn-faces checkpoint: a ``.keras`` file (weights and architecture, no
optimizer) plus a JSON model card pinning its sha256. Loading checks the hash and uses
Keras's safe mode, which refuses to deserialize code (lambdas) from the file."""

from __future__ import annotations

import json
import os
from pathlib import Path

from solvers.cnn_faces.model import CNNConfig, build_model
from solvers.common.checkpoint import CheckpointError, checked_file, sha256_file

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "cnn-faces"


def save_checkpoint(model, config: CNNConfig, card: dict, folder: Path) -> str:
    """Save an uncompiled copy (so no optimizer state ships), then the card with its hash."""
    clean = build_model(config)
    clean.set_weights(model.get_weights())
    tmp = folder / f"{STEM}.tmp.keras"
    clean.save(tmp)
    os.replace(tmp, folder / f"{STEM}.keras")
    digest = sha256_file(folder / f"{STEM}.keras")
    card = {**card, "weights": f"{STEM}.keras", "sha256": digest}
    (folder / f"{STEM}.json").write_text(json.dumps(card, indent=1) + "\n")
    return digest


def load_checkpoint(folder: Path = CHECKPOINT_DIR, policy: str | None = None):
    """(keras model, model card); refuses a file whose sha256 is not the card's.

    ``policy``: the Keras dtype policy to run at (``float32``, ``mixed_bfloat16``); the
    weights are float32 under either, so a model saved under the other is rebuilt around
    them.
    """
    import keras

    path, card = checked_file(Path(folder), STEM, ".keras")
    try:
        model = keras.models.load_model(path, safe_mode=True, compile=False)
    except Exception as exc:  # keras reports bad archives with many exception types
        raise CheckpointError(f"cannot load {path}: {exc}") from exc
    saved = card["architecture"].get("precision", "mixed_bfloat16")
    if policy is not None and policy != saved:
        rebuilt = build_model(CNNConfig(**{**card["architecture"], "precision": policy}))
        rebuilt.set_weights(model.get_weights())
        model = rebuilt
    return model, card
