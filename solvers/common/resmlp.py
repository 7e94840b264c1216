"""The residual MLP over one-hot stickers that EfficientCube and CayleyPy both use.

Two dense layers with batch norm, then residual blocks of the second width, then a linear
head: ``outputs`` = 18 move logits for a policy, 1 distance for a value. The input drops
the six centres (48 x 6 one-hot), which never move.

For inference :class:`GatherResMLP` rebuilds a trained one: a one-hot input makes the first
layer a sum of 48 of its 288 weight rows, so it is computed as a gather (``embedding_bag``)
instead of a product with a one-hot batch that first has to be built. The 48 stickers sit
on 20 pieces (8 corners of 3, 12 edges of 2), so the rows of one piece's stickers are summed
once, for every colouring of the piece, into a table of 2,160 rows: a state then costs 20
looked-up rows instead of 48. Batch norm is folded into the layers, and the weights are cast
once to the precision the search runs at instead of on every call.
"""

from __future__ import annotations

import copy
from typing import Literal

import numba
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ...harness import CORNER_FACELETS, EDGE_FACELETS, NON_CENTRES, one_hot
from .inference import fold_batch_norm, quantize

_NON_CENTRES = np.asarray(NON_CENTRES, dtype=np.intp)
_ROW_OFFSETS = np.arange(len(NON_CENTRES), dtype=np.int64) * 6
# (20, 3) facelets of each piece slot, corners then edges; an edge's third entry is unused
_PIECE_FACELETS = np.zeros((20, 3), np.intp)
_PIECE_FACELETS[:8] = CORNER_FACELETS
_PIECE_FACELETS[8:, :2] = EDGE_FACELETS
_PIECE_STICKERS = np.array([2] * 8 + [1] * 12)  # last sticker index per slot (3 or 2 stickers)
# first row of each slot's block in the piece table: 216 colourings a corner, 36 an edge
_PIECE_BASE = np.concatenate([[0], np.cumsum(np.where(_PIECE_STICKERS == 2, 216, 36))])
PIECE_ROWS = int(_PIECE_BASE[-1])  # 2,160


