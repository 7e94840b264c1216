"""Which suites exist, where their files are, and the sha256 that pins each one.

Built-in suites ship inside the package (``harness/suites/data``) with a registry file
listing their hashes. Suites a user imports go to ``$CUBEBENCH_HOME/suites`` (default
``~/.cubebench/suites``) with a registry of the same form. A suite may also be named by the
path of a JSONL file, in which case its hash is whatever the file holds now.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..cube.puzzle import DEFAULT_PUZZLE, puzzle_of_facelets, puzzle_of_meta
from ..naming import check_path_name, did_you_mean
from ..paths import home_dir
from .model import (
    Instance,
    Suite,
    SuiteError,
    check_optima,
    read_suite_file,
    states_digest,
    write_suite_file,
)
from .overlay import merged, write_overlay

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

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
    states_sha256: str | None = None  # lets a run read only its first instances

    @property
    def origin(self) -> str:
        if "depth" in self.meta:
            return f"depth {self.meta['depth']}"
        if "qdepth" in self.meta:
            return f"quarter-turn depth {self.meta['qdepth']}"
        return self.meta.get("source", self.meta.get("kind", "?"))


def _read_registry(directory: Path) -> dict[str, SuiteInfo]:
    path = directory / REGISTRY_FILE
    if not path.exists():
        return {}
    try:
        entries = json.loads(path.read_text())["suites"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SuiteError(f"suite registry {path} is unreadable: {exc}") from exc
    try:
        return {
            name: SuiteInfo(
                name,
                directory / e["file"],
                e["sha256"],
                e["count"],
                e.get("meta", {}),
                e.get("states_sha256"),
            )
            for name, e in entries.items()
        }
    except (KeyError, TypeError, AttributeError) as exc:
        raise SuiteError(f"suite registry {path} is unreadable: bad entry ({exc})") from exc


def _user_registry() -> tuple[dict[str, SuiteInfo], str | None]:
    """The user's suites, and why they could not be read: a broken user registry must not
    stop runs on the built-in suites, only the lookups that need it."""
    try:
        return _read_registry(user_suite_dir()), None
    except SuiteError as exc:
        return {}, str(exc)


def _write_registry(directory: Path, infos: dict[str, SuiteInfo]) -> None:
    entries = {
        name: {
            "file": i.path.name,
            "sha256": i.sha256,
            "count": i.count,
            "meta": i.meta,
            **({"states_sha256": i.states_sha256} if i.states_sha256 else {}),
        }
        for name, i in sorted(infos.items())
    }
    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / f".{REGISTRY_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"suites": entries}, indent=1) + "\n")
    os.replace(tmp, directory / REGISTRY_FILE)  # a reader sees the old registry or the new


@contextlib.contextmanager
def _registry_lock(directory: Path) -> Iterator[None]:
    """Hold the registry's lock while reading, changing and writing it: imports started
    together take turns instead of each writing back what it read (and losing the others).
    The operating system drops the lock with its process, however it ends."""
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(directory / ".registry.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # blocks until the other import is done
        else:  # Windows: retries for about 10 s, then raises
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        yield
    finally:
        os.close(fd)  # closing drops the lock


def user_registry_lock() -> contextlib.AbstractContextManager[None]:
    """The lock of the user's suite folder (imports, overlays and annotation claims)."""
    return _registry_lock(user_suite_dir())


def user_registry_problem() -> str | None:
    """Why the user's suite registry cannot be read, or None: a run on built-in suites goes
    on beside a broken one, and says so."""
    return _user_registry()[1]


def list_suites() -> list[SuiteInfo]:
    """Built-in suites first, then the user's, each in name order.

    A user registry that cannot be read is left out with a warning naming it.
    """
    builtin = _read_registry(BUILTIN_DIR)
    users, problem = _user_registry()
    if problem is not None:
        warnings.warn(f"{problem}; only the built-in suites are listed", stacklevel=2)
    user = {n: i for n, i in users.items() if n not in builtin}
    return [builtin[n] for n in sorted(builtin)] + [user[n] for n in sorted(user)]


def suite_info(name: str) -> SuiteInfo:
    """Look a suite up by name; unknown names get "did you mean"."""
    builtin = _read_registry(BUILTIN_DIR)
    if name in builtin:
        return builtin[name]
    users, problem = _user_registry()
    if problem is not None:
        raise SuiteError(f"suite {name!r} is not built in, and {problem}")
    infos = {**users, **builtin}
    if name in infos:
        return infos[name]
    raise SuiteError(f"unknown suite {name!r}; {did_you_mean(name, infos)}")


