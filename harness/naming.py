"""Helpers for names users type: suites, solvers, settings."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


def _normalise(name: str) -> str:
    # "depth-7-v1" and "depth-07-v1" differ only in zero padding; so do many typos
    return re.sub(r"\d+", lambda m: str(int(m.group())), name.lower().replace("_", "-"))


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A suffix for an unknown-name error: the closest known names, or the whole list."""
    known = sorted(known)
    same = [k for k in known if _normalise(k) == _normalise(name)]
    close = same or difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
    return f"known: {shown}" if known else "none are registered"
