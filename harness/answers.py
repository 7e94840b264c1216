"""Answers as files: a documented format for solutions computed anywhere, read and written.

**cubebench answers, version 1** is JSON Lines. The first line is the submission's
metadata, the rest one cube a line::

    {"cubebench_answers": 1, "system": "my-solver", "version": "1.2", "metric": "qtm",
     "hardware": "one A100", "code": "https://...", "licence": "MIT", "command": "...",
     "suite": "random-state-v1", "suite_sha256": "...", "instances": 100}
    {"id": "17", "moves": "R U2 F'", "seconds": 1.5, "nodes": 123}

``system``, ``metric`` and ``hardware`` are required; ``suite_sha256`` is the sha256 of the
suite's file or of its cubes (``bench suites list`` prints them); ``instances`` declares a
prefix (the suite's first N cubes); ``times: "absent"`` declares that no line has seconds.
A line needs ``id`` and ``moves`` (``null`` for a cube it did not solve); ``seconds``,
``nodes`` and ``status`` (``unsolved``, ``timeout`` or ``error``: why it has none, or a
verdict worse than the replay's) are optional. Kaggle-style CSV, a header ``id,moves`` and
one row a cube, takes its metadata from options instead.

Everything is checked before anything is used: a file past :data:`MAX_FILE_BYTES`, a line
that is not UTF-8 or not JSON, an id twice or not in the suite, a token that is not a move,
a number out of range: each refuses the file in one line naming the line and the value.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .cube import NotationError, parse_moves
from .published_files import MAX_NODES, PublishedRunError
from .verify import MAX_ANSWER_MOVES

ANSWERS_VERSION: Final = 1
MAX_FILE_BYTES: Final = 64 * 2**20
REQUIRED: Final = ("system", "metric", "hardware")
META_KEYS: Final = (
    "cubebench_answers",
    *REQUIRED,
    "version",
    "code",
    "licence",
    "command",
    "suite",
    "suite_sha256",
    "instances",
    "times",
)
LINE_KEYS: Final = ("id", "moves", "seconds", "nodes", "status")
DECLARED: Final = ("unsolved", "timeout", "error")


class AnswersError(PublishedRunError):
    """An answers file that cannot be read; nothing was written."""


@dataclass(frozen=True)
class Answer:
    """One cube's answer as submitted: moves (None: not solved), and what it cost there."""

    id: int
    moves: tuple[int, ...] | None
    seconds: float | None = None
    nodes: int = 0
    status: str | None = None  # the submitter's verdict where it has no moves, or worse


@dataclass(frozen=True)
class Answers:
    meta: Mapping[str, Any]
    answers: tuple[Answer, ...] = field(default_factory=tuple)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_meta(meta: Mapping[str, Any], where: str, lenient: bool = False) -> dict[str, Any]:
    """The metadata, checked: known keys, the required ones as text (``lenient``: the
    checker's reading, which reports a missing one itself), a known metric."""
    unknown = sorted(set(meta) - set(META_KEYS))
    if unknown:
        known = ", ".join(META_KEYS)
        raise AnswersError(f"{where}: unknown metadata {unknown[0]!r}; known: {known}")
    for key in REQUIRED:
        missing = not isinstance(meta.get(key), str) or not str(meta[key]).strip()
        if missing and not (lenient and meta.get(key) is None):
            raise AnswersError(f"{where}: metadata {key!r} is required (text)")
    for key in META_KEYS[4:-2]:
        value = meta.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > 2000):
            raise AnswersError(f"{where}: metadata {key} = {_shown(value)} must be text")
    if meta.get("metric") not in ("htm", "qtm"):
        raise AnswersError(f"{where}: metric {_shown(meta['metric'])}: give htm or qtm")
    count = meta.get("instances")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise AnswersError(f"{where}: instances = {_shown(count)}: a whole number ≥ 1")
    if meta.get("times") not in (None, "absent"):
        raise AnswersError(f'{where}: times = {_shown(meta["times"])}: only "absent" is known')
    return dict(meta)


