"""Suite instances and the JSONL file form that other tools read.

A suite file holds one JSON object per line with at least ``id`` and ``facelets`` and, where
known, ``scramble``, ``depth``, ``optimal_htm``, ``optimal_qtm``, and ``optimal_htm_min`` or
``optimal_qtm_min`` (a lower bound when the exact optimum in that metric is not known). A
suite is pinned by the sha256 of its file bytes; results record that hash and are only
compared within it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..cube import (
    InvalidCubeError,
    NotationError,
    facelets_to_state,
    length_htm,
    length_qtm,
)
from ..cube.pieces import facelets_to_state as puzzle_facelets_to_state
from ..cube.puzzle import DEFAULT_PUZZLE, Puzzle, PuzzleError, puzzle, puzzle_of_meta
from ..errors import InputError

_FIELDS = (
    "id",
    "facelets",
    "scramble",
    "depth",
    "optimal_htm",
    "optimal_htm_min",
    "optimal_qtm",
    "optimal_qtm_min",
)


class SuiteError(InputError):
    """A suite that cannot be used: unknown, malformed, or not the file its hash pins."""


@dataclass(frozen=True)
class Instance:
    """One cube of a suite. Solvers see only ``facelets``; the rest is for the harness."""

    id: int
    facelets: str
    scramble: str | None = None
    depth: int | None = None
    optimal_htm: int | None = None
    optimal_htm_min: int | None = None
    optimal_qtm: int | None = None
    optimal_qtm_min: int | None = None

    def to_json(self) -> str:
        data = {k: v for k, v in asdict(self).items() if v is not None}
        return json.dumps(data, separators=(", ", ": "))


@dataclass(frozen=True)
class Suite:
    """A named, hashed list of instances."""

    name: str
    instances: tuple[Instance, ...]
    sha256: str
    meta: dict = field(default_factory=dict)
    count: int | None = None  # instances in the file, when only the first ones were read
    known_states_sha256: str | None = None  # the registry's, when only the first were read

    def __len__(self) -> int:
        return len(self.instances)

    @property
    def total(self) -> int:
        """Instances in the suite's file (``len`` counts those read)."""
        return len(self.instances) if self.count is None else self.count

    @property
    def states_sha256(self) -> str:
        """sha256 of the sorted facelet strings: the same cubes give the same value whatever
        their order, ids, extra fields or the format they were imported from."""
        if self.known_states_sha256 is not None:
            return self.known_states_sha256
        return states_digest(self.instances)

    @property
    def puzzle(self) -> str:
        """The cube size its instances are: ``cube3`` unless its registry entry names one."""
        return puzzle_of_meta(self.meta)

    def states(self) -> np.ndarray:
        """(S, N) uint8 batch of every instance's state (S = 54 on the 3×3×3), in order."""
        if self.puzzle == DEFAULT_PUZZLE:
            read = [facelets_to_state(i.facelets, validate=False) for i in self.instances]
        else:
            cube = puzzle(self.puzzle)
            read = [
                puzzle_facelets_to_state(cube, i.facelets, validate=False) for i in self.instances
            ]
        return np.stack(read, 1)


def serialize(instances: Iterable[Instance]) -> bytes:
    """The canonical file bytes of a suite (what its sha256 is taken over)."""
    return "".join(inst.to_json() + "\n" for inst in instances).encode()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def states_digest(instances: Iterable[Instance]) -> str:
    """See :attr:`Suite.states_sha256`."""
    return sha256_bytes("\n".join(sorted(i.facelets for i in instances)).encode())


