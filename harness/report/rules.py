"""``--fail-if`` thresholds of ``bench compare`` (no pandas here: the CLI imports this)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import InputError

_RULE = re.compile(r"^\s*(solve_rate|length|time)\s*([<>])\s*([+-]?\d+(?:\.\d+)?)\s*(pp|%)?\s*$")


class ThresholdError(InputError):
    """A ``--fail-if`` rule that does not parse."""


class NothingToCompareError(InputError):
    """``bench compare`` found nothing to pair: a gate must not pass on an empty table."""


TIME_FLOOR_S = 0.005
"""The least change of median time, in seconds, that a relative time rule counts: below it
a percentage of microseconds is the timer's and the scheduler's noise, not the solver's."""


@dataclass(frozen=True)
class Rule:
    """``solve_rate<-1pp``: fail if the solve rate dropped by more than 1 point;
    ``length>+0.5``: mean HTM length grew by more than 0.5; ``time>+20%``: median time grew
    by more than 20% and by at least :data:`TIME_FLOOR_S` seconds."""

    metric: str
    op: str
    value: float
    unit: str

    @classmethod
    def parse(cls, text: str) -> Rule:
        match = _RULE.match(text)
        if not match:
            raise ThresholdError(
                f"cannot read --fail-if {text!r}; write e.g. 'solve_rate<-1pp', 'length>+0.5', "
                "'time>+20%'"
            )
        metric, op, value, unit = match.groups()
        expected = {"solve_rate": "pp", "time": "%", "length": None}[metric]
        if (unit or None) != expected:
            raise ThresholdError(
                f"--fail-if {text!r}: {metric} takes {expected or 'a plain number of moves'}"
            )
        return cls(metric, op, float(value), unit or "")

    def crossed(self, row: dict) -> bool:
        delta = {
            "solve_rate": row["solve_rate_diff_pp"],
            "length": row["length_diff"],
            "time": row["time_change_pct"],
        }[self.metric]
        if delta is None or math.isnan(delta):
            return False
        if self.metric == "time":
            # a relative change of tiny times is noise (30 µs against 25 µs is +20%): a
            # time rule needs the new median to have moved by TIME_FLOOR_S too
            moved = abs(row["new_median_s"] - row["base_median_s"])
            if math.isnan(moved) or moved < TIME_FLOOR_S:
                return False
        return delta < self.value if self.op == "<" else delta > self.value
