"""What the CPU can do natively, read without importing a framework.

Precision is chosen from this (bfloat16 only where the hardware has it) and the answer goes
in every manifest and model card, so two runs on different machines say why their times
differ. The same rule serves torch and Keras: both run CPU matmuls through oneDNN, which
also honours the ``ONEDNN_MAX_CPU_ISA`` cap read here.
"""

from __future__ import annotations

import os
import platform
from functools import cache
from pathlib import Path

# oneDNN ISA caps (ONEDNN_MAX_CPU_ISA) that still allow native bfloat16 instructions
_BF16_CAPS = ("AVX512_CORE_BF16", "AVX512_CORE_FP16", "AVX512_CORE_AMX", "AVX10", "ALL", "DEFAULT")
_X86_LEVELS = (  # best first: (name, flags that must all be present)
    ("amx_bf16", ("amx_bf16", "amx_tile")),
    ("avx512_bf16", ("avx512_bf16",)),
    ("avx512", ("avx512f", "avx512bw", "avx512vl")),
    ("avx2", ("avx2", "fma")),
    ("sse4_2", ("sse4_2",)),
)


@cache
def cpu_flags() -> frozenset[str]:
    """The feature flags of the first CPU in ``/proc/cpuinfo`` (x86 ``flags``, Arm
    ``Features``); empty where that file does not exist."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return frozenset()


def instruction_set(flags: frozenset[str] | None = None) -> str:
    """The best vector level the CPU reports: ``amx_bf16``, ``avx512_bf16``, ``avx512``,
    ``avx2``, ``sse4_2``, ``neon_bf16``/``neon`` on Arm, else the machine name."""
    flags = cpu_flags() if flags is None else flags
    for name, needed in _X86_LEVELS:
        if all(f in flags for f in needed):
            return name
    if "asimd" in flags:
        return "neon_bf16" if "bf16" in flags else "neon"
    return platform.machine() or "unknown"


def isa_cap() -> str | None:
    """The ``ONEDNN_MAX_CPU_ISA`` cap in force, upper-cased, or None."""
    cap = os.environ.get("ONEDNN_MAX_CPU_ISA", "").strip().upper()
    return cap or None


def native_bf16(flags: frozenset[str] | None = None) -> bool:
    """Whether bfloat16 matmuls run on bfloat16 instructions rather than an emulation.

    AVX-512 BF16 or AMX on x86, the BF16 extension on Arm; a ``ONEDNN_MAX_CPU_ISA`` cap
    below AVX512_CORE_BF16 turns it off, as it does inside oneDNN.
    """
    level = instruction_set(flags)
    if level not in ("amx_bf16", "avx512_bf16", "neon_bf16"):
        return False
    cap = isa_cap()
    return cap is None or cap.startswith(_BF16_CAPS)


def cpu_summary() -> dict[str, object]:
    """The fields a manifest records about the CPU's vector units."""
    return {"isa": instruction_set(), "native_bf16": native_bf16(), "onednn_max_isa": isa_cap()}
