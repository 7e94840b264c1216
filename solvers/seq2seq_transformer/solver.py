"""``seq2seq-transformer``: decode the reversed scramble, or use the decoder as a policy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np
import torch

from ...harness import Attempt, Budget, Metric, move_set
from ..common.inference import TorchModelSolver, TorchSearchSettings
from ..search.settings import run_search
from .checkpoint import CHECKPOINT_DIR, load_checkpoint
from .decoding import decode
from .model import SOS, SPECIAL


@dataclass(frozen=True)
class Seq2SeqSettings(TorchSearchSettings):
    MODEL: ClassVar[str] = "policy"
    # decode-greedy: the seed's; decode-beam: whole sequences, beam_width of them; beam and
    # greedy: the first-move distribution as a policy for the search library's searches
    OWN_SEARCHES: ClassVar[tuple[str, ...]] = ("decode-greedy", "decode-beam")
    search: str = "decode-greedy"
    # qtm: the seed's own move set and the model that reaches its account; htm: the
    # half-turn model
    metric: Metric = "qtm"
    precision: Literal["auto", "fp32", "bf16"] = "auto"


class Seq2SeqSolver(TorchModelSolver):
    Settings = Seq2SeqSettings
    name = "seq2seq-transformer"
    METRICS = ("htm", "qtm")
    OFFERED = ("fp32", "bf16")

    def __init__(self, settings: Seq2SeqSettings | None = None) -> None:
        super().__init__(settings or Seq2SeqSettings(), load_checkpoint, CHECKPOINT_DIR)
        self.moves = move_set(self.settings.metric)

    def policy(self, states: np.ndarray) -> np.ndarray:
        """(54, N) states -> (N, 18) log-probabilities of the first move of the decoded
        solution; moves outside the move set get -inf."""
        device = self.settings.device
        colours = torch.from_numpy(states.T.copy()).to(device)  # a copy: inputs may be read-only
        with self.inference():
            start = torch.full((states.shape[1], 1), SOS, dtype=torch.long, device=device)
            logits = self.model.decode(self.model.encode(colours), start)[:, 0].float()
            logp = torch.log_softmax(logits[:, SPECIAL:], dim=1).cpu().numpy()
        out = np.full((states.shape[1], 18), -np.inf, dtype=np.float32)
        out[:, self.moves.moves] = logp
        return out

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        settings = self.settings
        if settings.search not in settings.OWN_SEARCHES:  # the library's: beam, greedy
            return run_search(cube, budget, settings, policy=self.policy, clock=self.clock)
        width = 1 if settings.search == "decode-greedy" else settings.beam_width
        with self.inference():
            found = decode(
                self.model, cube, self.moves, width, budget.deadline(), settings.device, budget.now
            )
        moves = found.moves or ()
        info = {"search": settings.search, "metric": settings.metric, **found.info}
        if budget.max_length is not None and len(moves) > budget.max_length:
            # the decoder writes whole answers: one over the length budget is given up
            info["gave_up"] = f"decoded {len(moves)} moves, over max_length {budget.max_length}"
            moves = ()
        return Attempt(
            moves=moves,
            nodes_expanded=found.candidates,
            model_calls=found.model_calls,
            info=info,
        )
