"""Train seed 003's MLP on Kociemba labels: ``bench train mlp-kociemba [--minutes M]``.

The training labels are ``--calls`` two-phase solutions of seed-003 scrambles, every prefix a
labelled state (:mod:`.labels`), cached on disk; the validation labels come from a separate
seed stream. Epochs over the training set in an order fixed by the seed, Adam with a cosine
learning rate over the budget, validation every ``eval_every_s`` seconds, early stopping
after ``--patience`` validations without a better loss. The best model ships; the run's
state is saved at every validation and resumed unless ``--fresh``.

Each batch is augmented by the cube's symmetries (``--symmetries``,
:mod:`cubebench.harness.cube.symmetry`): a state and its label are replaced by their image
under a symmetry drawn per row. ``rule``
draws from the symmetries that keep the label a route of its labelling rule: all 48 for a
length-bounded label (any image of a route no longer than the scramble is one too), the 16
that keep the U-D axis for a two-phase label (they map routes through G1 to routes through
G1). Validation is never augmented.

``--near-calls`` adds the labels of that many scrambles of at most ``--near-length`` moves
(their own seed stream, all length-bounded): the near-solved states where a greedy rollout
goes wrong. ``--bounded-share`` then draws that share of each batch from length-bounded rows
and the rest from two-phase ones; with ``--init-from`` it is the shipped model's second
stage, a fine-tune whose model card records its base.

Validation reports the seed's figure (accuracy of the first move on the scrambled state,
``step == 0``), per scramble length, and the accuracy over all prefixes by moves remaining.
"""

from __future__ import annotations

import argparse
import json
import platform
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from ...harness import ArgumentError, native_bf16
from ..common.keras_io import (
    KERAS_POLICY,
    configure_threads,
    hardware_card,
    log_softmax,
    run_model,
)
from ..common.loop import (
    LoopConfig,
    Progress,
    add_loop_arguments,
    loop_config,
    print_flush,
)
from ..common.outputs import writable_folder
from ..common.precision import resolve
from ..common.sitting import Sitting, run_sitting
from .batches import (
    AUGMENTATIONS,
    DRAWS,
    augment,
    distance_strata,
    mixed_batch,
)
from .checkpoint import (
    CHECKPOINT_DIR,
    STEM,
    load_checkpoint,
    save_checkpoint,
)
from .labels import (
    BOUND_UNTIL,
    MAX_BOUND,
    NEAR_STREAM,
    LabelSet,
    check_bound,
    load_or_generate,
)
from .model import MLPConfig, build_model, encode


@dataclass(frozen=True)
class DataConfig:
    calls: int = 250_000  # kociemba calls (scrambles) labelled for training
    validation_calls: int = 2_000  # from stream 1 of the same seed
    batch_size: int = 512
    patience: int = 5  # validations without a better loss before stopping
    workers: int | None = None  # label processes; default one per core
    bound_until: int = BOUND_UNTIL  # scrambles this short get max_depth=length; 0: the seed's
    symmetries: Literal["none", "ud", "full", "rule"] = "rule"  # training augmentation
    bounded_share: float = 0.0  # share of each batch drawn from length-bounded rows; 0: epochs
    near_calls: int = 0  # extra calls on scrambles of <= near_length moves (labels.NEAR_STREAM)
    near_length: int = 10
    # how the bounded share is drawn: each row alike, or moves left first (capped at
    # near_length), uniformly or with chance proportional to it (ramp)
    bounded_draw: Literal["rows", "distance", "ramp"] = "rows"

    def __post_init__(self) -> None:
        if self.symmetries not in AUGMENTATIONS:
            raise ArgumentError(
                f"mlp-kociemba symmetries={self.symmetries!r}: must be one of "
                f"{', '.join(AUGMENTATIONS)}"
            )
        if not 0.0 <= self.bounded_share < 1.0:
            raise ArgumentError(
                f"mlp-kociemba bounded_share={self.bounded_share}: must be in [0, 1)"
            )
        if self.bounded_draw not in DRAWS:
            raise ArgumentError(
                f"mlp-kociemba bounded_draw={self.bounded_draw!r}: must be one of "
                f"{', '.join(DRAWS)}"
            )
        if self.bounded_draw != "rows" and not self.bounded_share:
            raise ArgumentError(
                f"mlp-kociemba bounded_draw={self.bounded_draw!r}: draws the bounded share of "
                "a batch, so needs bounded_share > 0"
            )
        if self.near_calls < 0:
            raise ArgumentError(f"mlp-kociemba near_calls={self.near_calls}: must be >= 0")
        if self.near_calls and not 1 <= self.near_length <= self.bound_until:
            raise ArgumentError(
                f"mlp-kociemba near_length={self.near_length}: must be in 1..bound_until "
                f"({self.bound_until}), so that every near label is length-bounded"
            )
        if self.bounded_share and not self.bound_until:
            raise ArgumentError(
                f"mlp-kociemba bounded_share={self.bounded_share}: needs bound_until > 0"
            )
        for name in ("calls", "validation_calls", "batch_size", "patience"):
            if getattr(self, name) < 1:
                raise ArgumentError(f"mlp-kociemba {name}={getattr(self, name)}: must be >= 1")
        try:
            check_bound(self.bound_until)
        except ValueError as exc:
            raise ArgumentError(f"mlp-kociemba {exc}") from None


