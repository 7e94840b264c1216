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


def load_checkpoint(folder: Path = CHECKPOINT_DIR):
    """(keras model, model card); refuses a file whose sha256 is not the card's."""
    import keras

    path, card = checked_file(Path(folder), STEM, ".keras")
    try:
        model = keras.models.load_model(path, safe_mode=True, compile=False)
    except Exception as exc:  # keras reports bad archives with many exception types
        raise CheckpointError(f"cannot load {path}: {exc}") from exc
    return model, card
