"""Train the policy MLP on scrambles streamed from the engine: ``bench train policy-mlp``.

Time-boxed (``--minutes``) with a cosine learning-rate decay over that time, bfloat16
autocast on CPU, validation accuracy per depth at intervals, and the shipped checkpoint
(float16 weights + model card with sha256) rewritten whenever validation loss improves.
Resumable: optimizer, step counter, elapsed time and RNG state are saved beside it.
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from harness.records.provenance import machine_info
from solvers.policy_mlp.checkpoint import CHECKPOINT_DIR, save_checkpoint
from solvers.policy_mlp.data import walk_samples
from solvers.policy_mlp.model import ModelConfig, PolicyMLP, encode, parameter_count


@dataclass(frozen=True)
class TrainConfig:
    minutes: float = 90.0
    device: str = "cpu"
    walks_per_batch: int = 256  # x walk_length samples per step
    walk_length: int = 20
    lr: float = 1e-3
    lr_floor: float = 1e-5
    seed: int = 0
    threads: int = 2
    eval_every_s: float = 120.0
    out: str = str(CHECKPOINT_DIR)
    resume: bool = True
    model: ModelConfig = field(default_factory=ModelConfig)


def _validation_set(config: TrainConfig) -> tuple[torch.Tensor, torch.Tensor, np.ndarray]:
    rng = np.random.default_rng([config.seed, 1])  # a stream training never draws from
    states, labels, depths = walk_samples(500, config.walk_length, rng)
    return encode(states, config.device), torch.from_numpy(labels).to(config.device), depths


def _evaluate(model: PolicyMLP, val: tuple, bf16: bool) -> tuple[float, dict[int, float]]:
    x, y, depths = val
    model.eval()
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=bf16):
        logits = model(x).float()
    model.train()
    loss = F.cross_entropy(logits, y).item()
    correct = (logits.argmax(1) == y).cpu().numpy()
    per_depth = {int(d): float(correct[depths == d].mean()) for d in np.unique(depths)}
    return loss, per_depth


def train(config: TrainConfig, log=print) -> dict:
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "train-state.pt"
    model = PolicyMLP(config.model).to(config.device)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    rng = np.random.default_rng([config.seed, 0])
    step, elapsed, samples, best = 0, 0.0, 0, math.inf
    if config.resume and state_path.exists():
        saved = torch.load(state_path, map_location=config.device, weights_only=True)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        meta = json.loads((out / "train-state.json").read_text())
        step, elapsed, samples, best = meta["step"], meta["elapsed"], meta["samples"], meta["best"]
        rng.bit_generator.state = meta["rng"]
        log(f"resumed at step {step}, {elapsed / 60:.1f} min, best val loss {best:.4f}")
    bf16 = config.device == "cpu"
    val = _validation_set(config)
    budget = config.minutes * 60
    last_eval = time.monotonic()
    start = time.monotonic() - elapsed
    log(
        f"model: {parameter_count(model):,} parameters; {config.threads} threads; "
        f"{config.walks_per_batch * config.walk_length} samples per step"
    )
    card: dict = {}
    while (elapsed := time.monotonic() - start) < budget:
        lr = config.lr_floor + 0.5 * (config.lr - config.lr_floor) * (
            1 + math.cos(math.pi * elapsed / budget)
        )
        for group in optimizer.param_groups:
            group["lr"] = lr
        states, labels, _ = walk_samples(config.walks_per_batch, config.walk_length, rng)
        x = encode(states, config.device)
        y = torch.from_numpy(labels).to(config.device)
        with torch.autocast("cpu", torch.bfloat16, enabled=bf16):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        step += 1
        samples += y.numel()
        if time.monotonic() - last_eval >= config.eval_every_s:
            last_eval = time.monotonic()
            new_card, best = _checkpoint(
                model,
                optimizer,
                config,
                val,
                step,
                elapsed,
                samples,
                best,
                loss.item(),
                lr,
                rng,
                log,
            )
            card = new_card or card
    new_card, best = _checkpoint(
        model,
        optimizer,
        config,
        val,
        step,
        time.monotonic() - start,
        samples,
        best,
        float("nan"),
        0.0,
        rng,
        log,
    )
    return new_card or card


def _checkpoint(
    model,
    optimizer,
    config: TrainConfig,
    val,
    step: int,
    elapsed: float,
    samples: int,
    best: float,
    train_loss: float,
    lr: float,
    rng,
    log,
) -> tuple[dict | None, float]:
    """Validate; ship the weights if validation improved; always save the training state."""
    out = Path(config.out)
    bf16 = config.device == "cpu"
    val_loss, per_depth = _evaluate(model, val, bf16)
    rate = samples / max(elapsed, 1e-9)
    log(
        f"{elapsed / 60:6.1f} min  step {step:7d}  {samples / 1e6:7.1f}M samples "
        f"({rate:,.0f}/s)  lr {lr:.2e}  train {train_loss:.4f}  val {val_loss:.4f}  "
        f"acc d1 {per_depth[1]:.3f} d5 {per_depth[5]:.3f} d10 {per_depth[10]:.3f} "
        f"d20 {per_depth[max(per_depth)]:.3f}"
    )
    card = None
    if val_loss < best:
        best = val_loss
        card = {
            "model": "policy-mlp",
            "architecture": config.model.to_dict(),
            "parameters": parameter_count(model),
            "steps": step,
            "samples_seen": samples,
            "train_minutes": round(elapsed / 60, 2),
            "samples_per_second": round(rate),
            "val_loss": round(val_loss, 5),
            "val_accuracy_by_depth": {d: round(a, 4) for d, a in per_depth.items()},
            "train_config": {k: v for k, v in asdict(config).items() if k != "model"},
            "hardware": {
                **machine_info(),
                "torch": torch.__version__,
                "threads": config.threads,
                "device": config.device,
            },
            "python": platform.python_version(),
        }
        save_checkpoint(model, card, out)
    torch.save(
        {"model": model.state_dict(), "optimizer": optimizer.state_dict()}, out / "train-state.pt"
    )
    (out / "train-state.json").write_text(
        json.dumps(
            {
                "step": step,
                "elapsed": elapsed,
                "samples": samples,
                "best": best,
                "rng": rng.bit_generator.state,
            }
        )
    )
    return card, best


def main(argv: list[str] | None = None) -> dict:
    """``bench train policy-mlp`` and ``python -m solvers.policy_mlp.train``."""
    import argparse

    parser = argparse.ArgumentParser(prog="bench train policy-mlp", description=__doc__)
    parser.add_argument("--minutes", type=float, default=90.0)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", 2)))
    parser.add_argument("--out", default=str(CHECKPOINT_DIR))
    parser.add_argument("--fresh", action="store_true", help="ignore a saved training state")
    parser.add_argument("--seed", type=int, default=0)
    a = parser.parse_args(argv)
    config = TrainConfig(
        minutes=a.minutes,
        device=a.device,
        threads=a.threads,
        out=a.out,
        resume=not a.fresh,
        seed=a.seed,
    )
    return train(config, log=lambda message: print(message, flush=True))


if __name__ == "__main__":
    main()