def parse_instances(
    data: bytes, source: str, limit: int | None = None, puzzle_name: str = DEFAULT_PUZZLE
) -> tuple[Instance, ...]:
    """Parse and check suite file bytes of ``puzzle_name``; errors name ``source``, the line.

    Every state is validated, and where a scramble is given it must produce the state.
    ``limit``: stop after that many instances (the rest is neither parsed nor checked).

    Raises:
        SuiteError: for bad JSON, missing or unknown fields, an impossible cube, a scramble
            that does not produce its facelets, or duplicate ids.
    """
    instances = []
    seen: set[int] = set()
    try:
        text = data.decode()
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    try:
        cube = puzzle(puzzle_name)
    except PuzzleError as exc:
        raise SuiteError(f"{source}: {exc}") from None
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source} line {line_no}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SuiteError(f"{where}: not JSON ({exc.msg})") from exc
        if not isinstance(obj, dict) or "id" not in obj or "facelets" not in obj:
            raise SuiteError(f"{where}: each line needs an object with 'id' and 'facelets'")
        unknown = set(obj) - set(_FIELDS)
        if unknown:
            raise SuiteError(f"{where}: unknown fields {sorted(unknown)}")
        inst = _check_instance(obj, where, cube)
        if inst.id in seen:
            raise SuiteError(f"{where}: duplicate id {inst.id}")
        seen.add(inst.id)
        instances.append(inst)
        if limit is not None and len(instances) >= limit:
            break
    if not instances:
        raise SuiteError(f"{source}: no instances")
    return tuple(instances)


def _check_instance(obj: dict, where: str, cube: Puzzle) -> Instance:
    for key in (*_FIELDS[3:], "id"):
        value = obj.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise SuiteError(f"{where}: {key} must be an integer, got {value!r}")
    try:
        if cube.name == DEFAULT_PUZZLE:
            state = facelets_to_state(obj["facelets"])
        else:
            state = puzzle_facelets_to_state(cube, obj["facelets"])
    except InvalidCubeError as exc:
        raise SuiteError(f"{where} (id {obj['id']}): {exc}") from exc
    scramble = obj.get("scramble")
    if scramble is not None:
        if not isinstance(scramble, str) or len(scramble) > 4 * MAX_SCRAMBLE_MOVES:
            raise SuiteError(
                f"{where} (id {obj['id']}): a scramble is text of at most "
                f"{MAX_SCRAMBLE_MOVES} moves"
            )
        try:
            moves = cube.parse_moves(scramble)
        except NotationError as exc:
            raise SuiteError(f"{where} (id {obj['id']}): scramble: {exc}") from exc
        reached = cube.apply(cube.solved, moves)
        if not np.array_equal(reached, state):
            shown = "".join("URFDLB"[c] for c in reached)
            raise SuiteError(
                f"{where} (id {obj['id']}): the scramble gives {shown}, "
                f"not the instance's facelets {obj['facelets']}"
            )
    instance = Instance(**obj)
    check_optima(instance, f"{where} (id {obj['id']})", cube.name)
    return instance


MAX_SCRAMBLE_MOVES = 1000
"""The longest scramble a suite holds: far past any distance (20 face turns), short enough
that reading, showing and replaying one costs nothing."""

DIAMETER = {"htm": 20, "qtm": 26}
"""The cube group's diameter in each metric: no position is farther from solved."""
DIAMETERS = {"cube2": {"htm": 11, "qtm": 14}, "cube3": DIAMETER, "cube4": {"htm": 99, "qtm": 199}}
"""Each puzzle's: the 4×4×4's are unknown, so its bound is only a sanity check."""


def check_optima(instance: Instance, where: str, puzzle_name: str = DEFAULT_PUZZLE) -> None:
    """An optimum or lower bound is a length: 0 or more, within the metric's diameter, and
    no longer than the instance's own scramble in that metric (which solves it reversed).

    Raises:
        SuiteError: naming the field, its value and the bound it breaks.
    """
    cube = puzzle(puzzle_name)
    scramble = cube.parse_moves(instance.scramble) if instance.scramble else None

    def count(moves: list[int], metric: str) -> int:
        if cube.name == DEFAULT_PUZZLE:  # the engine's, the same lengths without the lookups
            return length_htm(moves) if metric == "htm" else length_qtm(moves)
        return cube.length(moves, metric)

    for metric in ("htm", "qtm"):
        for key in (f"optimal_{metric}", f"optimal_{metric}_min"):
            value = getattr(instance, key)
            if value is None:
                continue
            bound = DIAMETERS[cube.name][metric]
            if not 0 <= value <= bound:
                raise SuiteError(
                    f"{where}: {key}={value} is not a length from 0 to {bound} "
                    f"(the {metric.upper()} diameter)"
                )
            if scramble is not None and value > count(scramble, metric):
                raise SuiteError(
                    f"{where}: {key}={value} is longer than the instance's own scramble "
                    f"({count(scramble, metric)} {metric.upper()}), which solves it reversed"
                )


