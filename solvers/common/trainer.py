"""The training loop every torch solver shares: budgeted, resumable across sittings.

Learning rate warms up linearly over ``warmup_steps``, then follows a cosine from ``lr`` to
``lr_floor`` over the run's budget (``steps``, or ``minutes`` when no step budget is set),
so a run of any length ends annealed; the forward pass runs under bfloat16 autocast where
the hardware has bfloat16 natively (``precision=auto``); validation runs every
``eval_every_s`` seconds (or ``eval_every_steps``) and the shipped weights are rewritten
whenever the validation loss improves. At every validation the run's state
(:mod:`cubebench.solvers.common.state`) is saved, so a stopped run continues exactly where
it was, and the model card lists every sitting.
"""

from __future__ import annotations

import json
import math
import platform
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ...harness import ArgumentError, machine_info
from .checkpoint import load_weights, save_weights
from .frameworks import require
from .inference import resolve_torch
from .loop import (
    LOOP_RUN_OPTIONS,
    LoopConfig,
    Progress,
    parse_training_args,
    print_flush,
)
from .outputs import guard_existing_model, writable_folder
from .sitting import Sitting, run_sitting
from .state import read_state, state_path, write_state

Batch = tuple[torch.Tensor, torch.Tensor]


@dataclass
class TrainingTask:
    """What a solver plugs into the loop."""

    stem: str  # checkpoint file stem, e.g. "policy-mlp"
    # the network, or a function building it (built after seeding, so a run repeats)
    model: nn.Module | Callable[[], nn.Module]
    make_batch: Callable[[np.random.Generator], Batch]  # training batch from the train stream
    loss: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]  # (model output, target)
    validate: Callable[[nn.Module], dict[str, Any]]  # must contain "val_loss"
    describe: Callable[[dict[str, Any]], str]  # one log line from the validation metrics
    card: dict[str, Any]  # static model-card fields (architecture, config, ...)
    # called after every optimizer step with (step, loss): value iteration's target updates
    after_step: Callable[[int, float], None] | None = None
    # what the task keeps beyond the model (value iteration's target network), saved in the
    # resumable state and given back on resume, so a stopped run continues exactly
    task_state: Callable[[], dict[str, Any]] | None = None
    restore: Callable[[dict[str, Any]], None] | None = None
    # "best": ship the weights of the lowest val_loss; "latest": ship the newest (value
    # iteration, whose targets move, so an early low loss is not a better model)
    keep: str = "best"
    # make_batch runs a network (value iteration's labels): run it in the loop's precision
    batch_in_precision: bool = False


def model_task(
    stem: str, data: Any, architecture: dict[str, Any], label: str, **parts: Any
) -> TrainingTask:
    """A :class:`TrainingTask` whose card names the model, its metric, architecture, data and label,
    as every shipped card does (``parts``: the TrainingTask's other fields)."""
    card = {
        "model": stem,
        "metric": data.metric,
        "architecture": architecture,
        "data": asdict(data),
        "label": label,
    }
    return TrainingTask(stem=stem, card=card, **parts)


def train_model(
    make_task: Callable[..., TrainingTask],
    default_data: Callable[[], Any],
    default_model: Callable[[], Any],
    loop: LoopConfig,
    data: Any = None,
    model_config: Any = None,
    log: Callable[[str], None] = print,
) -> dict:
    """``make_task(data, model_config, device, seed)`` trained by the shared loop; a
    trainer's ``train`` is this with its own task and defaults bound (``functools.partial``)."""
    data = data if data is not None else default_data()
    model_config = model_config if model_config is not None else default_model()
    return train_loop(make_task(data, model_config, loop.device, loop.seed), loop, log)


