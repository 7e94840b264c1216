"""Decoding whole move sequences from the encoder-decoder, every candidate checked on the
engine: the seed's greedy decoding and this project's beam decoding.

Both encode the cube once, then extend token sequences; each candidate's cube is kept and
turned by its moves as they are decoded, so a candidate that solves the cube is seen the
moment it does (the first solving one wins; a candidate whose EOS leaves the cube unsolved
is dropped). The seed's loop skipped token 3 believing it was PAD (PAD is 2), so the first
move of the vocabulary was never executed (fix 2, README); here only SOS, PAD (never
predicted: masked) and EOS are special.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from ...harness import MoveSet, apply_moves, is_solved
from .model import EOS, PAD, SOS, SPECIAL, Seq2SeqTransformer


@dataclass
class Decoded:
    moves: tuple[int, ...] | None  # ids into the 18; None: nothing solved
    model_calls: int = 0
    candidates: int = 0  # sequences extended, summed over steps
    info: dict = field(default_factory=dict)


def decode(
    model: Seq2SeqTransformer,
    cube: np.ndarray,
    moves: MoveSet,
    width: int,
    deadline: float,
    device: str = "cpu",
    now: Callable[[], float] = time.monotonic,
) -> Decoded:
    """Beam decoding of width ``width`` from ``cube`` (54,).

    ``width`` 1 is the seed's greedy decoding: the most probable token each step, stopping
    at EOS; the cube is checked after every move and the moves up to the one that solves it
    are the answer. Wider beams drop candidates that end (EOS) unsolved.
    """
    if is_solved(cube):
        return Decoded(())
    colours = torch.from_numpy(cube[None, :].copy()).to(device)  # a copy: may be read-only
    memory = model.encode(colours)  # (1, 54, d)
    tokens = torch.full((1, 1), SOS, dtype=torch.long, device=device)  # (B, t)
    scores = torch.zeros(1, device=device)  # (B,) summed log-probabilities
    states = cube[:, None].copy()  # (54, B)
    calls = candidates = 0
    for _ in range(model.config.max_moves + 1):
        if now() >= deadline:  # the budget's clock: CPU seconds, or wall
            return Decoded(None, calls, candidates, {"gave_up": "time"})
        logits = model.decode(memory.expand(tokens.shape[0], -1, -1), tokens)[:, -1].float()
        calls += 1
        logits[:, [SOS, PAD]] = -torch.inf
        logp = scores[:, None] + torch.log_softmax(logits, dim=1)  # (B, vocab)
        if width == 1 and int(logp.argmax()) == EOS:  # greedy stops where the model does
            return Decoded(None, calls, candidates, {"gave_up": "EOS before solved"})
        logp[:, EOS] = -torch.inf  # an EOS here means the cube is unsolved: a dead end
        flat = logp.flatten()
        keep = min(width, int(torch.isfinite(flat).sum()))
        if keep == 0:
            break
        best = torch.topk(flat, keep).indices
        parent = (best // logp.shape[1]).cpu().numpy()
        token = (best % logp.shape[1]).cpu().numpy()
        tokens = torch.cat([tokens[parent], torch.from_numpy(token)[:, None].to(device)], dim=1)
        scores = flat[best]
        states = apply_moves(states[:, parent], moves.moves[token - SPECIAL])
        candidates += keep
        solved = np.flatnonzero(is_solved(states))
        if solved.size:  # topk is sorted, so the first is the most probable
            path = tokens[solved[0], 1:].cpu().numpy() - SPECIAL
            return Decoded(tuple(int(m) for m in moves.moves[path]), calls, candidates)
    return Decoded(None, calls, candidates, {"gave_up": "no candidate solved"})
