"""The engine's move tables on a torch device, for trainers that make their data there.

Value iteration labels every training state by evaluating all its children, so data is made
at the rate the network consumes it; on a GPU, numpy on the host would be the bottleneck.
Everything here is a gather through :data:`cubebench.harness.cube.MOVE_TABLES` (a move is a
permutation of the 54 stickers), so it agrees with the numpy engine sticker for sticker
(``tests/solvers/common/test_torch_cube.py``). Layout is state-major ``(N, 54)``, the
transpose of the engine's ``(54, N)``, because torch gathers rows.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from ...harness import MOVE_TABLES, NON_CENTRES, SOLVED, move_set


class TorchCube:
    """One move set's tables on ``device``."""

    def __init__(self, metric: str = "qtm", device: str | torch.device = "cpu") -> None:
        moves = move_set(metric)
        self.device = torch.device(device)
        self.size = moves.size
        self.tables = torch.tensor(
            MOVE_TABLES[moves.moves], dtype=torch.long, device=device
        )  # (k, 54)
        self.walk_next = torch.tensor(moves.walk_next, dtype=torch.long, device=device)  # (k, r)
        self.solved = torch.tensor(SOLVED, device=device)  # (54,) uint8
        self.non_centres = torch.as_tensor(np.asarray(NON_CENTRES), device=device).long()

    def children(self, states: torch.Tensor) -> torch.Tensor:
        """(N, 54) uint8 -> (N, k, 54): child ``m`` of each state by local move ``m``."""
        return states[:, self.tables]

    def is_solved(self, states: torch.Tensor) -> torch.Tensor:
        """(..., 54) -> (...,) bool."""
        return (states == self.solved).all(dim=-1)

    def encode(self, states: torch.Tensor) -> torch.Tensor:
        """(N, 54) uint8 -> (N, 288) float32, the same input as :func:`resmlp.encode`."""
        stickers = states[:, self.non_centres].long()  # (N, 48)
        return F.one_hot(stickers, 6).reshape(states.shape[0], -1).float()

    def scrambles(
        self, n: int, max_depth: int, generator: torch.Generator
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``n`` states, each a non-backtracking walk of a uniform length in ``0..max_depth``.

        Returns:
            states (n, 54) uint8 and their walk lengths (n,) int64 (an upper bound on the
            distance to solved).
        """
        device = self.device
        depths = torch.randint(0, max_depth + 1, (n,), generator=generator, device=device)
        states = self.solved.expand(n, 54).clone()
        local = torch.randint(0, self.size, (n,), generator=generator, device=device)
        rows = torch.arange(n, device=device)[:, None]
        for step in range(max_depth):
            moving = (depths > step)[:, None]
            states = torch.where(moving, states[rows, self.tables[local]], states)
            pick = torch.randint(
                0, self.walk_next.shape[1], (n,), generator=generator, device=device
            )
            local = self.walk_next[local, pick]
        return states, depths

    @staticmethod
    def from_engine(states: np.ndarray, device: str | torch.device = "cpu") -> torch.Tensor:
        """(54, N) uint8 engine batch -> (N, 54) tensor on ``device``."""
        return torch.from_numpy(np.ascontiguousarray(states.T)).to(device)
