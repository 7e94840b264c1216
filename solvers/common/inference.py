"""What every torch solver adapter does the same way: settings, loading, the inference context."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch
from torch import nn

from solvers.search.settings import SearchSettings


@dataclass(frozen=True)
class TorchSearchSettings(SearchSettings):
    precision: Literal["bf16", "fp32"] = "bf16"
    checkpoint: str = ""  # a folder with another checkpoint of this solver; empty: the shipped one


def load_for(
    settings: TorchSearchSettings,
    load: Callable[[Path, str], tuple[nn.Module, dict]],
    shipped: Path,
) -> tuple[nn.Module, dict]:
    """Set the worker's thread count and load the configured (or shipped) checkpoint."""
    torch.set_num_threads(settings.threads)
    folder = Path(settings.checkpoint) if settings.checkpoint else shipped
    return load(folder, settings.device)


@contextmanager
def inference(settings: TorchSearchSettings) -> Iterator[None]:
    """No autograd; bfloat16 autocast on CPU unless ``precision=fp32`` (about 2x faster here)."""
    bf16 = settings.precision == "bf16" and settings.device == "cpu"
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
        yield
