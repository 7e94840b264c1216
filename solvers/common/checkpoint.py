"""Shipped torch checkpoints: float16 weights plus a JSON model card that pins their sha256
(:mod:`cubebench.solvers.common.cards`, which the Keras checkpoints share).

Loading refuses weights whose hash does not match the card and reads tensors only
(``torch.load(weights_only=True)``), so a corrupt, replaced or malicious file never runs code
and never silently changes what a benchmark measured.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from ...harness import METRICS
from .cards import (
    CheckpointError,
    checked_file,
    publish_weights,
    sha256_file,
)
from .metric import check_metric, metric_stem

__all__ = [
    "CheckpointError",
    "ShippedModel",
    "checked_file",
    "load_model",
    "load_weights",
    "save_weights",
    "sha256_file",
]


def save_weights(model: nn.Module, card: dict, folder: Path, stem: str) -> str:
    """Write ``stem.pt`` (float16) atomically, then ``stem.json`` with its sha256."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    state = {k: (v.half() if v.is_floating_point() else v) for k, v in model.state_dict().items()}
    tmp = folder / f"{stem}.pt.tmp"
    torch.save(state, tmp)
    return publish_weights(tmp, folder, stem, ".pt", card)


def load_weights(
    folder: Path, stem: str, device: str = "cpu"
) -> tuple[dict[str, torch.Tensor], dict]:
    """The float32 state dict and the model card, after checking the hash."""
    weights, card = checked_file(folder, stem)
    try:
        state = torch.load(weights, map_location=device, weights_only=True)
    except Exception as exc:  # torch reports bad files with many exception types
        raise CheckpointError(f"cannot load {weights}: {exc}") from exc
    return {k: v.float() if v.is_floating_point() else v for k, v in state.items()}, card


def load_model(
    folder: Path,
    stem: str,
    build: Callable[[dict], nn.Module],
    device: str = "cpu",
    metric: str | None = None,
) -> tuple[nn.Module, dict]:
    """Checked weights -> ``build(card["architecture"])`` with them loaded, in eval mode.

    With ``metric``, the checkpoint is ``metric_stem(stem, metric)`` and its card must name
    that metric; a folder holding only the other metric's model says so.
    """
    if metric is not None:
        wanted = metric_stem(stem, metric)
        if not (Path(folder) / f"{wanted}.json").exists():
            for other in METRICS:
                if (Path(folder) / f"{metric_stem(stem, other)}.json").exists():
                    raise CheckpointError(
                        f"{folder} holds a {other} model of {stem} but no {metric} one "
                        f"({wanted}.json): use --set metric={other}, or train with "
                        f"`bench train {stem} --metric {metric}`"
                    )
            raise CheckpointError(  # the trainer is named by the solver, not the file stem
                f"no model card {Path(folder) / f'{wanted}.json'}; train with "
                f"`bench train {stem} --metric {metric}`"
            )
        stem = wanted
    state, card = load_weights(folder, stem, device)
    if metric is not None:
        check_metric(card, metric, Path(folder) / f"{stem}.json")
    try:
        model = build(card["architecture"])
    except (KeyError, TypeError) as exc:
        raise CheckpointError(f"model card in {folder} has no usable architecture: {exc}") from exc
    try:
        model.load_state_dict(state)
    except RuntimeError as exc:
        raise CheckpointError(f"{folder}: weights do not fit the architecture: {exc}") from exc
    return model.to(device).eval(), card


@dataclass(frozen=True)
class ShippedModel:
    """A solver's shipped torch checkpoints: the ``checkpoints/`` folder beside its module,
    the file stem (``NAME``, and ``NAME-qtm`` for the quarter-turn model), and how the
    network is rebuilt from a card's architecture."""

    module_file: str  # the solver package's checkpoint.py (``__file__``)
    stem: str
    build: Callable[[dict], nn.Module]
    metric: str = "htm"  # what load() reads when no metric is asked for

    @property
    def folder(self) -> Path:
        return Path(self.module_file).parent / "checkpoints"

    def stem_for(self, metric: str) -> str:
        return metric_stem(self.stem, metric)

    def load(
        self, folder: Path | None = None, device: str = "cpu", metric: str | None = None
    ) -> tuple[nn.Module, dict]:
        """The checked network and its card (``folder``: the shipped one by default)."""
        return load_model(
            folder or self.folder, self.stem, self.build, device, metric or self.metric
        )
