"""Train the encoder-decoder: ``bench train seq2seq-transformer [--metric qtm|htm]``.

Teacher forcing, as the seed: the decoder reads SOS + the solution so far and is trained
with cross-entropy (on logits: fix 1) to predict each next token, PAD positions ignored.
Pairs are streamed from the engine (:mod:`.data`), validation pairs come from a separate
seed stream: loss, token accuracy per scramble length, and whole-sequence accuracy (every
move and the EOS right). A batch is padded only to its longest label. The seed's learning
rate of 1e-5 is a finding, not a constraint: the default here is the shared loop's peak
with cosine decay.

A run is defined by its total ``--steps`` and continues across sittings
(:mod:`cubebench.solvers.common.loop`): ``bench train seq2seq-transformer --metric qtm``
run again picks up the saved run with the options it started with.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields

import numpy as np
import torch
import torch.nn.functional as F

from ..common.loop import LoopConfig, add_loop_arguments, parse_run, print_flush
from ..common.state import state_path
from ..common.trainer import TrainingTask, model_task, train_loop
from .checkpoint import CHECKPOINT_DIR, stem_for
from .data import SCRAMBLES, WEIGHTINGS, draw_lengths, pairs
from .model import PAD, ModelConfig, Seq2SeqTransformer


@dataclass(frozen=True)
class DataConfig:
    """Defaults are what the shipped half-turn model was trained with; the command line's
    defaults (:func:`main`) are the recipe of the quarter-turn run."""

    metric: str = "htm"
    batch_size: int = 128  # 512 made too few updates in a CPU budget (README)
    validation_pairs: int = 2000
    scramble: str = "walk"  # uniform (the seed's), walk, canonical
    min_length: int = 1
    max_length: int | None = None  # None: the model's max_moves
    length_weighting: str = "uniform"  # or linear (chance proportional to length)
    trim: bool = False  # pad each batch only to its longest label


def packed(states: np.ndarray, seq: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """Model input (colours then decoder input) and targets (the sequence shifted by one)."""
    colours = torch.from_numpy(np.ascontiguousarray(states.T)).long()
    x = torch.cat([colours, torch.from_numpy(np.ascontiguousarray(seq[:, :-1]))], dim=1)
    return x, torch.from_numpy(np.ascontiguousarray(seq[:, 1:]))


def make_task(data: DataConfig, model_config: ModelConfig, device: str, seed: int) -> TrainingTask:
    max_moves = model_config.max_moves
    high = data.max_length or max_moves
    if high > max_moves:
        raise ValueError(f"max_length {high} > the model's max_moves {max_moves}")

    def draw(n: int, rng: np.random.Generator):
        lengths = draw_lengths(n, rng, data.min_length, high, data.length_weighting)
        if data.scramble == "walk" and (data.min_length, high) == (1, max_moves):
            lengths = None  # the shipped half-turn run's exact stream
        states, seq, lengths = pairs(n, max_moves, rng, data.metric, data.scramble, lengths)
        if data.trim:
            seq = seq[:, : lengths.max() + 2]
        return states, seq, lengths

    val_states, val_seq, val_len = draw(data.validation_pairs, np.random.default_rng([seed, 1]))
    val_x, val_y = (t.to(device) for t in packed(val_states, val_seq))
    val_mask = val_y != PAD

    def make_batch(rng: np.random.Generator):
        states, seq, _ = draw(data.batch_size, rng)
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
        shown = "  ".join(f"L{k} {by[k]:.2f}" for k in (1, 3, 4, 5, 6, 7, 8, 10, 15) if k in by)
        return f"val ce {m['val_loss']:.4f}  token acc {m['token_accuracy']:.3f}  exact {shown}"

    label = {
        "uniform": "uniformly random moves, as the seed",
        "walk": "non-backtracking walks",
        "canonical": "canonical sequences",
    }[data.scramble]
    return model_task(
        stem_for(data.metric),
        data,
        model_config.to_dict(),
        f"the reversed scramble ({label} of {data.min_length}..{high} moves)",
        model=lambda: Seq2SeqTransformer(model_config),
        make_batch=make_batch,
        loss=loss,
        validate=validate,
        describe=describe,
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


DATA_OPTIONS = ("batch_size", "scramble", "min_length", "max_length", "length_weighting", "trim")
MODEL_OPTIONS = ("d_model", "encoder_layers", "decoder_layers", "heads", "ff_mult", "dropout")
MODEL_OPTIONS += ("max_moves", "norm_first")


def _parser() -> argparse.ArgumentParser:
    """The command line. Its defaults are the quarter-turn recipe (canonical scrambles of
    1..12, trimmed batches, pre-norm, warm-up), the model card's; ``--scramble uniform
    --max-length 20 --no-trim --post-norm`` is the seed's."""
    parser = argparse.ArgumentParser(prog="bench train seq2seq-transformer", description=__doc__)
    add_loop_arguments(parser, CHECKPOINT_DIR)
    parser.add_argument("--metric", choices=["qtm", "htm"], default="qtm", help="move set")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--scramble", choices=SCRAMBLES, default="canonical")
    parser.add_argument("--min-length", type=int, default=1, help="shortest training scramble")
    parser.add_argument("--max-length", type=int, default=12, help="longest training scramble")
    parser.add_argument("--length-weighting", choices=WEIGHTINGS, default="uniform")
    parser.add_argument("--trim", action=argparse.BooleanOptionalAction, default=True)
    model = ModelConfig()
    for f in fields(ModelConfig):
        if f.name in MODEL_OPTIONS and f.type in ("int", "float"):
            kind = int if f.type == "int" else float
            flag = "--" + f.name.replace("_", "-")
            parser.add_argument(flag, type=kind, default=getattr(model, f.name))
    parser.add_argument(
        "--norm-first",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="pre-norm layers (--no-norm-first: the seed's post-norm)",
    )
    parser.set_defaults(
        steps=60_000, warmup_steps=1000, precision="fp32", eval_every_steps=500, lr=1e-3
    )
    return parser


def main(argv: list[str] | None = None) -> dict:
    """``bench train seq2seq-transformer`` and
    ``python -m cubebench.solvers.seq2seq_transformer.train``."""
    parser = _parser()
    state = lambda a: state_path(a.out, stem_for(a.metric))  # noqa: E731
    loop, args = parse_run(parser, argv, (*DATA_OPTIONS, *MODEL_OPTIONS), state)
    data = DataConfig(metric=args.metric, **{k: getattr(args, k) for k in DATA_OPTIONS})
    model_config = ModelConfig(metric=args.metric, **{k: getattr(args, k) for k in MODEL_OPTIONS})
    return train(loop, data, model_config, log=print_flush)


if __name__ == "__main__":
    main()
