"""Train the 4×4×4 value network: ``bench train cube4-value [--metric htm|qtm]``.

DeepCubeA's approximate value iteration (:mod:`cubebench.solvers.common.puzzle_train`):
states after walks of 0..30 face and wide turns (0..40 layer quarter turns), each labelled
``1 + min`` over its 36 (24) children of a target network's estimate; no outside label. The
labels cost a forward pass of every child, so they run in the loop's precision (bfloat16
where the CPU has it natively). No 4×4×4 optimum is known: validation is the mean estimate
by walk length on walks from a separate seed stream. A run is defined by its step budget
(``--steps``) and continues from its saved state across sittings.
"""

from __future__ import annotations

from functools import partial

from ..common.puzzle_nets import PuzzleNetConfig
from ..common.puzzle_train import ValueData, value_task
from ..common.trainer import main_for_metric, train_model
from .checkpoint import SHIPPED

NETWORK = PuzzleNetConfig("cube4", "value", hidden1=1024, hidden2=512, residual_blocks=2)


def data_for(metric: str) -> ValueData:
    walks = 30 if metric == "htm" else 40
    return ValueData("cube4", metric, batch_size=1000, max_scramble=walks, label_in_precision=True)


def make_task(data: ValueData, config: PuzzleNetConfig, device: str, seed: int):
    return value_task(SHIPPED.stem_for(data.metric), data, config, device, seed)


train = partial(train_model, make_task, lambda: data_for("htm"), lambda: NETWORK)


def main(argv: list[str] | None = None) -> dict:
    """``bench train cube4-value``."""
    return main_for_metric(argv, "cube4-value", __doc__, SHIPPED, train, data_for, "htm")


if __name__ == "__main__":
    main()
