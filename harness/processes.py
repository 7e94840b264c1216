"""A process and everything it started, read and ended through Linux's ``/proc``.

A worker that runs a program solver has children of its own, and the program may have
more; the harness counts their memory against the run's limit, their CPU time into the
record, and kills all of them when it kills the worker. Where ``/proc`` says nothing (not
Linux, a process gone meanwhile), each function gives what it could read: no process is
ever counted twice, and a vanished one is no error.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterable

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as fh:
                found += [int(p) for p in fh.read().split()]
    return found


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid``, parents before their children."""
    out: list[int] = []
    todo = _children(pid)
    while todo:
        child = todo.pop(0)
        if child not in out:
            out.append(child)
            todo += _children(child)
    return out


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    return [pid, *descendants(pid)]


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            text = fh.read()
    except OSError:
        return None
    # the command name, in parentheses, may hold spaces: fields start after the last ')'
    return text[text.rfind(")") + 2 :].split()


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU time of ``pids`` and of the children they have reaped."""
    total = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None:
            # utime, stime, cutime, cstime: fields 14-17 of proc(5), 11-14 after the name
            total += sum(int(v) for v in fields[11:15])
    return total / _TICKS


def rss_bytes(pids: Iterable[int]) -> int:
    """Resident memory of ``pids`` now, in bytes."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/statm") as fh:
            total += int(fh.read().split()[1]) * _PAGE
    return total


def reset_peaks(pids: Iterable[int]) -> None:
    """Start each process's peak resident size again from now (``clear_refs`` 5)."""
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/clear_refs", "w") as fh:
            fh.write("5")


def peak_rss_bytes(pids: Iterable[int]) -> int:
    """The sum of each process's peak resident size (``VmHWM``) since its last reset."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1]) * 1024
                    break
    return total


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and every process below it, and the process groups they lead (a
    program that started its helpers in a group of their own). Children are listed first,
    since a parent killed first leaves them to init, out of sight."""
    for target in reversed(tree(pid)):
        with contextlib.suppress(OSError):
            if os.getpgid(target) == target:
                os.killpg(target, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(target, signal.SIGKILL)
