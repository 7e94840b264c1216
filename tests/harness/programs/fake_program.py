"""A program solver that misbehaves in one way, chosen by its argument (the tests' fake).

``python fake_program.py MODE [ID]``: it speaks the protocol and answers with kociemba's
solution, except that on the request with id ``ID`` (every request where none is given) it
hangs, exits, answers another id, writes garbage, allocates past a memory limit, starts a
process of its own and hangs (its pid written to the file named third), or works 0.3 s of
CPU time before it answers. ``no-handshake`` and ``bad-handshake`` fail before the first request.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import kociemba

SOLVED = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


def answer(request: dict) -> dict:
    facelets = request["facelets"]
    moves = "" if facelets == SOLVED else kociemba.solve(facelets)
    return {"id": request["id"], "moves": moves, "nodes": 5, "seen_limit": request["time_limit_s"]}


def main() -> None:
    mode = sys.argv[1]
    when = sys.argv[2] if len(sys.argv) > 2 else None
    if mode == "no-handshake":
        time.sleep(3600)
    if mode == "bad-handshake":
        print("hello, I am a solver", flush=True)
        time.sleep(3600)
    print(json.dumps({"protocol": 1, "name": f"fake-{mode}", "version": "0.1", "metric": "htm"}))
    sys.stdout.flush()
    for line in sys.stdin:
        request = json.loads(line)
        if when is None or request["id"] == when:
            if mode == "hang":
                time.sleep(3600)
            elif mode == "exit":
                sys.exit(3)
            elif mode == "other-id":
                print(json.dumps({"id": "other", "moves": ""}), flush=True)
                continue
            elif mode == "garbage":
                print("garbage " * 100, flush=True)
                continue
            elif mode == "memory":
                hog = bytearray(700 * 2**20)
                hog[::4096] = b"x" * len(hog[::4096])  # touch every page
                time.sleep(3600)
            elif mode == "grandchild-hang":
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
                with open(sys.argv[3], "w") as fh:
                    fh.write(str(child.pid))
                time.sleep(3600)
            elif mode == "busy":
                end = time.process_time() + 0.3
                while time.process_time() < end:
                    pass
        print(json.dumps(answer(request)), flush=True)


if __name__ == "__main__":
    main()
