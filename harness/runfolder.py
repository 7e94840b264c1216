"""A new run's folder: its automatic id, and a claim two runs cannot both win.

The folder is created with one ``mkdir`` (atomic), then locked, so two runs started with one
id cannot both write into it; folders made for a run that never starts are removed again.
"""

from __future__ import annotations

import contextlib
import re
from datetime import datetime
from pathlib import Path

from .naming import check_path_name
from .records.schema import RecordError
from .records.store import RunStore
from .runconfig import RunConfig

AUTOMATIC_ID_NAMES = 60
"""Characters of solver names an automatic run id carries after its time stamp."""


def automatic_run_id(stamp: datetime, config: RunConfig) -> str:
    """``20261127T071805Z-kociemba-policy-mlp``: the time, then the solvers' names cut at a
    whole name (never mid-word) to :data:`AUTOMATIC_ID_NAMES` characters. What a folder
    name cannot hold (a plug-in's ``a/b``, ``module:Class``, a control character) becomes
    ``.``, so an id the user never gave is always a plain name."""
    names = list(dict.fromkeys(re.sub(r"[/\\:\x00-\x1f\x7f]", ".", s.name) for s in config.solvers))
    kept: list[str] = []
    for name in names:
        if len("-".join([*kept, name])) > AUTOMATIC_ID_NAMES and kept:
            break
        kept.append(name[:AUTOMATIC_ID_NAMES])
    more = len(names) - len(kept)
    return (
        stamp.strftime("%Y%m%dT%H%M%SZ") + "-" + "-".join(kept) + (f"-and-{more}" if more else "")
    )


def claim_automatic_folder(
    out: Path, stamp: datetime, config: RunConfig
) -> tuple[RunStore, list[Path]]:
    """A new folder under an automatic id: two runs started in the same second get ``…`` and
    ``…-2`` (the user never chose the name, so neither is told it exists)."""
    base = automatic_run_id(stamp, config)
    check_path_name(base, "run id")
    for n in range(1, 1000):
        folder = out / (base if n == 1 else f"{base}-{n}")
        if folder.exists():
            continue
        try:
            return claim_new_folder(folder)
        except RunFolderExistsError:  # another run took it between the check and the claim
            continue
    raise RecordError(f"no free run folder for {base} in {out}; give --run-id")


class RunFolderExistsError(RecordError):
    """The run folder a new run would create is there already."""


def claim_new_folder(folder: Path) -> tuple[RunStore, list[Path]]:
    """Create the run folder (atomically: two runs with one id cannot both pass) and lock it.

    Returns the store and the folders made for it, newest first, to remove if it never starts.
    """
    made = [p for p in (folder, *folder.parents) if not p.exists()]
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.mkdir()
    except FileExistsError:
        file = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        if file is not None:
            raise RecordError(f"--out: {file} is a file, not a folder of runs") from None
        raise RunFolderExistsError(
            f"run folder {folder} exists; use --resume or another --run-id"
        ) from None
    except OSError as exc:
        remove_empty(made)
        raise RecordError(f"cannot create run folder {folder}: {exc.strerror or exc}") from None
    store = RunStore(folder)
    try:
        store.lock()
    except RecordError:
        remove_empty(made)
        raise
    return store, made


def remove_empty(folders: list[Path]) -> None:
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()
