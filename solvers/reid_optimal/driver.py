"""Michael Reid's optimal solver (``optimal`` from passagemath-rubiks) behind the protocol.

The program builds its tables once at start (seconds here), then reads one cube a line in
Reid's cubie format and prints, as iterative deepening goes, each depth it completes and
every solution of the first depth that has one, with ``*`` on optimal lengths. The first
solution is an optimal one in quarter turns: it is the answer, and an interrupt (SIGINT,
which the program takes as "stop this cube") sends it back to its prompt. An interrupt that
arrives after the search ended waits in the program and stops the next cube at its first
solution, which is the answer then too.

    python -m cubebench.solvers.reid_optimal.driver
"""

from __future__ import annotations

import re
import signal
import sys

from ...harness import serve_protocol
from ..common.classic import Terminal, executable, reid_cube

PROMPT = "enter cube"
SOLUTION = re.compile(r"^\s*([LRUDBF'2 ]+?)\s+\((\d+)q\*?, (\d+)f\*?\)\s*$", re.M)
DEPTH = re.compile(r"depth\s+\d+q completed\s+\(\s*([\d,]+) nodes")


def main() -> None:
    program = Terminal.start([str(executable("optimal"))])
    program.read_until(PROMPT, timeout=600)  # the tables: ~10 s here, minutes on old machines

    searching: list[bool] = []  # a search stands at its first solution, to be stopped

    def answer(request: dict) -> dict:
        program.send(reid_cube(request["facelets"]))
        said = program.read_until("f)\n", "f*)\n", PROMPT)
        if said.endswith(PROMPT):  # no search: solved, or a cube it refuses
            if "already solved" in said:
                return {"moves": ""}
            lines = [line.strip() for line in said.splitlines() if line.strip()]
            return {"moves": None, "reason": "; ".join(lines[1:-1])[:200] or "refused"}
        found = SOLUTION.search(said)
        if found is None:
            raise RuntimeError(f"unexpected output {said[-120:]!r}")
        nodes = sum(int(n.replace(",", "")) for n in DEPTH.findall(said))
        searching.append(True)
        return {"moves": " ".join(found.group(1).split()), "nodes": nodes}

    def stop() -> None:
        """After an answer: its other solutions are not wanted."""
        if searching:
            searching.clear()
            program.process.send_signal(signal.SIGINT)
            program.read_until(PROMPT)

    serve_protocol("reid-optimal", "2004 (passagemath-rubiks)", "qtm", answer, stop)
    program.kill()


if __name__ == "__main__":
    sys.exit(main())
