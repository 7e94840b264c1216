"""Eric Dietz's fast layer solver (``cubex`` from passagemath-rubiks) behind the protocol.

``cubex`` takes one cube on its command line, as the colour digits of the faces U L F R B
D, and prints a numbered report with its solution; a process a cube, a few milliseconds
each. Its moves name a face and the way a layer turns (``UR``: the U layer to the right),
as Sage's interface reads them.

    python -m cubebench.solvers.dietz_cubex.driver
"""

from __future__ import annotations

import re
import subprocess
import sys

from ...harness import serve_protocol
from ..common.classic import dietz_colours, executable

SOLVED = "200 cube solved ok."
SOLUTION = re.compile(r"^210[^:]*:\s*(.*?)\s*^211", re.S | re.M)
# the inverse of what Sage's interface maps each token to (it builds the cube from solved)
MOVE = {
    "LD": "L",
    "LU": "L'",
    "RD": "R'",
    "RU": "R",
    "FA": "F'",
    "FC": "F",
    "BA": "B",
    "BC": "B'",
    "UR": "U'",
    "UL": "U",
    "DR": "D",
    "DL": "D'",
}


def answer(request: dict, program: str) -> dict:
    digits = dietz_colours(request["facelets"])
    done = subprocess.run([program, digits], capture_output=True, text=True, timeout=3600)
    said = done.stdout
    found = SOLUTION.search(said)
    if SOLVED in said and found is not None:
        tokens = found.group(1).replace(",", " ").split()
        return {"moves": " ".join(MOVE[t] for t in tokens)}
    if SOLVED in said and "210" not in said:
        return {"moves": ""}
    errors = [line for line in said.splitlines() if line[:1] == "5"]
    return {"moves": None, "reason": "; ".join(errors)[:200] or "no solution printed"}


def main() -> None:
    program = str(executable("cubex"))
    version = "1.30.505 (passagemath-rubiks)"
    serve_protocol("dietz-cubex", version, "htm", lambda request: answer(request, program))


if __name__ == "__main__":
    sys.exit(main())
