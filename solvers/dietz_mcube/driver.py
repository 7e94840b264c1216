"""Eric Dietz's 4×4×4 solver (``mcube`` from passagemath-rubiks) behind the protocol.

``mcube`` takes one cube on its command line, as the colour digits of the faces U L F R B D
(sixteen each, row by row), and prints a numbered report whose solution, found layer by
layer, is one quarter turn a line, in words (``right up``; ``inner right down``: the layer
next to R); a process a cube.

    python -m cubebench.solvers.dietz_mcube.driver
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
    program = str(executable("mcube"))
    serve = lambda request: answer(request, program)  # noqa: E731
    serve_protocol("dietz-mcube", "1.0 (passagemath-rubiks)", "qtm", serve, puzzles=("cube4",))


if __name__ == "__main__":
    sys.exit(main())
