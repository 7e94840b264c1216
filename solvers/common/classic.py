"""The classic C solvers that ``passagemath-rubiks`` ships, as program solvers.

The wheel carries prebuilt executables (``sage_wheels/bin/``): Michael Reid's ``optimal``,
Dik Winter's ``dikcube`` and Eric Dietz's ``cubex``. Each built-in entry runs a small
Python driver (``python -m cubebench.solvers.NAME.driver``) that speaks the cubebench
protocol and translates the program's own formats, which Sage's
``sage/interfaces/rubik.py`` documents: Reid's cubie list, Winter's facelet net, Dietz's
colour string. Here are what they share: finding an executable, the entry's spec, the
formats, and a terminal for programs that write only to one (their C library buffers a
pipe's output until they exit).
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any, ClassVar

from ...harness import (
    CORNER_FACELETS,
    EDGE_FACELETS,
    ProgramSettings,
    ProgramSolver,
    ProgramSpec,
    SolverLoadError,
    serve_protocol,
)

DISTRIBUTION = "passagemath-rubiks"
FACES = "URFDLB"


@cache
def executable(name: str) -> Path:
    """The path of one of the wheel's programs.

    Raises:
        SolverLoadError: the wheel is not installed (``pip install 'cubebench[classic]'``),
            or it has no such program for this platform.
    """
    try:
        dist = distribution(DISTRIBUTION)
    except PackageNotFoundError:
        raise SolverLoadError(
            f"{name} comes with {DISTRIBUTION}, which is not installed: pip install "
            "'cubebench[classic]' (a 1 MB wheel, Linux and macOS)"
        ) from None
    for file in dist.files or []:
        if file.parts[-2:] == ("bin", name):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    raise SolverLoadError(f"{DISTRIBUTION} {dist.version} has no program {name!r} here")


class ClassicSettings(ProgramSettings):
    """A built-in program's settings: none of its own (its command is fixed)."""

    @classmethod
    def inert(cls) -> frozenset[str]:
        return frozenset({"seed", "program"})


class ClassicSolver(ProgramSolver):
    """A built-in entry that runs one of the wheel's programs through its driver."""

    Settings = ClassicSettings
    ENTRY: ClassVar[str] = ""
    PROGRAM: ClassVar[str] = ""
    DRIVER: ClassVar[str] = ""
    METRIC: ClassVar[str] = "htm"
    puzzles: ClassVar[tuple[str, ...]] = ("cube3",)

    @classmethod
    def program_spec(cls, settings: ProgramSettings) -> ProgramSpec:
        binary = executable(cls.PROGRAM)
        driver = sys.modules[cls.__module__].__file__ or ""
        driver_file = str(Path(driver).with_name("driver.py"))
        return ProgramSpec(
            name=cls.ENTRY,
            command=(sys.executable, "-m", cls.DRIVER),
            metric=cls.METRIC,  # the wheel's version is in the entry's origin (its extra)
            identified_by=(driver_file, str(binary)),
            puzzles=cls.puzzles,
        )


