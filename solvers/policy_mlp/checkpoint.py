"""Saving and safely loading the shipped checkpoint: float16 weights + a model card.

The card (JSON) holds the architecture, training facts and the sha256 of the weights file;
loading refuses a weights file whose hash does not match its card, and reads tensors only
(``torch.load(weights_only=True)``), so a tampered or malicious file cannot run code.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import torch

from harness.solver import SolverLoadError
from solvers.policy_mlp.model import ModelConfig, PolicyMLP

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
WEIGHTS = "policy-mlp.pt"
CARD = "policy-mlp.json"


class CheckpointError(SolverLoadError):
    """A checkpoint that is missing, corrupt or not the one its model card describes."""


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def save_checkpoint(model: PolicyMLP, card: dict, folder: Path) -> str:
    """Write weights (float16) then the card with their sha256; returns the sha256."""
    folder.mkdir(parents=True, exist_ok=True)
    state = {k: (v.half() if v.is_floating_point() else v) for k, v in model.state_dict().items()}
    tmp = folder / (WEIGHTS + ".tmp")
    torch.save(state, tmp)
    os.replace(tmp, folder / WEIGHTS)
    digest = sha256_file(folder / WEIGHTS)
    (folder / CARD).write_text(
        json.dumps({**card, "weights": WEIGHTS, "sha256": digest}, indent=1) + "\n"
    )
    return digest


def load_checkpoint(folder: Path = CHECKPOINT_DIR, device: str = "cpu") -> tuple[PolicyMLP, dict]:
    folder = Path(folder)
    try:
        card = json.loads((folder / CARD).read_text())
    except FileNotFoundError:
        raise CheckpointError(
            f"no model card {folder / CARD}; train with `bench train policy-mlp`"
        ) from None
    except ValueError as exc:
        raise CheckpointError(f"model card {folder / CARD} is not JSON: {exc}") from exc
    weights = folder / card.get("weights", WEIGHTS)
    if not weights.exists():
        raise CheckpointError(f"weights file {weights} is missing")
    digest = sha256_file(weights)
    if digest != card.get("sha256"):
        raise CheckpointError(
            f"{weights} has sha256 {digest[:12]}… but its model card says "
            f"{str(card.get('sha256'))[:12]}…: corrupt or replaced"
        )
    try:
        state = torch.load(weights, map_location=device, weights_only=True)
        model = PolicyMLP(ModelConfig(**card["architecture"]))
        model.load_state_dict(
            {k: v.float() if v.is_floating_point() else v for k, v in state.items()}
        )
    except Exception as exc:  # torch reports bad files with many exception types
        raise CheckpointError(f"cannot load {weights}: {exc}") from exc
    model.to(device).eval()
    return model, card
