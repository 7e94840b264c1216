"""Value iteration for the cost-to-go network: ``bench train deepcubea [--metric qtm]``.

DeepCubeA's approximate value iteration (Agostinelli et al. 2019; seed 002 follows it): each
step scrambles ``batch_size`` states by non-backtracking walks of a uniform length in
``0..max_scramble`` and labels each with a one-step lookahead through a *target* network,
``y(s) = min_a [1 + J_target(a(s))]`` with ``J = 0`` at solved and ``y = 0`` for solved
states (the seed's ``max_a [R + v]`` with R = -1, in costs). All children of the batch go
through the target network in one call. The trained network copies into the target only
now and then (``target_update``): ``copy`` when the mean loss over the last
``update_every`` steps fell below ``loss_threshold`` (DeepCubeA), or ``soft``, a blend of
``tau`` of the trained weights every ``update_every`` steps (the seed's "portion"). States
near solved weigh more in the loss, ``(1 / depth) ** depth_weight`` (the seed: 1/depth).

No label comes from outside: validation measures the error against the exact distance of
shallow states (breadth-first oracle) and, for logging only, against the known optima of
the DeepCubeA test set when ``--reference`` points at it. Its targets move, so the newest
weights ship (``keep="latest"``), not those of the lowest loss.
"""

from __future__ import annotations

import argparse
import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import torch

from ...harness import ArgumentError, DistanceOracle, facelets_to_state
from ..common.inference import resolve_torch
from ..common.loop import LoopConfig, add_loop_arguments, parse_run, print_flush
from ..common.state import state_path
from ..common.torch_cube import TorchCube
from ..common.trainer import TrainingTask, model_task, train_loop
from .checkpoint import CHECKPOINT_DIR, stem_for
from .model import CostToGo, ModelConfig

REFERENCE = Path("../shared/data/deepcubea-cube3-test.jsonl")


@dataclass(frozen=True)
class DataConfig:
    metric: Literal["qtm", "htm"] = "qtm"
    batch_size: int = 2500  # states per step (DeepCubeA: 10,000 on GPUs)
    max_scramble: int = 30  # DeepCubeA's back_max for the cube
    target_update: Literal["copy", "soft"] = "copy"
    update_every: int = 100  # G: steps between target updates (or checks, for copy)
    loss_threshold: float = 0.05  # copy rule: DeepCubeA's
    tau: float = 0.5  # soft rule: share of the trained weights blended in
    depth_weight: float = 0.5  # loss weight (1 / depth) ** depth_weight; 0 = unweighted
    oracle_radius: int = 5  # exact validation distances up to this many moves
    validation_states: int = 3000

    def __post_init__(self) -> None:
        for name in ("batch_size", "max_scramble", "update_every", "validation_states"):
            if getattr(self, name) < 1:
                raise ArgumentError(f"deepcubea {name}={getattr(self, name)}: must be at least 1")
        if not 0 < self.tau <= 1:
            raise ArgumentError(f"deepcubea tau={self.tau}: must be in (0, 1]")
        if self.loss_threshold <= 0 or self.depth_weight < 0:
            raise ArgumentError(
                f"deepcubea loss_threshold={self.loss_threshold}, depth_weight="
                f"{self.depth_weight}: the threshold must be positive, the weight at least 0"
            )
        if not 1 <= self.oracle_radius <= (5 if self.metric == "qtm" else 4):
            raise ArgumentError(f"deepcubea oracle_radius={self.oracle_radius}: 1..5 (htm 1..4)")


