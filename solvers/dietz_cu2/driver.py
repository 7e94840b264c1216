"""Eric Dietz's 2×2×2 solver (``cu2`` from passagemath-rubiks) behind the protocol.

``cu2`` takes one cube on its command line, as the colour digits of the faces U L F R B D
(four each, row by row), and prints a numbered report whose solution is one quarter turn a
line, in words (``right up``, ``bottom left``); a process a cube, a few milliseconds each.

    python -m cubebench.solvers.dietz_cu2.driver
"""

from __future__ import annotations

import sys

from ..common.classic import serve_dietz


def main() -> None:
    serve_dietz("dietz-cu2", "cu2", "cube2")


if __name__ == "__main__":
    sys.exit(main())
