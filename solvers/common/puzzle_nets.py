"""The networks learned solvers on other cube sizes search with, and their training data.

One residual MLP (:func:`~cubebench.solvers.common.resmlp.residual_mlp`, EfficientCube's and
CayleyPy's trunk) over the one-hot colours of all 6 N² stickers of a puzzle, with a head of
the puzzle's P moves (a policy: which move solves next) or of one output (a value: moves to
solved). Its training data are random walks from solved over the puzzle's move set
(:func:`~cubebench.harness.move_set`): every prefix of a walk is a sample, labelled with the
move that undoes its last step and with its length. On the 2×2×2 the move set keeps the DBL
corner home (U, R and F turns), so walks, searches and the model all see one orientation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from ...harness import MoveSet, move_set, puzzle
from .resmlp import residual_mlp
from .walks import nonbacktracking


@dataclass(frozen=True)
class PuzzleNetConfig:
    """A network's shape: the puzzle it reads, its head (``policy``: P logits; ``value``:
    one distance) and its widths."""

    puzzle: str = "cube2"
    head: str = "policy"
    hidden1: int = 512
    hidden2: int = 256
    residual_blocks: int = 2

    def to_dict(self) -> dict:
        return asdict(self)


class PuzzleNet(nn.Module):
    def __init__(self, config: PuzzleNetConfig) -> None:
        super().__init__()
        self.config = config
        cube = puzzle(config.puzzle)
        outputs = cube.num_moves if config.head == "policy" else 1
        self.net = residual_mlp(
            config.hidden1, config.hidden2, config.residual_blocks, outputs, cube.num_stickers * 6
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 6 S) one-hot -> (B, P) logits or (B, 1) distances."""
        return self.net(x)


def build_net(architecture: dict) -> PuzzleNet:
    return PuzzleNet(PuzzleNetConfig(**architecture))


def encode(states: np.ndarray, device: str | torch.device = "cpu") -> torch.Tensor:
    """(S, N) uint8 colours -> (N, 6 S) float32 one-hot, sticker-major."""
    s, n = states.shape
    index = torch.from_numpy(np.array(states.T, dtype=np.int64))  # (N, S)
    index += torch.arange(0, 6 * s, 6)  # sticker i's colour c at column 6 i + c
    out = torch.zeros(n, 6 * s, device=device)
    # scattering into floats: no (N, 6 S) int64 one-hot in between, 3× faster on big batches
    return out.scatter_(1, index.to(device), 1.0)


def walk_samples(
    n_walks: int, length: int, rng: np.random.Generator, metric: str, puzzle_name: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every prefix of ``n_walks`` walks of ``length`` moves from solved.

    Returns:
        states (S, n_walks * length) uint8, labels (n_walks * length,) int64 (the id of the
        move that undoes the last step), depths (n_walks * length,) int64 in 1..length;
        depth-major order.
    """
    moves = move_set(metric, puzzle_name)
    local = nonbacktracking(n_walks, length, rng, moves)
    cube = moves.cube
    columns = np.arange(n_walks)
    current = np.repeat(cube.solved[:, None], n_walks, axis=1)  # (S, n)
    states = np.empty((cube.num_stickers, n_walks * length), dtype=np.uint8)
    for step in range(length):
        current = current[moves.child_table[:, local[:, step]], columns[None, :]]
        states[:, step * n_walks : (step + 1) * n_walks] = current
    labels = cube.inverse[moves.moves[local.T.reshape(-1)]]
    depths = np.repeat(np.arange(1, length + 1), n_walks)
    return states, labels, depths


def scrambled(
    n: int, longest: int, rng: np.random.Generator, metric: str, puzzle_name: str
) -> tuple[np.ndarray, np.ndarray]:
    """(S, n) states after walks of lengths uniform in 0..``longest``, and (n,) the lengths."""
    lengths = rng.integers(0, longest + 1, size=n)
    moves = move_set(metric, puzzle_name)
    local = nonbacktracking(n, longest, rng, moves)
    current = np.repeat(moves.cube.solved[:, None], n, axis=1)
    columns = np.arange(n)
    for step in range(longest):
        moving = columns[lengths > step]
        current[:, moving] = current[moves.child_table[:, local[moving, step]], moving[None, :]]
    return current, lengths


def masked_log_policy(logits: torch.Tensor, moves: MoveSet) -> np.ndarray:
    """(N, P) logits -> (N, P) log-probabilities over the set's moves; moves outside it
    (never a training label) get probability 0."""
    outside = torch.from_numpy(moves.local < 0).to(logits.device)
    return torch.log_softmax(logits.float().masked_fill(outside, -torch.inf), dim=1).cpu().numpy()
