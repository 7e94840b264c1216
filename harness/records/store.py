"""A run folder: ``manifest.json`` and the append-only ``records.jsonl``.

Each record is written and flushed the moment it is known, so a run killed at any point
keeps every finished instance, and ``bench run --resume`` skips them. A kill can at worst
leave one partial last line: a writer that takes the folder over ends it with its newline
when it holds a whole record and drops it otherwise, so reading and resuming agree on what
was finished. One process writes a folder at a time (:mod:`cubebench.harness.records.lock`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TextIO

from .lock import FolderLock
from .manifest import Manifest
from .schema import Record, RecordError, record_from_json

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"


class RunStore:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._handle: TextIO | None = None
        self._lock = FolderLock(self.folder)
        self._manifest: Manifest | None = None

    def lock(self) -> None:
        """Become the folder's one writer (it must exist), then mend a cut last line.

        Raises:
            RunLockedError: another live process writes the folder.
        """
        self._lock.acquire()
        self._mend_last_line(self.folder / RECORDS)

    @property
    def run_id(self) -> str:
        return self.folder.name

    def write_manifest(self, manifest: Manifest) -> Manifest:
        """Write ``manifest`` whole (never a half-written file); returns it, so a caller can
        keep the value it wrote."""
        tmp = self.folder / (MANIFEST + ".tmp")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(manifest.to_dict(), indent=1, sort_keys=False) + "\n")
            os.replace(tmp, self.folder / MANIFEST)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise RecordError(
                f"cannot write {self.folder / MANIFEST}: {exc.strerror or exc}"
            ) from None
        self._manifest = manifest
        return manifest

    def read_manifest(self) -> Manifest:
        """The run's manifest, checked and brought to this version's layout.

        Raises:
            RecordError: no manifest, an unreadable one, or a field of the wrong type.
        """
        path = self.folder / MANIFEST
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            raise RecordError(f"{self.folder} is not a run: no {MANIFEST}") from None
        except (OSError, ValueError) as exc:
            raise RecordError(f"{path} is unreadable: {exc}") from exc
        return Manifest.from_dict(data, path)

    @property
    def manifest(self) -> Manifest:
        """The manifest this store last wrote, else the one on disk: the run's writer and
        its sink change it one value after another, and neither may undo the other's."""
        if self._manifest is None:
            self._manifest = self.read_manifest()
        return self._manifest

    def read_records(self) -> list[Record]:
        path = self.folder / RECORDS
        if not path.exists():
            return []
        manifest = self.read_manifest()
        version = manifest.schema_version
        try:
            text = path.read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"{path} is unreadable: {exc}") from exc
        lines = text.split("\n")
        records: list[Record] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                records.append(record_from_json(line, version))
            except (ValueError, TypeError) as exc:
                if number == len(lines) and not text.endswith("\n"):
                    break  # the partial last line of a killed run: never a finished record
                raise RecordError(f"{path} line {number} is unreadable: {exc}") from exc
        _refuse_duplicates(records, path)
        strangers = sorted({r.entry for r in records} - set(manifest.solvers))
        strangers += sorted({r.suite for r in records} - set(manifest.suites))
        if strangers:
            raise RecordError(
                f"{path} names {strangers[0]!r}, which the run's manifest does not pin (the "
                "records of another run, or edited by hand)"
            )
        return records

    def append(self, record: Record) -> None:
        if self._handle is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / RECORDS
            if not self._lock.held:  # a locked store mended it when it took the lock
                self._mend_last_line(path)
            self._handle = path.open("a", encoding="utf-8")
        try:
            self._handle.write(record.to_json() + "\n")
            self._handle.flush()
        except OSError as exc:  # a full disk: what is cut off is mended by the next writer
            handle, self._handle = self._handle, None
            with contextlib.suppress(OSError):
                handle.close()  # its unwritten rest is dropped, not written again
            raise RecordError(
                f"cannot write {self.folder / RECORDS}: {exc.strerror or exc}; every record "
                f"before it is kept: bench run --resume {self.folder} goes on once it can"
            ) from None

    def _mend_last_line(self, path: Path) -> None:
        """A last line without its newline: end it if it is a whole record, else drop it.

        Reading counts such a line when it parses, so a resume must keep it: dropping it
        would lose an instance the resume had already counted as done.
        """
        if not path.exists():
            return
        data = path.read_bytes()
        if not data or data.endswith(b"\n"):
            return
        cut = data.rfind(b"\n") + 1
        try:
            version = self.read_manifest().schema_version
            record_from_json(data[cut:].decode(), version)
        except (ValueError, TypeError, RecordError):
            with path.open("r+b") as fh:
                fh.truncate(cut)
            return
        with path.open("ab") as fh:
            fh.write(b"\n")

    def close(self) -> None:
        """Close the records file and give up the writer's lock."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            try:
                handle.close()
            except OSError as exc:
                self._lock.release()
                raise RecordError(
                    f"cannot write {self.folder / RECORDS}: {exc.strerror or exc}"
                ) from None
        self._lock.release()


def _refuse_duplicates(records: list[Record], path: Path) -> None:
    seen: set[tuple] = set()
    for record in records:
        if record.key in seen:
            solver, suite, instance = record.key
            raise RecordError(
                f"{path} records {solver} on {suite} instance {instance} more than once "
                "(two processes wrote the folder at once?); it cannot be counted"
            )
        seen.add(record.key)
