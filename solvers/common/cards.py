"""Model cards and the files they pin, with no framework: both the torch checkpoints
(:mod:`cubebench.solvers.common.checkpoint`) and the Keras ones
(:mod:`cubebench.solvers.common.keras_io`) are checked here, so a Keras solver never imports
torch (the two frameworks do not share a process: :mod:`.frameworks`).

A card is ``STEM.json`` beside its weights; it names the weights file and their sha256, and
loading refuses weights whose hash does not match, so a corrupt, replaced or malicious file
never silently changes what a benchmark measured.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ...harness import SolverLoadError


class CheckpointError(SolverLoadError):
    """A checkpoint that is missing, corrupt or not the one its model card describes."""


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def publish_weights(tmp: Path, folder: Path, stem: str, suffix: str, card: dict) -> str:
    """Move freshly written weights ``tmp`` into place as ``stem + suffix``, then write the
    card that pins their sha256; returns it. The rename is atomic and the card comes last,
    so a reader sees the old pair or the new weights, never a card naming missing weights."""
    weights = Path(folder) / f"{stem}{suffix}"
    os.replace(tmp, weights)
    digest = sha256_file(weights)
    card = {**card, "weights": weights.name, "sha256": digest}
    (Path(folder) / f"{stem}.json").write_text(json.dumps(card, indent=1) + "\n")
    return digest


def checked_file(folder: Path, stem: str, default_suffix: str = ".pt") -> tuple[Path, dict]:
    """The weights file named by ``stem.json`` and that card, once its sha256 matches."""
    folder = Path(folder)
    card_path = folder / f"{stem}.json"
    try:
        card = json.loads(card_path.read_text())
    except FileNotFoundError:
        raise CheckpointError(
            f"no model card {card_path}; train with `bench train {stem}`"
        ) from None
    except ValueError as exc:
        raise CheckpointError(f"model card {card_path} is not JSON: {exc}") from exc
    weights = folder / card.get("weights", f"{stem}{default_suffix}")
    if not weights.exists():
        raise CheckpointError(f"weights file {weights} is missing")
    digest = sha256_file(weights)
    if digest != card.get("sha256"):
        raise CheckpointError(
            f"{weights} has sha256 {digest[:12]}… but its model card says "
            f"{str(card.get('sha256'))[:12]}…: corrupt or replaced"
        )
    return weights, card
