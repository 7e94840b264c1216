"""Train the 2×2×2 policy network: ``bench train cube2-policy [--metric htm|qtm]``.

EfficientCube's recipe (:mod:`cubebench.solvers.common.puzzle_train`): walks of 11 face
turns (14 quarter turns), the 2×2×2's diameters, over U, R and F; every prefix a sample,
labelled with the move that undoes its last step.
"""

from __future__ import annotations

from functools import partial

from ..common.puzzle_nets import PuzzleNetConfig
from ..common.puzzle_train import PolicyData, policy_task
from ..common.trainer import main_for_metric, train_model
from .checkpoint import SHIPPED


def data_for(metric: str) -> PolicyData:
    return PolicyData("cube2", metric, walk_length=11 if metric == "htm" else 14)


def make_task(data: PolicyData, config: PuzzleNetConfig, device: str, seed: int):
    return policy_task(SHIPPED.stem_for(data.metric), data, config, device, seed)


train = partial(train_model, make_task, PolicyData, lambda: PuzzleNetConfig("cube2", "policy"))


def main(argv: list[str] | None = None) -> dict:
    """``bench train cube2-policy``."""
    return main_for_metric(argv, "cube2-policy", __doc__, SHIPPED, train, data_for, "htm")


if __name__ == "__main__":
    main()
