"""The record of one solver on one instance: a stable, versioned interface for other tools.

Each line of a run's ``records.jsonl`` is one :class:`Record` as JSON. Fields any tool may
rely on: ``solver``, ``suite``, ``instance``, ``status``, ``moves`` (Singmaster),
``length_htm``, ``length_qtm``, ``wall_s``, ``nodes``, ``model_calls``; since version 2 also
``optimal_qtm``, ``gap_qtm`` and ``metric`` (the move set the solver searched, where it says).
Since version 3 both lengths count the answer's canonical form (turns of one face merged and
cancelled across turns of the opposite face, :func:`~cubebench.harness.cube.reduce_moves`),
so ``U U`` is one face turn; ``moves`` stays the answer as the solver gave it. The schema
version lives in the run's manifest; :func:`migrate` brings older records up to date.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Final

from ..cube.notation import NotationError, parse_moves, solution_lengths
from ..errors import InputError

SCHEMA_VERSION: Final = 3

STATUSES: Final = ("solved", "unsolved", "wrong", "illegal", "timeout", "error", "claimed")
"""solved: the moves solve the cube within budget. unsolved: the solver gave up or went over
its length/node budget. wrong: legal moves that do not solve it. claimed: a peer's published
length whose moves were never published, so the harness could not replay it (imported runs
only; never counted as verified). illegal: something that is
not a move id. timeout: over the wall budget (killed, or returned late). error: the solver
raised or its worker died; ``error`` holds the message."""


class RecordError(InputError):
    """A records file or line that cannot be read."""


@dataclass(frozen=True)
class Record:
    solver: str
    suite: str
    instance: int
    status: str
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

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.solver, self.suite, self.instance)


_FIELD_NAMES = {f.name for f in fields(Record)}


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


MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _v1_to_v2, 2: _v2_to_v3}


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
    return Record(**{k: v for k, v in data.items() if k in _FIELD_NAMES})
