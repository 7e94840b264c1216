"""Where the shipped cayley-mlp checkpoints live (one per metric), and how to rebuild them."""

from __future__ import annotations

from pathlib import Path

from cubebench.solvers.cayley_mlp.model import ModelConfig, ValueMLP
from cubebench.solvers.common.checkpoint import load_model
from cubebench.solvers.common.metric import metric_stem

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "cayley-mlp"


def stem_for(metric: str) -> str:
    return metric_stem(STEM, metric)


def load_checkpoint(
    folder: Path = CHECKPOINT_DIR, device: str = "cpu", metric: str = "htm"
) -> tuple[ValueMLP, dict]:
    build = lambda arch: ValueMLP(ModelConfig(**arch))  # noqa: E731
    return load_model(folder, STEM, build, device, metric)
