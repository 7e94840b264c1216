"""The seed-004 networks in Keras 3 (tensorflow backend).

``faces`` (the seed's final model): input (6, 3, 3, 6) = six faces as 3x3 grids of one-hot
colours; Conv3D 256 (2x2x2) -> Conv3D 512 (2x2x1) -> dropout -> dense 512 -> dropout -> 18
logits; 2,644,242 parameters, as in the seed's table. ``flat`` (the seed's earlier variant):
the faces stacked into an (18, 3, 6) image; Conv2D 512 (3x3) -> three dense layers -> 18.
Outputs are logits; the loss applies the softmax.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np

from ...harness import face_tensor
from ..common.keras_io import KERAS_POLICY, configure_threads

__all__ = [
    "KERAS_POLICY",
    "CNNConfig",
    "build_model",
    "configure_threads",
    "encode",
    "permute_colours",
]


@dataclass(frozen=True)
class CNNConfig:
    variant: Literal["faces", "flat"] = "faces"
    dropout1: float = 0.25
    dropout2: float = 0.5
    # Keras dtype policy. mixed_bfloat16 (bfloat16 compute, float32 weights; the logits
    # layer stays float32) was measured 1.3x faster to train and 2.6x faster to run than
    # float32 on a CPU with AMX; on one without native bfloat16 it is several times slower.
    # Trainer and solver set it from the resolved precision (cubebench.solvers.common.precision).
    precision: Literal["float32", "mixed_bfloat16"] = "float32"

    def to_dict(self) -> dict:
        return asdict(self)


def build_model(config: CNNConfig):
    import keras  # keras and tensorflow load only where a CNN is used
    from keras import layers

    dtype = config.precision
    if config.variant == "faces":
        body = [
            keras.Input((6, 3, 3, 6)),
            layers.Conv3D(256, (2, 2, 2), activation="relu", dtype=dtype),
            layers.Conv3D(512, (2, 2, 1), activation="relu", dtype=dtype),
            layers.Dropout(config.dropout1, dtype=dtype),
            layers.Flatten(dtype=dtype),
            layers.Dense(512, activation="relu", dtype=dtype),
            layers.Dropout(config.dropout2, dtype=dtype),
        ]
    else:
        body = [
            keras.Input((18, 3, 6)),
            layers.Conv2D(512, (3, 3), activation="relu", dtype=dtype),
            layers.Flatten(dtype=dtype),
            layers.Dense(1024, activation="relu", dtype=dtype),
            layers.Dropout(config.dropout2, dtype=dtype),
            layers.Dense(512, activation="relu", dtype=dtype),
            layers.Dense(256, activation="relu", dtype=dtype),
        ]
    logits = layers.Dense(18, dtype="float32")
    return keras.Sequential([*body, logits], name=f"cnn_{config.variant}")


def encode(states: np.ndarray, variant: str = "faces") -> np.ndarray:
    """(54, N) uint8 -> float32 (N, 6, 3, 3, 6), or (N, 18, 3, 6) for ``flat``."""
    tensor = face_tensor(states).astype(np.float32)
    return tensor if variant == "faces" else tensor.reshape(-1, 18, 3, 6)


def permute_colours(states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Seed 004's augmentation: relabel the six colours of each state by a random permutation.

    Moves act on positions, so the label (the undoing move) is unchanged.
    """
    perms = np.argsort(rng.random((states.shape[1], 6)), axis=1).astype(np.uint8)  # (N, 6)
    return perms[np.arange(states.shape[1])[None, :], states]
