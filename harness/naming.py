"""Helpers for names users type: suites, solvers, settings."""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Iterable
from importlib.resources import files

from .errors import InputError


class ArgumentError(InputError):
    """A run argument or budget out of range (``--workers 0``, ``--time-limit -1``), or a
    name that cannot become a path."""


def _normalise(name: str) -> str:
    # "depth-7-v1" and "depth-07-v1" differ only in zero padding; so do many typos
    return re.sub(r"\d+", lambda m: str(int(m.group())), name.lower().replace("_", "-"))


def did_you_mean(name: str, known: Iterable[str], listed: int = 12, all_in: str = "") -> str:
    """A suffix for an unknown-name error: the closest known names, or the first ``listed``
    of them (and, past those, ``all_in``: where to see them all)."""
    known = sorted(known)
    same = [k for k in known if _normalise(k) == _normalise(name)]
    close = same or difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    more = f", ... ({len(known)} in all{'; ' + all_in if all_in else ''})"
    shown = ", ".join(known[:listed]) + (more if len(known) > listed else "")
    return f"known: {shown}" if known else "none are registered"


MAX_NAME_BYTES = 200
"""Longest name that becomes a file or folder name (most file systems allow 255 bytes)."""


def check_path_name(name: str, what: str) -> str:
    """Refuse a name that would not be one plain path component under its parent folder.

    Run ids and suite names become folder and file names; ``../x``, ``a/b``, an absolute
    path or a name too long for the file system would write elsewhere or fail midway.
    """
    problem = None
    if not name or name.strip() != name:
        problem = "is empty or starts or ends with a space"
    elif name in (".", "..") or name.startswith("-"):
        problem = "is not a usable name"
    elif any(sep in name for sep in ("/", "\\")) or ":" in name:
        problem = "holds a path separator; give a plain name"
    elif any(ord(c) < 32 or ord(c) == 127 for c in name):
        problem = "holds a control character"
    elif len(name.encode()) > MAX_NAME_BYTES:
        problem = f"is longer than {MAX_NAME_BYTES} bytes"
    if problem is not None:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise ArgumentError(f"{what} {shown!r} {problem}")
    return name


RESERVED_ENTRY_NAMES = ("optimum (proved)", "best known (entries)")
"""Rows that tables add of their own; an entry named so would pass for one of them."""
_RESERVED_PREFIXES = ("optimum (", "best known (", "published:")


@functools.cache
def published_row_names() -> tuple[str, ...]:
    """The rows the leaderboard copies from the peers' papers (the report's data file)."""
    text = files("cubebench.harness.report").joinpath("published.json").read_text()
    return tuple(str(row["system"]) for row in json.loads(text)["rows"])


def check_entry_name(name: str, what: str, reserved: Iterable[str] = ()) -> str:
    """Refuse a name a table row would show that could break the table or pass for a row
    the harness adds itself (the proved optimum, a published figure).

    ``reserved``: more names taken than the optimum's row and the published rows."""
    taken = {n.casefold() for n in (*RESERVED_ENTRY_NAMES, *reserved)}
    problem = None
    if not name.strip() or name.strip() != name:
        problem = "is empty or starts or ends with a space"
    elif any(ord(c) < 32 or ord(c) == 127 for c in name):
        problem = "holds a control character"
    elif "|" in name or "`" in name:
        problem = f"holds {'|' if '|' in name else '`'}, which would break a results table"
    elif len(name) > MAX_NAME_BYTES:
        problem = f"is longer than {MAX_NAME_BYTES} characters"
    elif (
        name.casefold() in taken  # "Optimum (Proved)" too
        or name.casefold().startswith(_RESERVED_PREFIXES)
        or name in published_row_names()  # exactly: the solver deepcubea is not "DeepCubeA"
    ):
        problem = "is the name of a row the tables add themselves; choose another"
    if problem is not None:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise ArgumentError(f"{what} {shown!r} {problem}")
    return name
