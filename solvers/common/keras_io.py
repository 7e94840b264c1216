"""What the Keras solvers share: precision policy, threads, log-softmax and checkpoints.

A checkpoint is a ``.keras`` file without optimizer state plus a JSON model card pinning its
sha256. Loading checks the hash and uses Keras's safe mode, which refuses to deserialize code
(lambdas) from the file. Keras and tensorflow load only where a Keras model is used.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ...harness import native_bf16
from ..search.models import ModelClock
from ..search.settings import prepare_search
from .cards import (
    CheckpointError,
    checked_file,
    publish_weights,
)
from .frameworks import require
from .metric import check_metric, check_metric_offered
from .outputs import guard_existing_model
from .precision import resolve

KERAS_POLICY = {"fp32": "float32", "bf16": "mixed_bfloat16"}
"""Resolved precision -> the Keras dtype policy that runs it."""


def configure_threads(threads: int) -> None:
    """Set tensorflow's thread pools; only possible before its first op in this process."""
    import tensorflow as tf

    try:
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:  # already initialised (a second model in one process): keep them
        pass


def run_model(loop, state_model: Path, build: Callable[[], object], load_checkpoint: Callable):
    """The model a training run goes on with, and whether it was resumed.

    Resuming loads the run's own state file (optimizer included) in safe mode; otherwise the
    model is built, optionally started from the weights of the checkpoint that the solver's
    ``load_checkpoint(loop.init_from)`` returns as ``(model, card)``, and compiled with Adam
    over logits, as every Keras solver here trains.
    """
    require("tensorflow", f"training {state_model.stem}")
    import keras

    if loop.resume and state_model.exists():
        return keras.models.load_model(state_model, safe_mode=True), True
    guard_existing_model(loop, state_model.name.removesuffix(".train-state.keras"), False)
    model = build()
    if loop.init_from:
        model.set_weights(load_checkpoint(Path(loop.init_from))[0].get_weights())
    model.compile(
        optimizer=keras.optimizers.Adam(loop.lr),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    return model, False


def hardware_card(loop, precision) -> dict:
    """The model card's hardware block: the machine, keras, threads and the precision choice
    with its reason (the CPU decides it, so the card must say which CPU and why)."""
    import keras

    from ...harness import machine_info

    return {
        **machine_info(),
        "keras": keras.__version__,
        "threads": loop.threads,
        **precision.to_dict(),
    }


def log_softmax(logits) -> np.ndarray:
    """(N, K) logits (any array) -> float32 log-probabilities, computed in float64."""
    x = np.asarray(logits, dtype=np.float64)
    x = x - x.max(axis=1, keepdims=True)
    return (x - np.log(np.exp(x).sum(axis=1, keepdims=True))).astype(np.float32)


def save_keras(clean, model, card: dict, folder: Path, stem: str) -> str:
    """Copy ``model``'s weights into the uncompiled ``clean`` (so no optimizer state ships),
    save it atomically as ``stem.keras``, then ``stem.json`` with its sha256."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    clean.set_weights(model.get_weights())
    tmp = folder / f"{stem}.tmp.keras"
    clean.save(tmp)
    return publish_weights(tmp, folder, stem, ".keras", card)


def load_keras(
    folder: Path,
    stem: str,
    policy: str | None = None,
    rebuild: Callable[[dict, str], object] | None = None,
):
    """(keras model, model card); refuses a file whose sha256 is not the card's.

    ``policy``: the Keras dtype policy to run at; the weights are float32 under either, so a
    model saved under another is rebuilt around them by ``rebuild(architecture, policy)``.
    """
    import keras

    path, card = checked_file(Path(folder), stem, ".keras")
    try:
        model = keras.models.load_model(path, safe_mode=True, compile=False)
    except Exception as exc:  # keras reports bad archives with many exception types
        raise CheckpointError(f"cannot load {path}: {exc}") from exc
    saved = card.get("architecture", {}).get("precision", "float32")
    if policy is not None and policy != saved and rebuild is not None:
        try:
            rebuilt = rebuild(card["architecture"], policy)
            rebuilt.set_weights(model.get_weights())
        except (KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(f"{folder}: model card does not fit its weights: {exc}") from exc
        model = rebuilt
    return model, card


class KerasModelSolver:
    """Base of the Keras adapters: the metric checked first (a bad one needs no framework),
    then the checked checkpoint loaded once, at the precision the hardware runs natively
    (Keras runs CPU matmuls through oneDNN as torch does: the same hardware answer)."""

    METRICS: tuple[str, ...] = ("htm",)
    name: str

    def __init__(self, settings, load_checkpoint: Callable, shipped: Path) -> None:
        self.settings = settings
        check_metric_offered(self.name, self.METRICS, settings.metric, settings.checkpoint)
        require("tensorflow", self.name)
        self.resolved = resolve(
            settings.precision, native_bf16=native_bf16(), offered=("fp32", "bf16")
        )
        configure_threads(settings.threads)
        folder = Path(settings.checkpoint) if settings.checkpoint else shipped
        self.model, self.card = load_checkpoint(folder, KERAS_POLICY[self.resolved.precision])
        check_metric(self.card, settings.metric, folder)
        self.checkpoint_sha256 = self.card["sha256"]
        self.clock = ModelClock()
        prepare_search(settings)