class TargetNetwork:
    """The generator network that labels batches, and its two update rules."""

    def __init__(self, model: CostToGo, data: DataConfig, cube: TorchCube, bf16: bool) -> None:
        self.model, self.data, self.cube, self.bf16 = model, data, cube, bf16
        self.net: CostToGo | None = None  # made at the first batch, after a resume's load
        self.updates = 0
        self.window_loss = float("nan")  # mean training loss of the last full window
        self._window: list[float] = []

    def _ensure(self) -> CostToGo:
        if self.net is None:
            self.net = copy.deepcopy(self.model).eval()
            self.net.requires_grad_(False)
        return self.net

    def state(self) -> dict:
        """The target's weights and counters: a resumed run labels with the same network."""
        return {
            "net": self._ensure().state_dict(),
            "updates": self.updates,
            "window": list(self._window),
            "window_loss": self.window_loss,
        }

    def restore(self, saved: dict) -> None:
        self._ensure().load_state_dict(saved["net"])
        self.updates, self._window = int(saved["updates"]), list(saved["window"])
        self.window_loss = float(saved["window_loss"])

    @torch.no_grad()
    def labels(self, states: torch.Tensor) -> torch.Tensor:
        """(N, 54) states -> (N,) one-step-lookahead cost-to-go targets."""
        net, cube = self._ensure(), self.cube
        children = cube.children(states).reshape(-1, 54)  # (N k, 54)
        kind = cube.device.type
        with torch.autocast(kind, torch.bfloat16, enabled=self.bf16):
            cost = net(cube.encode(children)).float().clamp_min(0)
        cost = torch.where(cube.is_solved(children), 0.0, cost).reshape(-1, cube.size)
        target = 1 + cost.min(dim=1).values
        return torch.where(cube.is_solved(states), 0.0, target)

    @torch.no_grad()
    def after_step(self, step: int, loss: float) -> None:
        self._window.append(loss)
        if step % self.data.update_every:
            return
        net, self.window_loss, self._window = self._ensure(), float(np.mean(self._window)), []
        if self.data.target_update == "copy":
            if self.window_loss < self.data.loss_threshold:
                net.load_state_dict(self.model.state_dict())
                self.updates += 1
            return
        tau = self.data.tau
        live = self.model.state_dict()
        for name, value in net.state_dict().items():
            if value.is_floating_point():
                value.mul_(1 - tau).add_(live[name], alpha=tau)
            else:
                value.copy_(live[name])
        self.updates += 1


