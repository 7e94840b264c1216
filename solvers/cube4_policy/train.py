"""Train the 4×4×4 policy network: ``bench train cube4-policy [--metric htm|qtm]``.

EfficientCube's recipe (:mod:`cubebench.solvers.common.puzzle_train`): walks of 40 face and
wide turns (50 layer quarter turns) over every move of the metric, each step on another
group (a quarter-turn walk never undoing its last move); every prefix a sample, labelled
with the move that undoes its last step. No 4×4×4 optimum is known, so validation is the
accuracy by depth on walks from a separate seed stream. A run is defined by its step
budget (``--steps``) and continues from its saved state across sittings.
"""

from __future__ import annotations

from functools import partial

from ..common.puzzle_nets import PuzzleNetConfig
from ..common.puzzle_train import PolicyData, policy_task
from ..common.trainer import main_for_metric, train_model
from .checkpoint import SHIPPED

NETWORK = PuzzleNetConfig("cube4", "policy", hidden1=1024, hidden2=512, residual_blocks=2)


def data_for(metric: str) -> PolicyData:
    if metric == "htm":
        return PolicyData("cube4", metric, walks_per_batch=100, walk_length=40)
    return PolicyData("cube4", metric, walks_per_batch=80, walk_length=50)


def make_task(data: PolicyData, config: PuzzleNetConfig, device: str, seed: int):
    return policy_task(SHIPPED.stem_for(data.metric), data, config, device, seed)


train = partial(train_model, make_task, lambda: data_for("htm"), lambda: NETWORK)


def main(argv: list[str] | None = None) -> dict:
    """``bench train cube4-policy``."""
    return main_for_metric(argv, "cube4-policy", __doc__, SHIPPED, train, data_for, "htm")


if __name__ == "__main__":
    main()
