"""Eric Dietz's 4×4×4 solver (``mcube`` from passagemath-rubiks) behind the protocol.

``mcube`` takes one cube on its command line, as the colour digits of the faces U L F R B D
(sixteen each, row by row), and prints a numbered report whose solution, found layer by
layer, is one quarter turn a line, in words (``right up``; ``inner right down``: the layer
next to R); a process a cube.

    python -m cubebench.solvers.dietz_mcube.driver
"""

from __future__ import annotations

import sys

from ..common.classic import serve_dietz


def main() -> None:
    serve_dietz("dietz-mcube", "mcube", "cube4")


if __name__ == "__main__":
    sys.exit(main())