def reference_states(path: Path | None, metric: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(54, n) states and their optimal lengths from a checked DeepCubeA-set file, if any."""
    if path is None or not path.exists():
        return None
    key = "optimal_qtm" if metric == "qtm" else "optimal_solution_htm_len"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()][:200]
    states = np.stack([facelets_to_state(r["facelets"]) for r in rows], axis=1)
    return states, np.array([r[key] for r in rows], dtype=np.float32)


def make_task(
    data: DataConfig, model_config: ModelConfig, loop: LoopConfig, reference: Path | None
) -> TrainingTask:
    device = loop.device
    cube = TorchCube(data.metric, device)
    with torch.random.fork_rng():  # the target network needs the model now: seed it here
        torch.manual_seed(loop.seed)
        model = CostToGo(model_config)
    bf16 = resolve_torch(loop.precision, device, ("fp32", "bf16")).precision == "bf16"
    target = TargetNetwork(model.to(device), data, cube, bf16)
    generator = torch.Generator(device=device)

    # validation: shallow walks with exact distances, deep walks by length, the reference set
    val_gen = torch.Generator(device=device).manual_seed(loop.seed * 7919 + 1)
    oracle = DistanceOracle.build(data.oracle_radius, metric=data.metric)
    shallow, _ = cube.scrambles(data.validation_states, data.oracle_radius, val_gen)
    exact = oracle.table_distance(shallow.cpu().numpy().T.copy()).astype(np.float32)
    shallow_x, exact_t = cube.encode(shallow), torch.from_numpy(exact).to(device)
    deep, deep_depth = cube.scrambles(data.validation_states, data.max_scramble, val_gen)
    deep_x = cube.encode(deep)
    ref = reference_states(reference, data.metric)

    def make_batch(rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        generator.manual_seed(int(rng.integers(2**62)))
        states, depths = cube.scrambles(data.batch_size, data.max_scramble, generator)
        weight = depths.clamp_min(1).float().pow(-data.depth_weight)
        return cube.encode(states), torch.stack([target.labels(states), weight], dim=1)

    def loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        err = (out.float() - y[:, 0]) ** 2
        return (err * y[:, 1]).sum() / y[:, 1].sum()

    def validate(net: torch.nn.Module) -> dict:
        pred = net(shallow_x).float().clamp_min(0)
        err = (pred - exact_t).abs()
        by_distance = {int(d): round(float(err[exact_t == d].mean()), 3) for d in np.unique(exact)}
        deep_pred = net(deep_x).float().clamp_min(0)
        by_walk = {
            int(d): round(float(deep_pred[deep_depth == d].mean()), 2)
            for d in range(0, data.max_scramble + 1, 5)
        }
        metrics = {
            "val_loss": round(float((err**2).mean()), 5),
            "mae_by_distance": by_distance,
            "mean_by_walk_length": by_walk,
            "target_updates": target.updates,
            "train_loss": round(target.window_loss, 4),
        }
        if ref is not None:
            ref_pred = net(cube.encode(TorchCube.from_engine(ref[0], device))).float()
            metrics["reference_mae"] = round(
                float(np.abs(ref_pred.cpu().numpy() - ref[1]).mean()), 3
            )
            metrics["reference_mean"] = round(float(ref_pred.mean()), 2)
        return metrics

    def describe(m: dict) -> str:
        shallow_err = "  ".join(f"d{d} {e:.2f}" for d, e in m["mae_by_distance"].items())
        walk = "  ".join(f"w{d} {v:.1f}" for d, v in m["mean_by_walk_length"].items())
        ref_line = ""
        if "reference_mae" in m:
            ref_line = f"  | DeepCubeA set mae {m['reference_mae']:.2f} mean {m['reference_mean']}"
        head = f"loss {m['train_loss']:.3f} updates {m['target_updates']}"
        return f"{head}  mae {shallow_err}  | {walk}{ref_line}"

    return model_task(
        stem_for(data.metric),
        data,
        model_config.to_dict(),
        "cost-to-go by approximate value iteration (one-step lookahead through "
        "a target network), no outside labels",
        model=model,
        make_batch=make_batch,
        loss=loss,
        validate=validate,
        describe=describe,
        after_step=target.after_step,
        task_state=target.state,
        restore=target.restore,
        keep="latest",
    )


def train(
    loop: LoopConfig,
    data: DataConfig | None = None,
    model_config: ModelConfig | None = None,
    reference: Path | None = None,
    log=print,
) -> dict:
    task = make_task(data or DataConfig(), model_config or ModelConfig(), loop, reference)
    return train_loop(task, loop, log)


def main(argv: list[str] | None = None) -> dict:
    """``bench train deepcubea`` and ``python -m cubebench.solvers.deepcubea.train``."""
    parser = argparse.ArgumentParser(prog="bench train deepcubea", description=__doc__)
    add_loop_arguments(parser, CHECKPOINT_DIR)
    defaults, arch = DataConfig(), ModelConfig()
    parser.add_argument("--metric", choices=["qtm", "htm"], default="qtm", help="move set")
    for name in ("batch_size", "max_scramble", "update_every", "oracle_radius"):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=int, default=getattr(defaults, name)
        )
    for name in ("loss_threshold", "tau", "depth_weight"):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=float, default=getattr(defaults, name)
        )
    parser.add_argument("--target-update", choices=["copy", "soft"], default="copy")
    for name in ("hidden1", "hidden2", "residual_blocks"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(arch, name))
    parser.add_argument(
        "--reference",
        type=Path,
        default=REFERENCE,
        help="checked DeepCubeA test set (jsonl): its optima are logged, never trained on",
    )
    run_options = ("batch_size", "max_scramble", "update_every", "oracle_radius")
    run_options += ("loss_threshold", "tau", "depth_weight", "target_update")
    run_options += ("hidden1", "hidden2", "residual_blocks")
    state = lambda a: state_path(a.out, stem_for(a.metric))  # noqa: E731
    loop, args = parse_run(parser, argv, run_options, state)
    radius = args.oracle_radius if args.metric == "qtm" else min(args.oracle_radius, 4)
    data = DataConfig(
        args.metric,
        args.batch_size,
        args.max_scramble,
        args.target_update,
        args.update_every,
        args.loss_threshold,
        args.tau,
        args.depth_weight,
        radius,
    )
    model_config = ModelConfig(args.hidden1, args.hidden2, args.residual_blocks)
    return train(loop, data, model_config, args.reference, log=print_flush)


if __name__ == "__main__":
    main()
