"""An entry's identity: everything recorded that can change its answers, fixed when the run
is made.

The identity of a manifest's entry is the solver and its target, the code that provides it
(distribution, version, commit, source hash), every setting's value as the run parsed it
(defaults included), every pinned file hash and the precision it resolved to. The run
writes it into the manifest (its parts and their sha256) and every reader takes it from
there, never from the code installed now: a report of an old run reads the same after a
solver's defaults change.

A run made before a setting existed ran as that setting's first default did:
:data:`SETTINGS_ADDED` keeps those values, frozen, so two runs of one solver on either side
of the setting's arrival are still one entry. A setting added to a solver goes there with
the default its absence meant.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Final

NOT_IDENTITY: Final = ("registered", "url", "editable", "dirty", "module", "spec_file", "command")
"""Origin fields that say how code was found or installed, not which code it is (a program's
``command`` with its absolute paths: its ``arguments`` as its file writes them, and its
executable's hash, say which program it is)."""
NOT_IDENTITY_SETTINGS: Final = ("program",)
"""Settings that say where a thing is, not what it is: a program solver's TOML file (its
command, executable and version are its identity)."""
PINNED_IDENTITY: Final = ("precision", "program_version")
"""Pinned fields beyond the file hashes (``*_sha256``) that can change an entry's answers."""

SETTINGS_ADDED: Final[dict[str, Any]] = {
    "metric": "htm",
    "precision": "auto",
    "mitm_radius": 0,
    "starts": 1,
    "value_symmetries": 1,
    "value_bound": 0.0,
    "ensemble": "",
}
"""Settings that solvers gained after runs were recorded without them, each with what a run
that predates it ran as (the setting's first default). Frozen: a later change of a default
changes no stored run."""


def identity_parts(
    solver: str,
    settings: Mapping[str, Any],
    origin: Mapping[str, Any] | None,
    pinned: Mapping[str, Any],
) -> dict[str, Any]:
    """The identity's parts, flattened, as JSON values: ``solver``, ``origin.*`` (code),
    ``setting.*`` (every setting) and the pinned ``*_sha256`` and ``precision``."""
    parts: dict[str, Any] = {"solver": solver}
    parts |= {f"origin.{k}": v for k, v in (origin or {}).items() if k not in NOT_IDENTITY}
    parts |= {f"setting.{k}": v for k, v in settings.items() if k not in NOT_IDENTITY_SETTINGS}
    parts |= {k: v for k, v in pinned.items() if k.endswith("_sha256") or k in PINNED_IDENTITY}
    return json.loads(json.dumps(parts, default=str))


def identity_sha256(parts: Mapping[str, Any]) -> str:
    """The sha256 of the parts' canonical JSON: one entry, one hash."""
    text = json.dumps(dict(parts), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def completed(parts: Mapping[str, Any], settings: set[str]) -> dict[str, Any]:
    """``parts`` with each of ``settings`` it lacks (a run that predates the setting) as
    :data:`SETTINGS_ADDED` says it ran; an unknown one as None, which matches nothing."""
    out = dict(parts)
    for name in settings:
        out.setdefault(f"setting.{name}", SETTINGS_ADDED.get(name))
    return out


def same_entry(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """One entry: no part both record differs (a code field only one records, from a
    manifest older than the field, does not split them; settings are completed first)."""
    return all(a[k] == b[k] for k in a.keys() & b.keys())
