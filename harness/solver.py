"""The one interface every solver implements, and the values that cross it.

A solver gets a state and a budget and returns moves; it never sees the scramble or the
known optimum. It does not decide whether it succeeded: the runner replays the moves on the
engine and records the outcome, so a solver that lies costs one instance and nothing else.
"""

from __future__ import annotations

import dataclasses
import math
import time
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from .errors import InputError
from .naming import ArgumentError, did_you_mean

DEFAULT_TIME_LIMIT_S = 60.0
"""Seconds a cube unless a run says otherwise (``bench run``, ``bench solve``, the API)."""

CLOCKS = ("cpu", "wall")
"""What a time limit counts: the solver's CPU seconds (user + system, of its worker and every
process the worker started; the default of a run, so that a busy machine does not change the
answers) or wall-clock seconds (for a solver whose work is not on the CPU: a GPU's)."""
WALL_CAP = 3.0
"""Under a CPU-time limit, the wall clock still stops a cube at this multiple of the limit (a
solver waiting on nothing, or sharing its core with two others)."""


@dataclass(frozen=True)
class Budget:
    """Limits for one instance. ``None`` means no limit of that kind.

    Attributes:
        wall_seconds: the time limit for the instance, in seconds of ``clock`` (its name is
            older than the CPU clock); the runner also enforces it from outside (a solver that
            overruns is killed and the instance is a ``timeout``).
        max_nodes: states a search may expand.
        max_model_calls: batched network evaluations a solver may make.
        max_length: longest solution the solver may return, in moves as returned (a half
            turn is one move; a quarter-turn solver returns quarter turns only, so for it this
            is a quarter-turn length, and its searches cap their depth at it).
        clock: ``wall`` (the API's default) or ``cpu`` (a run's): what the limit counts. A
            cooperative solver reads time with :meth:`now` and stops at :meth:`deadline`,
            so it keeps to either.
    """

    wall_seconds: float | None = DEFAULT_TIME_LIMIT_S
    max_nodes: int | None = None
    max_model_calls: int | None = None
    max_length: int | None = None
    clock: str = "wall"

    def __post_init__(self) -> None:
        check_limits(
            self,
            positive=("wall_seconds",),
            counts=("max_nodes", "max_model_calls", "max_length"),
        )
        if self.clock not in CLOCKS:
            raise ArgumentError(f"--budget {self.clock!r}: choose {' or '.join(CLOCKS)}")

    def now(self) -> float:
        """The time on the budget's clock: this process's CPU seconds (all its threads), or
        ``time.monotonic()``."""
        return time.process_time() if self.clock == "cpu" else time.monotonic()

    def deadline(self, start: float | None = None) -> float:
        """The :meth:`now` value after which a cooperative solver should stop."""
        start = self.now() if start is None else start
        return start + (self.wall_seconds if self.wall_seconds is not None else float("inf"))

    def wall_cap(self) -> float | None:
        """The wall-clock seconds after which a cube is over its time whatever its clock."""
        if self.wall_seconds is None:
            return None
        return self.wall_seconds * (WALL_CAP if self.clock == "cpu" else 1.0)


MIN_MEMORY_GB = 0.25
"""The smallest memory limit accepted: a limit no worker fits in would kill every instance."""


def kill_after(wall_seconds: float) -> float:
    """When the runner kills a solver that has not answered: its wall budget plus a grace of
    1 s + 10% (model loading is outside the budget; answering takes a moment)."""
    return wall_seconds + 1.0 + 0.1 * wall_seconds


@dataclass(frozen=True)
class Attempt:
    """What a solver returns: its moves (ids 0..17) and what it spent finding them.

    An empty ``moves`` on an unsolved cube means the solver gave up; ``info`` is free-form
    (for example the search's final beam width) and is stored with the record.
    """

    moves: tuple[int, ...]
    nodes_expanded: int = 0
    model_calls: int = 0
    info: Mapping[str, Any] = field(default_factory=dict)


