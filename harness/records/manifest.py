"""A run's ``manifest.json`` as a typed value: what the run measured, with what, where.

Records have :class:`~cubebench.harness.records.schema.Record`; the manifest has
:class:`Manifest`, read and written only here, so a reader asks for ``manifest.solvers[key]``
and gets a :class:`SolverPin`, not a dict it must know the keys of. The file keeps the layout
other tools read (each solver's pinned fields flat beside ``solver``, ``settings`` and
``origin``), and carries two versions:

- ``schema_version``: the records' (:data:`~cubebench.harness.records.schema.SCHEMA_VERSION`),
  which :func:`~cubebench.harness.records.schema.migrate` reads the records by;
- ``manifest_version``: the manifest's own layout (:data:`MANIFEST_VERSION`), which
  :data:`MIGRATIONS` bring up to date when an older one is read. A manifest without it is
  version 1.

A :class:`Manifest` is immutable: a run's progress (a checkpoint pinned when a solver loads,
``finished``, a resume) is a new value made with :func:`dataclasses.replace` and written by
the run's store, which is the folder's one writer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from ..cube.puzzle import puzzle_of_meta
from .identity import identity_parts, identity_sha256
from .schema import SCHEMA_VERSION, RecordError

MANIFEST_VERSION: Final = 3
"""1: manifests written before the version was (their solver entries may lack ``solver`` and
``origin``, their suites ``states``). 2: every solver entry names its registered solver.
3: every solver entry carries its identity (:mod:`.identity`), parts and sha256, as the run
made it; an older entry's is made from what it recorded, on read, never from the code."""


@dataclass(frozen=True)
class SuitePin:
    """How a run pins one suite: its file's hash and, since runs recorded it, its cubes'."""

    sha256: str
    count: int | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    states: str | None = None  # the cubes' hash; None in runs made before it was recorded

    @property
    def puzzle(self) -> str:
        """The puzzle its cubes are (the suite's meta names any but the 3×3×3)."""
        return puzzle_of_meta(self.meta)

    @property
    def identity(self) -> str:
        """What must agree for two runs to have measured the same cubes: the states hash
        (adding proved optima to a suite changes its file, not its cubes), else the file's."""
        return self.states or self.sha256

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sha256": self.sha256, "count": self.count, "meta": dict(self.meta)}
        if self.states is not None:
            out["states"] = self.states
        return out


_SOLVER_FIELDS: Final = ("solver", "settings", "origin", "identity")


@dataclass(frozen=True)
class SolverPin:
    """One solver entry of a run: the registered solver, its full settings, the code that
    provides it (``origin``) and what its adapter pinned when it loaded (``pinned``: the
    checkpoint's sha256, parameters, precision, threads, load time …)."""

    solver: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    origin: Mapping[str, Any] | None = None
    pinned: Mapping[str, Any] = field(default_factory=dict)
    # as the manifest holds it (version 3): what the other fields made when the run wrote
    # them, so it does not take part in comparing two pins
    recorded_identity: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def identity(self) -> dict[str, Any]:
        """Everything recorded that can change the entry's answers (:mod:`.identity`): as the
        run wrote it, or, for a manifest older than that, made from what it recorded."""
        if self.recorded_identity is not None:
            return dict(self.recorded_identity)
        return identity_parts(self.solver, self.settings, self.origin, self.pinned)

    @property
    def identity_sha256(self) -> str:
        return identity_sha256(self.identity)

    @property
    def checkpoint_sha256(self) -> str | None:
        value = self.pinned.get("checkpoint_sha256")
        return value if isinstance(value, str) else None

    def with_pinned(self, meta: Mapping[str, Any]) -> SolverPin:
        """The entry with what a loaded worker pinned; its identity made anew from both
        (a checkpoint's hash is part of it)."""
        pinned = {**self.pinned, **meta}
        return replace(self, pinned=pinned, recorded_identity=None)

    def to_dict(self) -> dict[str, Any]:
        """The entry as the file holds it: the pinned fields flat beside the others, and
        its identity (parts and sha256)."""
        out: dict[str, Any] = {"solver": self.solver, "settings": dict(self.settings)}
        if self.origin is not None:
            out["origin"] = dict(self.origin)
        out |= {k: v for k, v in self.pinned.items() if k not in _SOLVER_FIELDS}
        parts = self.identity
        return out | {"identity": {"sha256": identity_sha256(parts), "parts": parts}}


