"""Where the shipped deepcubea checkpoints live (one per metric), and how to rebuild them."""

from __future__ import annotations

from pathlib import Path

from cubebench.solvers.common.checkpoint import load_model
from cubebench.solvers.common.metric import metric_stem
from cubebench.solvers.deepcubea.model import CostToGo, ModelConfig

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "deepcubea"


def stem_for(metric: str) -> str:
    return metric_stem(STEM, metric)


def load_checkpoint(
    folder: Path = CHECKPOINT_DIR, device: str = "cpu", metric: str = "qtm"
) -> tuple[CostToGo, dict]:
    build = lambda arch: CostToGo(ModelConfig(**arch))  # noqa: E731
    return load_model(folder, STEM, build, device, metric)