def validate(model, val: LabelSet, x: np.ndarray, data: DataConfig) -> dict:
    """Held-out metrics; ``val_loss`` (which picks the checkpoint) weighs the length-bounded
    and two-phase rows as the training batches do (``bounded_share``), so a run that leans on
    short routes is judged on the mix it learns, not on the seed's."""
    log_probs = log_softmax(model.predict(x, batch_size=4096, verbose=0))
    y = val.labels.astype(np.int64)
    correct = log_probs.argmax(axis=1) == y
    first = val.step == 0
    losses = -log_probs[np.arange(len(y)), y]
    loss = float(losses.mean())
    bounded = val.scramble_length <= data.bound_until
    if data.bounded_share and bounded.any() and not bounded.all():
        share = data.bounded_share
        loss = share * losses[bounded].mean() + (1 - share) * losses[~bounded].mean()
    return {
        "val_loss": round(float(loss), 5),
        "val_loss_all_rows": round(float(losses.mean()), 5),
        "first_move_accuracy": round(float(correct[first].mean()), 4),
        "all_prefix_accuracy": round(float(correct.mean()), 4),
        "first_move_accuracy_by_scramble_length": {
            int(k): round(float(correct[first & (val.scramble_length == k)].mean()), 4)
            for k in np.unique(val.scramble_length[first])
        },
        "accuracy_by_moves_remaining": {
            int(k): round(float(correct[val.remaining == k].mean()), 4)
            for k in np.unique(val.remaining)
        },
    }