def with_proved(instance: Instance, other: Instance) -> Instance:
    """``instance`` with what ``other`` (the same cube) proved and it lacks: an exact optimum
    replaces a lower bound, and of two lower bounds the larger is kept."""
    changes: dict[str, int | None] = {}
    for metric in ("htm", "qtm"):
        exact, low = f"optimal_{metric}", f"optimal_{metric}_min"
        if getattr(instance, exact) is not None:
            continue
        if getattr(other, exact) is not None:
            changes |= {exact: getattr(other, exact), low: None}
        elif getattr(other, low) is not None:
            changes[low] = max(getattr(instance, low) or 0, getattr(other, low))
    return replace(instance, **changes)  # type: ignore[arg-type]


def read_suite_file(
    path: Path,
    name: str,
    expected_sha256: str | None,
    meta: dict,
    *,
    limit: int | None = None,
    known_states_sha256: str | None = None,
    restore_hint: str = "restore it or import it again under a new name",
) -> Suite:
    """Read a suite file, refusing it when its bytes do not match the pinned hash.

    ``limit`` with ``known_states_sha256`` (the registry's): only the first ``limit``
    instances are parsed; the hash still covers the whole file, which is cheap, while parsing
    a million instances is not.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SuiteError(f"suite {name}: cannot read {path}: {exc.strerror}") from exc
    digest = sha256_bytes(data)
    if expected_sha256 is not None and digest != expected_sha256:
        raise SuiteError(
            f"suite {name}: {path} has sha256 {digest[:12]}… but the registry pins "
            f"{expected_sha256[:12]}…; the file was changed or corrupted: {restore_hint}"
        )
    size = puzzle_of_meta(meta)
    if limit is not None and known_states_sha256 is not None:
        instances = _parse_once(data, str(path), limit, size)
        count = sum(1 for line in data.splitlines() if line.strip())
        return Suite(name, instances, digest, meta, count, known_states_sha256)
    return Suite(name, _parse_once(data, str(path), None, size), digest, meta)


_REMEMBERED_BYTES = 2**20
"""A file larger than this is parsed on every load rather than held in memory."""


def _parse_once(
    data: bytes, source: str, limit: int | None, puzzle_name: str
) -> tuple[Instance, ...]:
    """:func:`parse_instances`, remembered for the same bytes: a report of many runs loads
    each suite once a run, and checking every state of a 1000-cube suite takes about a
    second. Parsing is a pure function of its arguments and instances are immutable, so a
    remembered answer is the answer; files changed since give other bytes, hence a new key.
    """
    if len(data) > _REMEMBERED_BYTES:
        return parse_instances(data, source, limit, puzzle_name)
    return _parse_remembered(data, source, limit, puzzle_name)


@lru_cache(maxsize=64)
def _parse_remembered(
    data: bytes, source: str, limit: int | None, puzzle_name: str
) -> tuple[Instance, ...]:
    return parse_instances(data, source, limit, puzzle_name)


def write_suite_file(path: Path, instances: Sequence[Instance]) -> str:
    """Write instances in canonical form; returns the sha256 of the bytes written."""
    data = serialize(instances)
    write_whole(path, data)
    return sha256_bytes(data)


def write_whole(path: Path, data: bytes) -> None:
    """``data`` at ``path``, never half of it: written beside and renamed; on a full disk or
    a folder it cannot write, the temporary file is removed and a one-line error raised.

    Raises:
        SuiteError: naming the file and the system's reason.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SuiteError(f"cannot write {path}: {exc.strerror or exc}") from None
