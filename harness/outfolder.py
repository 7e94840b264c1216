"""A folder cubebench writes whole and owns: a report, a site.

A report or site is built beside its folder, in a fresh hidden folder, and swapped in when
it is complete, so a reader never sees half of one and a killed build leaves the old one.
The folder then holds a marker, :data:`MARKER`, that lists every file the build wrote. A
later build replaces only such a folder, and only while it holds nothing but those files:

- a folder that does not exist, or is empty, is made and owned;
- a folder with anything else in it (the user's files, run folders, a file of an earlier
  build's name that the marker does not list, a symbolic link) is refused, in one line that
  names what is there, before any work: nothing of it is read, followed, moved or deleted;
- ``--out`` that is the working directory or holds it, the root, the home folder, or a
  symbolic link is refused.

Two builds of one folder at once: the second is refused (a lock file beside the folder).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import InputError
from .records.lock import FolderLock

MARKER = ".cubebench-owned"
"""JSON: ``{"cubebench": KIND, "files": [relative paths]}``, written last by each build."""


class OutFolderError(InputError):
    """An output folder cubebench may not write: the user's, or not a folder at all."""


def _shown(path: Path | str) -> str:
    text = str(path)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def check_out_folder(out: Path | str, option: str = "--out") -> Path:
    """Refuse an output folder a build may not own; returns it as a path.

    Raises:
        OutFolderError: see the module's description; the message names the value.
    """
    if isinstance(out, str) and not out.strip():
        raise OutFolderError(f"{option} {out!r}: give a folder")
    path = Path(out)
    here = Path.cwd().resolve()
    if path.is_symlink():
        raise OutFolderError(f"{option} {_shown(path)} is a symbolic link; give the folder itself")
    full = path.resolve()
    if full == here or full in here.parents:
        raise OutFolderError(
            f"{option} {_shown(path)} is the working directory or holds it; give a folder "
            "of its own"
        )
    if full == Path(full.anchor) or full == Path.home().resolve():
        raise OutFolderError(f"{option} {_shown(path)}: give a folder of its own")
    if path.exists() and not path.is_dir():
        raise OutFolderError(f"{option} {_shown(path)} is a file; give a folder")
    existing = next(p for p in (full, *full.parents) if p.exists())
    if existing != full and not existing.is_dir():
        raise OutFolderError(f"cannot write {option} {_shown(path)}: {existing} is a file")
    if not os.access(existing if existing != full else full.parent, os.W_OK | os.X_OK):
        raise OutFolderError(f"cannot write {option} {_shown(path)}: permission denied")
    if path.is_dir():
        foreign = _foreign(path)
        if foreign is not None:
            raise OutFolderError(
                f"{option} {_shown(path)} holds {foreign}, which cubebench did not write; "
                "give a new or empty folder (nothing in it was changed)"
            )
    return path


def _listed(folder: Path) -> set[str] | None:
    """The files the marker of ``folder`` lists; None where it has no readable marker."""
    marker = folder / MARKER
    if marker.is_symlink() or not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return set(files)


def _foreign(folder: Path) -> str | None:
    """The first thing in ``folder`` that a build of cubebench did not write (a description
    for the error), or None when the folder is empty or holds only what its marker lists."""
    entries = sorted(folder.iterdir())
    if not entries:
        return None
    listed = _listed(folder)
    if listed is None:
        first = entries[0].name
        more = f" and {len(entries) - 1} more" if len(entries) > 1 else ""
        return f"{first!r}{more}"
    parents = {str(Path(f).parent) for f in listed}
    parents |= {str(p) for f in listed for p in Path(f).parents}
    for root, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            full = Path(root, name)
            rel = full.relative_to(folder).as_posix()
            if full.is_symlink():
                return f"the symbolic link {rel!r}"
            if name in dirs and rel not in parents:
                return f"the folder {rel!r}"
            if name in files and rel not in listed and rel != MARKER:
                return f"{rel!r}"
    return None


@contextlib.contextmanager
def building(out: Path, kind: str, option: str = "--out") -> Iterator[Path]:
    """Yield a fresh folder beside ``out`` to build into; on success it replaces ``out``.

    ``out`` is checked first (:func:`check_out_folder`) and again under the lock, just
    before the swap; on any failure the fresh folder is removed and ``out`` is untouched.

    Raises:
        OutFolderError: ``out`` may not be owned, or another build holds it.
    """
    out = check_out_folder(out, option)
    parent = out.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutFolderError(
            f"cannot write {option} {_shown(out)}: {exc.strerror or exc}"
        ) from None
    lock = FolderLock(out, parent / f".{out.name}.cubebench-lock")
    try:
        lock.acquire()
    except InputError as exc:
        raise OutFolderError(f"{option} {_shown(out)}: {exc}") from None
    try:
        _remove_stale_builds(parent, out.name)
        try:
            fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=parent))
        except OSError as exc:
            raise OutFolderError(
                f"cannot write {option} {_shown(out)}: {exc.strerror or exc}"
            ) from None
        _write_marker(fresh, kind, building=True)
        try:
            yield fresh
            _write_marker(fresh, kind, building=False)
            check_out_folder(out, option)  # nobody wrote into it meanwhile
            try:
                _swap(fresh, out)
            except OSError as exc:
                raise OutFolderError(
                    f"cannot replace {option} {_shown(out)}: {exc.strerror or exc}"
                ) from None
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
    finally:
        lock.release()


def _write_marker(folder: Path, kind: str, building: bool) -> None:
    files = sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink() and p.name != MARKER
    )
    data = {"cubebench": kind, "building": building, "files": [] if building else files}
    (folder / MARKER).write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")


def _swap(fresh: Path, out: Path) -> None:
    """``fresh`` takes ``out``'s place; an old build of ours is moved aside, then removed."""
    if not out.exists():
        os.rename(fresh, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.absolute().parent))
    os.rename(out, old / "build")
    os.rename(fresh, out)
    shutil.rmtree(old, ignore_errors=True)


def _remove_stale_builds(parent: Path, name: str) -> None:
    """Folders an earlier build of ``name`` was killed in (under the lock, nobody else's
    build is under way): each is removed only where it carries our marker."""
    for stale in parent.glob(f".{name}.building-*"):
        if stale.is_dir() and not stale.is_symlink() and (stale / MARKER).is_file():
            shutil.rmtree(stale, ignore_errors=True)
    for stale in parent.glob(f".{name}.old-*"):
        build = stale / "build"
        if stale.is_dir() and not stale.is_symlink() and (build / MARKER).is_file():
            shutil.rmtree(stale, ignore_errors=True)
