"""Where a run came from: code version, packages, machine. Recorded in every manifest."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import platform
import shutil
import subprocess
from importlib.metadata import (
    PackageNotFoundError,
    distribution,
    packages_distributions,
    version,
)
from pathlib import Path
from typing import Any

from ..hardware import cpu_summary

PACKAGES = (
    "cubebench",
    "numpy",
    "numba",
    "kociemba",
    "torch",
    "tensorflow-cpu",
    "tensorflow",
    "keras",
    "pandas",
    "seaborn",
    "cayleypy",
    "alphacube",
)


def package_versions() -> dict[str, str]:
    """Installed versions, read from metadata (importing torch here would be slow)."""
    found = {}
    for name in PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    found["python"] = platform.python_version()
    return found


def git_info(repo: Path | None = None) -> dict[str, Any]:
    repo = repo or Path(__file__).resolve().parents[2]

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(
                ["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def code_origin(module: str) -> dict[str, Any]:
    """Which installed distribution provides ``module``, and which code exactly.

    The distribution's name and version; for a direct or editable install its URL and, where
    the installer knew it, the commit (PEP 610's ``direct_url.json``); for source in a git
    checkout its commit and dirty flag, otherwise a sha256 over its Python files, so a
    plug-in's results say what ran even when it has no version to bump.
    """
    top = module.split(".")[0]
    origin: dict[str, Any] = {"module": module}
    names = packages_distributions().get(top, [])
    if names:
        dist = distribution(names[0])
        origin |= {"distribution": names[0], "version": dist.version}
        direct = dist.read_text("direct_url.json")
        if direct:
            data = json.loads(direct)
            origin["url"] = data.get("url")
            origin["editable"] = bool(data.get("dir_info", {}).get("editable", False))
            if data.get("vcs_info", {}).get("commit_id"):
                origin["commit"] = data["vcs_info"]["commit_id"]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin in (None, "built-in", "frozen"):
        return origin
    root = Path(spec.origin).parent if spec.submodule_search_locations else Path(spec.origin)
    if "commit" not in origin:
        git = git_info(root if root.is_dir() else root.parent)
        if git["commit"] is not None and git != git_info():  # not cubebench's own checkout
            origin |= {"commit": git["commit"], "dirty": git["dirty"]}
    pinned = "commit" in origin and not origin.get("dirty")
    # a version alone pins code only from a package index: a local folder or an editable
    # install can change under the same version, so its source is hashed
    moving = origin.get("editable") or "commit" in origin or "url" in origin
    if not pinned and ("version" not in origin or moving):
        origin["source_sha256"] = _source_digest(root)  # no version, or code that can move
    return origin


def describe_origin(origin: dict[str, Any]) -> str:
    """One line for a manifest's solver ``origin``, as ``bench show`` and reports print it."""
    if not origin or origin.get("registered") == "built-in":
        packages = ", ".join(f"{p} {v or '?'}" for p, v in origin.get("packages", {}).items())
        return ("built-in" + (f", running {packages}" if packages else "")) if origin else ""
    parts = [f"{origin.get('registered')} {origin.get('target')}"]
    if origin.get("distribution"):
        parts.append(f"{origin['distribution']} {origin.get('version', '')}".strip())
    if origin.get("editable"):
        parts.append(f"editable from {origin.get('url')}")
    if origin.get("commit"):
        parts.append(
            f"commit {origin['commit'][:12]}" + (" (dirty)" if origin.get("dirty") else "")
        )
    if origin.get("source_sha256"):
        parts.append(f"source sha256 {origin['source_sha256'][:12]}…")
    return ", ".join(parts)


def _source_digest(root: Path) -> str:
    files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def machine_info() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gb = None
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        memory_gb = round(pages * page_size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    return {
        "cpu": cpu,
        **cpu_summary(),  # isa, native_bf16, onednn_max_isa: why two machines' times differ
        "cores": os.cpu_count(),
        "memory_gb": memory_gb,
        "gpu": _gpu(),
        "platform": platform.platform(),
        "hostname": platform.node(),
    }


def _gpu() -> str | None:
    if shutil.which("nvidia-smi") is None:
        return None
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None
