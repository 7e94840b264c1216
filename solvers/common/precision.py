"""Numeric precision of a model, chosen from what the hardware does natively.

``auto`` means bfloat16 only where the CPU (or GPU) has bfloat16 instructions; on a CPU
without them (AVX2 and plain AVX-512 machines) bfloat16 is emulated and about ten times
slower than float32, so ``auto`` is float32 there. int8 (torch solvers) is faster still
but changes solutions, so only an explicit ``precision=int8`` gets it.
``CUBEBENCH_PRECISION`` overrides what
``auto`` resolves to (the tests use it to run as the slowest supported CPU would); an
explicit ``fp32``, ``bf16`` or ``int8`` is always taken as asked. Framework-free: the torch
and Keras adapters pass in what their framework says about the hardware.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from ...harness import SettingsError, instruction_set

Precision = Literal["auto", "fp32", "bf16", "int8"]
ENV = "CUBEBENCH_PRECISION"


@dataclass(frozen=True)
class Resolved:
    """The precision a model runs at and why; recorded in manifests and model cards."""

    precision: Literal["fp32", "bf16", "int8"]
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"precision": self.precision, "precision_reason": self.reason}


def resolve(
    requested: str,
    *,
    native_bf16: bool,
    device: str = "cpu",
    offered: tuple[str, ...] = ("fp32", "bf16", "int8"),
) -> Resolved:
    """``auto`` -> bf16 where ``native_bf16`` (the framework's answer for ``device``), else
    fp32; other values as asked, if the solver ``offered`` them."""
    if requested == "auto":
        forced = os.environ.get(ENV, "").strip()
        if forced:
            choice, reason = forced, f"auto, forced by {ENV}={forced}"
        elif native_bf16:
            choice, reason = "bf16", f"auto: native bfloat16 on {_where(device)}"
        else:
            choice, reason = "fp32", f"auto: no native bfloat16 on {_where(device)}"
        where = f"{ENV}={forced!r}" if forced else f"precision={choice!r}"
    else:
        choice, reason, where = requested, "asked for", f"precision={requested!r}"
    if choice not in offered:
        raise SettingsError(f"{where}: choose auto or one of {', '.join(offered)}")
    if device.startswith("cuda") and choice == "int8":
        raise SettingsError(f"{where}: int8 runs on the CPU only, not on device={device}")
    return Resolved(choice, reason)  # type: ignore[arg-type]


def _where(device: str) -> str:
    return device if device.startswith("cuda") else f"this CPU ({instruction_set()})"
