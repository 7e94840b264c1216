"""Solver settings: typed fields with ranges declared once, parsed from ``key=value`` or TOML.

Every solver's settings are a frozen dataclass deriving :class:`SolverSettings`; the bounds of
a number live beside its field (``Annotated[int, Range(min=1)]``), so a plug-in gets the same
checks, the same ``bench settings`` listing and the same errors as a built-in.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from .errors import InputError
from .naming import did_you_mean


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
