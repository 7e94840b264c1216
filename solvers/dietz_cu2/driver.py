"""Eric Dietz's 2×2×2 solver (``cu2`` from passagemath-rubiks) behind the protocol.

``cu2`` takes one cube on its command line, as the colour digits of the faces U L F R B D
(four each, row by row), and prints a numbered report whose solution is one quarter turn a
line, in words (``right up``, ``bottom left``); a process a cube, a few milliseconds each.

    python -m cubebench.solvers.dietz_cu2.driver
"""

from __future__ import annotations

import subprocess
import sys

from ...harness import serve_protocol
from ..common.classic import dietz_answer, dietz_colours, executable


def answer(request: dict, program: str) -> dict:
    cube = dietz_colours(request["facelets"])
    done = subprocess.run(
        [program, cube], capture_output=True, text=True, timeout=3600, stdin=subprocess.DEVNULL
    )
    return dietz_answer(done.stdout)


def main() -> None:
    program = str(executable("cu2"))
    serve = lambda request: answer(request, program)  # noqa: E731
    serve_protocol("dietz-cu2", "1.0 (passagemath-rubiks)", "qtm", serve, puzzles=("cube2",))


if __name__ == "__main__":
    sys.exit(main())
