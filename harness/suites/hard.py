"""``hard-v1``: positions at the far end of the cube group, with their published distances.

- **Superflip** (every edge flipped in place): 20 face turns, the first position proved to
  need 20 (Michael Reid, Cube-Lovers, January 1995); 24 quarter turns (Cube-Lovers, 1995).
- **Superflip composed with four-spot**: 26 quarter turns (Michael Reid, 1998), the
  quarter-turn diameter of the group (Rokicki and Davidson, 2014, proved that no position
  needs more).

Each instance's scramble is a maneuver that makes it from solved (so it is also a solution,
reversed); the distances are the publications', and ``bench suites annotate`` adds what the
``optimal`` solver proves within its budget as lower bounds where no distance is published.
"""

from __future__ import annotations

from typing import Final

from ..cube import apply_sequence, parse_moves, state_to_facelets
from ..cube.engine import SOLVED
from .model import Instance

HARD_SUITE: Final = "hard-v1"
SUPERFLIP: Final = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"  # Reid's 20f maneuver
FOUR_SPOT: Final = "F2 B2 U D' R2 L2 U D'"

POSITIONS: Final = (
    ("superflip", SUPERFLIP, {"optimal_htm": 20, "optimal_qtm": 24}),
    ("superflip composed with four-spot", f"{SUPERFLIP} {FOUR_SPOT}", {"optimal_qtm": 26}),
)
"""(name, maneuver, published distances) of each instance, in suite order."""


def hard_instances() -> list[Instance]:
    return [
        Instance(
            id=i,
            facelets=state_to_facelets(apply_sequence(SOLVED, parse_moves(maneuver))),
            scramble=maneuver,
            **distances,
        )
        for i, (_, maneuver, distances) in enumerate(POSITIONS)
    ]


HARD_META: Final = {
    "kind": "hard",
    "source": "published distances: Reid 1995 and 1998 (Cube-Lovers); Rokicki et al. 2014",
    "positions": [name for name, _, _ in POSITIONS],
}
