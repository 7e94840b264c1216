"""Which suites exist, where their files are, and the sha256 that pins each one.

Built-in suites ship inside the package (``harness/suites/data``) with a registry file
listing their hashes. Suites a user imports go to ``$CUBEBENCH_HOME/suites`` (default
``~/.cubebench/suites``) with a registry of the same form. A suite may also be named by the
path of a JSONL file, in which case its hash is whatever the file holds now.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cubebench.harness.naming import did_you_mean
from cubebench.harness.paths import home_dir
from cubebench.harness.suites.model import (
    Instance,
    Suite,
    SuiteError,
    read_suite_file,
    write_suite_file,
)

BUILTIN_DIR = Path(__file__).parent / "data"
REGISTRY_FILE = "registry.json"


def user_suite_dir() -> Path:
    return home_dir() / "suites"


@dataclass(frozen=True)
class SuiteInfo:
    """A registry entry: enough to list a suite without reading its instances."""

    name: str
    path: Path
    sha256: str
    count: int
    meta: dict

    @property
    def origin(self) -> str:
        if "depth" in self.meta:
            return f"depth {self.meta['depth']}"
        return self.meta.get("source", self.meta.get("kind", "?"))


def _read_registry(directory: Path) -> dict[str, SuiteInfo]:
    path = directory / REGISTRY_FILE
    if not path.exists():
        return {}
    try:
        entries = json.loads(path.read_text())["suites"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SuiteError(f"suite registry {path} is unreadable: {exc}") from exc
    return {
        name: SuiteInfo(name, directory / e["file"], e["sha256"], e["count"], e.get("meta", {}))
        for name, e in entries.items()
    }


def _write_registry(directory: Path, infos: dict[str, SuiteInfo]) -> None:
    entries = {
        name: {"file": i.path.name, "sha256": i.sha256, "count": i.count, "meta": i.meta}
        for name, i in sorted(infos.items())
    }
    directory.mkdir(parents=True, exist_ok=True)
    (directory / REGISTRY_FILE).write_text(json.dumps({"suites": entries}, indent=1) + "\n")


def list_suites() -> list[SuiteInfo]:
    """Built-in suites first, then the user's, each in name order."""
    builtin = _read_registry(BUILTIN_DIR)
    user = {n: i for n, i in _read_registry(user_suite_dir()).items() if n not in builtin}
    return [builtin[n] for n in sorted(builtin)] + [user[n] for n in sorted(user)]


def suite_info(name: str) -> SuiteInfo:
    """Look a suite up by name; unknown names get "did you mean"."""
    infos = {i.name: i for i in list_suites()}
    if name in infos:
        return infos[name]
    raise SuiteError(f"unknown suite {name!r}; {did_you_mean(name, infos)}")


def load_suite(name: str) -> Suite:
    """Load a registered suite, checking its hash, or a JSONL file given by path."""
    if name.endswith(".jsonl") and Path(name).is_file():
        path = Path(name)
        return read_suite_file(path, path.stem, None, {"source": str(path)})
    info = suite_info(name)
    return read_suite_file(info.path, info.name, info.sha256, info.meta)


def register_builtin(name: str, instances: Sequence[Instance], meta: dict) -> SuiteInfo:
    """Write a built-in suite file and pin it (used by ``cubebench.harness.suites.build``)."""
    return _register(BUILTIN_DIR, name, instances, meta)


def register_user_suite(
    name: str, instances: Sequence[Instance], meta: dict, *, overwrite: bool = False
) -> SuiteInfo:
    """Save an imported suite under the user's suite folder.

    Raises:
        SuiteError: if the name is a built-in suite's, or taken and ``overwrite`` is False.
    """
    if not name or any(c in name for c in "/\\ ") or name.startswith("."):
        raise SuiteError(f"suite name {name!r} must be a plain word like 'deepcubea-test-v1'")
    if name in _read_registry(BUILTIN_DIR):
        raise SuiteError(f"suite {name!r} is built in; choose another name")
    if name in _read_registry(user_suite_dir()) and not overwrite:
        raise SuiteError(f"suite {name!r} exists already; pass --overwrite to replace it")
    return _register(user_suite_dir(), name, instances, meta)


def _register(directory: Path, name: str, instances: Sequence[Instance], meta: dict) -> SuiteInfo:
    path = directory / f"{name}.jsonl"
    digest = write_suite_file(path, instances)
    infos = _read_registry(directory)
    infos[name] = SuiteInfo(name, path, digest, len(instances), meta)
    _write_registry(directory, infos)
    return infos[name]
