"""What every torch solver adapter does the same way: settings, precision, loading, inference.

Precision follows :mod:`cubebench.solvers.common.precision`; int8 is torch's dynamic quantization of
the linear layers (per output channel, batch norm folded in first), measured per solver.
"""

from __future__ import annotations

import copy
import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import torch
from torch import nn

from ...harness import SettingsError, SolverLoadError, native_bf16
from ..search.models import ModelClock
from ..search.settings import SearchSettings, prepare_search
from .frameworks import require
from .metric import check_metric_offered
from .outputs import check_cuda
from .precision import Precision, Resolved, resolve

# oneDNN keeps every kernel it makes, keyed by shape, up to 1,024 of them; a search calls its
# model on batches of every size (a beam step's last chunk), and at W = 131,072 the kept
# kernels grew a worker by 0.3-0.45 GB a cube until the runner stopped it at 8 GB. A few
# suffice for the one full batch size that repeats. Read at oneDNN's first kernel, so set
# here, before any model runs; a value the user set wins.
os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "16")


@dataclass(frozen=True)
class TorchSearchSettings(SearchSettings):
    precision: Precision = "auto"
    checkpoint: str = ""  # a folder with another checkpoint of this solver; empty: the shipped one
    ensemble: str = ""  # comma-separated folders of further checkpoints, searched in turn

    ENSEMBLE: ClassVar[bool] = False  # whether the solver searches with ``ensemble`` members

    OPTION_HELP: ClassVar = {
        **SearchSettings.OPTION_HELP,
        "checkpoint": "a folder with another checkpoint of this solver (empty: the shipped one)",
        "ensemble": "comma-separated folders of further checkpoints of this solver: each "
        "model searches in turn after the first, as starts do (an equal share of the time "
        "left, each for a shorter path), and the shortest answer is kept",
    }

    @classmethod
    def inert(cls) -> frozenset[str]:
        return super().inert() | (frozenset() if cls.ENSEMBLE else {"ensemble"})

    def ensemble_folders(self) -> list[Path]:
        """The ``ensemble`` setting's folders, in search order."""
        return [Path(part.strip()) for part in self.ensemble.split(",") if part.strip()]


def torch_native_bf16(device: str = "cpu") -> bool:
    """bfloat16 instructions where the model runs: the CPU's flags and oneDNN must agree."""
    if device.startswith("cuda"):
        return torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    return native_bf16() and bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())


def resolve_torch(
    requested: str, device: str = "cpu", offered: tuple[str, ...] = ("fp32", "bf16", "int8")
) -> Resolved:
    """:func:`cubebench.solvers.common.precision.resolve` with torch's answer about bfloat16."""
    return resolve(requested, native_bf16=torch_native_bf16(device), device=device, offered=offered)


class TorchModelSolver:
    """Base of torch adapters: loads the checkpoint once, at the resolved precision.

    ``OFFERED``: the precisions the model runs at. ``auto`` never resolves to int8: on
    policy-mlp it was measured to cost 0.1 HTM against float32 (README), so it is a
    trade-off a user asks for, not a default.
    """

    OFFERED: tuple[str, ...] = ("fp32", "bf16", "int8")
    METRICS: tuple[str, ...] = ("htm",)  # the move sets it ships a checkpoint for

    def __init__(
        self,
        settings: TorchSearchSettings,
        load: Callable[[Path, str, str], tuple[nn.Module, dict]],
        shipped: Path,
    ) -> None:
        require("torch", self.name)
        self.settings = settings
        if settings.device.startswith("cuda"):  # before the checkpoint, which it would blame
            check_cuda(settings.device, "setting device=")
        check_metric_offered(self.name, self.METRICS, settings.metric, settings.checkpoint)
        self.resolved = resolve_torch(settings.precision, settings.device, self.OFFERED)
        torch.set_num_threads(settings.threads)
        folder = Path(settings.checkpoint) if settings.checkpoint else shipped
        if settings.ensemble and not settings.ENSEMBLE:
            raise SettingsError(
                f"setting ensemble={settings.ensemble!r}: solver {self.name} searches with "
                "one model"
            )
        for member in settings.ensemble_folders():
            if not member.is_dir():
                raise SolverLoadError(f"setting ensemble: {str(member)!r} is not a folder")
        model, self.card = load(folder, settings.device, settings.metric)
        self.model = self.inference_model(model)
        self.checkpoint_sha256 = self.card["sha256"]
        # further models an ensemble searches with, after self.model
        self.members: list[nn.Module] = []
        self.member_sha256: list[str] = []
        for member in settings.ensemble_folders():
            model, card = load(member, settings.device, settings.metric)
            self.members.append(self.inference_model(model))
            self.member_sha256.append(card["sha256"])
        self.clock = ModelClock()
        prepare_search(settings)

    def inference_model(self, model: nn.Module) -> nn.Module:
        """The loaded network as searches call it: int8 quantizes a copy; a solver may
        rebuild its network in a faster form of the same function."""
        return quantize(model) if self.resolved.precision == "int8" else model

    @property
    def runtime_info(self) -> dict[str, object]:
        """How this solver runs here; the runner pins it in the manifest."""
        trained = self.card.get("hardware", {})
        return {
            **self.resolved.to_dict(),
            "threads": self.settings.threads,
            "metric": self.settings.metric,
            # the model's size and training, for tables that set it beside published systems
            "parameters": self.card.get("parameters"),
            "train_minutes": self.card.get("train_minutes"),
            "trained_on": f"{trained.get('cpu', '?')} ({trained.get('device', 'cpu')})",
            **({"ensemble_sha256": self.member_sha256} if self.member_sha256 else {}),
        }

    @contextmanager
    def inference(self) -> Iterator[None]:
        """No autograd; bfloat16 autocast when the resolved precision is bf16."""
        kind = "cuda" if self.settings.device.startswith("cuda") else "cpu"
        bf16 = self.resolved.precision == "bf16"
        with torch.inference_mode(), torch.autocast(kind, torch.bfloat16, enabled=bf16):
            yield


def quantize(model: nn.Module) -> nn.Module:
    """A copy with batch norm folded and every linear layer dynamically quantized to int8."""
    folded = fold_batch_norm(copy.deepcopy(model).eval())
    with warnings.catch_warnings():  # torch.ao announces its move to torchao; it still works
        warnings.simplefilter("ignore")
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        return quantize_dynamic(folded, {nn.Linear: per_channel_dynamic_qconfig}, torch.qint8)


@torch.no_grad()
def fold_batch_norm(model: nn.Module) -> nn.Module:
    """Fold each eval-mode ``BatchNorm1d`` that directly follows a ``Linear`` in an
    ``nn.Sequential`` into that layer (in place); the norm becomes an identity."""
    for seq in [m for m in model.modules() if isinstance(m, nn.Sequential)]:
        layers = list(seq)
        for i in range(len(layers) - 1):
            linear, norm = layers[i], layers[i + 1]
            if not (isinstance(linear, nn.Linear) and isinstance(norm, nn.BatchNorm1d)):
                continue
            scale = norm.weight / torch.sqrt(norm.running_var + norm.eps)  # (out,)
            bias = linear.bias if linear.bias is not None else torch.zeros_like(scale)
            fused = nn.Linear(linear.in_features, linear.out_features)
            fused.weight.copy_(linear.weight * scale[:, None])
            fused.bias.copy_((bias - norm.running_mean) * scale + norm.bias)
            seq[i], seq[i + 1] = fused, nn.Identity()
    return model
