"""A run folder: ``manifest.json`` and the append-only ``records.jsonl``.

Each record is written and flushed the moment it is known, so a run killed at any point
keeps every finished instance, and ``bench run --resume`` skips them. A kill can at worst
leave one partial last line: a writer that takes the folder over ends it with its newline
when it holds a whole record and drops it otherwise, so reading and resuming agree on what
was finished. One process writes a folder at a time (:mod:`cubebench.harness.records.lock`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from .lock import FolderLock
from .schema import SCHEMA_VERSION, Record, RecordError, record_from_json

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"


class RunStore:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._handle: TextIO | None = None
        self._lock = FolderLock(self.folder)

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

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n")
        os.replace(tmp, self.folder / MANIFEST)  # never a half-written manifest

    def read_manifest(self) -> dict[str, Any]:
        path = self.folder / MANIFEST
        try:
            manifest = json.loads(path.read_text())
        except FileNotFoundError:
            raise RecordError(f"{self.folder} is not a run: no {MANIFEST}") from None
        except (OSError, ValueError) as exc:
            raise RecordError(f"{path} is unreadable: {exc}") from exc
        if not isinstance(manifest, dict) or "schema_version" not in manifest:
            raise RecordError(f"{path} has no schema_version; not a cubebench manifest")
        check_manifest(manifest, path)
        return manifest

    def read_records(self) -> list[Record]:
        path = self.folder / RECORDS
        if not path.exists():
            return []
        version = int(self.read_manifest().get("schema_version", SCHEMA_VERSION))
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
        return records

    def append(self, record: Record) -> None:
        if self._handle is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / RECORDS
            if not self._lock.held:  # a locked store mended it when it took the lock
                self._mend_last_line(path)
            self._handle = path.open("a", encoding="utf-8")
        self._handle.write(record.to_json() + "\n")
        self._handle.flush()

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
            version = int(self.read_manifest().get("schema_version", SCHEMA_VERSION))
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
            self._handle.close()
            self._handle = None
        self._lock.release()


_MANIFEST_TYPES: dict[str, type | tuple[type, ...]] = {
    "schema_version": int,
    "run_id": str,
    "command": list,
    "config": dict,
    "suites": dict,
    "solvers": dict,
    "machine": dict,
    "git": dict,
    "packages": dict,
    "resumed": list,
}


def check_manifest(manifest: dict[str, Any], path: Path) -> None:
    """The fields every reader relies on, of the types they expect: a hand-edited or
    damaged manifest is refused in one line naming the field, as a bad record is.

    Raises:
        RecordError: naming the file, the field and what it holds.
    """
    for key, kind in _MANIFEST_TYPES.items():
        if key not in manifest:
            continue  # readers that need a field ask for it (a lock test's manifest has few)
        value = manifest[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError(
                f"{path}: {key} is {type(value).__name__} {str(value)[:40]!r}, "
                f"not a {getattr(kind, '__name__', kind)}"
            )
    for key in ("suites", "solvers"):
        for name, entry in manifest.get(key, {}).items():
            if not isinstance(entry, dict):
                raise RecordError(f"{path}: {key}.{name} is not an object")
    for name, entry in manifest.get("suites", {}).items():
        if not isinstance(entry.get("sha256"), str):
            raise RecordError(f"{path}: suites.{name}.sha256 is missing or not text")


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
