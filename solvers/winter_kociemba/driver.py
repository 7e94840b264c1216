"""Dik Winter's two-phase solver (``dikcube`` from passagemath-rubiks) behind the protocol.

``dikcube -p`` builds its tables (under a second here), reads one cube as a net of colour
digits, and prints ever shorter solutions as Kociemba's algorithm goes on, without end for
a deep cube; it takes one cube per process. The answer is the first solution it prints,
as the ``kociemba`` package answers the first within its limit. The driver keeps one
process loaded and waiting: a cube goes to it, its first solution is the answer, and it is
killed while the next one loads (between cubes, so a cube pays only for a load the previous
one's answer did not leave time for).

    python -m cubebench.solvers.winter_kociemba.driver
"""

from __future__ import annotations

import re
import sys

from ...harness import serve_protocol
from ..common.classic import Terminal, executable, winter_net

SOLUTION = re.compile(r"Solution \(\s*\d+\+\s*\d+=\s*\d+\):((?: [A-Z][123])*)\s*\n")
# the program names its faces by the colour digits: 1 -> B, 2 -> L, 3 -> U, 4 -> R, 5 -> D,
# 6 -> F (it prints this), and the digits are U L F R B D's colours
FACE = dict(zip("BLURDF", "ULFRBD", strict=True))
TURN = {"1": "", "2": "2", "3": "'"}
REFUSED = re.compile(r"too twisty|too flippant|too permuted|Too much|Not enough|inbalance|Illegal")


def _load() -> Terminal:
    program = Terminal.start([str(executable("dikcube")), "-p"])
    program.read_until("Initialization done!", timeout=300)
    return program


def main() -> None:
    waiting = [_load()]

    def answer(request: dict) -> dict:
        program = waiting[0]
        program.send(winter_net(request["facelets"]))
        assert program.process.stdin is not None
        program.process.stdin.close()  # it reads to the end of its input
        said = ""
        while True:
            said += program.read_until("\n", timeout=3600)
            found = SOLUTION.search(said)
            if found is not None:
                tokens = found.group(1).split()
                return {"moves": " ".join(FACE[t[0]] + TURN[t[1]] for t in tokens)}
            if "Phase 1 is not needed" in said and "Phase 2 is not needed" in said:
                return {"moves": ""}  # solved
            if REFUSED.search(said):
                return {"moves": None, "reason": said.strip().splitlines()[-1][:200]}

    def reload() -> None:
        waiting[0].kill()
        waiting[0] = _load()

    serve_protocol("winter-kociemba", "1993 (passagemath-rubiks)", "htm", answer, reload)
    waiting[0].kill()


if __name__ == "__main__":
    sys.exit(main())