def main_for_metric(
    argv: list[str] | None,
    name: str,
    doc: str | None,
    shipped: Any,
    train: Callable[..., dict],
    data_for: Callable[[str], Any],
    metric: str,
) -> dict:
    """``bench train NAME [--metric htm|qtm]`` for a trainer whose only own option is the
    move set: continues a saved run of that metric (``shipped``: its ShippedModel)."""
    loop, chosen = parse_training_args(
        argv,
        f"bench train {name}",
        doc,
        shipped.folder,
        metric,
        state_file=lambda args: state_path(args.out, shipped.stem_for(args.metric)),
    )
    return train(loop, data_for(chosen), log=print_flush)


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _start_from(model: nn.Module, source: str, stem: str, device: str) -> dict[str, str]:
    """Load the weights ``--init-from`` names into ``model``: a folder holding this model's
    checkpoint, or any checkpoint's card (``NAME.json``) whose network has the same shape
    (a distance model's weights starting value iteration, say). What it was is returned
    for the card."""
    path = Path(source)
    if not (path.is_dir() or (path.suffix == ".json" and path.is_file())):
        raise ArgumentError(
            f"--init-from {source}: give a checkpoint folder or a model card (NAME.json)"
        )
    folder, name = (path.parent, path.stem) if path.suffix == ".json" else (path, stem)
    try:
        state, card = load_weights(folder, name, device)
    except (OSError, ValueError, KeyError, RuntimeError) as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        raise ArgumentError(f"--init-from {source}: not a usable checkpoint ({why})") from None
    mine = model.state_dict()
    wrong = [k for k in mine if k not in state or state[k].shape != mine[k].shape]
    if wrong or set(state) - set(mine):
        first = wrong[0] if wrong else sorted(set(state) - set(mine))[0]
        shape = tuple(state[first].shape) if first in state else "absent"
        here = tuple(mine[first].shape) if first in mine else "absent"
        built = card.get("architecture") or card.get("config") or "its card"
        raise ArgumentError(
            f"--init-from {source}: its network does not match this one ({first} is {shape} "
            f"there, {here} here); it was built as {built}: give this trainer the options "
            "that build the same network"
        )
    model.load_state_dict(state)
    return {"checkpoint": f"{folder / name}", "sha256": card["sha256"][:12]}


def _check_run(config: LoopConfig, saved: dict[str, Any], path: Path) -> None:
    """A continued run keeps the loop options it started with."""
    for name in LOOP_RUN_OPTIONS:
        if name in saved and saved[name] != getattr(config, name):
            raise ArgumentError(
                f"training state {path} was started with {name}={saved[name]}, "
                f"not {getattr(config, name)}: continue it unchanged, or start anew (--fresh)"
            )


CURVE_KEYS = (
    "sequence_accuracy_by_length",
    "accuracy_by_depth",
    "mean_by_depth",
    "mean_by_walk_length",
)
"""Per-length or per-depth validation figures a training curve keeps, where a task has them."""