def train(
    loop: LoopConfig, data: DataConfig | None = None, config: MLPConfig | None = None, log=print
) -> dict:
    data, config = data or DataConfig(), config or MLPConfig()
    precision = resolve(loop.precision, native_bf16=native_bf16(), offered=("fp32", "bf16"))
    config = replace(config, precision=KERAS_POLICY[precision.precision])
    train_set = load_or_generate(data.calls, loop.seed, 0, data.workers, log, data.bound_until)
    val = load_or_generate(data.validation_calls, loop.seed, 1, data.workers, log, data.bound_until)
    if data.near_calls:
        train_set += load_or_generate(
            data.near_calls,
            loop.seed,
            NEAR_STREAM,
            data.workers,
            log,
            data.bound_until,
            data.near_length,
        )
    bounded_rows = np.flatnonzero(train_set.scramble_length <= data.bound_until)
    other_rows = np.flatnonzero(train_set.scramble_length > data.bound_until)
    if data.bounded_share and not (len(bounded_rows) and len(other_rows)):
        raise ArgumentError(
            f"mlp-kociemba bounded_share={data.bounded_share}: the training set has "
            f"{len(bounded_rows)} length-bounded and {len(other_rows)} two-phase rows; "
            "a mix needs both"
        )
    strata = None
    if data.bounded_draw != "rows":
        ramp = data.bounded_draw == "ramp"
        strata = distance_strata(bounded_rows, train_set.remaining, data.near_length, ramp)
    configure_threads(loop.threads)
    import keras

    keras.utils.set_random_seed(loop.seed)
    out = writable_folder(loop.out)
    state_model, state_json = out / f"{STEM}.train-state.keras", out / f"{STEM}.train-state.json"
    progress = {"step": 0, "elapsed": 0.0, "samples": 0, "best": float("inf"), "stale": 0}
    model, resumed = run_model(loop, state_model, lambda: build_model(config), load_checkpoint)
    if resumed:
        progress.update(json.loads(state_json.read_text()))
        log(f"resumed at step {progress['step']}, {progress['elapsed'] / 60:.1f} min")
    base = _base_card(loop.init_from)
    val_x = encode(val.states, config.encoding)
    clock = Progress(loop, progress["elapsed"], progress["step"])
    best_card: dict = {}
    n = len(train_set)
    log(
        f"{STEM} ({config.encoding}): {model.count_params():,} parameters, {n:,} training "
        f"labels ({data.calls:,} calls), {len(val):,} validation labels, {loop.threads} "
        f"threads, {f'{loop.steps} steps' if loop.steps else f'{loop.minutes} min'}, "
        f"{config.precision} ({precision.reason})"
    )

    def checkpoint() -> None:
        nonlocal best_card
        metrics = validate(model, val, val_x, data)
        elapsed, epochs = clock.elapsed, progress["samples"] / n
        rate = progress["samples"] / max(elapsed, 1e-9)
        log(
            f"{elapsed / 60:6.1f} min  step {progress['step']:7d}  epoch {epochs:5.2f}  "
            f"({rate:,.0f}/s)  val loss {metrics['val_loss']:.4f}  first-move accuracy "
            f"{metrics['first_move_accuracy']:.3f}  all prefixes "
            f"{metrics['all_prefix_accuracy']:.3f}"
        )
        if metrics["val_loss"] < progress["best"]:
            progress["best"], progress["stale"] = metrics["val_loss"], 0
            best_card = {
                "model": STEM,
                "metric": "htm",
                "architecture": config.to_dict(),
                "data": {**asdict(data), "training_labels": n, "validation_labels": len(val)},
                "label": (
                    "next move of kociemba's two-phase solution, every prefix; max_depth="
                    f"length for scrambles of <= {data.bound_until} moves; augmented by "
                    f"symmetries={data.symmetries}"
                    + (
                        f"; plus {data.near_calls:,} scrambles of <= {data.near_length} moves"
                        if data.near_calls
                        else ""
                    )
                    + (
                        f"; bounded rows drawn by moves left (1..{data.near_length}"
                        + (", weighted by it)" if data.bounded_draw == "ramp" else ")")
                        if data.bounded_draw != "rows"
                        else ""
                    )
                ),
                "parameters": model.count_params(),
                "steps": progress["step"],
                "samples_seen": progress["samples"],
                "epochs": round(epochs, 3),
                "train_minutes": round(elapsed / 60, 2),
                # a fine-tune's whole training: its base's minutes and its own
                "total_train_minutes": round(elapsed / 60 + base.get("total_train_minutes", 0), 2),
                "initialised_from": base or None,
                "samples_per_second": round(rate),
                "validation": metrics,
                "loop": asdict(loop),
                "hardware": hardware_card(loop, precision),
                "python": platform.python_version(),
            }
            best_card["sha256"] = save_checkpoint(model, config, best_card, out)
        else:
            progress["stale"] += 1
        model.save(state_model)
        state_json.write_text(json.dumps({**progress, "elapsed": elapsed}))

    orders: dict[int, np.ndarray] = {}  # the epoch's order, fixed by the seed

    def step(lr: float) -> int:
        nonlocal orders
        if data.bounded_share:
            seed = [loop.seed, 4, progress["step"]]
            share, size = data.bounded_share, data.batch_size
            batch = mixed_batch(bounded_rows, other_rows, share, size, seed, strata)
        else:
            epoch, start = divmod(progress["samples"], n)
            if epoch not in orders:
                orders = {epoch: np.random.default_rng([loop.seed, 2, epoch]).permutation(n)}
            batch = orders[epoch][start : start + data.batch_size]
        model.optimizer.learning_rate.assign(lr)
        states, labels = augment(
            train_set.states[batch],
            train_set.labels[batch].astype(np.intp),
            train_set.scramble_length[batch] <= data.bound_until,
            data.symmetries,
            [loop.seed, 3, progress["step"]],
        )
        model.train_on_batch(encode(states, config.encoding), labels.astype(np.int64))
        return len(batch)

    patient = Sitting(step, checkpoint, go_on=lambda: progress["stale"] < data.patience)
    # a resumed run's state was saved by a validation at the step it resumes from
    run_sitting(patient, loop, clock, progress, log, progress["step"] if resumed else None)
    if progress["stale"] >= data.patience:
        log(f"early stop: {data.patience} validations without a better loss")
    return best_card


