"""The record of one entry on one instance: a stable, versioned interface for other tools.

Each line of a run's ``records.jsonl`` is one :class:`Record` as JSON. Fields any tool may
rely on: ``solver`` (the entry's key, :attr:`Record.entry` in Python), ``suite``,
``instance``, ``status``, ``moves`` (Singmaster), ``length_htm``, ``length_qtm``, ``wall_s``,
``nodes``, ``model_calls``; since version 2 also ``optimal_qtm``, ``gap_qtm`` and ``metric``
(the move set the solver searched, where it says).
Since version 3 both lengths count the answer's canonical form (turns of one face merged and
cancelled across turns of the opposite face, :func:`~cubebench.harness.cube.reduce_moves`),
so ``U U`` is one face turn; ``moves`` stays the answer as the solver gave it. Since version
4 a record has ``cpu_s``, the solver's CPU seconds on the cube (its worker's and its
children's), beside ``wall_s``; older records have none. The schema version lives in the
run's manifest; :func:`migrate` brings older records up to date.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Final, Literal, get_args

from ..cube.notation import NotationError, parse_moves, solution_lengths
from ..errors import InputError

SCHEMA_VERSION: Final = 4

Status = Literal["solved", "unsolved", "wrong", "illegal", "timeout", "error", "claimed"]
STATUSES: Final = get_args(Status)
"""solved: the moves solve the cube within budget. unsolved: the solver gave up or went over
its length/node budget. wrong: legal moves that do not solve it. claimed: a peer's published
length whose moves were never published, so the harness could not replay it (imported runs
only; never counted as verified). illegal: something that is
not a move id. timeout: over the wall budget (killed, returned late, or gave up with no
answer once its time was spent, however the solver noticed). error: the solver raised or its
worker died; ``error`` holds the message."""


class RecordError(InputError):
    """A records file or line that cannot be read."""


ENTRY_FIELD: Final = "solver"
"""The file's name for :attr:`Record.entry`, kept from the first schema for the tools that
read records."""


@dataclass(frozen=True)
class Record:
    entry: str  # the entry's key in its run (a solver and its settings)
    suite: str
    instance: int
    status: Status
    moves: str = ""
    length_htm: int | None = None
    length_qtm: int | None = None
    optimal_htm: int | None = None
    gap_htm: int | None = None
    wall_s: float | None = None
    nodes: int = 0
    model_calls: int = 0
    error: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    optimal_qtm: int | None = None
    gap_qtm: int | None = None
    metric: str | None = None  # the move set the solver searched, where it says
    cpu_s: float | None = None  # the solver's CPU seconds on the cube (since version 4)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def to_dict(self) -> dict[str, Any]:
        """The record as the file holds it (the entry under :data:`ENTRY_FIELD`)."""
        data = asdict(self)
        return {ENTRY_FIELD: data.pop("entry"), **data}

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.entry, self.suite, self.instance)


_FIELD_NAMES = {f.name for f in fields(Record)} - {"entry"}


# version -> function turning a record dict of that version into the next version's form
def _v1_to_v2(data: dict) -> dict:
    """Version 1 had no QTM optimum; the searched metric was only in ``info``."""
    info = data.get("info") or {}
    metric = info.get("metric") if isinstance(info, dict) else None
    return {"optimal_qtm": None, "gap_qtm": None, "metric": metric, **data}


def _v2_to_v3(data: dict) -> dict:
    """Version 2 counted every move of the answer as a face turn (``U U`` as two).

    The lengths and gaps are counted again from the stored moves. Counting is idempotent, so
    a version-3 record that a resume appended to a version-2 folder reads the same.
    """
    moves = data.get("moves")
    if not isinstance(moves, str) or not moves.strip() or data.get("length_htm") is None:
        return data
    try:
        parsed = parse_moves(moves)
    except NotationError as exc:
        raise RecordError(f"moves {moves[:40]!r} cannot be counted: {exc}") from None
    htm, qtm = solution_lengths(parsed)
    out = {**data, "length_htm": htm, "length_qtm": qtm}
    for gap, optimum, length in (("gap_htm", "optimal_htm", htm), ("gap_qtm", "optimal_qtm", qtm)):
        if data.get(gap) is not None and isinstance(data.get(optimum), int):
            out[gap] = length - data[optimum]
    return out


def _v3_to_v4(data: dict) -> dict:
    """Version 3 had no CPU time (a run budgeted the wall clock only)."""
    return {"cpu_s": None, **data}


MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def migrate(data: dict, version: int) -> dict:
    if version > SCHEMA_VERSION:
        raise RecordError(
            f"records have schema version {version}, newer than this cubebench "
            f"({SCHEMA_VERSION}); upgrade cubebench to read them"
        )
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    return data


def record_from_json(line: str, version: int = SCHEMA_VERSION) -> Record:
    data = migrate(json.loads(line), version)
    if not isinstance(data, dict) or not {"solver", "suite", "instance", "status"} <= set(data):
        raise RecordError("a record needs solver, suite, instance and status")
    if data["status"] not in STATUSES:
        raise RecordError(f"unknown status {data['status']!r}")
    _check_types(data)
    return Record(entry=data[ENTRY_FIELD], **{k: v for k, v in data.items() if k in _FIELD_NAMES})


_LONGEST = 10_000  # the longest answer the harness replays (verify.MAX_ANSWER_MOVES)
_WHOLE: dict[str, tuple[int, int]] = {
    "instance": (0, 2**31 - 1),
    "length_htm": (0, _LONGEST),
    "length_qtm": (0, 2 * _LONGEST),
    "optimal_htm": (0, 20),
    "optimal_qtm": (0, 26),
    "gap_htm": (-20, _LONGEST),
    "gap_qtm": (-26, 2 * _LONGEST),
    "nodes": (0, 2**62),
    "model_calls": (0, 2**62),
}
_OPTIONAL = {k for k in _WHOLE if k not in ("instance", "nodes", "model_calls")}


def _check_types(data: dict) -> None:
    """Every field of the type and range a record of the harness holds: a hand-edited line
    (``length_htm`` a string, ``instance`` 10^30, a time of NaN) is refused, naming it."""

    def bad(key: str, rule: str) -> RecordError:
        shown = repr(data[key])
        return RecordError(f"field {key} = {shown[:40]}{'...' if len(shown) > 40 else ''}: {rule}")

    for key in ("solver", "suite"):
        if not isinstance(data[key], str) or not data[key]:
            raise bad(key, "a name")
    for key, (low, high) in _WHOLE.items():
        value = data.get(key)
        if value is None and (key in _OPTIONAL or key not in data):
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise bad(key, f"a whole number from {low} to {high}")
    for key in ("wall_s", "cpu_s"):
        value = data.get(key)
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value < math.inf
        ):
            raise bad(key, "a finite number of seconds, 0 or more")
    for key in ("moves", "error"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise bad(key, "text")
    if not isinstance(data.get("info", {}), dict):
        raise bad("info", "an object")
    if data.get("metric") not in (None, "htm", "qtm"):
        raise bad("metric", "htm, qtm or null")