@dataclass(frozen=True)
class Manifest:
    """Everything a run folder says about its run besides its records."""

    run_id: str
    command: tuple[str, ...] = ()
    config: Mapping[str, Any] = field(default_factory=dict)  # a RunConfig, as data
    suites: Mapping[str, SuitePin] = field(default_factory=dict)
    solvers: Mapping[str, SolverPin] = field(default_factory=dict)
    packages: Mapping[str, Any] = field(default_factory=dict)
    git: Mapping[str, Any] = field(default_factory=dict)
    machine: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    started: str | None = None
    finished: str | None = None
    interrupted: str | None = None  # set while a run stopped by a signal awaits its resume
    resumed: tuple[Mapping[str, Any], ...] = ()  # each resume: when, code, machine, workers
    nodes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # a cluster's machines
    published: Mapping[str, Any] | None = None  # an imported peer's run: its source
    schema_version: int = SCHEMA_VERSION

    def with_solver(self, key: str, pin: SolverPin) -> Manifest:
        return replace(self, solvers={**self.solvers, key: pin})

    def with_nodes(self, nodes: Mapping[str, Mapping[str, Any]]) -> Manifest:
        return replace(self, nodes={**self.nodes, **nodes}) if nodes else self

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schema_version": self.schema_version,
            "manifest_version": MANIFEST_VERSION,
            "run_id": self.run_id,
            "command": list(self.command),
            "config": dict(self.config),
            "suites": {name: pin.to_dict() for name, pin in self.suites.items()},
            "solvers": {key: pin.to_dict() for key, pin in self.solvers.items()},
            "packages": dict(self.packages),
            "git": dict(self.git),
            "machine": dict(self.machine),
            "seed": self.seed,
            "started": self.started,
            "finished": self.finished,
        }
        optional = {
            "interrupted": self.interrupted,
            "resumed": [dict(r) for r in self.resumed],
            "nodes": {k: dict(v) for k, v in self.nodes.items()},
            "published": dict(self.published) if self.published is not None else None,
        }
        return out | {k: v for k, v in optional.items() if v}

    @classmethod
    def from_dict(cls, data: Any, path: Path) -> Manifest:
        """Check, migrate and type a manifest as read from ``path``.

        Raises:
            RecordError: naming the file and the field that is missing or of the wrong type.
        """
        if not isinstance(data, dict) or "schema_version" not in data:
            raise RecordError(f"{path} has no schema_version; not a cubebench manifest")
        version = data.get("manifest_version", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise RecordError(f"{path}: manifest_version is {version!r}, not a version number")
        if version > MANIFEST_VERSION:
            raise RecordError(
                f"{path} has manifest version {version}, newer than this cubebench "
                f"({MANIFEST_VERSION}); upgrade cubebench to read it"
            )
        for key, kind in _TYPES.items():
            if key not in data or (data[key] is None and key in _MAY_BE_NULL):
                continue
            if not _is(data[key], kind):
                value = data[key]
                raise RecordError(
                    f"{path}: {key} is {type(value).__name__} {str(value)[:40]!r}, "
                    f"not a {getattr(kind, '__name__', kind)}"
                )
        for section in ("suites", "solvers"):
            for name, entry in (data.get(section) or {}).items():
                if not isinstance(entry, dict):
                    raise RecordError(f"{path}: {section}.{name} is not an object")
        while version < MANIFEST_VERSION:
            data = MIGRATIONS[version](data)
            version += 1
        return cls(
            run_id=data.get("run_id") or path.parent.name,
            command=tuple(str(c) for c in data.get("command") or ()),
            config=data.get("config") or {},
            suites={
                name: _suite_pin(name, entry, path)
                for name, entry in (data.get("suites") or {}).items()
            },
            solvers={
                key: _solver_pin(key, entry, path)
                for key, entry in (data.get("solvers") or {}).items()
            },
            packages=data.get("packages") or {},
            git=data.get("git") or {},
            machine=data.get("machine") or {},
            seed=data.get("seed"),
            started=data.get("started"),
            finished=data.get("finished"),
            interrupted=data.get("interrupted"),
            resumed=tuple(data.get("resumed") or ()),
            nodes=data.get("nodes") or {},
            published=data.get("published") or None,
            schema_version=int(data["schema_version"]),
        )


_TYPES: Final[dict[str, type | tuple[type, ...]]] = {
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
    "nodes": dict,
    "published": dict,
    "seed": int,
    "started": str,
    "finished": str,
    "interrupted": str,
}


_MAY_BE_NULL: Final = ("seed", "started", "finished", "interrupted", "published")


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)


def _suite_pin(name: str, entry: dict[str, Any], path: Path) -> SuitePin:
    if not isinstance(entry.get("sha256"), str):
        raise RecordError(f"{path}: suites.{name}.sha256 is missing or not text")
    states = entry.get("states")
    meta = entry.get("meta")
    return SuitePin(
        sha256=entry["sha256"],
        count=entry.get("count") if _is(entry.get("count"), int) else None,
        meta=meta if isinstance(meta, dict) else {},
        states=states if isinstance(states, str) else None,
    )


def _solver_pin(key: str, entry: dict[str, Any], path: Path) -> SolverPin:
    settings, origin = entry.get("settings", {}), entry.get("origin")
    if not isinstance(entry.get("solver"), str):
        raise RecordError(f"{path}: solvers.{key}.solver is missing or not text")
    if not isinstance(settings, dict):
        raise RecordError(f"{path}: solvers.{key}.settings is not an object")
    identity = entry.get("identity")
    parts = identity.get("parts") if isinstance(identity, dict) else None
    if identity is not None and not isinstance(parts, dict):
        raise RecordError(f"{path}: solvers.{key}.identity has no parts object")
    return SolverPin(
        solver=entry["solver"],
        settings=settings,
        origin=origin if isinstance(origin, dict) else None,
        pinned={k: v for k, v in entry.items() if k not in _SOLVER_FIELDS},
        recorded_identity=parts,
    )


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 entries may not name their registered solver: the adapter's ``name`` did
    (built-ins report their registered name), else the entry's key, which is the solver's
    name wherever no label was given."""
    solvers = {
        key: {**entry, "solver": entry.get("solver") or entry.get("name") or key}
        for key, entry in (data.get("solvers") or {}).items()
    }
    return {**data, "solvers": solvers}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 entries carry no identity: it is made on read from what they recorded
    (:attr:`SolverPin.identity`), so nothing changes in the data."""
    return data


MIGRATIONS: Final[dict[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
}
