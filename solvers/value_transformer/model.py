"""The seed-001 transformer: 20 cubelet tokens plus an output token -> distance to solved.

Each movable piece is a token: an embedding of the piece's identity (its position in the
token sequence) plus an embedding of where it is and how it is turned (48 possibilities,
:func:`cubebench.harness.cube.encodings.cubelet_tokens`). A learned output token is prepended; its
final state feeds either a linear regression head or a classifier over distances 0..D whose
mean (or mode) is the estimate. The seed used 8 layers x 256 wide, 16 heads, feed-forward 512;
sizes are settings here because a CPU model must be smaller.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np
import torch
from torch import nn

from ...harness import NUM_CUBELET_LOCATIONS, cubelet_tokens

NUM_PIECES = 20


@dataclass(frozen=True)
class TransformerConfig:
    layers: int = 2
    width: int = 64
    heads: int = 4
    feedforward: int = 128
    head: Literal["regression", "classification"] = "regression"
    max_distance: int = 26
    activation: Literal["relu", "gelu"] = "gelu"

    def to_dict(self) -> dict:
        return asdict(self)


class ValueTransformer(nn.Module):
    def __init__(self, config: TransformerConfig = TransformerConfig()) -> None:
        super().__init__()
        self.config = config
        d = config.width
        self.piece = nn.Embedding(NUM_PIECES, d)
        self.place = nn.Embedding(NUM_CUBELET_LOCATIONS, d)
        self.output_token = nn.Parameter(torch.zeros(1, 1, d))
        layer = nn.TransformerEncoderLayer(
            d,
            config.heads,
            config.feedforward,
            dropout=0.0,
            activation=config.activation,
            batch_first=True,
            norm_first=True,
        )
        self.encoder = nn.TransformerEncoder(layer, config.layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        outputs = 1 if config.head == "regression" else config.max_distance + 1
        self.head = nn.Linear(d, outputs)
        self.register_buffer("pieces", torch.arange(NUM_PIECES), persistent=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """(B, 20) location indices -> (B,) distances (regression) or (B, D + 1) logits."""
        x = self.piece(self.pieces)[None] + self.place(tokens)  # (B, 20, d)
        x = torch.cat([self.output_token.expand(len(tokens), -1, -1), x], dim=1)  # (B, 21, d)
        *body, last = self.encoder.layers
        for layer in body:
            x = layer(x)
        out = self.head(self.norm(_output_token_only(last, x)))
        return out[:, 0] if self.config.head == "regression" else out

    def distance(
        self, output: torch.Tensor, readout: Literal["mean", "mode"] = "mean"
    ) -> torch.Tensor:
        """Model output -> (B,) estimated distance (mean or mode of the class distribution)."""
        if self.config.head == "regression":
            return output.float()
        if readout == "mode":
            return output.argmax(dim=1).float()
        probs = torch.softmax(output.float(), dim=1)
        support = torch.arange(probs.shape[1], dtype=torch.float32, device=probs.device)
        return (probs * support).sum(dim=1)  # not a matmul: autocast would make it bfloat16


def _output_token_only(layer: nn.TransformerEncoderLayer, x: torch.Tensor) -> torch.Tensor:
    """The last (pre-norm) layer computed for the output token alone: (B, 21, d) -> (B, d).

    Only that token feeds the head, so its query, attention output and feed-forward are all
    that is needed; the other 20 tokens still supply keys and values. Same numbers as the
    full layer, about a third less work for a 2-layer model.
    """
    h = layer.norm1(x)
    y = x[:, :1] + layer.self_attn(h[:, :1], h, h, need_weights=False)[0]
    y = y + layer.linear2(layer.activation(layer.linear1(layer.norm2(y))))
    return y[:, 0]


def encode(states: np.ndarray, device: torch.device | str = "cpu") -> torch.Tensor:
    """(54, N) uint8 states -> (N, 20) long tensor of cubelet tokens."""
    return torch.from_numpy(cubelet_tokens(states).astype(np.int64)).to(device)
