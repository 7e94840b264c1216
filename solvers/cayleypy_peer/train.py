"""Train CayleyPy's value model with CayleyPy's own walks and loss: ``bench train cayleypy``.

CayleyPy's recipe from CayleyPy's own pieces: random walks from solved on its cube graph
(``CayleyGraph.random_walks``, by default its non-backtracking "nbt" mode: the batch's walks
move together, and a step may not land next to any layer the batch stood on in the
``history_depth`` steps before the current one, so no walk steps back; with a history of 1
it may; 2 is this project's choice), every state labelled with its step, a network built
by ``ModelConfig`` regressing that label under CayleyPy's ``MseLoss``, Adam. This project's
loop drives it, so the run is defined by its step budget and continues across sittings like
every trainer here. CayleyPy's walks draw from torch's generator, which the loop saves with
the run's state, so a continued run repeats exactly. ``bench train cayleypy-cube2`` and
``bench train cayleypy-cube4`` run the same recipe on CayleyPy's 2×2×2 and 4×4×4 graphs
(:mod:`.graph`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np
import torch

from ..common.distance_validation import describe_distance, distance_metrics
from ..common.loop import (
    LoopConfig,
    add_loop_arguments,
    parse_run,
    print_flush,
)
from ..common.peers import import_peer
from ..common.state import state_path
from ..common.trainer import TrainingTask, model_task, train_loop
from .checkpoint import DEFAULT_LAYERS, SHIPPED_BY_PUZZLE, build, model_config
from .graph import GRAPH_METRICS, cube_graph

WALK_LENGTHS: dict[tuple[str, str], int] = {
    ("cube3", "qtm"): 26,  # the 3×3×3's diameter in quarter turns; HTM: 22, as cayley-mlp
    ("cube3", "htm"): 22,
    ("cube2", "htm"): 11,  # the 2×2×2's diameters
    ("cube2", "qtm"): 14,
    ("cube4", "qtm"): 45,  # past where cube4-policy's walks stop resolving distance
}


@dataclass(frozen=True)
class DataConfig:
    metric: str = "qtm"
    puzzle: str = "cube3"
    walk_mode: str = "nbt"  # CayleyPy's modes: classic, nbt
    history_depth: int = 2  # nbt: layers of the batch's history (and their neighbours) banned
    walks_per_batch: int = 384  # x walk_length states per step (~10k, as cayley-mlp)
    walk_length: int = 26  # WALK_LENGTHS
    validation_walks: int = 1000

    def __post_init__(self) -> None:
        if self.walk_mode not in ("classic", "nbt"):
            raise ValueError(f"walk_mode={self.walk_mode!r}: expected classic or nbt")


def make_task(data: DataConfig, layers: tuple[int, ...], device: str, seed: int) -> TrainingTask:
    cayleypy = import_peer("cayleypy", "cayleypy")
    graph = cube_graph(data.metric, device=device, puzzle_name=data.puzzle)
    definition = graph.definition
    from cayleypy.models.checkpoint import graph_hash

    stickers = len(definition.central_state)
    architecture = model_config(layers, graph_hash(definition), stickers)
    loss_fn = cayleypy.MseLoss()

    def walks(width: int) -> tuple[torch.Tensor, torch.Tensor]:
        x, y = graph.random_walks(
            width=width,
            length=data.walk_length,
            mode=data.walk_mode,
            nbt_history_depth=data.history_depth,
        )
        return x, y.float()

    with torch.random.fork_rng():  # validation from a stream training never draws from
        torch.manual_seed(10_000 + seed)
        val_x, val_y = walks(data.validation_walks)
    depths = val_y.numpy().astype(int)

    def make_batch(_rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        return walks(data.walks_per_batch)  # torch's generator, saved with the run

    def validate(model: torch.nn.Module) -> dict:
        return distance_metrics(model(val_x.to(device)), val_y, depths, loss_fn)

    return model_task(
        SHIPPED_BY_PUZZLE[data.puzzle].stem_for(data.metric),
        data,
        architecture,
        f"steps of CayleyPy's {data.walk_mode} random walk from solved",
        model=lambda: build(architecture),
        make_batch=make_batch,
        loss=lambda out, y: loss_fn(out.float(), y),
        validate=validate,
        describe=describe_distance,
    )


def train(
    loop: LoopConfig,
    data: DataConfig | None = None,
    layers: tuple[int, ...] = DEFAULT_LAYERS,
    log=print,
) -> dict:
    """The card of the best weights (``train(loop_for_tests(steps=30), ...)`` in tests)."""
    return train_loop(make_task(data or DataConfig(), layers, loop.device, loop.seed), loop, log)


def main(argv: list[str] | None = None, puzzle: str = "cube3") -> dict:
    """``bench train cayleypy`` and ``python -m cubebench.solvers.cayleypy_peer.train``."""
    shipped = SHIPPED_BY_PUZZLE[puzzle]
    name = "cayleypy" if puzzle == "cube3" else f"cayleypy-{puzzle}"
    parser = argparse.ArgumentParser(prog=f"bench train {name}", description=__doc__)
    add_loop_arguments(parser, shipped.folder)
    metrics = sorted(GRAPH_METRICS[puzzle], reverse=True)
    parser.add_argument("--metric", choices=metrics, default=shipped.metric, help="move set")
    parser.add_argument(
        "--layers", type=int, nargs="+", default=list(DEFAULT_LAYERS), help="RESMLP sizes"
    )
    parser.add_argument("--walk-mode", choices=["classic", "nbt"], default="nbt")
    parser.add_argument("--history-depth", type=int, default=2, help="nbt's banned layers")
    parser.add_argument("--walks-per-batch", type=int, default=384)
    state = lambda a: state_path(a.out, shipped.stem_for(a.metric))  # noqa: E731
    options = ("layers", "walk_mode", "history_depth", "walks_per_batch")
    loop, args = parse_run(parser, argv, options, state)
    data = DataConfig(
        metric=args.metric,
        puzzle=puzzle,
        walk_mode=args.walk_mode,
        history_depth=args.history_depth,
        walks_per_batch=args.walks_per_batch,
        walk_length=WALK_LENGTHS[puzzle, args.metric],
    )
    return train(loop, data, tuple(args.layers), log=print_flush)


def main_cube2(argv: list[str] | None = None) -> dict:
    """``bench train cayleypy-cube2``: CayleyPy's fixed-corner 2×2×2 graph."""
    return main(argv, "cube2")


def main_cube4(argv: list[str] | None = None) -> dict:
    """``bench train cayleypy-cube4``: CayleyPy's 4×4×4 graph of 24 layer quarter turns."""
    return main(argv, "cube4")


if __name__ == "__main__":
    main()
