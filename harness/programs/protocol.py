"""The cubebench solver protocol, version 1: JSON Lines between the harness and a program.

The program writes one handshake line once it has loaded, then answers each request line
with one answer line carrying the request's id; end of its standard input means exit. Its
standard error is its log. ``docs/protocol.md`` is the reference; this module parses and
writes the lines, and refuses anything else in one line that names what was wrong.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Final

from ..cube.puzzle import PUZZLES as CUBES
from ..errors import InputError

PROTOCOL_VERSION: Final = 1
METRICS: Final = ("htm", "qtm")
PUZZLES: Final = CUBES
"""The puzzles a program may declare (the harness's, ``cube2``, ``cube3``, ``cube4``);
requests name one when a program declares several."""
MAX_LINE_BYTES: Final = 1 << 20
"""The longest line read from a program: an answer of ten thousand moves is 40 kB."""
SHOWN_CHARS: Final = 200
"""How much of a line that is not the protocol a record or an error keeps."""


class ProtocolError(InputError):
    """A line from a program that is not the protocol: the message shows it, cut short."""


def shown(line: str | bytes) -> str:
    """A line as a message shows it: decoded where it can be, cut at :data:`SHOWN_CHARS`."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\n")
    return repr(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "...")


@dataclass(frozen=True)
class Handshake:
    """What the program says once it has loaded."""

    name: str
    version: str
    metric: str
    puzzles: tuple[str, ...] = ("cube3",)


@dataclass(frozen=True)
class Answer:
    """The program's answer to one request: moves (Singmaster text), or None to give up."""

    id: str
    moves: str | None
    nodes: int = 0
    reason: str | None = None
    info: dict[str, Any] = field(default_factory=dict)


def _object(line: bytes | str, what: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"{what} {shown(line)} is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} {shown(line)} is not a JSON object")
    return data


def _text(data: dict[str, Any], key: str, line: bytes | str, what: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > SHOWN_CHARS:
        raise ProtocolError(f"{what} {shown(line)}: {key!r} must be text of 1 to 200 characters")
    return value


def parse_handshake(line: bytes | str) -> Handshake:
    """The program's first line.

    Raises:
        ProtocolError: not JSON, another protocol version, a missing name or version, a
            metric other than htm or qtm, a puzzle the harness does not know.
    """
    what = "the handshake"
    data = _object(line, what)
    if data.get("protocol") != PROTOCOL_VERSION or isinstance(data.get("protocol"), bool):
        raise ProtocolError(
            f"{what} {shown(line)}: 'protocol' must be {PROTOCOL_VERSION} (this harness "
            f"speaks version {PROTOCOL_VERSION})"
        )
    name = _text(data, "name", line, what)
    version = _text(data, "version", line, what)
    metric = data.get("metric")
    if metric not in METRICS:
        raise ProtocolError(f'{what} {shown(line)}: \'metric\' must be "htm" or "qtm"')
    puzzles = data.get("puzzles", ["cube3"])
    if (
        not isinstance(puzzles, list)
        or not puzzles
        or not all(isinstance(p, str) and p in PUZZLES for p in puzzles)
    ):
        raise ProtocolError(
            f"{what} {shown(line)}: 'puzzles' must be a list of {', '.join(PUZZLES)}"
        )
    return Handshake(name, version, metric, tuple(puzzles))


def request_line(
    request_id: str,
    facelets: str,
    time_limit_s: float | None,
    max_length: int | None,
    puzzle: str | None = None,
    clock: str = "wall",
) -> bytes:
    """One request: the cube, its time limit (null: none) and what it counts (``cpu``: the
    program's CPU seconds, ``wall``), and the longest answer taken."""
    data: dict[str, Any] = {"id": request_id, "facelets": facelets}
    unlimited = time_limit_s is None or math.isinf(time_limit_s)
    data["time_limit_s"] = None if unlimited else time_limit_s
    data["clock"] = clock
    data["max_length"] = max_length
    if puzzle is not None:
        data["puzzle"] = puzzle
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


def parse_answer(line: bytes | str, expected_id: str) -> Answer:
    """An answer line for request ``expected_id``.

    Raises:
        ProtocolError: not JSON, another id, ``moves`` neither text nor null, ``nodes`` not
            a whole number from 0.
    """
    what = "the answer"
    data = _object(line, what)
    if data.get("id") != expected_id:
        raise ProtocolError(
            f"{what} {shown(line)} answers id {data.get('id')!r}, not the id asked, {expected_id!r}"
        )
    moves = data.get("moves", ...)
    if moves is ... or not (moves is None or isinstance(moves, str)):
        raise ProtocolError(f"{what} {shown(line)}: 'moves' must be text or null")
    nodes = data.get("nodes", 0)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 0 <= nodes < 2**62:
        raise ProtocolError(f"{what} {shown(line)}: 'nodes' must be a whole number from 0")
    reason = data.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise ProtocolError(f"{what} {shown(line)}: 'reason' must be text")
    info = {k: v for k, v in data.items() if k not in ("id", "moves", "nodes", "reason")}
    return Answer(expected_id, moves, nodes, reason[:SHOWN_CHARS] if reason else None, info)
