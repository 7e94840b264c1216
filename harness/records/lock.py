"""One writer per run folder: an operating-system lock on a file inside it.

Two processes appending to one ``records.jsonl`` would record instances twice, so whoever
writes a run folder (a new run, a resume) holds an exclusive, non-blocking lock on
``.writer.lock`` first. The operating system drops the lock when the process dies, however
it dies, so a run killed with SIGKILL can still be resumed; a second writer is refused with
the holder's pid. The file is removed on a clean release; one left by a killed run is reused.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from .schema import RecordError

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

LOCK_FILE = ".writer.lock"
_WINDOWS_LOCK_OFFSET = 1 << 20  # lock a byte past the pid so that it stays readable


class RunLockedError(RecordError):
    """Another process is writing this run folder."""


class FolderLock:
    """The exclusive writer's lock of one run folder (the folder must exist), or of a folder
    that is built elsewhere and swapped in (``path``: a lock file beside it)."""

    def __init__(self, folder: Path, path: Path | None = None) -> None:
        self.folder = Path(folder)
        self.path = Path(path) if path is not None else self.folder / LOCK_FILE
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise :class:`RunLockedError` naming the holder's pid."""
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise RecordError(
                    f"cannot write run folder {self.folder}: {exc.strerror or exc}"
                ) from None
            if not _try_lock(fd):
                holder = _read_pid(fd)
                os.close(fd)
                what = "run folder" if self.path.parent == self.folder else "folder"
                raise RunLockedError(
                    f"{what} {self.folder} is being written by pid {holder}; "
                    f"a {what} has one writer"
                )
            # the holder before us may have removed the file between our open and our lock:
            # then we locked a file nobody else can see, so try again on the current one
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Remove the lock file and drop the lock (removal first, while still held)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self._fd)  # closing drops the lock
        self._fd = None


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    os.lseek(fd, 0, os.SEEK_SET)
    return True


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    except (OSError, AttributeError):
        text = ""
    return text if text.isdigit() else "(unknown)"
