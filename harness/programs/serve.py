"""The program side of the protocol, for a driver written in Python.

A driver that makes another program a cubebench solver (the built-in drivers of the
classic C solvers) loads, then calls :func:`serve_protocol` with its handshake and a
function that answers one request; :func:`serve_protocol` writes the lines and flushes
them, answers a request the function raised on with ``"moves": null`` and the reason (and
one whose answer is longer than the request's ``max_length``: the harness would not take it),
and returns at end of input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from .protocol import PROTOCOL_VERSION

Request = Mapping[str, Any]


def serve_protocol(
    name: str,
    version: str,
    metric: str,
    answer: Callable[[Request], Mapping[str, Any]],
    after: Callable[[], None] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    puzzles: tuple[str, ...] = ("cube3",),
) -> None:
    """Shake hands, then answer each request line with ``answer(request)`` (which gives
    ``moves`` and any other fields; the id is added here) until end of input. ``after``
    runs once each answer is written: work that is no cube's (a program's clean-up).
    ``puzzles``: the cubes it solves, said in the handshake when not the 3×3×3 alone."""
    read = stdin or sys.stdin
    write = stdout or sys.stdout
    handshake: dict[str, Any] = {
        "protocol": PROTOCOL_VERSION, "name": name, "version": version, "metric": metric,
    }  # fmt: skip
    if puzzles != ("cube3",):
        handshake["puzzles"] = list(puzzles)
    write.write(json.dumps(handshake) + "\n")
    write.flush()
    for line in read:
        request = json.loads(line)
        try:
            reply = dict(answer(request))
        except Exception as exc:  # one cube it could not do: say why, and go on
            reply = {"moves": None, "reason": f"{type(exc).__name__}: {exc}"[:200]}
        longest, moves = request.get("max_length"), reply.get("moves")
        if isinstance(longest, int) and isinstance(moves, str) and len(moves.split()) > longest:
            # the harness would not take it: give up, as a solver that respects its budget does
            count = len(moves.split())
            reply = {"moves": None, "reason": f"its answer of {count} moves is over max_length"}
        write.write(json.dumps({"id": request["id"], **reply}) + "\n")
        write.flush()
        if after is not None:
            after()
