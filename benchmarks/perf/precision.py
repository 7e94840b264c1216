"""Model states per second of every learned solver at every precision it offers, here.

    OMP_WAIT_POLICY=PASSIVE python benchmarks/perf/precision.py [--threads 1] [--seconds 3]

For each solver: its model function (what a search calls) on a batch of random states of
the solver's own ``batch_size``, timed after a warm-up, at each precision; and which one
``precision=auto`` resolved to on this machine, with its rate against the fastest. Whether
a precision keeps the solutions is a separate measurement (bench runs on 100 random-state
cubes; see the README). ``ONEDNN_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2`` runs it as an
AVX2-only CPU would (torch's int8 kernels come from fbgemm, which that cap does not limit:
``--int8-engine onednn`` uses oneDNN's, which it does). Prints a Markdown table and the
machine; ``--json PATH`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from cubebench.harness.cube import random_states
from cubebench.harness.records.provenance import machine_info
from cubebench.harness.registry import make_solver

SOLVERS = {  # solver -> (precisions offered, the model function's attribute)
    "policy-mlp": (("fp32", "bf16", "int8"), "policy"),
    "value-transformer": (("fp32", "bf16"), "value"),
    "cnn-faces": (("fp32", "bf16"), "policy"),
}


def states_per_second(fn, states: np.ndarray, seconds: float) -> float:
    fn(states)  # warm-up: tracing, kernel selection
    fn(states)
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        fn(states)
        calls += 1
    return calls * states.shape[1] / elapsed


def measure(threads: int, seconds: float, solvers: list[str], batches: list[int]) -> list[dict]:
    """One row per solver and batch size (the solver's own ``batch_size`` when none given)."""
    rows = []
    for name in solvers:
        offered, attr = SOLVERS[name]
        auto = make_solver(name, {"threads": threads})
        models = {p: make_solver(name, {"threads": threads, "precision": p}) for p in offered}
        for batch in batches or [auto.settings.batch_size]:
            states = random_states(batch, np.random.default_rng(0))  # (54, batch)
            rates, failed = {}, {}
            for p, solver in models.items():
                try:
                    rates[p] = states_per_second(getattr(solver, attr), states, seconds)
                except Exception as exc:  # a framework that cannot run it here: say so
                    failed[p] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            picked = auto.resolved.precision
            rows.append(
                {
                    "solver": name,
                    "batch": batch,
                    "threads": threads,
                    "states_per_s": {k: round(v) for k, v in rates.items()},
                    "failed": failed,
                    "auto": picked,
                    "auto_reason": auto.resolved.reason,
                    # int8 is left out: it changes solutions (policy-mlp: +0.1 HTM)
                    "auto_vs_fastest_same_solutions": round(
                        rates[picked] / max(v for p, v in rates.items() if p != "int8"), 3
                    ),
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per precision")
    parser.add_argument("--solver", action="append", choices=list(SOLVERS))
    parser.add_argument("--batch", action="append", type=int, help="batch sizes (repeat)")
    parser.add_argument("--int8-engine", choices=["x86", "fbgemm", "onednn"], default=None)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    if args.int8_engine:
        import torch

        torch.backends.quantized.engine = args.int8_engine
    rows = measure(args.threads, args.seconds, args.solver or list(SOLVERS), args.batch or [])
    machine = machine_info()
    caps = {k: os.environ.get(k) for k in ("ONEDNN_MAX_CPU_ISA", "ATEN_CPU_CAPABILITY")}
    print(f"{machine['cpu']} ({machine['isa']}, native bf16: {machine['native_bf16']}), {caps}")
    print(f"{args.threads} thread(s); model states per second")
    print("| solver | batch | fp32 | bf16 | int8 | auto | auto / fastest of fp32, bf16 |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        got = r["states_per_s"]
        rate = {p: f"{got[p]:,}" if p in got else "–" for p in ("fp32", "bf16", "int8")}
        rate.update({p: "fails" for p in r["failed"]})
        print(
            f"| {r['solver']} | {r['batch']} | {rate['fp32']} | {rate['bf16']} | {rate['int8']} "
            f"| {r['auto']} | {r['auto_vs_fastest_same_solutions']:.2f} |"
        )
    for r in rows:
        for p, why in r["failed"].items():
            print(f"{r['solver']} at {p} failed here: {why}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": machine, "caps": caps, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
