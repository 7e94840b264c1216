"""The CPU probe behind precision=auto: flags to an instruction set, and the oneDNN cap."""

from __future__ import annotations

import pytest

from cubebench.harness.hardware import cpu_summary, instruction_set, native_bf16

ZEN3 = frozenset({"sse4_2", "avx", "avx2", "fma"})
SKYLAKE_X = ZEN3 | {"avx512f", "avx512bw", "avx512vl"}
ZEN4 = SKYLAKE_X | {"avx512_bf16"}
SAPPHIRE_RAPIDS = ZEN4 | {"amx_bf16", "amx_tile"}


@pytest.mark.parametrize(
    ("flags", "isa", "native"),
    [
        (ZEN3, "avx2", False),
        (SKYLAKE_X, "avx512", False),  # AVX-512 but bf16 only emulated
        (ZEN4, "avx512_bf16", True),
        (SAPPHIRE_RAPIDS, "amx_bf16", True),
        (frozenset({"asimd"}), "neon", False),
        (frozenset({"asimd", "bf16"}), "neon_bf16", True),
    ],
)
def test_flags_name_the_instruction_set_and_native_bf16(flags, isa, native, monkeypatch):
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    assert instruction_set(flags) == isa
    assert native_bf16(flags) is native


@pytest.mark.parametrize(
    ("cap", "native"), [("AVX2", False), ("avx512_core", False), ("ALL", True)]
)
def test_a_onednn_isa_cap_below_bf16_turns_it_off(cap, native, monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", cap)
    assert native_bf16(SAPPHIRE_RAPIDS) is native
    assert cpu_summary()["onednn_max_isa"] == cap.upper()
