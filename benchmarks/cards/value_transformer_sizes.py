"""States per second of value transformers of several sizes, for inference and training.

Run: ``OMP_WAIT_POLICY=PASSIVE python benchmarks/cards/value_transformer_sizes.py [--threads 1]
[--sizes 2x64 4x128 8x256] [--batches 512 2048 8192] [--cards A.json B.json]``. For each
size (layers x width; heads = width / 16, feed-forward = 2 x width, as ``bench train
value-transformer`` builds them): inference on batches of random walk states in float32
and, where this CPU has native bfloat16, under bfloat16 autocast, at each batch size; and
one training step (forward, backward, Adam) on 1,024 walk states in float32, the trainer's
precision. Seed 001's beam scores every child of every kept state, so inference speed
decides the width a time limit affords: at width 4000 a fully scrambled cube costs about a
million evaluations.

With ``--cards`` (the ``value-transformer.json`` cards of training runs of the same schedule
and different sizes), their validation error at equal samples comes first: the trainer's
``val_loss`` (mean squared error against the true distance of states up to 7 moves) at every
sample count all the runs reached, which with the states/s below decides the size.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

from cubebench.harness import machine_info
from cubebench.solvers.common.inference import torch_native_bf16
from cubebench.solvers.common.walks import walk_samples
from cubebench.solvers.value_transformer.model import TransformerConfig, ValueTransformer, encode

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.cards.value_net_sizes import _rate

SIZES = ("2x64", "4x128", "6x192", "8x256")


def config_for(size: str) -> TransformerConfig:
    """``"4x128"`` -> the configuration ``bench train value-transformer --layers 4 --width
    128`` trains."""
    layers, width = (int(v) for v in size.split("x"))
    return TransformerConfig(
        layers=layers, width=width, heads=max(1, width // 16), feedforward=2 * width
    )


def compare_cards(paths: list[str]) -> None:
    """Validation loss of each run at the sample counts every run's curve has."""
    runs = []
    for path in paths:
        card = json.loads(Path(path).read_text())
        arch = card["architecture"]
        curve = {p["samples"]: p["val_loss"] for p in card["training"]["curve"]}
        runs.append((f"{arch['layers']}x{arch['width']}", curve))
    common = sorted(set.intersection(*(set(curve) for _, curve in runs)))
    print("| samples | " + " | ".join(f"{name} val MSE" for name, _ in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for samples in sorted({*common[:: max(1, len(common) // 12)], *common[-1:]}):
        cells = " | ".join(f"{curve[samples]:.3f}" for _, curve in runs)
        print(f"| {samples / 1e6:.2f}M | {cells} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per figure")
    parser.add_argument("--sizes", nargs="*", default=list(SIZES), help="LAYERSxWIDTH")
    parser.add_argument("--batches", nargs="*", type=int, default=[512, 2048, 8192])
    parser.add_argument("--cards", nargs="*", default=[], help="training runs' cards to compare")
    args = parser.parse_args()
    if args.cards:
        compare_cards(args.cards)
    if not args.sizes:
        return
    torch.set_num_threads(args.threads)
    bf16 = torch_native_bf16("cpu")
    machine = machine_info()
    print(
        f"{machine.get('cpu')} ({machine.get('isa')}), {args.threads} thread(s), "
        f"native bfloat16: {bf16}"
    )
    rng = np.random.default_rng(0)
    states, _, depths = walk_samples(max(args.batches) // 24 + 1, 24, rng)
    tokens = encode(states)  # (N, 20)
    train_x = tokens[:1024]
    train_y = torch.from_numpy(depths[:1024].astype(np.float32))
    precisions = ("fp32", "bf16") if bf16 else ("fp32",)
    head = " | ".join(f"{p} b={b}" for p in precisions for b in args.batches)
    print(f"| size | parameters | inference states/s: {head} | training states/s (fp32) |")
    print("|---|---|" + "---|" * (len(precisions) * len(args.batches)) + "---|")
    for size in args.sizes:
        torch.manual_seed(0)
        model = ValueTransformer(config_for(size))
        params = sum(p.numel() for p in model.parameters())
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)

        def step(model=model, optimizer=optimizer):
            loss = torch.nn.functional.mse_loss(model(train_x).float(), train_y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()

        train_rate = _rate(step, args.seconds) * len(train_x)
        model.eval()
        rates = []
        for precision in precisions:
            for batch in args.batches:
                x = tokens[:batch]

                def infer(model=model, x=x, low=precision == "bf16"):
                    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=low):
                        model(x)

                rates.append(_rate(infer, args.seconds) * batch)
        cells = " | ".join(f"{r:,.0f}" for r in rates)
        print(f"| {size} | {params / 1e6:.3f}M | {cells} | {train_rate:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
