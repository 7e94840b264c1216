"""One running program solver: started, handshaken, asked one cube at a time, killed whole.

The program runs in a session of its own, with the kernel told to kill it when the worker
that started it dies. Each exchange is timed from the request written to the answer read;
the program's CPU time (user + system, of every process it has running, and of those it
has reaped) and its peak resident memory are read from ``/proc`` around it.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from .. import processes
from .protocol import MAX_LINE_BYTES, Handshake, ProtocolError, parse_handshake, shown
from .spec import ProgramSpec


class ProgramError(RuntimeError):
    """The program ended, wrote what is not the protocol, or did not answer in time."""


class ProgramTimeoutError(ProgramError):
    """No answer by the deadline; the program has been killed."""


@dataclass(frozen=True)
class Exchange:
    """One request and its answer line, with what they cost the program."""

    line: bytes
    wall_s: float
    cpu_s: float
    peak_rss_mb: float


def _die_with_worker() -> None:  # pragma: no cover - runs in the child, before exec
    """The kernel kills the program when the worker that started it dies (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class ProgramProcess:
    """A started program; :meth:`start` waits for its handshake."""

    def __init__(self, spec: ProgramSpec, stderr: int | None = None) -> None:
        self.spec = spec
        self.stderr = stderr
        self.process: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> tuple[Handshake, float]:
        """Start the program and read its handshake; (the handshake, seconds it took).

        Raises:
            ProgramError: it could not start, ended, or sent no handshake in its load time.
            ProtocolError: its first line is not a handshake.
        """
        self.kill()
        env = {**os.environ, **self.spec.env}
        began = time.monotonic()
        try:
            self.process = subprocess.Popen(
                list(self.spec.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=self.spec.cwd,
                env=env,
                start_new_session=True,
                preexec_fn=_die_with_worker if sys.platform.startswith("linux") else None,
            )
        except OSError as exc:
            raise ProgramError(f"cannot start {self.spec.command[0]}: {exc.strerror}") from None
        self._buffer = b""
        line = self._read_line(began + self.spec.load_timeout_s, "its handshake")
        if line is None:
            self.kill()
            raise ProgramError(
                f"no handshake within {self.spec.load_timeout_s:g} s (load_timeout_s); the "
                "program was stopped"
            )
        try:
            handshake = parse_handshake(line)
        except ProtocolError:
            self.kill()
            raise
        return handshake, time.monotonic() - began

    def exchange(self, request: bytes, deadline_s: float, cpu_s: float = math.inf) -> Exchange:
        """Write ``request``; return the answer line read within ``deadline_s`` seconds of
        the wall clock and ``cpu_s`` seconds of the program's CPU time.

        Raises:
            ProgramTimeoutError: no line by then (the program is killed).
            ProgramError: the program ended or its line was too long (it is killed).
        """
        if self.process is None or self.process.stdin is None:
            raise ProgramError("the program is not running")
        pids = processes.tree(self.process.pid)
        processes.reset_peaks(pids)
        cpu_before = processes.cpu_seconds(pids)
        began = time.monotonic()
        try:
            self.process.stdin.write(request)
            self.process.stdin.flush()
        except OSError:
            code = self._ended()
            self.kill()
            raise ProgramError(f"the program ended before its request ({code})") from None
        pid = self.process.pid

        def over_cpu() -> bool:
            return processes.cpu_seconds(processes.tree(pid)) - cpu_before > cpu_s

        line = self._read_line(began + deadline_s, "its answer", over_cpu)
        wall = time.monotonic() - began
        pids = processes.tree(pid)
        cpu = max(processes.cpu_seconds(pids) - cpu_before, 0.0)
        peak = processes.peak_rss_bytes(pids) / 2**20
        if line is None:
            self.kill()
            raise ProgramTimeoutError(f"no answer after {wall:.1f} s; the program was killed")
        return Exchange(line, wall, round(cpu, 3), round(peak, 1))

    def _ended(self) -> str:
        code = self.process.poll() if self.process is not None else None
        if code is None:
            return "it is still running"
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit code {code}"

    def _read_line(
        self, deadline: float, what: str, stop: Callable[[], bool] | None = None
    ) -> bytes | None:
        """The next line, or None at the deadline (or once ``stop`` says so: checked ten
        times a second).

        Raises:
            ProgramError: the program ended first, or its line passed the longest read.
        """
        assert self.process is not None and self.process.stdout is not None
        out = self.process.stdout
        fd = out.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE_BYTES:
                    self.kill()
                    raise ProgramError(
                        f"{what} is longer than {MAX_LINE_BYTES} bytes: {shown(self._buffer)}"
                    )
                left = deadline - time.monotonic()
                if left <= 0 or (stop is not None and stop()):
                    return None
                if not selector.select(timeout=min(left, 0.1)):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    partial = f" after {shown(self._buffer)}" if self._buffer else ""
                    self.process.wait(timeout=5)
                    raise ProgramError(f"the program ended ({self._ended()}){partial}")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def kill(self) -> None:
        """Kill the program and every process it started; reap it."""
        if self.process is None:
            return
        processes.kill_tree(self.process.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self) -> None:
        """End of input: the program's cue to exit; killed if it has not within a second."""
        if self.process is None:
            return
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=1.0)
        self.kill()
        self.process = None
