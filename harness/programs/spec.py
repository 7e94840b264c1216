"""A program solver's description: the small TOML file that makes an executable a solver.

```toml
name = "my-solver"
command = ["./my_solver", "--fast"]   # relative paths are relative to this file
metric = "htm"                        # or "qtm"
version = "1.2"
puzzles = ["cube3"]                   # optional; the default; or "cube2", "cube4"
# optional: cwd = "...", env = { KEY = "value" }, load_timeout_s = 300
```

``bench run -s ./my-solver.toml`` takes such a file; a file in ``$CUBEBENCH_HOME/solvers/``
registers its name, and a plug-in registers one by a :class:`~.solver.ProgramSolver`
subclass that names its file. Every value is checked when the file is read, and a bad one is
refused in one line naming the file and the key.
"""

from __future__ import annotations

import hashlib
import math
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..errors import InputError
from .protocol import METRICS, PUZZLES

LOAD_TIMEOUT_S: Final = 300.0
"""How long a program may take to load when its file does not say: the harness gives any
solver five minutes (:data:`~cubebench.harness.executors.workers.LOAD_TIMEOUT_S`)."""
MAX_SPEC_BYTES: Final = 64 * 1024
KEYS: Final = ("name", "command", "metric", "version", "cwd", "env", "load_timeout_s", "puzzles")


class ProgramSpecError(InputError):
    """A program solver's TOML file that cannot be used."""


@dataclass(frozen=True)
class ProgramSpec:
    """A program solver, with every path made absolute.

    ``command[0]`` is the executable (found on the ``PATH`` when it names no folder);
    ``file`` is the TOML file it was read from (None for one built in code).
    """

    name: str
    command: tuple[str, ...]
    metric: str
    version: str | None = None
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    load_timeout_s: float = LOAD_TIMEOUT_S
    file: str | None = None
    written: tuple[str, ...] = ()  # the command as its file writes it (paths relative to it)
    identified_by: tuple[str, ...] = ()  # the files that make it the program it is
    puzzles: tuple[str, ...] = ("cube3",)  # what a run may give it (its handshake agrees)

    def executable_sha256(self) -> str:
        """The sha256 of the program's files in turn: ``identified_by`` where given (a
        driver and the binary it runs), else each file the command names (an interpreter
        and its script both)."""
        digest = hashlib.sha256()
        for part in self.identified_by or self.command:
            path = Path(part)
            if path.is_absolute() and path.is_file():
                digest.update(path.read_bytes())
        return digest.hexdigest()

    def origin(self) -> dict[str, Any]:
        """What a manifest records of where the program came from."""
        return {
            "registered": "program",
            "spec_file": self.file,
            "command": list(self.command),
            "arguments": list(self.written or self.command),
            "version": self.version,
        }


def _resolve_part(part: str, base: Path) -> str:
    """``./x`` and ``../x`` relative to the file's folder; other text as it is."""
    if part.startswith(("./", "../")):
        return str((base / part).resolve())
    return part


def program_spec(data: Mapping[str, Any], base: Path, where: str) -> ProgramSpec:
    """A spec from the TOML's table; ``base``: the folder relative paths start from."""

    def bad(key: str, rule: str) -> ProgramSpecError:
        shown = repr(data.get(key))
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        return ProgramSpecError(f"{where}: {key} = {shown}: {rule}")

    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ProgramSpecError(f"{where}: unknown key {unknown[0]!r}; the keys: {', '.join(KEYS)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 100 or "/" in name:
        raise bad("name", "give the solver's name, text without '/'")
    command = data.get("command")
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(c, str) and c for c in command)
    ):
        raise bad("command", 'give a list of text, the program first: ["./my_solver", "--fast"]')
    metric = data.get("metric")
    if metric not in METRICS:
        raise bad("metric", 'give "htm" or "qtm", the moves the program counts')
    version = data.get("version")
    if version is not None and (not isinstance(version, str) or not version.strip()):
        raise bad("version", "give the program's version as text")
    cwd = data.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise bad("cwd", "give a folder, relative to this file or absolute")
    folder = (base / cwd).resolve() if cwd is not None else base
    if not folder.is_dir():
        raise bad("cwd", f"{folder} is not a folder")
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise bad("env", 'give a table of text: env = { KEY = "value" }')
    puzzles = data.get("puzzles", ["cube3"])
    if (
        not isinstance(puzzles, list)
        or not puzzles
        or not all(isinstance(p, str) and p in PUZZLES for p in puzzles)
    ):
        raise bad("puzzles", f"give a list of {', '.join(PUZZLES)}: the cubes it solves")
    timeout = data.get("load_timeout_s", LOAD_TIMEOUT_S)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not math.isfinite(timeout)
        or not 0 < timeout <= LOAD_TIMEOUT_S
    ):
        raise bad("load_timeout_s", f"give seconds above 0, at most {LOAD_TIMEOUT_S:g}")
    parts = [_resolve_part(part, base) for part in command]
    if "/" not in parts[0]:
        found = shutil.which(parts[0])
        if found is None:
            raise bad("command", f"{parts[0]!r} is not on the PATH")
        parts[0] = found
    program = Path(parts[0])
    if not program.is_file():
        raise bad("command", f"{program} does not exist")
    if not program.stat().st_mode & 0o111:
        raise bad("command", f"{program} is not executable (chmod +x)")
    return ProgramSpec(
        name=name,
        command=tuple(parts),
        metric=metric,
        version=version,
        cwd=str(folder),
        env=dict(env),
        load_timeout_s=float(timeout),
        written=tuple(command),
        puzzles=tuple(dict.fromkeys(puzzles)),
    )


def read_program_spec(path: Path) -> ProgramSpec:
    """The spec in TOML file ``path``.

    Raises:
        ProgramSpecError: a file that cannot be read, is not TOML, or has a bad value.
    """
    path = Path(path).expanduser()
    try:
        if path.stat().st_size > MAX_SPEC_BYTES:
            raise ProgramSpecError(f"program file {path}: larger than {MAX_SPEC_BYTES} bytes")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ProgramSpecError(f"program file {path}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProgramSpecError(f"program file {path}: not TOML ({exc})") from None
    except OSError as exc:
        raise ProgramSpecError(f"program file {path}: {exc.strerror or exc}") from None
    resolved = path.resolve()
    spec = program_spec(data, resolved.parent, f"program file {path}")
    return ProgramSpec(**{**spec.__dict__, "file": str(resolved)})
