"""States per second of residual value MLPs of several sizes: why deepcubea ships 1000/500.

Run: ``OMP_WAIT_POLICY=PASSIVE python benchmarks/value_net_sizes.py [--threads 1]``. Times
inference on batches of 8192 at the precision ``auto`` resolves to on this machine, for
CayleyPy's size, the shipped deepcubea size, two intermediate ones and DeepCubeA's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cubebench.solvers.common.inference import resolve_torch
from cubebench.solvers.common.resmlp import residual_mlp

SIZES = ((1024, 256, 1), (1000, 500, 2), (2000, 1000, 2), (2000, 1000, 4), (5000, 1000, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=2.0, help="timing per size")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    precision = resolve_torch("auto", "cpu", ("fp32", "bf16"))
    bf16 = precision.precision == "bf16"
    print(f"{args.threads} thread(s), {precision.precision} ({precision.reason})")
    x = torch.randn(8192, 288)
    for size in SIZES:
        model = residual_mlp(*size, 1).eval()
        params = sum(p.numel() for p in model.parameters())
        with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
            model(x)  # warm-up
            start, calls = time.perf_counter(), 0
            while time.perf_counter() - start < args.seconds:
                model(x)
                calls += 1
        rate = 8192 * calls / (time.perf_counter() - start)
        print(f"{size}: {params / 1e6:.2f}M parameters, {rate:,.0f} states/s")


if __name__ == "__main__":
    main()