def _answer(data: Mapping[str, Any], where: str) -> Answer:
    unknown = sorted(set(data) - set(LINE_KEYS))
    if unknown:
        raise AnswersError(f"{where}: unknown field {unknown[0]!r}; known: {', '.join(LINE_KEYS)}")
    raw_id = data.get("id")
    if isinstance(raw_id, bool) or not isinstance(raw_id, str | int):
        raise AnswersError(f"{where}: id {_shown(raw_id)} must be the instance's id")
    text_id = str(raw_id).strip()
    if not text_id.isdigit() or len(text_id) > 10 or not text_id.isascii():
        raise AnswersError(f"{where}: id {_shown(raw_id)} is not an instance id (a whole number)")
    if "moves" not in data:
        raise AnswersError(f"{where}: no 'moves' (give null for a cube not solved)")
    text = data["moves"]
    moves: tuple[int, ...] | None = None
    if text is not None:
        if not isinstance(text, str) or len(text) > 6 * MAX_ANSWER_MOVES:
            raise AnswersError(f"{where}: moves {_shown(text)} must be text or null")
        try:
            moves = tuple(parse_moves(text))
        except NotationError as exc:
            raise AnswersError(f"{where}: moves: {exc}") from None
        if len(moves) > MAX_ANSWER_MOVES:
            raise AnswersError(f"{where}: {len(moves)} moves, over the {MAX_ANSWER_MOVES} replayed")
    seconds = data.get("seconds")
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or seconds < 0
    ):
        raise AnswersError(f"{where}: seconds {_shown(seconds)}: a finite time of 0 s or more")
    nodes = data.get("nodes", 0)
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 0 <= nodes <= MAX_NODES:
        raise AnswersError(f"{where}: nodes {_shown(nodes)}: a whole number from 0")
    status = data.get("status")
    if status is not None and status not in DECLARED:
        raise AnswersError(f"{where}: status {_shown(status)}: give {', '.join(DECLARED)}")
    return Answer(int(text_id), moves, None if seconds is None else float(seconds), nodes, status)


def _lines(path: Path) -> list[str]:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise AnswersError(f"{path}: {exc.strerror or exc}") from None
    if not path.is_file() or size > MAX_FILE_BYTES:
        raise AnswersError(f"{path}: not a file of answers (at most {MAX_FILE_BYTES >> 20} MB)")
    data = path.read_bytes()
    lines = data.split(b"\n")
    out = []
    for number, line in enumerate(lines, start=1):
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise AnswersError(f"{path} line {number}: not UTF-8 (byte {exc.start})") from None
    return out


def _unique(answers: list[Answer], where: str) -> tuple[Answer, ...]:
    seen: set[int] = set()
    for answer in answers:
        if answer.id in seen:
            raise AnswersError(f"{where}: id {answer.id} is answered twice")
        seen.add(answer.id)
    return tuple(answers)


def read_answers(
    path: Path, meta: Mapping[str, Any] | None = None, *, lenient: bool = False
) -> Answers:
    """An answers file: JSON Lines (metadata first), or CSV (``.csv``) with ``meta`` given.
    ``lenient``: a missing ``system`` or ``hardware`` and an id answered twice are left for
    the submission checker to report.

    Raises:
        AnswersError: see the module's description.
    """
    path = Path(path)
    lines = _lines(path)
    if path.suffix.lower() == ".csv":
        return _read_csv(path, "\n".join(lines), meta or {})
    rows = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not rows:
        raise AnswersError(f"{path}: empty; the first line is the metadata")
    parsed = []
    for number, line in rows:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AnswersError(f"{path} line {number}: not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise AnswersError(f"{path} line {number}: not a JSON object")
        parsed.append((number, data))
    (first, head), body = parsed[0], parsed[1:]
    if head.get("cubebench_answers") != ANSWERS_VERSION:
        raise AnswersError(
            f"{path} line {first}: the first line must be the metadata, with "
            f'"cubebench_answers": {ANSWERS_VERSION}'
        )
    merged = check_meta({**head, **(meta or {})}, f"{path} line {first}", lenient)
    answers = [_answer(data, f"{path} line {n}") for n, data in body]
    return Answers(merged, tuple(answers) if lenient else _unique(answers, str(path)))


def _read_csv(path: Path, text: str, meta: Mapping[str, Any]) -> Answers:
    merged = check_meta({"cubebench_answers": ANSWERS_VERSION, **meta}, f"{path} (the options)")
    try:
        reader = csv.DictReader(io.StringIO(text))
        header = reader.fieldnames or []
        if "id" not in header or "moves" not in header:
            raise AnswersError(f"{path} line 1: the header must name id and moves (id,moves)")
        rows = list(reader)
    except csv.Error as exc:
        raise AnswersError(f"{path}: not CSV ({exc})") from None
    answers = []
    for number, row in enumerate(rows, start=2):
        data: dict[str, Any] = {"id": row.get("id"), "moves": row.get("moves") or None}
        if row.get("seconds"):
            try:
                data["seconds"] = float(row["seconds"])
            except ValueError:
                raise AnswersError(f"{path} line {number}: seconds {row['seconds']!r}") from None
        answers.append(_answer(data, f"{path} line {number}"))
    return Answers(merged, _unique(answers, str(path)))


def write_answers(path: Path, answers: Answers) -> None:
    """The JSON Lines form, written beside and renamed into place (never half a file)."""
    from .cube import format_moves

    lines = [json.dumps({"cubebench_answers": ANSWERS_VERSION, **answers.meta})]
    for a in answers.answers:
        line: dict[str, Any] = {"id": str(a.id), "moves": None}
        if a.moves is not None:
            line["moves"] = format_moves(list(a.moves))
        if a.seconds is not None:
            line["seconds"] = a.seconds
        if a.nodes:
            line["nodes"] = a.nodes
        if a.status is not None:
            line["status"] = a.status
        lines.append(json.dumps(line))
    temporary = path.with_name(f".{path.name}.writing")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    temporary.replace(path)
