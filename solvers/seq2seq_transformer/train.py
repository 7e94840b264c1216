"""Train the encoder-decoder: ``bench train seq2seq-transformer [--metric htm|qtm]``.

Teacher forcing, as the seed: the decoder reads SOS + the solution so far and is trained
with cross-entropy (on logits: fix 1) to predict each next token, PAD positions ignored.
Pairs are streamed from the engine (:mod:`.data`), validation pairs come from a separate
seed stream: loss, token accuracy per scramble length, and whole-sequence accuracy (every
move and the EOS right). The seed's learning rate of 1e-5 is a finding, not a constraint:
the default here is the shared loop's 1e-3 peak with cosine decay.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn.functional as F

from cubebench.solvers.common.loop import LoopConfig, parse_training_args, print_flush
from cubebench.solvers.common.trainer import Task, train_loop
from cubebench.solvers.seq2seq_transformer.checkpoint import CHECKPOINT_DIR, stem_for
from cubebench.solvers.seq2seq_transformer.data import pairs
from cubebench.solvers.seq2seq_transformer.model import PAD, ModelConfig, Seq2SeqTransformer


@dataclass(frozen=True)
class DataConfig:
    metric: str = "htm"
    batch_size: int = 128  # 512 made too few updates in a CPU budget (README)
    validation_pairs: int = 2000


def packed(states: np.ndarray, seq: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """Model input (colours then decoder input) and targets (the sequence shifted by one)."""
    colours = torch.from_numpy(np.ascontiguousarray(states.T)).long()
    x = torch.cat([colours, torch.from_numpy(seq[:, :-1])], dim=1)
    return x, torch.from_numpy(seq[:, 1:])


def make_task(data: DataConfig, model_config: ModelConfig, device: str, seed: int) -> Task:
    max_moves = model_config.max_moves
    val_states, val_seq, val_len = pairs(
        data.validation_pairs, max_moves, np.random.default_rng([seed, 1]), data.metric
    )
    val_x, val_y = (t.to(device) for t in packed(val_states, val_seq))
    val_mask = val_y != PAD

    def make_batch(rng: np.random.Generator):
        states, seq, _ = pairs(data.batch_size, max_moves, rng, data.metric)
        return packed(states, seq)

    def loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(out.float().flatten(0, 1), y.flatten(), ignore_index=PAD)

    def validate(model) -> dict:
        logits = model(val_x).float()
        right = (logits.argmax(-1) == val_y) & val_mask  # (n, T)
        tokens = right.sum(1).cpu().numpy() / val_mask.sum(1).cpu().numpy()
        whole = (right.sum(1) == val_mask.sum(1)).cpu().numpy()
        lengths = np.unique(val_len)
        return {
            "val_loss": round(loss(logits, val_y).item(), 5),
            "token_accuracy": round(float(right.sum() / val_mask.sum()), 4),
            "token_accuracy_by_length": {
                int(k): round(float(tokens[val_len == k].mean()), 4) for k in lengths
            },
            "sequence_accuracy_by_length": {
                int(k): round(float(whole[val_len == k].mean()), 4) for k in lengths
            },
        }

    def describe(m: dict) -> str:
        by = m["sequence_accuracy_by_length"]
        shown = "  ".join(f"L{k} {by[k]:.2f}" for k in (1, 3, 5, 7, 10, 15, 20) if k in by)
        return f"val ce {m['val_loss']:.4f}  token acc {m['token_accuracy']:.3f}  exact {shown}"

    return Task(
        stem=stem_for(data.metric),
        model=Seq2SeqTransformer(model_config),
        make_batch=make_batch,
        loss=loss,
        validate=validate,
        describe=describe,
        card={
            "model": stem_for(data.metric),
            "metric": data.metric,
            "architecture": model_config.to_dict(),
            "data": asdict(data),
            "label": "the reversed scramble (non-backtracking walks of 1..20 moves)",
        },
    )


def train(
    loop: LoopConfig,
    data: DataConfig | None = None,
    model_config: ModelConfig | None = None,
    log=print,
) -> dict:
    data = data or DataConfig()
    model_config = model_config or ModelConfig(metric=data.metric)
    if model_config.metric != data.metric:
        raise ValueError(f"model metric {model_config.metric} != data metric {data.metric}")
    return train_loop(make_task(data, model_config, loop.device, loop.seed), loop, log)


def main(argv: list[str] | None = None) -> dict:
    """``bench train seq2seq-transformer`` and
    ``python -m cubebench.solvers.seq2seq_transformer.train``."""
    loop, metric = parse_training_args(
        argv, "bench train seq2seq-transformer", __doc__, CHECKPOINT_DIR, "htm"
    )
    return train(loop, DataConfig(metric=metric), log=print_flush)


if __name__ == "__main__":
    main()