def _position_facelets(name: str) -> tuple[int, ...]:
    """The facelet indices of a corner or edge position named by its faces (``UFR``), in
    the order of the name's letters."""
    for piece in (*CORNER_FACELETS, *EDGE_FACELETS):
        faces = [FACES[i // 9] for i in piece]
        if sorted(faces) == sorted(name):
            return tuple(piece[faces.index(face)] for face in name)
    raise ValueError(f"no position {name}")


REID_EDGES = ("UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL")
REID_CORNERS = ("UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR")
REID_POSITIONS = REID_EDGES + REID_CORNERS
_REID = [_position_facelets(p) for p in REID_POSITIONS]


def reid_cube(facelets: str) -> str:
    """Reid's input: for each position in his order, the colours on its facelets, read in
    the order the position's name gives (a solved cube reads as the positions' names)."""
    return " ".join("".join(facelets[i] for i in piece) for piece in _REID)


_COLOUR_DIGITS = {"U": "1", "L": "2", "F": "3", "R": "4", "B": "5", "D": "6"}


def _faces(facelets: str) -> dict[str, str]:
    return {face: facelets[9 * k : 9 * k + 9] for k, face in enumerate(FACES)}


def winter_net(facelets: str) -> str:
    """Winter's input: the net as digits, the U face's rows, then each middle row across
    L F R B, then the D face's rows; colours 1-6 for U L F R B D."""
    face = _faces(facelets)
    rows = face["U"]
    for r in range(3):
        rows += "".join(face[f][3 * r : 3 * r + 3] for f in "LFRB")
    rows += face["D"]
    return "".join(_COLOUR_DIGITS[c] for c in rows)


def dietz_colours(facelets: str) -> str:
    """Dietz's input: the faces U L F R B D in turn, each row by row, colours 1-6 likewise
    (any size: ``cubex`` takes the 3×3×3's 54, ``cu2`` the 2×2×2's 24, ``mcube`` 96)."""
    per_face = len(facelets) // 6
    face = {f: facelets[per_face * k : per_face * (k + 1)] for k, f in enumerate(FACES)}
    return "".join(_COLOUR_DIGITS[c] for f in "ULFRBD" for c in face[f])


# Dietz's words for a quarter turn of a layer (``cu2``, ``mcube``), as the moves they are:
# each was read off the program's answer to a cube one known turn from solved
_DIETZ_TURNS = {
    "right up": "R", "right down": "R'", "left down": "L", "left up": "L'",
    "top left": "U", "top right": "U'", "bottom right": "D", "bottom left": "D'",
    "front clockwise": "F", "front anticlockwise": "F'",
    "back anticlockwise": "B", "back clockwise": "B'",
}  # fmt: skip
_DIETZ_REPORT = re.compile(r"^210 sending solution:(.*?)^211 completed solution", re.S | re.M)


def serve_dietz(entry: str, program: str, puzzle: str) -> None:
    """A driver's whole work for Dietz's ``cu2`` and ``mcube``: the protocol, with each cube
    on the program's command line (its colour digits) and its report read back."""
    path = str(executable(program))

    def answer(request: Mapping[str, Any]) -> dict:
        cube = dietz_colours(request["facelets"])
        done = subprocess.run(
            [path, cube], capture_output=True, text=True, timeout=3600, stdin=subprocess.DEVNULL
        )
        return dietz_answer(done.stdout)

    serve_protocol(entry, "1.0 (passagemath-rubiks)", "qtm", answer, puzzles=(puzzle,))


def dietz_answer(said: str) -> dict:
    """A ``cu2`` or ``mcube`` report as a protocol answer: its quarter turns (``inner``: the
    layer next to that face, ``2R``) in notation, or why there are none."""
    said = said.replace("*** press enter to continue ***", "\n")  # its pager's prompt
    found = _DIETZ_REPORT.search(said)
    if "200 cube solved ok." not in said or found is None:
        errors = [line for line in said.splitlines() if line[:1] == "5"]
        return {"moves": None, "reason": "; ".join(errors)[:200] or "no solution printed"}
    moves = []
    for line in found.group(1).splitlines():
        words = line.strip()
        if words:
            inner = words.startswith("inner ")
            moves.append(("2" if inner else "") + _DIETZ_TURNS[words.removeprefix("inner ")])
    return {"moves": " ".join(moves)}


@dataclass
class Terminal:
    """A program whose output goes to a pseudo-terminal, so that it writes each line as it
    prints it; what it has written is read with :meth:`read_until`."""

    process: subprocess.Popen[bytes]
    master: int
    text: str = ""

    @classmethod
    def start(cls, command: list[str]) -> Terminal:
        master, slave = pty.openpty()
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=slave, stderr=slave)
        os.close(slave)
        return cls(process, master)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def read_until(self, *marks: str, timeout: float = 3600.0) -> str:
        """Everything written up to and including the first of ``marks`` (the rest stays);
        raises :class:`RuntimeError` if the program ends or ``timeout`` passes first."""
        deadline = time.monotonic() + timeout
        while True:
            found = [(self.text.find(m), m) for m in marks if m in self.text]
            if found:
                at, mark = min(found)
                out, self.text = self.text[: at + len(mark)], self.text[at + len(mark) :]
                return out
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"no {marks[0]!r} within {timeout:g} s")
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 1 << 16)
                except OSError:  # the program ended: its terminal is gone
                    chunk = b""
                if not chunk:
                    raise RuntimeError(f"the program ended: {self.text[-200:]!r}")
                self.text += chunk.decode("utf-8", "replace").replace("\r", "")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.master)
