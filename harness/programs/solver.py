"""A program as a solver: the adapter that speaks the protocol for the harness.

It behaves as any solver in a worker: loaded once (the program started and its handshake
read, the load timed), asked one cube at a time, judged by the harness. It owns the
program's clock: past the time limit and half the runner's grace it kills the program and
every process the program started, and the cube is a ``timeout``; a program that ends,
answers another id or writes what is not the protocol costs that cube an ``error``. Either
way it asks for a reload (:attr:`needs_reload`), which the worker runs before its next cube,
so the restart is charged to no cube.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..cube import FACES, NotationError
from ..cube.puzzle import puzzle, puzzle_of_stickers
from ..settings import SolverSettings
from ..solver import Attempt, Budget, SolverLoadError, kill_after
from .process import ProgramError, ProgramProcess, ProgramTimeoutError
from .protocol import Handshake, ProtocolError, parse_answer, request_line
from .spec import ProgramSpec, ProgramSpecError, read_program_spec


@dataclass(frozen=True)
class ProgramSettings(SolverSettings):
    program: str = ""

    OPTION_HELP: ClassVar[dict[str, str]] = {
        "program": "the program's TOML file (bench run -s ./my-solver.toml sets it)",
    }

    @classmethod
    def inert(cls) -> frozenset[str]:
        """A program takes its own options in its command; the harness seeds nothing."""
        return frozenset({"seed"})


class ProgramSolver:
    """Any executable that speaks the cubebench solver protocol, version 1.

    A plug-in (or a built-in) registers a program by a subclass that overrides
    :meth:`program_spec`, or sets :attr:`SPEC_FILE`; ``bench run -s FILE.toml`` runs this
    class with the ``program`` setting.
    """

    Settings = ProgramSettings
    SPEC_FILE: ClassVar[str | None] = None

    @classmethod
    def program_spec(cls, settings: ProgramSettings) -> ProgramSpec:
        """The program to run: the ``program`` setting's file, else the class's own."""
        path = settings.program or cls.SPEC_FILE
        if not path:
            raise ProgramSpecError(
                f"{cls.__name__}: no program; give its TOML file (bench run -s ./my-solver.toml)"
            )
        return read_program_spec(Path(path))

    def __init__(self, settings: ProgramSettings | None = None) -> None:
        self.settings = settings or self.Settings()
        self.spec = type(self).program_spec(self.settings)
        self.name = self.spec.name
        self.metric = self.spec.metric
        self.puzzles = self.spec.puzzles
        self.needs_reload = False
        self._asked = 0
        self._process = ProgramProcess(self.spec)
        handshake = self._start()
        program = self.spec.command[0]
        self.runtime_info: dict[str, Any] = {
            # the program itself: a driver's binary, else the command's executable
            "program": self.spec.identified_by[-1] if self.spec.identified_by else program,
            "program_name": handshake.name,
            "program_version": handshake.version,
            "executable_sha256": self.spec.executable_sha256(),
        }

    def _start(self) -> Handshake:
        try:
            handshake, self.load_s = self._process.start()
        except (ProgramError, ProtocolError) as exc:
            raise SolverLoadError(f"program {self.spec.command[0]}: {exc}") from None
        problem = None
        if handshake.metric != self.spec.metric:
            problem = f"announces metric {handshake.metric}, its file says {self.spec.metric}"
        elif self.spec.version is not None and handshake.version != self.spec.version:
            announced, filed = handshake.version, self.spec.version
            problem = f"announces version {announced!r}, its file says {filed!r}"
        elif missing := [p for p in self.spec.puzzles if p not in handshake.puzzles]:
            problem = f"solves {', '.join(handshake.puzzles)}, not {', '.join(missing)}"
        if problem is not None:
            self._process.kill()
            raise SolverLoadError(f"program {self.spec.name}: {problem}")
        self._name_puzzles = len(handshake.puzzles) > 1  # requests then say which
        return handshake

    def reload(self) -> None:
        """Start the program again after a cube it failed (a worker calls this between
        cubes, when :attr:`needs_reload` says so)."""
        self._start()
        self.needs_reload = False

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        if self.needs_reload:  # its restart failed: nothing to ask
            raise ProgramError("the program could not be started again")
        self._asked += 1
        request_id = str(self._asked)
        limit, cap = budget.wall_seconds, budget.wall_cap()
        # the program has half of the runner's grace to answer at its limit: the runner's own
        # kill (of the worker) comes after, so this adapter is the one that notices
        wait = math.inf if cap is None else cap + 0.5 * (kill_after(cap) - cap)
        cpu = math.inf
        if limit is not None and budget.clock == "cpu":
            cpu = limit + 0.5 * (kill_after(limit) - limit)
        size = puzzle(puzzle_of_stickers(cube.shape[0]))
        facelets = "".join(FACES[c] for c in cube)  # the facelet string of any size
        request = request_line(
            request_id, facelets, limit, budget.max_length,
            size.name if self._name_puzzles else None, budget.clock,
        )  # fmt: skip
        try:
            exchange = self._process.exchange(request, wait, cpu)
            answer = parse_answer(exchange.line, request_id)
        except ProgramTimeoutError as exc:
            self.needs_reload = True
            return Attempt((), info={"gave_up": f"time: {exc}"})
        except (ProgramError, ProtocolError) as exc:
            self._process.kill()
            self.needs_reload = True
            raise ProgramError(str(exc)) from None
        info: dict[str, Any] = {  # its CPU time is the record's own (cpu_s)
            **{k: v for k, v in answer.info.items() if k != "peak_rss_mb"},
            "peak_rss_mb": exchange.peak_rss_mb,
            "metric": self.metric,
        }
        if answer.moves is None:
            info["gave_up"] = answer.reason or "the program gave up"
            return Attempt((), answer.nodes, info=info)
        try:
            moves: tuple[Any, ...] = tuple(size.parse_moves(answer.moves))
        except NotationError as exc:
            info["notation"] = str(exc)[:200]
            moves = (answer.moves[:40],)  # the harness records it as illegal
        return Attempt(moves, answer.nodes, info=info)

    def close(self) -> None:
        self._process.close()

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None:
            process.kill()
