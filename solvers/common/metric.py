"""Which move set a model was trained for, and refusing to search it in the other.

Framework-free, so the torch and the Keras adapters share it. A model card names its
``metric`` (cards from before move sets existed are half-turn); each solver's checkpoint for
a metric has its own file stem, ``NAME`` for HTM and ``NAME-qtm`` for QTM.
"""

from __future__ import annotations

from pathlib import Path

from ...harness import SolverLoadError


def metric_stem(stem: str, metric: str) -> str:
    """File stem of a solver's checkpoint for a metric: ``NAME`` (htm) or ``NAME-qtm``."""
    return stem if metric == "htm" else f"{stem}-{metric}"


def check_metric(card: dict, metric: str, where: Path) -> None:
    """Refuse a model trained for the other move set: its moves and distances differ."""
    trained = card.get("metric", "htm")
    if trained != metric:
        raise SolverLoadError(
            f"checkpoint {where} was trained for metric {trained}, not {metric}: "
            f"use --set metric={trained} or a {metric} checkpoint"
        )


def check_metric_offered(name: str, offered: tuple[str, ...], metric: str, checkpoint: str) -> None:
    """A clear refusal, before anything loads, of a metric the solver ships no model for."""
    if metric not in offered and not checkpoint:
        raise SolverLoadError(
            f"solver {name}: metric={metric}: it ships checkpoints for {', '.join(offered)} "
            f"only (or give --set checkpoint=FOLDER with a {metric} model)"
        )
