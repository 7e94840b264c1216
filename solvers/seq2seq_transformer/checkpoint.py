"""Where the shipped seq2seq-transformer checkpoint lives, and how to rebuild it."""

from __future__ import annotations

from pathlib import Path

from cubebench.solvers.common.checkpoint import load_model
from cubebench.solvers.common.metric import metric_stem
from cubebench.solvers.seq2seq_transformer.model import ModelConfig, Seq2SeqTransformer

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
STEM = "seq2seq-transformer"


def stem_for(metric: str) -> str:
    return metric_stem(STEM, metric)


def load_checkpoint(
    folder: Path = CHECKPOINT_DIR, device: str = "cpu", metric: str = "htm"
) -> tuple[Seq2SeqTransformer, dict]:
    build = lambda arch: Seq2SeqTransformer(ModelConfig(**arch))  # noqa: E731
    return load_model(folder, STEM, build, device, metric)