def _base_card(folder: str) -> dict:
    """What a fine-tune starts from, for its model card: the base checkpoint's identity."""
    if not folder:
        return {}
    card = json.loads((Path(folder) / f"{STEM}.json").read_text())
    total = card.get("total_train_minutes", card["train_minutes"])
    return {"sha256": card["sha256"], "steps": card["steps"], "total_train_minutes": total}


def main(argv: list[str] | None = None) -> dict:
    """``bench train mlp-kociemba`` and ``python -m cubebench.solvers.mlp_kociemba.train``."""
    parser = argparse.ArgumentParser(prog="bench train mlp-kociemba", description=__doc__)
    add_loop_arguments(parser, CHECKPOINT_DIR)
    parser.add_argument("--calls", type=int, default=DataConfig.calls, help="training scrambles")
    parser.add_argument("--encoding", choices=["onehot", "integer"], default="onehot")
    parser.add_argument("--batch-size", type=int, default=DataConfig.batch_size)
    parser.add_argument("--patience", type=int, default=DataConfig.patience)
    parser.add_argument("--workers", type=int, default=None, help="label processes")
    parser.add_argument(
        "--bound-until",
        type=int,
        default=BOUND_UNTIL,
        help=f"label scrambles of up to this many moves with max_depth=length (0..{MAX_BOUND}; "
        "0: the seed's unbounded labels)",
    )
    parser.add_argument(
        "--symmetries",
        choices=AUGMENTATIONS,
        default=DataConfig.symmetries,
        help="augment each row by a symmetry: none (the seed), ud (the 16 keeping the U-D "
        "axis), full (all 48), rule (48 for length-bounded labels, 16 for two-phase ones)",
    )
    parser.add_argument(
        "--bounded-share",
        type=float,
        default=DataConfig.bounded_share,
        help="draw this share of each batch from length-bounded rows, the rest from two-phase "
        "ones, with replacement (0: epochs over all rows in their natural mix, ~18%% bounded)",
    )
    parser.add_argument(
        "--near-calls",
        type=int,
        default=0,
        help="add the labels of this many scrambles of <= --near-length moves (from their own "
        "seed stream, all length-bounded) to the training set",
    )
    parser.add_argument("--near-length", type=int, default=DataConfig.near_length)
    parser.add_argument(
        "--bounded-draw",
        choices=DRAWS,
        default=DataConfig.bounded_draw,
        help="draw the bounded share by row (short routes dominate: every prefix is a row) or "
        "by moves left first, uniformly over 1..--near-length (distance: DeepCubeA's uniform "
        "depth) or with chance proportional to it (ramp)",
    )
    args = parser.parse_args(argv)
    data = DataConfig(
        bounded_draw=args.bounded_draw,
        near_calls=args.near_calls,
        near_length=args.near_length,
        bounded_share=args.bounded_share,
        calls=args.calls,
        batch_size=args.batch_size,
        patience=args.patience,
        workers=args.workers,
        bound_until=args.bound_until,
        symmetries=args.symmetries,
    )
    return train(loop_config(args), data, MLPConfig(encoding=args.encoding), log=print_flush)


if __name__ == "__main__":
    main()
