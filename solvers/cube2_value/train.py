"""Train the 2×2×2 value network: ``bench train cube2-value [--metric htm|qtm]``.

DeepCubeA's approximate value iteration (:mod:`cubebench.solvers.common.puzzle_train`):
states after walks of 0..14 face turns (0..18 quarter turns) over U, R and F, labelled by a
one-step lookahead through a target network. Validation compares with the exact distances
of the 2×2×2's table; no label comes from it.
"""

from __future__ import annotations

from functools import partial

from ..common.puzzle_nets import PuzzleNetConfig
from ..common.puzzle_train import ValueData, value_task
from ..common.trainer import main_for_metric, train_model
from .checkpoint import SHIPPED


def data_for(metric: str) -> ValueData:
    return ValueData("cube2", metric, max_scramble=14 if metric == "htm" else 18)


def make_task(data: ValueData, config: PuzzleNetConfig, device: str, seed: int):
    return value_task(SHIPPED.stem_for(data.metric), data, config, device, seed)


train = partial(train_model, make_task, ValueData, lambda: PuzzleNetConfig("cube2", "value"))


def main(argv: list[str] | None = None) -> dict:
    """``bench train cube2-value``."""
    return main_for_metric(argv, "cube2-value", __doc__, SHIPPED, train, data_for, "htm")


if __name__ == "__main__":
    main()
