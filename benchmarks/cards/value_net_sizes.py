"""States per second of residual value MLPs of several sizes, for inference and training.

Run: ``OMP_WAIT_POLICY=PASSIVE python benchmarks/cards/value_net_sizes.py [--threads 1]
[--sizes 1024x256x1 512x128x1]``. For each size (first layer x second layer x residual
blocks): inference on batches of 8192 random one-hot states, and one training step (forward,
backward, Adam) on a batch of 9,984, both at the precision ``auto`` resolves to on this
machine, plus the time to make that batch with the walk generator the trainers use. A value
beam calls the network on every child, so inference speed is search speed: a net 4x faster
buys a 4x wider beam. Why deepcubea ships 1000/500, and how cayley-mlp's size was chosen
(its model card), come from these figures beside validation error at equal samples.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from cubebench.harness import machine_info
from cubebench.solvers.common.inference import resolve_torch
from cubebench.solvers.common.resmlp import encode, residual_mlp
from cubebench.solvers.common.walks import walk_samples

SIZES = ("1024x256x1", "1000x500x2", "2000x1000x2", "2000x1000x4", "5000x1000x4")


def _rate(fn, seconds: float) -> float:
    """Calls per second of ``fn`` after two warm-up calls."""
    fn()
    fn()
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        fn()
        calls += 1
    return calls / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per figure")
    parser.add_argument("--sizes", nargs="*", default=list(SIZES), help="H1xH2xBLOCKS")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    precision = resolve_torch("auto", "cpu", ("fp32", "bf16"))
    bf16 = precision.precision == "bf16"
    machine = machine_info()
    print(
        f"{machine.get('cpu')} ({machine.get('isa')}), {args.threads} thread(s), "
        f"{precision.precision} ({precision.reason})"
    )
    rng = np.random.default_rng(0)
    batch = 384 * 26  # cayley-mlp's quarter-turn batch: 384 walks x 26 steps

    def make_batch():
        states, _, depths = walk_samples(384, 26, rng, "qtm")
        return encode(states), torch.from_numpy(depths.astype(np.float32))

    data_rate = _rate(make_batch, args.seconds) * batch
    print(f"making training batches: {data_rate:,.0f} states/s")
    print("| size | parameters | inference states/s | training step states/s |")
    print("|---|---|---|---|")
    x_infer = torch.randn(8192, 288)
    x_train, y_train = make_batch()
    for size in args.sizes:
        h1, h2, blocks = (int(v) for v in size.split("x"))
        model = residual_mlp(h1, h2, blocks, 1)
        params = sum(p.numel() for p in model.parameters())
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)

        def step(model=model, optimizer=optimizer):
            with torch.autocast("cpu", torch.bfloat16, enabled=bf16):
                loss = torch.nn.functional.mse_loss(model(x_train)[:, 0].float(), y_train)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()

        def infer(model=model):
            with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
                model(x_infer)

        train_rate = _rate(step, args.seconds) * batch
        model.eval()
        infer_rate = _rate(infer, args.seconds) * 8192
        print(f"| {size} | {params / 1e6:.2f}M | {infer_rate:,.0f} | {train_rate:,.0f} |")


if __name__ == "__main__":
    main()
