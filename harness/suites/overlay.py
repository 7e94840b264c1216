"""Optima a user proves for a built-in suite, kept beside the user's suites, never in the
installed package.

A built-in suite ships inside the package, which a user may not own (a system install, a
shared environment) and which an upgrade replaces. ``bench suites annotate`` of a built-in
suite therefore writes what it proves to ``$CUBEBENCH_HOME/suites/proved/NAME.json``, and
every read of the suite goes through it: each instance gets what either side proved
(:func:`~cubebench.harness.suites.model.with_proved`: an exact optimum over a bound, the
larger of two bounds). The overlay is pinned to the suite's states hash, so a package whose
suite holds other cubes ignores it. The developers' ``--write`` puts results into the
shipped file instead, for a release.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..paths import home_dir
from .model import Instance, Suite, SuiteError, serialize, sha256_bytes, with_proved, write_whole

OVERLAY_VERSION = 1


def overlay_path(name: str) -> Path:
    return home_dir() / "suites" / "proved" / f"{name}.json"


def read_overlay(name: str, states_sha256: str) -> tuple[dict[int, Instance], dict]:
    """The instances the overlay of suite ``name`` holds, by id, and its meta; nothing when
    there is none or it was made for other cubes.

    Raises:
        SuiteError: an overlay that cannot be read (naming its file and how to recover).
    """
    path = overlay_path(name)
    if not path.is_file():
        return {}, {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("states_sha256") != states_sha256:
            return {}, {}
        instances = {int(k): Instance(**v) for k, v in data["instances"].items()}
        meta = dict(data.get("meta", {}))
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise SuiteError(
            f"the optima proved for suite {name} ({path}) are unreadable ({exc}); move the "
            "file away to use the suite as shipped"
        ) from None
    for key, instance in instances.items():
        if instance.id != key:
            raise SuiteError(f"{path}: instance {key} holds id {instance.id}")
    return instances, meta


def merged(shipped: Suite) -> Suite:
    """``shipped`` with the overlay's proofs; the sha256 is that of the merged content."""
    extra, meta = read_overlay(shipped.name, shipped.states_sha256)
    if not extra:
        return shipped
    instances = tuple(
        with_proved(i, extra[i.id]) if i.id in extra and extra[i.id].facelets == i.facelets else i
        for i in shipped.instances
    )
    meta = {**shipped.meta, **_spent(shipped.meta, meta)}
    for metric in ("htm", "qtm"):
        if shipped.count is None:  # every instance read: the counts can be made again
            key = f"optimal_{metric}"
            meta[f"{key}_proved"] = sum(getattr(i, key) is not None for i in instances)
    digest = sha256_bytes(serialize(instances)) if shipped.count is None else shipped.sha256
    return Suite(shipped.name, instances, digest, meta, shipped.count, shipped.known_states_sha256)


def _spent(shipped: dict, overlay: dict) -> dict:
    """The seconds both spent proving, added up."""
    return {
        key: round(shipped.get(key, 0.0) + value, 1)
        for key, value in overlay.items()
        if key.endswith("_seconds") and isinstance(value, int | float)
    }


def write_overlay(
    name: str, shipped: Suite, instances: list[Instance], spent: dict[str, float]
) -> None:
    """Keep every instance of ``instances`` that differs from ``shipped`` and the seconds
    spent beyond the shipped file's (the caller holds the user registry's lock)."""
    changed = {
        str(i.id): {k: v for k, v in json.loads(i.to_json()).items()}
        for i, old in zip(instances, shipped.instances, strict=True)
        if i != old
    }
    data = {
        "overlay_version": OVERLAY_VERSION,
        "suite": name,
        "states_sha256": shipped.states_sha256,
        "meta": spent,
        "instances": changed,
    }
    write_whole(overlay_path(name), (json.dumps(data, indent=0) + "\n").encode())