class Residual(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(width, width),
            nn.BatchNorm1d(width),
            nn.ReLU(),
            nn.Linear(width, width),
            nn.BatchNorm1d(width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


def residual_mlp(
    hidden1: int, hidden2: int, blocks: int, outputs: int, inputs: int = 48 * 6
) -> nn.Sequential:
    """(B, inputs) one-hot -> (B, outputs); 288 inputs: the 3×3×3's 48 moving stickers."""
    return nn.Sequential(
        nn.Linear(inputs, hidden1),
        nn.BatchNorm1d(hidden1),
        nn.ReLU(),
        nn.Linear(hidden1, hidden2),
        nn.BatchNorm1d(hidden2),
        nn.ReLU(),
        *[Residual(hidden2) for _ in range(blocks)],
        nn.Linear(hidden2, outputs),
    )


class ScalarResMLP(nn.Module):
    """The trunk with one output: a value (distance or cost-to-go) per state.

    ``config`` names ``hidden1``, ``hidden2`` and ``residual_blocks``; each value solver
    keeps its own config class, with its own defaults, for its model card.
    """

    def __init__(self, config) -> None:
        super().__init__()
        self.config = config
        self.net = residual_mlp(config.hidden1, config.hidden2, config.residual_blocks, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(B, 288) float one-hot -> (B,) values."""
        return self.net(x)[:, 0]


def encode(states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
    """(54, N) uint8 states -> (N, 288) float32 tensor."""
    flat = one_hot(states).reshape(states.shape[1], -1)
    return torch.from_numpy(flat).to(device=device, dtype=torch.float32)


def sticker_rows(states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
    """(54, N) uint8 states -> (N, 48) int64: for each non-centre sticker i, the row
    ``6 i + colour`` of the one-hot input that is 1 (the others are 0)."""
    rows = states[_NON_CENTRES].T.astype(np.int64) + _ROW_OFFSETS
    return torch.from_numpy(rows).to(device)


@numba.njit(cache=True, nogil=True, boundscheck=False)
def _piece_rows(states, facelets, last, base, out):  # pragma: no cover - compiled
    for k in range(facelets.shape[0]):
        for j in range(states.shape[1]):
            code = 0
            for t in range(last[k] + 1):
                code = code * 6 + states[facelets[k, t], j]
            out[j, k] = base[k] + code


def piece_rows(states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
    """(54, N) uint8 states -> (N, 20) int32: for each piece slot, the row of
    :class:`GatherResMLP`'s table for the colours its stickers show."""
    states = np.ascontiguousarray(states, dtype=np.uint8)
    out = np.empty((states.shape[1], len(_PIECE_STICKERS)), np.int32)
    _piece_rows(states, _PIECE_FACELETS, _PIECE_STICKERS, _PIECE_BASE, out)
    return torch.from_numpy(out).to(device)


def _piece_table(stickers: torch.Tensor) -> torch.Tensor:
    """(288, H) sticker rows -> (2160, H): row ``base + code`` of a slot is the sum of its
    stickers' rows for the colours that ``code`` (base 6, first sticker most significant)
    spells, summed in float32 before any cast."""
    sticker_of = {int(f): i for i, f in enumerate(NON_CENTRES)}
    blocks = []
    for facelets, last in zip(_PIECE_FACELETS, _PIECE_STICKERS, strict=True):
        n = int(last) + 1
        codes = np.arange(6**n)
        block = torch.zeros(6**n, stickers.shape[1], dtype=torch.float32)
        for t in range(n):
            colour = torch.from_numpy((codes // 6 ** (n - 1 - t)) % 6)
            block += stickers[6 * sticker_of[int(facelets[t])] + colour].float()
        blocks.append(block)
    return torch.cat(blocks)


class GatherResMLP(nn.Module):
    """A trained :func:`residual_mlp` for inference: index rows -> (N, outputs).

    ``by="pieces"`` (the solvers' form) takes :func:`piece_rows`, ``by="stickers"`` takes
    :func:`sticker_rows`; :meth:`rows` makes the right ones. Equal to the network it is
    built from up to rounding (the first layer's sum runs in another order); ``precision``
    bf16 casts the weights, int8 quantizes the layers after the first dynamically (per
    channel), as :func:`~cubebench.solvers.common.inference.quantize` does for a dense
    network.
    """

    def __init__(
        self,
        net: nn.Sequential,
        precision: str = "fp32",
        by: Literal["pieces", "stickers"] = "pieces",
    ) -> None:
        super().__init__()
        # built on the CPU (the piece table's indices are NumPy's), then moved where the
        # trained network lives, so a search on a GPU finds its table there
        device = next(net.parameters()).device
        folded = fold_batch_norm(copy.deepcopy(net).cpu().eval())
        first = folded[0]
        dtype = torch.bfloat16 if precision == "bf16" else torch.float32
        # (288, H1): row 6 i + c is the first layer's weight for sticker i showing colour c;
        # every state has one of the first sticker's six rows, so they carry the bias too
        table = first.weight.detach().T.contiguous().clone()  # (288, H1), row-major
        table[:6] += first.bias.detach()
        if by == "pieces":
            table = _piece_table(table)  # (2160, H1)
        self.by = by
        self.table = nn.Parameter(table.to(dtype), False)
        rest = folded[1:]
        self.rest = quantize(rest) if precision == "int8" else rest.to(dtype)
        self.to(device)

    def rows(self, states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
        """(54, N) uint8 states -> the index rows :meth:`forward` takes."""
        return piece_rows(states, device) if self.by == "pieces" else sticker_rows(states, device)

    def forward(self, rows: torch.Tensor) -> torch.Tensor:
        return self.rest(F.embedding_bag(rows, self.table, mode="sum"))
