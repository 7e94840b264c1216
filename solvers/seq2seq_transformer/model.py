"""Seed 000's encoder-decoder transformer: stickers in, the solving move sequence out.

Encoder tokens are the 54 stickers, each the sum of a colour embedding and learned x, y, z
embeddings of its place in the 5x5x5 frame (``cubebench.harness.cube.geometry.STICKER_GRID``); the
decoder reads SOS + moves so far (learned position embeddings) and predicts the next token.
Vocabulary: SOS 0, EOS 1, PAD 2, then the move set's moves (18 half-turn moves, or the
seed's 12 quarter turns): 21 or 15 tokens, sequences of ``max_moves + 2`` = 22.

The encoder is torch's ``TransformerEncoder`` (post-norm, ReLU), as the seed's; the decoder
layer is the seed's own (masked self-attention, cross-attention, feed-forward, each with a
residual and LayerNorm). ``norm_first`` puts every LayerNorm before its block instead, with a
final LayerNorm after each stack (pre-norm), the usual remedy for post-norm's limit on the
learning rate. The head returns **logits**: the seed applied a softmax and then a
cross-entropy that applies another (fix 1, README).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from ...harness import STICKER_GRID, move_set

SOS, EOS, PAD = 0, 1, 2
SPECIAL = 3


@dataclass(frozen=True)
class ModelConfig:
    """The seed's trained configuration: 6 encoder, 3 decoder layers, d_model 64, 4 heads,
    feed-forward 2 x d_model, dropout 0.1."""

    d_model: int = 64
    encoder_layers: int = 6
    decoder_layers: int = 3
    heads: int = 4
    ff_mult: int = 2
    dropout: float = 0.1
    metric: str = "htm"
    max_moves: int = 20
    norm_first: bool = False  # the seed's post-norm; True: pre-norm layers

    @property
    def vocab(self) -> int:
        return SPECIAL + move_set(self.metric).size

    @property
    def seq_len(self) -> int:
        return self.max_moves + 2

    def to_dict(self) -> dict:
        return asdict(self)


class DecoderLayer(nn.Module):
    def __init__(self, d: int, heads: int, ff: int, dropout: float, norm_first: bool) -> None:
        super().__init__()
        self.norm_first = norm_first
        self.self_attn = nn.MultiheadAttention(d, heads, dropout=dropout, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(d, heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(d, ff), nn.ReLU(), nn.Linear(ff, d), nn.Dropout(dropout))
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(3)])
        self.drop = nn.Dropout(dropout)

    def forward(
        self, tgt: torch.Tensor, memory: torch.Tensor, causal: torch.Tensor
    ) -> torch.Tensor:
        """(B, T, d) moves so far, (B, 54, d) encoded stickers -> (B, T, d)."""
        if self.norm_first:
            x = self.norms[0](tgt)
            out, _ = self.self_attn(x, x, x, attn_mask=causal, need_weights=False)
            tgt = tgt + self.drop(out)
            x = self.norms[1](tgt)
            out, _ = self.cross_attn(x, memory, memory, need_weights=False)
            tgt = tgt + self.drop(out)
            return tgt + self.drop(self.ffn(self.norms[2](tgt)))
        out, _ = self.self_attn(tgt, tgt, tgt, attn_mask=causal, need_weights=False)
        tgt = self.norms[0](tgt + self.drop(out))
        out, _ = self.cross_attn(tgt, memory, memory, need_weights=False)
        tgt = self.norms[1](tgt + self.drop(out))
        return self.norms[2](tgt + self.drop(self.ffn(tgt)))


class Seq2SeqTransformer(nn.Module):
    def __init__(self, config: ModelConfig = ModelConfig()) -> None:
        super().__init__()
        self.config = c = config
        d = c.d_model
        self.colour = nn.Embedding(6, d)
        self.pos = nn.ModuleList([nn.Embedding(5, d) for _ in range(3)])
        self.register_buffer("grid", torch.as_tensor(np.array(STICKER_GRID)), persistent=False)
        layer = nn.TransformerEncoderLayer(
            d, c.heads, c.ff_mult * d, c.dropout, batch_first=True, norm_first=c.norm_first
        )
        self.encoder = nn.TransformerEncoder(
            layer,
            c.encoder_layers,
            norm=nn.LayerNorm(d) if c.norm_first else None,
            enable_nested_tensor=False,
        )
        self.token = nn.Embedding(c.vocab, d)
        self.token_pos = nn.Embedding(c.seq_len, d)
        self.decoder = nn.ModuleList(
            [
                DecoderLayer(d, c.heads, c.ff_mult * d, c.dropout, c.norm_first)
                for _ in range(c.decoder_layers)
            ]
        )
        self.final_norm = nn.LayerNorm(d) if c.norm_first else nn.Identity()
        self.head = nn.Linear(d, c.vocab)

    def encode(self, colours: torch.Tensor) -> torch.Tensor:
        """(B, 54) colour ids -> (B, 54, d) memory; run once per cube when decoding."""
        grid = self.grid
        x = self.colour(colours.long())
        x = x + self.pos[0](grid[:, 0]) + self.pos[1](grid[:, 1]) + self.pos[2](grid[:, 2])
        return self.encoder(x)

    def decode(self, memory: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        """(B, 54, d) memory, (B, T) tokens so far -> (B, T, vocab) next-token logits."""
        t = tokens.shape[1]
        y = self.token(tokens.long()) + self.token_pos(torch.arange(t, device=tokens.device))
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool, device=tokens.device), 1)
        for layer in self.decoder:
            y = layer(y, memory, causal)
        return self.head(self.final_norm(y))

    def forward(self, packed: torch.Tensor) -> torch.Tensor:
        """(B, 54 + T) colours then decoder input (teacher forcing) -> (B, T, vocab) logits.

        One tensor in, so the shared training loop can call it like any other model."""
        return self.decode(self.encode(packed[:, :54]), packed[:, 54:])
