"""Seed 003's network in Keras 3 (tensorflow backend), its last-layer bug fixed.

The seed: ``Sequential([Input(54), Dense 2048 relu, Dense 512 relu, Dense 128 relu, Dense 32
relu])`` compiled with sparse categorical cross-entropy. That last layer is the bug: 32
non-negative outputs that the loss reads as unnormalised probabilities of 32 classes, 14 of
which never occur, with nothing that can put probability mass below zero activations (a dead
unit is a class with probability 0 and an infinite loss). Here the body is the seed's and the
head is an 18-way linear layer of logits, the softmax in the loss (``from_logits=True``).

Input: ``integer`` is the seed's, 54 sticker colours as numbers 0..5 (an order the colours do
not have); ``onehot`` is 54 x 6 = 324 indicators. Both are a setting; both are measured.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np

HIDDEN = (2048, 512, 128)  # the seed's body; its fourth layer (32 relu) is the bug replaced


@dataclass(frozen=True)
class MLPConfig:
    encoding: Literal["integer", "onehot"] = "onehot"
    hidden: tuple[int, ...] = HIDDEN
    # Keras dtype policy, set from the resolved precision (cubebench.solvers.common.precision)
    precision: Literal["float32", "mixed_bfloat16"] = "float32"

    def __post_init__(self) -> None:
        if self.encoding not in ("integer", "onehot"):
            raise ValueError(f"encoding={self.encoding!r}: must be integer or onehot")
        object.__setattr__(self, "hidden", tuple(int(h) for h in self.hidden))
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden={self.hidden}: need at least one layer of >= 1 units")

    @property
    def inputs(self) -> int:
        return 54 if self.encoding == "integer" else 54 * 6

    def to_dict(self) -> dict:
        return {**asdict(self), "hidden": list(self.hidden)}


def build_model(config: MLPConfig):
    import keras
    from keras import layers

    dtype = config.precision
    body = [keras.Input((config.inputs,))]
    body += [
        layers.Dense(units, activation="relu", name=f"dense{i}", dtype=dtype)
        for i, units in enumerate(config.hidden)
    ]
    logits = layers.Dense(18, name="logits", dtype="float32")  # the fix: 18 logits
    return keras.Sequential([*body, logits], name=f"mlp_kociemba_{config.encoding}")


def encode(states: np.ndarray, encoding: str) -> np.ndarray:
    """(N, 54) uint8 colours -> float32 (N, 54) (``integer``) or (N, 324) (``onehot``)."""
    states = np.asarray(states)
    if encoding == "integer":
        return states.astype(np.float32)
    return np.eye(6, dtype=np.float32)[states].reshape(len(states), 54 * 6)
