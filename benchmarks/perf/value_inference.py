"""How fast a residual value MLP evaluates states here, against the CPU's arithmetic peak.

    OMP_WAIT_POLICY=PASSIVE python benchmarks/perf/value_inference.py [--solver cayley-mlp]
        [--threads 1 2] [--batches 4096 16384 65536] [--json PATH]

For the solver's shipped network (``cayley-mlp`` or ``deepcubea``), states/s of the whole
value function a beam calls (uint8 states in, numpy distances out) in two forms:

- ``dense``: one-hot input, batch norm as separate layers, bf16 by autocast (the form the
  trainer uses);
- ``stickers``: :class:`~cubebench.solvers.common.resmlp.GatherResMLP` over sticker rows
  (first layer as a gather of 48 weight rows, batch norm folded, weights cast once);
- ``pieces``: the same over piece rows (20 rows of pre-summed piece colourings), the form
  the solvers search with,

at each precision the CPU offers (bf16 only where native; int8 is torch's dynamic
quantization), batch size and thread count. Each rate is also given as GFLOP/s of the dense
network's arithmetic (2 x multiply-adds a state), set beside two ceilings for the same
threads: the rate a large matrix product reaches in fp32 and in bf16 (``torch.mm`` of
4096 x 4096, oneDNN's best kernel: the FMA peak as software reaches it), and the nominal
peak from the reported clock (vector lanes x 2 FLOPs x 2 FMA pipes x MHz; a CPU that
splits 512-bit instructions, as Zen 4 does, reaches half of it). Nothing else should run
meanwhile; the figures are printed with the CPU.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

from cubebench.harness import machine_info, random_states
from cubebench.harness.hardware import cpu_flags
from cubebench.solvers.common.inference import quantize, torch_native_bf16
from cubebench.solvers.common.resmlp import GatherResMLP, encode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.perf.precision import states_per_second


def load(solver: str) -> torch.nn.Module:
    if solver == "cayley-mlp":
        from cubebench.solvers.cayley_mlp.checkpoint import CHECKPOINT_DIR, load_checkpoint
    elif solver == "deepcubea":
        from cubebench.solvers.deepcubea.checkpoint import CHECKPOINT_DIR, load_checkpoint
    else:
        raise SystemExit(f"--solver {solver!r}: cayley-mlp or deepcubea")
    model, _card = load_checkpoint(CHECKPOINT_DIR, "cpu", "qtm")
    return model.eval()


def dense_flops(net: torch.nn.Sequential) -> int:
    """FLOPs of one state through the dense network: 2 per multiply-add of its linear layers."""
    linear = [m for m in net.modules() if isinstance(m, torch.nn.Linear)]
    return sum(2 * m.in_features * m.out_features for m in linear)


def value_functions(model: torch.nn.Module, precisions: list[str]) -> dict[tuple[str, str], object]:
    """(form, precision) -> a function (54, N) uint8 -> (N,) float32 numpy."""
    fns: dict[tuple[str, str], object] = {}
    for precision in precisions:
        dense = quantize(model) if precision == "int8" else model
        bf16 = precision == "bf16"

        def run_dense(states, net=dense, bf16=bf16):
            with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
                return net(encode(states)).float().numpy()

        fns["dense", precision] = run_dense
        for by in ("stickers", "pieces"):
            gather = GatherResMLP(model.net, precision, by)

            def run_gather(states, net=gather):
                with torch.inference_mode():
                    return net(net.rows(states))[:, 0].float().numpy()

            fns[by, precision] = run_gather
    return fns


def gemm_gflops(dtype: torch.dtype, seconds: float, size: int = 4096) -> float:
    a = torch.randn(size, size).to(dtype)
    b = torch.randn(size, size).to(dtype)
    torch.mm(a, b)
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        torch.mm(a, b)
        calls += 1
    return calls * 2 * size**3 / elapsed / 1e9


def nominal_gflops(threads: int) -> tuple[float | None, str]:
    """Lanes x 2 FLOPs x 2 FMA pipes x the reported clock, fp32 and bf16 (pairs per lane)."""
    flags = cpu_flags()
    lanes = 16 if "avx512f" in flags else 8 if "fma" in flags else None
    mhz = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("cpu MHz"):
                mhz = float(line.split(":")[1])
                break
    except OSError:
        pass
    if lanes is None or mhz is None:
        return None, "no FMA flags or clock reported"
    return lanes * 2 * 2 * mhz / 1e3 * threads, f"{lanes} fp32 lanes, {mhz:.0f} MHz reported"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--solver", default="cayley-mlp")
    parser.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--batches", type=int, nargs="*", default=[4096, 16384, 65536])
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per figure")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    model = load(args.solver)
    flops = dense_flops(model.net)
    precisions = ["fp32", *(["bf16"] if torch_native_bf16() else []), "int8"]
    fns = value_functions(model, precisions)
    machine = machine_info()
    print(
        f"{args.solver}: {sum(p.numel() for p in model.parameters()):,} parameters, "
        f"{flops / 1e3:.0f} kFLOP a state (dense); {machine['cpu']} ({machine['isa']})"
    )
    rows, ceilings = [], {}
    for threads in args.threads:
        torch.set_num_threads(threads)
        nominal, how = nominal_gflops(threads)
        ceilings[threads] = {
            "gemm_fp32": gemm_gflops(torch.float32, args.seconds),
            "gemm_bf16": gemm_gflops(torch.bfloat16, args.seconds)
            if "bf16" in precisions
            else None,
            "nominal_fp32": nominal,
            "nominal_how": how,
        }
        for batch in args.batches:
            states = random_states(batch, np.random.default_rng(batch))
            for (form, precision), fn in fns.items():
                r = states_per_second(fn, states, args.seconds)
                rows.append(
                    {
                        "threads": threads,
                        "batch": batch,
                        "form": form,
                        "precision": precision,
                        "states_per_s": r,
                        "gflops": r * flops / 1e9,
                    }
                )
    print("\n| threads | batch | form | precision | states/s | GFLOP/s (dense count) |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['threads']} | {row['batch']} | {row['form']} | {row['precision']} | "
            f"{row['states_per_s']:,.0f} | {row['gflops']:.1f} |"
        )
    print("\n| threads | GEMM fp32 GFLOP/s | GEMM bf16 GFLOP/s | nominal fp32 GFLOP/s |")
    print("|---|---|---|---|")
    for threads, c in ceilings.items():
        bf16 = f"{c['gemm_bf16']:.1f}" if c["gemm_bf16"] else "-"
        nominal = f"{c['nominal_fp32']:.1f} ({c['nominal_how']})" if c["nominal_fp32"] else "-"
        print(f"| {threads} | {c['gemm_fp32']:.1f} | {bf16} | {nominal} |")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": machine,
                    "solver": args.solver,
                    "flops_per_state": flops,
                    "rows": rows,
                    "ceilings": ceilings,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