def check_limits(
    obj: object, *, positive: Sequence[str] = (), counts: Sequence[str] = (), flags: bool = False
) -> None:
    """Refuse, by name, a field of ``obj`` that is not a positive finite number
    (``positive``) or not a whole number ≥ 1 (``counts``); None means no limit.

    ``flags`` names the field as its ``bench run`` option (``--time-limit``).
    """
    for name in (*positive, *counts):
        value = getattr(obj, name)
        if value is None:
            continue
        label = f"--{name.replace('_', '-')} {value!r}" if flags else f"{name}={value!r}"
        if name in counts:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ArgumentError(f"{label}: must be a whole number ≥ 1")
        elif (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise ArgumentError(f"{label}: must be a positive number of seconds or GB")
        elif name == "memory_limit_gb" and value < MIN_MEMORY_GB:
            raise ArgumentError(
                f"{label}: below {MIN_MEMORY_GB} GB no worker can load a solver "
                "(Python and numpy alone take about 0.1 GB)"
            )


@runtime_checkable
class Solver(Protocol):
    """Anything with a ``name`` and ``solve``.

    ``cube`` is a read-only (54,) uint8 state in kociemba facelet order
    (:mod:`cubebench.harness.cube`). The runner gives a solver one cube at a time, so that
    each answer has its own time and budget; a model batches inside its search.
    """

    name: str

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt: ...


class SolverHooks(Protocol):
    """What a solver class may add to :class:`Solver`, each optional, each with the default
    the harness uses where it is missing; this is the one place that looks for them.

    - ``prepare(settings)``, a classmethod: one-time work before any worker loads (a table
      built into the cache), in the run's own process, with no time limit. Default: none.
    - ``resources(settings)``, a classmethod: what one worker needs from a cluster,
      ``{"num_cpus": ..., "num_gpus": ...}``. Default: its ``threads`` setting in CPUs (1
      without one), and one GPU where its ``device`` setting names cuda.
    - ``runtime_info``: how the loaded solver runs here (precision, threads, the model's
      size), pinned in the manifest. Default: nothing.
    - ``checkpoint_sha256``: the loaded weights' hash, pinned and part of the entry's
      identity. Default: None.
    - ``metric``: the move set it searches, ``htm`` or ``qtm``. Default: its ``metric``
      setting, else ``htm``.
    - an attempt's ``info``: free-form, stored with the record (``info["metric"]`` says the
      move set of that answer; ``info["gave_up"]`` why it has none).
    - ``needs_reload`` and ``reload()``: a solver that lost its state on a cube (a program
      solver whose program was killed) sets ``needs_reload``; its worker then calls
      ``reload()`` before it takes another cube, and the restart is charged to no cube.
      Default: never.
    """

    @classmethod
    def prepare(cls, settings: Any) -> None: ...

    @classmethod
    def resources(cls, settings: Any) -> Mapping[str, float]: ...

    runtime_info: Mapping[str, Any]
    checkpoint_sha256: str | None
    metric: str


def prepare_hook(cls: type) -> Any:
    """The class's ``prepare`` classmethod, or None (:class:`SolverHooks`)."""
    hook = getattr(cls, "prepare", None)
    return hook if callable(hook) else None


def resources_of(cls: type, settings: Any) -> dict[str, float]:
    """What one worker needs (:class:`SolverHooks`: ``resources``, or the default)."""
    hook = getattr(cls, "resources", None)
    if callable(hook):
        return dict(hook(settings))
    device = str(getattr(settings, "device", "cpu"))
    return {
        "num_cpus": float(getattr(settings, "threads", 1)),
        "num_gpus": 1.0 if device.startswith("cuda") else 0.0,
    }


def reload_of(solver: object) -> Any:
    """The solver's ``reload`` method when it asks for one now, else None (:class:`SolverHooks`)."""
    hook = getattr(solver, "reload", None)
    return hook if callable(hook) and getattr(solver, "needs_reload", False) is True else None


def runtime_info_of(solver: object) -> dict[str, Any]:
    """How a loaded solver runs (:class:`SolverHooks`: ``runtime_info``, or nothing)."""
    return dict(getattr(solver, "runtime_info", None) or {})


def checkpoint_of(solver: object) -> str | None:
    """A loaded solver's weights' hash (:class:`SolverHooks`: ``checkpoint_sha256``)."""
    value = getattr(solver, "checkpoint_sha256", None)
    return value if isinstance(value, str) else None


def metric_of(solver: object) -> str:
    """The move set a solver searches (:class:`SolverHooks`: ``metric``, else its
    ``metric`` setting, else ``htm``)."""
    default = getattr(getattr(solver, "settings", None), "metric", "htm")
    metric = getattr(solver, "metric", default)
    return metric if isinstance(metric, str) else "htm"


class SolverLoadError(InputError):
    """A solver that cannot start: a missing, corrupt or tampered checkpoint, say.

    Adapters raise it (or a subclass) so ``bench`` reports one clear line.
    """


class SettingsError(InputError):
    """A solver setting that does not exist, does not parse or is out of range."""


@dataclass(frozen=True)
class Range:
    """Bounds of a numeric setting, declared once where the field is:
    ``beam_width: Annotated[int, Range(min=1)] = 1024``, ``weight: Annotated[float,
    Range(min=0, open_min=True)]``. Every solver's settings are checked against them when
    constructed, so a plug-in gets the same checks as a built-in."""

    min: float | None = None
    max: float | None = None
    open_min: bool = False  # min itself is not allowed

    def problem(self, value: float) -> str | None:
        """Why ``value`` is out of range, or None."""
        if isinstance(value, float) and not math.isfinite(value):
            return "must be a finite number"
        if self.min is not None and (value <= self.min if self.open_min else value < self.min):
            return f"must be {'>' if self.open_min else '≥'} {_bound(self.min)}"
        if self.max is not None and value > self.max:
            return f"must be ≤ {_bound(self.max)}"
        return None

    def describe(self) -> str:
        """The bounds as a user reads them, e.g. ``≥ 1, ≤ 1024``."""
        limits = []
        if self.min is not None:
            limits.append(f"{'>' if self.open_min else '≥'} {_bound(self.min)}")
        if self.max is not None:
            limits.append(f"≤ {_bound(self.max)}")
        return ", ".join(limits)


def _bound(value: float) -> str:
    """A bound as a user types it: whole numbers in full (4294967295, not 4.29497e+09)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


POSITIVE = Range(min=1)
"""Counts: beam widths, batch sizes, threads, ..."""


def setting_ranges(cls: type) -> dict[str, Range]:
    """The :class:`Range` declared on each field of a settings class that has one."""
    ranges = {}
    for name, hint in typing.get_type_hints(cls, include_extras=True).items():
        for extra in getattr(hint, "__metadata__", ()):
            if isinstance(extra, Range):
                ranges[name] = extra
    return ranges


@dataclass(frozen=True)
class SolverSettings:
    """Base of every solver's settings: a frozen dataclass of typed fields with defaults.

    Subclasses add fields (with a :class:`Range` in ``Annotated`` where a number has
    bounds); :func:`parse_settings` turns ``key=value`` strings or TOML values into an
    instance and refuses unknown keys, bad values and values out of range by name.
    """

    seed: Annotated[int, Range(min=0, max=2**32 - 1)] = 0  # what every framework's RNG takes

    OPTION_HELP: ClassVar[Mapping[str, str]] = {"seed": "random seed for anything stochastic"}

    @classmethod
    def inert(cls) -> frozenset[str]:
        """Fields a shared settings class has that do nothing for this solver (the settings
        of a search it does not run, say): ``bench settings`` leaves them out and
        :func:`parse_settings` refuses a value other than their default."""
        return frozenset()

    @classmethod
    def choices(cls) -> dict[str, tuple[str, ...]]:
        """Text settings whose allowed values the class decides (a solver's searches, which
        depend on its model kind) rather than a ``Literal`` in the field's type: their
        values are checked, and ``bench settings`` lists them."""
        return {}

    @classmethod
    def field_order(cls) -> list[str]:
        """The order ``bench settings`` lists the fields in: as declared."""
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def option_help(cls) -> dict[str, str]:
        """Each setting's help: every class's ``OPTION_HELP`` along the bases, the nearer
        one winning (a search's options class brings its own)."""
        helps: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            helps.update(klass.__dict__.get("OPTION_HELP", {}))
        return helps

    def __post_init__(self) -> None:
        for name, bounds in setting_ranges(type(self)).items():
            value = getattr(self, name)
            if value is None or isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if (why := bounds.problem(value)) is not None:
                raise SettingsError(f"setting {name}={value!r} {why}")


def parse_settings(cls: type[SolverSettings], values: Mapping[str, Any]) -> SolverSettings:
    """Validate raw settings against ``cls``'s fields, coercing strings to the field types."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    inert = cls.inert()
    parsed = {}
    for key, raw in values.items():
        if key not in fields:
            live = [name for name in fields if name not in inert]
            raise SettingsError(f"unknown setting {key!r}; {did_you_mean(key, live)}")
        parsed[key] = _coerce(key, raw, hints[key])
        allowed = cls.choices().get(key)
        if allowed is not None and parsed[key] not in allowed:
            raise SettingsError(f"setting {key}={raw!r}: choose one of {', '.join(allowed)}")
        if key in inert and parsed[key] != fields[key].default:
            raise SettingsError(
                f"setting {key}={raw!r}: does nothing for this solver (`bench settings` "
                "lists what does)"
            )
    return cls(**parsed)


def parse_assignments(assignments: Sequence[str]) -> dict[str, str]:
    """``["beam_width=1024", ...]`` -> ``{"beam_width": "1024"}``."""
    out: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"setting {item!r} must look like key=value")
        if key.strip() in out:
            raise SettingsError(
                f"setting {key.strip()} is given twice ({out[key.strip()]!r} and "
                f"{value.strip()!r}); give it once"
            )
        out[key.strip()] = value.strip()
    return out


def _coerce(key: str, raw: Any, hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        allowed = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = type(None) in typing.get_args(hint)
    else:
        allowed, optional = [hint], False
    if optional and (raw is None or (isinstance(raw, str) and raw.lower() in ("none", ""))):
        return None
    target = allowed[0]
    if typing.get_origin(target) is typing.Literal:
        choices = typing.get_args(target)
        if raw not in choices:
            raise SettingsError(f"setting {key}={raw!r}: choose one of {', '.join(choices)}")
        return raw
    try:
        if target is bool:
            return _parse_bool(raw)
        if target in (int, float) and isinstance(raw, bool):
            raise ValueError  # TOML's true is not the number 1
        if target is int and isinstance(raw, float) and not raw.is_integer():
            raise ValueError
        return target(raw)
    except (TypeError, ValueError):
        raise SettingsError(
            f"setting {key}={raw!r} is not a valid {getattr(target, '__name__', target)}"
        ) from None


def _parse_bool(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)


@dataclass(frozen=True)
class SettingInfo:
    """One setting as a user sees it in ``bench settings NAME``: read from the settings class
    itself (field type, default, :class:`Range`, ``OPTION_HELP``), so it cannot drift."""

    name: str
    kind: str  # int, float, bool, str, or the choices of a Literal joined by " | "
    default: Any
    bounds: str  # "" or e.g. "≥ 1"
    help: str


def settings_info(cls: type[SolverSettings]) -> list[SettingInfo]:
    """Every field of a settings class that acts on its solver, in declaration order, with
    what a user may give it."""
    hints = typing.get_type_hints(cls)
    ranges = setting_ranges(cls)
    helps = cls.option_help()
    choices = cls.choices()
    out = []
    inert = cls.inert()
    by_name = {f.name: f for f in dataclasses.fields(cls)}
    for spec in (by_name[name] for name in cls.field_order()):
        if spec.name in inert:
            continue
        hint = hints[spec.name]
        if spec.name in choices:
            kind = " | ".join(choices[spec.name])
        elif typing.get_origin(hint) is typing.Literal:
            kind = " | ".join(str(c) for c in typing.get_args(hint))
        else:
            kind = " | ".join(
                "None" if a is type(None) else getattr(a, "__name__", str(a))
                for a in typing.get_args(hint) or (hint,)
            )
        bounds = ranges[spec.name].describe() if spec.name in ranges else ""
        default = spec.default if spec.default is not dataclasses.MISSING else None
        out.append(SettingInfo(spec.name, kind, default, bounds, helps.get(spec.name, "")))
    return out