def training_summary(
    sittings: list[dict[str, Any]], curve: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The card's record of the run: every sitting, their totals, and the validation curve
    over all of them (one point a validation: step, samples, loss, figures by length)."""
    return {
        "sittings": sittings,
        "curve": curve or [],
        "totals": {
            "sittings": len(sittings),
            "steps": sum(s["steps"] for s in sittings),
            "samples": sum(s["samples"] for s in sittings),
            "wall_minutes": round(sum(s["wall_s"] for s in sittings) / 60, 2),
        },
    }


def train_loop(task: TrainingTask, config: LoopConfig, log: Callable[[str], None] = print) -> dict:
    """Train until the budget or this sitting's time is spent; returns the shipped card."""
    require("torch", f"training {task.stem}")
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    out = writable_folder(config.out)
    state_file = state_path(out, task.stem)
    model = task.model if isinstance(task.model, nn.Module) else task.model()
    model = model.to(config.device)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    rng = np.random.default_rng([config.seed, 0])  # validation data uses [seed, 1]
    progress: dict[str, Any] = {"step": 0, "elapsed": 0.0, "samples": 0, "best": math.inf}
    run_options = {**{n: getattr(config, n) for n in LOOP_RUN_OPTIONS}, **config.run_options}
    sittings: list[dict[str, Any]] = []
    saved = read_state(state_file, config.device) if config.resume else None
    guard_existing_model(config, task.stem, continuing=saved is not None)
    if saved is not None:
        _check_run(config, saved["run_options"], state_file)
        try:
            model.load_state_dict(saved["model"])
            optimizer.load_state_dict(saved["optimizer"])
            torch.set_rng_state(saved["torch_rng"].cpu())
            rng.bit_generator.state = saved["rng"]
        except (RuntimeError, ValueError, KeyError, TypeError) as exc:  # a foreign state
            why = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            raise ArgumentError(
                f"training state {state_file} does not fit this model ({why}); "
                "--fresh starts a new run"
            ) from None
        progress.update(saved["progress"])
        run_options = saved["run_options"]
        sittings = saved["sittings"]
        if task.restore is not None and "task" in saved:
            try:
                task.restore(saved["task"])
            except (RuntimeError, ValueError, KeyError, TypeError) as exc:
                raise ArgumentError(
                    f"training state {state_file}: its {task.stem} part does not fit "
                    f"({(str(exc).strip().splitlines() or ['?'])[0][:200]}); --fresh starts anew"
                ) from None
        log(f"resumed at step {progress['step']}, {progress['elapsed'] / 60:.1f} min")
    elif config.init_from:
        run_options["init_from"] = _start_from(model, config.init_from, task.stem, config.device)
        log(f"starting from {config.init_from} (sha256 {run_options['init_from']['sha256']}…)")
    precision = resolve_torch(config.precision, config.device, ("fp32", "bf16"))
    bf16 = precision.precision == "bf16"
    kind = "cuda" if config.device.startswith("cuda") else "cpu"
    clock = Progress(config, progress["elapsed"], progress["step"])
    card_file = out / f"{task.stem}.json"
    best_card: dict = json.loads(card_file.read_text()) if saved and card_file.exists() else {}
    if clock.finished():
        log(f"the run is finished ({progress['step']} steps of {config.steps}); nothing to do")
        return best_card
    machine = machine_info()
    sitting = {
        "start": _now(),
        "end": _now(),
        "from_step": progress["step"],
        "steps": 0,
        "samples": 0,
        "wall_s": 0.0,
        "cpu": machine.get("cpu"),
        "isa": machine.get("isa"),
        "precision": precision.precision,
        "threads": config.threads,
        "device": config.device,
        **({"gpu": machine.get("gpu")} if kind == "cuda" else {}),
    }
    sittings.append(sitting)
    start_step, start_samples = progress["step"], progress["samples"]
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
        sitting.update(
            end=_now(),
            steps=progress["step"] - start_step,
            samples=progress["samples"] - start_samples,
            wall_s=round(clock.sitting_elapsed, 1),
        )
        log(
            f"{elapsed / 60:6.1f} min  step {progress['step']:7d}  "
            f"{progress['samples'] / 1e6:7.1f}M samples ({rate:,.0f}/s)  {task.describe(metrics)}"
        )
        point = {"step": progress["step"], "samples": progress["samples"]}
        point.update(
            val_loss=metrics["val_loss"], **{k: metrics[k] for k in CURVE_KEYS if k in metrics}
        )
        progress.setdefault("curve", []).append(point)
        training = training_summary(sittings, progress["curve"])
        if task.keep == "latest" or metrics["val_loss"] < progress["best"]:
            progress["best"] = min(progress["best"], metrics["val_loss"])
            card = {
                **task.card,
                "parameters": parameter_count(model),
                "steps": progress["step"],
                "samples_seen": progress["samples"],
                "train_minutes": round(elapsed / 60, 2),
                "samples_per_second": round(rate),
                "validation": metrics,
                "loop": {**config.__dict__, "run_options": run_options},
                "hardware": {
                    **machine,
                    "torch": torch.__version__,
                    "threads": config.threads,
                    "device": config.device,
                    **precision.to_dict(),
                },
                "python": platform.python_version(),
                "training": training,
            }
            digest = save_weights(model, card, out, task.stem)
            best_card = {**card, "weights": f"{task.stem}.pt", "sha256": digest}
        elif best_card:  # the shipped weights stay; their card lists the sittings so far
            best_card = {**best_card, "training": training}
            card_file.write_text(json.dumps(best_card, indent=1) + "\n")
        write_state(
            state_file,
            {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "torch_rng": torch.get_rng_state(),
                "progress": {**progress, "elapsed": elapsed},
                "rng": rng.bit_generator.state,
                "run_options": run_options,
                "sittings": sittings,
                **({"task": task.task_state()} if task.task_state is not None else {}),
            },
        )

    def step(lr: float) -> int:
        for group in optimizer.param_groups:
            group["lr"] = lr
        with torch.autocast(kind, torch.bfloat16, enabled=bf16 and task.batch_in_precision):
            x, y = task.make_batch(rng)
        with torch.autocast(kind, torch.bfloat16, enabled=bf16):
            loss = task.loss(model(x.to(config.device)), y.to(config.device))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if task.after_step is not None:
            task.after_step(progress["step"] + 1, loss.item())
        return len(y)

    model.train()
    curve = progress.get("curve") or [{}]
    run_sitting(Sitting(step, checkpoint), config, clock, progress, log, curve[-1].get("step"))
    return best_card
