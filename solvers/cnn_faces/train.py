"""Train seed 004's CNN on a stream of scrambles: ``bench train cnn-faces``.

The seed trained on 100,000 fixed examples (its own stated limit) with Adadelta, batch 32.
Here every step draws fresh random walks from the engine (``walks_per_batch`` walks of
``max_depth`` moves, every prefix a sample, labelled with the move that undoes the last
step), Adam with a cosine learning rate over the time budget. ``--max-depth 10`` reproduces
the seed's data; the shipped model trains to 20 so beam search can solve fully scrambled
cubes. ``--augment-colours`` adds the seed's colour-permutation augmentation. Validation:
accuracy per depth on walks from a separate seed stream, and the seed's own figure (accuracy
over scrambles of 1..10 moves).
"""

from __future__ import annotations

import argparse
import json
import platform
from dataclasses import asdict, dataclass, replace

import numpy as np

from ...harness import native_bf16
from ..common.keras_io import hardware_card, log_softmax, run_model
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
from ..common.walks import walk_samples
from .checkpoint import (
    CHECKPOINT_DIR,
    STEM,
    load_checkpoint,
    save_checkpoint,
)
from .model import (
    KERAS_POLICY,
    CNNConfig,
    build_model,
    configure_threads,
    encode,
    permute_colours,
)


@dataclass(frozen=True)
class DataConfig:
    max_depth: int = 20
    walks_per_batch: int = 64  # x max_depth samples per step
    augment_colours: bool = False
    validation_walks: int = 300


def _validate(model, x: np.ndarray, y: np.ndarray, depths: np.ndarray) -> dict:
    log_probs = log_softmax(model.predict_on_batch(x)).astype(np.float64)
    correct = log_probs.argmax(axis=1) == y
    shallow = depths <= 10
    return {
        "val_loss": round(float(-log_probs[np.arange(len(y)), y].mean()), 5),
        "accuracy_depth_1_to_10": round(float(correct[shallow].mean()), 4),
        "accuracy_by_depth": {
            int(d): round(float(correct[depths == d].mean()), 4) for d in np.unique(depths)
        },
    }


def train(
    loop: LoopConfig, data: DataConfig | None = None, config: CNNConfig | None = None, log=print
) -> dict:
    data, config = data or DataConfig(), config or CNNConfig()
    precision = resolve(loop.precision, native_bf16=native_bf16(), offered=("fp32", "bf16"))
    config = replace(config, precision=KERAS_POLICY[precision.precision])
    configure_threads(loop.threads)
    import keras

    keras.utils.set_random_seed(loop.seed)
    out = writable_folder(loop.out)
    state_model, state_json = out / f"{STEM}.train-state.keras", out / f"{STEM}.train-state.json"
    rng = np.random.default_rng([loop.seed, 0])
    progress = {"step": 0, "elapsed": 0.0, "samples": 0, "best": float("inf")}
    model, resumed = run_model(loop, state_model, lambda: build_model(config), load_checkpoint)
    if resumed:
        meta = json.loads(state_json.read_text())
        rng.bit_generator.state = meta.pop("rng")
        progress.update(meta)
        log(f"resumed at step {progress['step']}, {progress['elapsed'] / 60:.1f} min")
    val_rng = np.random.default_rng([loop.seed, 1])
    val_states, val_y, val_depths = walk_samples(data.validation_walks, data.max_depth, val_rng)
    val_x = encode(val_states, config.variant)
    clock = Progress(loop, progress["elapsed"], progress["step"])
    best_card: dict = {}
    budget = f"{loop.steps} steps" if loop.steps else f"{loop.minutes} min"
    log(
        f"{STEM} ({config.variant}): {model.count_params():,} parameters, {loop.threads} "
        f"threads, {budget}, {config.precision} ({precision.reason})"
    )

    def checkpoint() -> None:
        nonlocal best_card
        metrics = _validate(model, val_x, val_y, val_depths)
        elapsed = clock.elapsed
        rate = progress["samples"] / max(elapsed, 1e-9)
        acc = metrics["accuracy_by_depth"]
        log(
            f"{elapsed / 60:6.1f} min  step {progress['step']:7d}  "
            f"{progress['samples'] / 1e6:6.2f}M samples ({rate:,.0f}/s)  "
            f"val loss {metrics['val_loss']:.4f}  accuracy 1-10 "
            f"{metrics['accuracy_depth_1_to_10']:.3f}  d1 {acc[1]:.3f} d10 {acc.get(10, 0):.3f}"
        )
        if metrics["val_loss"] < progress["best"]:
            progress["best"] = metrics["val_loss"]
            best_card = {
                "model": STEM,
                "architecture": config.to_dict(),
                "data": asdict(data),
                "parameters": model.count_params(),
                "steps": progress["step"],
                "samples_seen": progress["samples"],
                "train_minutes": round(elapsed / 60, 2),
                "samples_per_second": round(rate),
                "validation": metrics,
                "loop": asdict(loop),
                "hardware": hardware_card(loop, precision),
                "python": platform.python_version(),
            }
            save_checkpoint(model, config, best_card, out)
        model.save(state_model)
        state_json.write_text(
            json.dumps({**progress, "elapsed": elapsed, "rng": rng.bit_generator.state})
        )

    def step(lr: float) -> int:
        model.optimizer.learning_rate.assign(lr)
        states, labels, _ = walk_samples(data.walks_per_batch, data.max_depth, rng)
        if data.augment_colours:
            states = permute_colours(states, rng)
        model.train_on_batch(encode(states, config.variant), labels)
        return len(labels)

    # a resumed run's state was saved by a validation at the step it resumes from
    run_sitting(
        Sitting(step, checkpoint), loop, clock, progress, log, progress["step"] if resumed else None
    )
    return best_card


def main(argv: list[str] | None = None) -> dict:
    """``bench train cnn-faces`` and ``python -m cubebench.solvers.cnn_faces.train``."""
    parser = argparse.ArgumentParser(prog="bench train cnn-faces", description=__doc__)
    add_loop_arguments(parser, CHECKPOINT_DIR)
    parser.add_argument("--max-depth", type=int, default=20, help="10 reproduces the seed")
    parser.add_argument("--variant", choices=["faces", "flat"], default="faces")
    parser.add_argument("--augment-colours", action="store_true")
    args = parser.parse_args(argv)
    return train(
        loop_config(args),
        DataConfig(max_depth=args.max_depth, augment_colours=args.augment_colours),
        CNNConfig(variant=args.variant),
        log=print_flush,
    )


if __name__ == "__main__":
    main()
