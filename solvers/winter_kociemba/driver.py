"""Dik Winter's two-phase solver (``dikcube`` from passagemath-rubiks) behind the protocol.

``dikcube -p`` builds its tables (under a second here), reads one cube as a net of colour
digits, and prints ever shorter solutions as Kociemba's algorithm goes on, without end for
a deep cube; it takes one cube per process. The answer is the first solution it prints,
as the ``kociemba`` package answers the first within its limit. The driver keeps one
process loaded and waiting: a cube goes to it, its first solution is the answer, and it is
killed while the next one loads (between cubes, so a cube pays only for a load the previous
one's answer did not leave time for). A cube whose time limit passes first, loading or
searching, is given up, saying so, as a solver that keeps to its budget does.

    python -m cubebench.solvers.winter_kociemba.driver
"""

from __future__ import annotations

import re
import sys
import time

from ...harness import serve_protocol
from ..common.classic import Terminal, executable, winter_net

SOLUTION = re.compile(r"Solution \(\s*\d+\+\s*\d+=\s*\d+\):((?: [A-Z][123])*)\s*\n")
# the program names its faces by the colour digits: 1 -> B, 2 -> L, 3 -> U, 4 -> R, 5 -> D,
# 6 -> F (it prints this), and the digits are U L F R B D's colours
FACE = dict(zip("BLURDF", "ULFRBD", strict=True))
TURN = {"1": "", "2": "2", "3": "'"}
REFUSED = re.compile(r"too twisty|too flippant|too permuted|Too much|Not enough|inbalance|Illegal")


class Loader:
    """One ``dikcube`` process, started ahead of its cube, loading its tables meanwhile."""

    def __init__(self) -> None:
        self.program = Terminal.start([str(executable("dikcube")), "-p"])
        self.ready = False

    def wait(self, seconds: float) -> bool:
        """Whether it has loaded within ``seconds`` (it goes on loading if not)."""
        if not self.ready:
            try:
                self.program.read_until("Initialization done!", timeout=max(seconds, 0.001))
            except RuntimeError:
                return False
            self.ready = True
        return True


def main() -> None:
    current = [Loader()]
    current[0].wait(300)  # the first load is the solver's load, before the handshake

    def answer(request: dict) -> dict:
        limit = request.get("time_limit_s")
        deadline = time.monotonic() + (0.9 * limit if limit else 3600.0)
        loader = current[0]
        if not loader.wait(deadline - time.monotonic()):  # it keeps loading, for the next cube
            return {"moves": None, "reason": "time: its tables were still loading"}
        program = loader.program
        program.send(winter_net(request["facelets"]))
        assert program.process.stdin is not None
        program.process.stdin.close()  # it reads to the end of its input
        said = ""
        while True:
            try:
                said += program.read_until("\n", timeout=deadline - time.monotonic())
            except RuntimeError:
                if program.process.poll() is None:
                    return {"moves": None, "reason": "time: no solution by its deadline"}
                raise
            found = SOLUTION.search(said)
            if found is not None:
                tokens = found.group(1).split()
                return {"moves": " ".join(FACE[t[0]] + TURN[t[1]] for t in tokens)}
            if "Phase 1 is not needed" in said and "Phase 2 is not needed" in said:
                return {"moves": ""}  # solved
            if REFUSED.search(said):
                return {"moves": None, "reason": said.strip().splitlines()[-1][:200]}

    def next_cube() -> None:
        """After an answer: the process that read a cube is done; the next one starts
        loading now, so that the next cube finds it loaded if there is time."""
        if current[0].ready:
            current[0].program.kill()
            current[0] = Loader()

    serve_protocol("winter-kociemba", "1993 (passagemath-rubiks)", "htm", answer, next_cube)
    current[0].program.kill()


if __name__ == "__main__":
    sys.exit(main())
