"""A run folder: ``manifest.json`` and the append-only ``records.jsonl``.

Each record is written and flushed the moment it is known, so a run killed at any point
keeps every finished instance, and ``bench run --resume`` skips them. A kill can at worst
leave one partial last line, which reading tolerates (it was never a finished record).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from cubebench.harness.records.schema import SCHEMA_VERSION, Record, RecordError, record_from_json

MANIFEST = "manifest.json"
RECORDS = "records.jsonl"


class RunStore:
    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._handle: TextIO | None = None

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
        records = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                records.append(record_from_json(line, version))
            except (ValueError, TypeError) as exc:
                if number == len(lines) and not text.endswith("\n"):
                    break  # the partial last line of a killed run: never a finished record
                raise RecordError(f"{path} line {number} is unreadable: {exc}") from exc
        return records

    def append(self, record: Record) -> None:
        if self._handle is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / RECORDS
            self._drop_partial_line(path)
            self._handle = path.open("a", encoding="utf-8")
        self._handle.write(record.to_json() + "\n")
        self._handle.flush()

    @staticmethod
    def _drop_partial_line(path: Path) -> None:
        if not path.exists():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            path.write_bytes(data[: data.rfind(b"\n") + 1])

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