def load_suite(name: str, limit: int | None = None) -> Suite:
    """Load a registered suite, checking its hash, or a JSONL file given by path.

    ``limit``: only the first instances are needed (read just those where the registry
    lets the suite's identity be known without parsing the rest).
    """
    if name.endswith(".jsonl") and _is_file(Path(name)):
        path = Path(name)
        meta: dict = {"source": str(path)}
        size = _puzzle_of_file(path)
        if size != DEFAULT_PUZZLE:  # a file names no puzzle: its facelets' length does
            meta["puzzle"] = size
        return read_suite_file(path, path.stem, None, meta)
    info = suite_info(name)
    builtin = info.path.parent == BUILTIN_DIR
    hint = (
        "reinstall cubebench (in a source checkout: git checkout the file)"
        if builtin
        else f"import it again (bench suites import ... --name {name} --overwrite)"
    )
    suite = read_suite_file(
        info.path,
        info.name,
        info.sha256,
        info.meta,
        limit=limit,
        known_states_sha256=info.states_sha256,
        restore_hint=hint,
    )
    return merged(suite) if builtin else suite  # with the optima the user proved


def _puzzle_of_file(path: Path) -> str:
    """The puzzle a suite file's first instance is a state of, by its facelets' length."""
    try:
        with path.open("rb") as handle:
            first = json.loads(handle.readline() or b"{}")
    except (OSError, ValueError):
        return DEFAULT_PUZZLE  # read_suite_file says what is wrong with it
    facelets = first.get("facelets") if isinstance(first, dict) else None
    return puzzle_of_facelets(facelets) if isinstance(facelets, str) else DEFAULT_PUZZLE


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, say: not a file
        return False


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
    check_new_suite_name(name, overwrite=overwrite)
    for instance in instances:
        check_optima(instance, f"suite {name} instance {instance.id}", puzzle_of_meta(meta))
    check = functools.partial(check_new_suite_name, name, overwrite=overwrite)
    return _register(user_suite_dir(), name, instances, meta, check)


def check_new_suite_name(name: str, *, overwrite: bool = False) -> None:
    """Refuse a name a user suite cannot take, before any work is spent importing it."""
    if not name or any(c in name for c in "/\\ ") or name.startswith("."):
        raise SuiteError(f"suite name {name!r} must be a plain word like 'deepcubea-test-v1'")
    check_path_name(name, "suite name")
    if name in _read_registry(BUILTIN_DIR):
        raise SuiteError(f"suite {name!r} is built in; choose another name")
    if name in _user_registry()[0] and not overwrite:
        raise SuiteError(f"suite {name!r} exists already; pass --overwrite to replace it")


def update_suite(
    name: str,
    change: Callable[[list[Instance], dict], tuple[list[Instance], dict]],
    *,
    shipped: bool = False,
) -> None:
    """Rewrite a registered suite's instances and meta under the registry's lock, from what
    the file holds at that moment (two annotations of one suite take turns, neither loses
    the other's work). The cubes themselves must not change: their states hash is kept.

    A built-in suite's changes go to the user's overlay (:mod:`.overlay`), never into the
    package, unless ``shipped`` (the developers' ``--write``, in a source checkout)."""
    info = suite_info(name)
    if info.path.parent == BUILTIN_DIR and not shipped:
        with _registry_lock(user_suite_dir()):
            original = read_suite_file(info.path, info.name, info.sha256, info.meta)
            current = merged(original)
            instances, meta = change(list(current.instances), dict(current.meta))
            if states_digest(instances) != original.states_sha256:
                raise SuiteError(f"suite {name}: an update may add optima, never change cubes")
            spent = {
                k: round(v - original.meta.get(k, 0.0), 1)
                for k, v in meta.items()
                if k.endswith("_seconds") and isinstance(v, int | float)
            }
            write_overlay(name, original, instances, spent)
        return
    directory = info.path.parent
    with _registry_lock(directory):
        info = suite_info(name)
        suite = read_suite_file(info.path, info.name, info.sha256, info.meta)
        instances, meta = change(list(suite.instances), dict(info.meta))
        if states_digest(instances) != states_digest(suite.instances):
            raise SuiteError(f"suite {name}: an update may add optima, never change cubes")
        digest = write_suite_file(info.path, instances)
        infos = _read_registry(directory)
        infos[name] = SuiteInfo(
            name, info.path, digest, len(instances), meta, states_digest(instances)
        )
        _write_registry(directory, infos)


def _register(
    directory: Path,
    name: str,
    instances: Sequence[Instance],
    meta: dict,
    check: Callable[[], None] | None = None,
) -> SuiteInfo:
    """Write the suite's file and its registry entry under the registry's lock; ``check``
    runs under the lock first (a name another import took meanwhile is refused there)."""
    path = directory / f"{name}.jsonl"
    with _registry_lock(directory):
        if check is not None:
            check()
        digest = write_suite_file(path, instances)
        infos = _read_registry(directory)
        infos[name] = SuiteInfo(name, path, digest, len(instances), meta, states_digest(instances))
        _write_registry(directory, infos)
    return infos[name]
