"""Training the policy and value networks of other cube sizes (:mod:`.puzzle_nets`).

- **Policy** (EfficientCube's recipe): cross-entropy on the move that undoes a random
  walk's last step, every prefix of ``walks_per_batch`` walks of ``walk_length`` moves a
  sample; validation: accuracy by depth on walks from a separate seed stream.
- **Value** (DeepCubeA's approximate value iteration): states after walks of a uniform
  length in 0..``max_scramble`` labelled ``1 + min over moves of J_target(child)`` (0 at
  solved) through a target network refreshed every ``update_every`` steps; no outside
  label. Validation on the 2×2×2 measures the error against the exact distance of every
  validation state (the breadth-first table; validation only); elsewhere the mean
  estimate by walk length.

Both run in the shared loop (:mod:`.trainer`: budget, cosine decay, resume, cards).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from ...harness import cube2_distances, move_set
from .puzzle_nets import PuzzleNet, PuzzleNetConfig, encode, scrambled, walk_samples
from .trainer import TrainingTask, model_task


@dataclass(frozen=True)
class PolicyData:
    puzzle: str = "cube2"
    metric: str = "htm"
    walks_per_batch: int = 256
    walk_length: int = 11  # the 2×2×2's diameter in face turns
    validation_walks: int = 500


@dataclass(frozen=True)
class ValueData:
    puzzle: str = "cube2"
    metric: str = "htm"
    batch_size: int = 2000
    max_scramble: int = 14
    update_every: int = 100  # steps between copies into the target network
    validation_states: int = 4000
    # label in the loop's precision (bfloat16 where native): a label costs a forward pass of
    # every child, 36 of them on the 4×4×4, and bfloat16 runs them 3× faster there
    label_in_precision: bool = False


def policy_task(
    stem: str, data: PolicyData, config: PuzzleNetConfig, device: str, seed: int
) -> TrainingTask:
    rng_val = np.random.default_rng([seed, 1])  # a stream training never draws from
    states, labels, depths = walk_samples(
        data.validation_walks, data.walk_length, rng_val, data.metric, data.puzzle
    )
    val_x, val_y = encode(states, device), torch.from_numpy(labels).to(device)
    offside = torch.from_numpy(move_set(data.metric, data.puzzle).local < 0)  # never labels

    def make_batch(rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        s, y, _ = walk_samples(
            data.walks_per_batch, data.walk_length, rng, data.metric, data.puzzle
        )
        return encode(s), torch.from_numpy(y)

    def loss(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits.float().masked_fill(offside.to(logits.device), -1e9), y)

    def validate(model: torch.nn.Module) -> dict:
        logits = model(val_x).float().masked_fill(offside.to(val_x.device), -1e9)
        correct = (logits.argmax(1) == val_y).cpu().numpy()
        return {
            "val_loss": round(F.cross_entropy(logits, val_y).item(), 5),
            "accuracy_by_depth": {
                int(d): round(float(correct[depths == d].mean()), 4) for d in np.unique(depths)
            },
        }

    def describe(m: dict) -> str:
        acc = m["accuracy_by_depth"]
        shown = "  ".join(f"d{d} {a:.3f}" for d, a in acc.items() if d in (1, 3, 5, max(acc)))
        return f"val loss {m['val_loss']:.4f}  accuracy {shown}"

    return model_task(
        stem,
        data,
        config.to_dict(),
        "move that undoes the last scramble move",
        model=lambda: PuzzleNet(config),
        make_batch=make_batch,
        loss=loss,
        validate=validate,
        describe=describe,
    )


class _Target:
    """The network that labels batches: a copy of the trained one, refreshed now and then."""

    def __init__(self, model: PuzzleNet, data: ValueData) -> None:
        self.model, self.data = model, data
        self.net: PuzzleNet | None = None
        self.updates = 0
        self.moves = move_set(data.metric, data.puzzle)

    def _ensure(self) -> PuzzleNet:
        if self.net is None:
            self.net = copy.deepcopy(self.model).eval()
            self.net.requires_grad_(False)
        return self.net

    def state(self) -> dict:
        """The target's part of the resumable state. Right after a refresh the target is the
        model itself, and the state says so instead of holding a second copy of its weights
        (on the 4×4×4 that copy would take a committed state over 25 MB)."""
        net = self._ensure().state_dict()
        mine = self.model.state_dict()
        if net.keys() == mine.keys() and all(torch.equal(net[k], mine[k]) for k in net):
            return {"net_is_model": True, "updates": self.updates}
        return {"net": net, "updates": self.updates}

    def restore(self, saved: dict) -> None:
        """Called once the model holds its saved weights."""
        net = self.model.state_dict() if saved.get("net_is_model") else saved["net"]
        self._ensure().load_state_dict(net)
        self.updates = int(saved["updates"])

    @torch.no_grad()
    def labels(self, states: np.ndarray) -> torch.Tensor:
        """(S, N) -> (N,) one-step-lookahead targets through the target network."""
        k, n = self.moves.size, states.shape[1]
        children = self.moves.expand(states)  # (S, k n), child m * n + j
        cost = self._ensure()(encode(children))[:, 0].float().clamp_min(0)
        cost[torch.from_numpy(self.moves.is_solved(children))] = 0.0
        target = 1 + cost.reshape(k, n).min(dim=0).values
        target[torch.from_numpy(self.moves.is_solved(states))] = 0.0
        return target

    @torch.no_grad()
    def after_step(self, step: int, loss: float) -> None:
        if step % self.data.update_every == 0:
            self._ensure().load_state_dict(self.model.state_dict())
            self.updates += 1


def value_task(
    stem: str, data: ValueData, config: PuzzleNetConfig, device: str, seed: int
) -> TrainingTask:
    with torch.random.fork_rng():  # the target network copies the model now: seed it here
        torch.manual_seed(seed)
        model = PuzzleNet(config)
    target = _Target(model, data)
    rng_val = np.random.default_rng([seed, 1])
    val_states, val_walk = scrambled(
        data.validation_states, data.max_scramble, rng_val, data.metric, data.puzzle
    )
    val_x = encode(val_states, device)
    exact = None
    if data.puzzle == "cube2":
        exact = torch.from_numpy(
            cube2_distances().distances(val_states, data.metric).astype(np.float32)
        )

    def make_batch(rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        states, _ = scrambled(data.batch_size, data.max_scramble, rng, data.metric, data.puzzle)
        return encode(states), target.labels(states)

    def loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.mse_loss(out[:, 0].float(), y)

    def validate(net: torch.nn.Module) -> dict:
        pred = net(val_x)[:, 0].float().clamp_min(0).cpu()
        by_walk = {
            int(w): round(float(pred[torch.from_numpy(val_walk == w)].mean()), 2)
            for w in range(0, data.max_scramble + 1, 2)
        }
        metrics: dict = {"mean_by_walk_length": by_walk, "target_updates": target.updates}
        if exact is None:
            metrics["val_loss"] = round(float(((pred - torch.from_numpy(val_walk)) ** 2).mean()), 5)
            return metrics
        err = (pred - exact).abs()
        metrics["val_loss"] = round(float((err**2).mean()), 5)
        metrics["mae_by_distance"] = {
            int(d): round(float(err[exact == d].mean()), 3) for d in np.unique(exact.numpy())
        }
        return metrics

    def describe(m: dict) -> str:
        walk = "  ".join(f"w{d} {v:.1f}" for d, v in m["mean_by_walk_length"].items())
        mae = m.get("mae_by_distance")
        shown = "" if mae is None else "mae " + "  ".join(f"d{d} {e:.2f}" for d, e in mae.items())
        return f"val loss {m['val_loss']:.4f} updates {m['target_updates']}  {shown}  | {walk}"

    return model_task(
        stem,
        data,
        config.to_dict(),
        "cost-to-go by approximate value iteration (one-step lookahead through a target "
        "network), no outside labels",
        model=model,
        make_batch=make_batch,
        loss=loss,
        validate=validate,
        describe=describe,
        after_step=target.after_step,
        task_state=target.state,
        restore=target.restore,
        keep="latest",
        batch_in_precision=data.label_in_precision,
    )
