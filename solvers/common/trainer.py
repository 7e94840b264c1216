"""The training loop every torch solver shares: time-boxed, resumable, checkpointing.

Learning rate follows a cosine from ``lr`` to ``lr_floor`` over the budget (minutes, or
``steps`` when set, so a run of any length ends annealed); the forward pass runs under
bfloat16 autocast where the hardware has bfloat16 natively (``precision=auto``); validation
runs every ``eval_every_s`` seconds (or ``eval_every_steps``) and the shipped weights are
rewritten whenever the validation loss improves. The optimizer, step,
elapsed time and RNG state are saved beside them, so an interrupted run resumes.
"""

from __future__ import annotations

import json
import math
import platform
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from cubebench.harness.records.provenance import machine_info
from cubebench.solvers.common.checkpoint import load_weights, save_weights
from cubebench.solvers.common.inference import resolve_torch
from cubebench.solvers.common.loop import LoopConfig, Progress, cosine_lr

Batch = tuple[torch.Tensor, torch.Tensor]


@dataclass
class Task:
    """What a solver plugs into the loop."""

    stem: str  # checkpoint file stem, e.g. "policy-mlp"
    model: nn.Module
    make_batch: Callable[[np.random.Generator], Batch]  # training batch from the train stream
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]  # (model output, target)
    validate: Callable[[nn.Module], dict[str, Any]]  # must contain "val_loss"
    describe: Callable[[dict[str, Any]], str]  # one log line from the validation metrics
    card: dict[str, Any]  # static model-card fields (architecture, config, ...)
    # called after every optimizer step with (step, loss): value iteration's target updates
    after_step: Callable[[int, float], None] | None = None
    # "best": ship the weights of the lowest val_loss; "latest": ship the newest (value
    # iteration, whose targets move, so an early low loss is not a better model)
    keep: str = "best"


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def train_loop(task: Task, config: LoopConfig, log: Callable[[str], None] = print) -> dict:
    """Train until the time budget is spent; returns the model card of the best weights."""
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    state_pt, state_json = (
        out / f"{task.stem}.train-state.pt",
        out / f"{task.stem}.train-state.json",
    )
    model = task.model.to(config.device)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    rng = np.random.default_rng([config.seed, 0])  # validation data uses [seed, 1]
    progress = {"step": 0, "elapsed": 0.0, "samples": 0, "best": math.inf}
    if config.resume and state_pt.exists():
        saved = torch.load(state_pt, map_location=config.device, weights_only=True)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        meta = json.loads(state_json.read_text())
        rng.bit_generator.state = meta.pop("rng")
        progress.update(meta)
        log(f"resumed at step {progress['step']}, {progress['elapsed'] / 60:.1f} min")
    elif config.init_from:
        state, card = load_weights(Path(config.init_from), task.stem, config.device)
        model.load_state_dict(state)
        log(
            f"starting from {config.init_from} ({card.get('steps')} steps, sha256 "
            f"{card['sha256'][:12]}…)"
        )
    precision = resolve_torch(config.precision, config.device, ("fp32", "bf16"))
    bf16 = precision.precision == "bf16"
    kind = "cuda" if config.device.startswith("cuda") else "cpu"
    clock = Progress(config, progress["elapsed"], progress["step"])
    best_card: dict = {}
    budget = f"{config.steps} steps" if config.steps else f"{config.minutes} min"
    log(
        f"{task.stem}: {parameter_count(model):,} parameters, {config.threads} threads, "
        f"{budget} on {config.device}, {precision.precision} ({precision.reason})"
    )

    def checkpoint() -> None:
        nonlocal best_card
        model.eval()
        with torch.inference_mode(), torch.autocast(kind, torch.bfloat16, enabled=bf16):
            metrics = task.validate(model)
        model.train()
        elapsed = clock.elapsed
        rate = progress["samples"] / max(elapsed, 1e-9)
        log(
            f"{elapsed / 60:6.1f} min  step {progress['step']:7d}  "
            f"{progress['samples'] / 1e6:7.1f}M samples ({rate:,.0f}/s)  {task.describe(metrics)}"
        )
        if task.keep == "latest" or metrics["val_loss"] < progress["best"]:
            progress["best"] = min(progress["best"], metrics["val_loss"])
            best_card = {
                **task.card,
                "parameters": parameter_count(model),
                "steps": progress["step"],
                "samples_seen": progress["samples"],
                "train_minutes": round(elapsed / 60, 2),
                "samples_per_second": round(rate),
                "validation": metrics,
                "loop": {**config.__dict__},
                "hardware": {
                    **machine_info(),
                    "torch": torch.__version__,
                    "threads": config.threads,
                    "device": config.device,
                    **precision.to_dict(),
                },
                "python": platform.python_version(),
            }
            save_weights(model, best_card, out, task.stem)
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, state_pt)
        state_json.write_text(
            json.dumps({**progress, "elapsed": elapsed, "rng": rng.bit_generator.state})
        )

    model.train()
    while clock.running():
        lr = cosine_lr(config, clock.fraction())
        for group in optimizer.param_groups:
            group["lr"] = lr
        x, y = task.make_batch(rng)
        with torch.autocast(kind, torch.bfloat16, enabled=bf16):
            loss = task.loss(model(x.to(config.device)), y.to(config.device))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        progress["step"] = clock.step = progress["step"] + 1
        if task.after_step is not None:
            task.after_step(progress["step"], loss.item())
        progress["samples"] += len(y)
        if clock.eval_due():
            checkpoint()
    checkpoint()
    return best_card
