"""The peers' published answer files, read and checked before anything is written.

- ``efficientcube``: the result pickle, a dict of plain lists (``solutions``, ``times``,
  ``num_nodes_generated``), loaded by an unpickler that allows **no global at all** (a file
  that names one is refused before anything of it runs) and that builds at most what such a
  file could hold (:func:`~cubebench.harness.safe_pickle.check_pickle_size`).
- ``deepcubea-output``: DeepCubeA's ``output.txt``, lengths only.

Every number is checked where it is read: a time is a finite number of seconds, 0 or more;
a node count a whole number, 0 or more; a length a whole number of moves within the longest
answer the harness replays. A value outside that refuses the file in one line naming the
answer and the value.
"""

from __future__ import annotations

import io
import math
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cube import NotationError, parse_moves
from .records.schema import RecordError
from .safe_pickle import check_pickle_size
from .verify import MAX_ANSWER_MOVES

MAX_NODES = 2**62
"""More nodes than any search has generated; past this a count is not one."""


class PublishedRunError(RecordError):
    """A published-run file that cannot be imported onto the suite; nothing was written."""


@dataclass(frozen=True)
class PublishedAnswer:
    """One cube's published answer: its moves (None where only a length was published;
    ``dropped`` counts the moves of an answer over the longest replayed, whose moves are
    then neither kept nor replayed)."""

    moves: list[int] | None
    claimed_qtm: int | None
    wall_s: float
    nodes: int
    dropped: int = 0


def checked_seconds(value: Any, where: str) -> float:
    """A time as published: a finite number of seconds, 0 or more (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PublishedRunError(f"{where}: time {value!r} is not a number of seconds")
    if not math.isfinite(value) or value < 0:
        raise PublishedRunError(f"{where}: time {value!r} is not a finite time of 0 s or more")
    return float(value)


def checked_count(value: Any, where: str, what: str = "node count") -> int:
    """A count as published: a whole number from 0 to :data:`MAX_NODES` (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NODES:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise PublishedRunError(f"{where}: {what} {shown} is not a whole number from 0")
    return value


class _NoGlobals(pickle.Unpickler):
    """Plain containers and scalars only: any class or function named in the file refuses it."""

    def find_class(self, module: str, name: str) -> Any:
        raise PublishedRunError(
            f"the pickle names {module}.{name}; a published run holds plain lists only, so "
            "nothing of it was run"
        )


def read_efficientcube(path: Path, count: int) -> list[PublishedAnswer]:
    """EfficientCube's result pickle: ``count`` solutions of quarter-turn move strings."""
    data_bytes = path.read_bytes()
    # three lists of ``count`` entries, each solution a list of short strings: a few hundred
    # objects a cube at most; a file that would build more is not such a result
    check_pickle_size(data_bytes, 400 * count + 1000, path, PublishedRunError)
    try:
        data = _NoGlobals(io.BytesIO(data_bytes)).load()
    except PublishedRunError:
        raise
    except Exception as exc:  # a damaged pickle fails in many ways; none of them runs code
        raise PublishedRunError(f"{path}: not an EfficientCube result ({exc})") from None
    keys = ("solutions", "times", "num_nodes_generated")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), list) for k in keys):
        raise PublishedRunError(f"{path}: expected a dict of the lists {', '.join(keys)}")
    sizes = {k: len(data[k]) for k in keys}
    if set(sizes.values()) != {count}:
        raise PublishedRunError(f"{path}: {sizes} answers, the suite has {count} cubes")
    answers = []
    for i, (moves, wall, nodes) in enumerate(zip(*(data[k] for k in keys), strict=True)):
        where = f"{path}: solution {i}"
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise PublishedRunError(f"{where} is not a list of moves")
        seconds, generated = checked_seconds(wall, where), checked_count(nodes, where)
        if len(moves) > MAX_ANSWER_MOVES:  # neither parsed, replayed nor stored
            answers.append(PublishedAnswer([], None, seconds, generated, dropped=len(moves)))
            continue
        try:
            parsed = parse_moves(" ".join(moves))
        except NotationError as exc:
            raise PublishedRunError(f"{where}: {exc}") from None
        answers.append(PublishedAnswer(parsed, None, seconds, generated))
    return answers


_OUTPUT_LINE = re.compile(
    r"State: (\d{1,9}), SolnCost: (\d{1,9}(?:\.\d{1,9})?), # Moves: (\d{1,9}), "
    r"# Nodes Gen: (\d{1,3}(?:,\d{3}){0,6}|\d{1,19}), Time: (\d{1,12}(?:\.\d{1,12})?)"
)


def read_deepcubea_output(path: Path, count: int) -> list[PublishedAnswer]:
    """DeepCubeA's ``output.txt``: a line per state, in order, then summary lines."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PublishedRunError(f"{path}: not readable text ({exc})") from None
    answers: list[PublishedAnswer] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("State:"):
            continue
        match = _OUTPUT_LINE.fullmatch(line.strip())
        if match is None or int(match[1]) != len(answers):
            raise PublishedRunError(
                f"{path} line {number}: expected state {len(answers)} in DeepCubeA's form "
                "'State: i, SolnCost: c, # Moves: m, # Nodes Gen: n, Time: t'"
            )
        where = f"{path} line {number}"
        moves = int(match[3])
        if moves > MAX_ANSWER_MOVES:
            raise PublishedRunError(
                f"{where}: {moves} moves, over the longest answer replayed ({MAX_ANSWER_MOVES})"
            )
        nodes = checked_count(int(match[4].replace(",", "")), where)
        answers.append(PublishedAnswer(None, moves, checked_seconds(float(match[5]), where), nodes))
    if len(answers) != count:
        raise PublishedRunError(f"{path}: {len(answers)} states, the suite has {count} cubes")
    return answers


READERS = {"efficientcube": read_efficientcube, "deepcubea-output": read_deepcubea_output}
