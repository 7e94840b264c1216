"""``results/index.json``: which document cites each stored run, and what it measured.

``results/`` holds the runs a document cites, and only those. The index names, for every run
folder, the documents that cite it (a ``results/NAME`` path, with ``*`` and ``{a,b}``
allowed, or a results-table marker), the checkpoint sha256 of each solver it ran, and for a
run whose checkpoint no longer ships, why it is kept (``historical``, written by hand).
``python benchmarks/tools/results_index.py`` rewrites the index from the tree, keeping the
reasons; ``tests/test_results_index.py`` fails when the tree and the index disagree.
"""

from __future__ import annotations

import fnmatch
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"results/([A-Za-z0-9._*{},-]+)")
TABLE_RUNS = re.compile(r'<!-- results-table [^>]*?runs="([^"]+)"')


def documents(root: Path = ROOT) -> list[Path]:
    """The Markdown a user reads: README, docs, model cards, reports."""
    found = [root / "README.md", *(root / "docs").rglob("*.md"), *(root / "reports").rglob("*.md")]
    found += (root / "solvers").rglob("README.md")
    return sorted(p for p in found if p.exists())


def _expand(pattern: str) -> list[str]:
    """``a-{x,y}-*`` -> ``["a-x-*", "a-y-*"]``."""
    parts = re.split(r"\{([^}]*)\}", pattern)
    choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
    return ["".join(c) for c in itertools.product(*choices)]


def citations(text: str) -> list[str]:
    """Run-name patterns a document cites."""
    found = []
    for match in CITATION.finditer(text):
        name = match.group(1).rstrip(".,")
        if name and not name.endswith((".md", ".json", ".jsonl")):
            found += _expand(name.split("/")[0])
    for match in TABLE_RUNS.finditer(text):
        found += match.group(1).split()
    return found


def run_folders(root: Path = ROOT) -> list[str]:
    """The stored runs: in a git checkout those git tracks (a user's own ``bench run`` writes
    untracked folders beside them, which are not the project's), elsewhere every folder."""
    found = sorted(p.name for p in (root / "results").iterdir() if p.is_dir())
    try:
        tracked = subprocess.run(
            ["git", "-C", str(root), "ls-files", "--", "results/*/*"],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:  # no git: every folder is the project's
        return found
    if tracked.returncode != 0 or not tracked.stdout.strip():
        return found
    names = {line.split("/")[1] for line in tracked.stdout.splitlines()}
    return [run for run in found if run in names]


def cited_by(root: Path = ROOT) -> tuple[dict[str, list[str]], list[str]]:
    """run -> citing documents, and the citations that match no run ('doc: pattern')."""
    runs = run_folders(root)
    cites: dict[str, set[str]] = {run: set() for run in runs}
    broken = []
    for doc in documents(root):
        name = doc.relative_to(root).as_posix()
        for pattern in citations(doc.read_text()):
            matched = fnmatch.filter(runs, pattern)
            if not matched:
                broken.append(f"{name}: results/{pattern}")
            for run in matched:
                cites[run].add(name)
    return {run: sorted(docs) for run, docs in cites.items()}, broken


def checkpoints(run: Path) -> dict[str, str | None]:
    if not (run / "manifest.json").exists():
        return {}
    manifest = json.loads((run / "manifest.json").read_text())
    return {key: s.get("checkpoint_sha256") for key, s in sorted(manifest["solvers"].items())}


def shipped_checkpoints(root: Path = ROOT) -> set[str]:
    cards = (root / "solvers").glob("*/checkpoints/*.json")
    return {json.loads(c.read_text())["sha256"] for c in cards}


def build_index(root: Path = ROOT, previous: dict | None = None) -> dict:
    """The index the tree implies, with the ``historical`` reasons of ``previous``."""
    old = (previous or {}).get("runs", {})
    cites, _ = cited_by(root)
    runs = {}
    for run in run_folders(root):
        entry = {"cited_by": cites[run], "checkpoints": checkpoints(root / "results" / run)}
        if old.get(run, {}).get("historical"):
            entry["historical"] = old[run]["historical"]
        runs[run] = entry
    return {"schema": 1, "runs": runs}


def main() -> None:
    path = ROOT / "results" / "index.json"
    previous = json.loads(path.read_text()) if path.exists() else None
    path.write_text(json.dumps(build_index(ROOT, previous), indent=1) + "\n")
    _, broken = cited_by(ROOT)
    for line in broken:
        print(f"cites a run that is not there: {line}", file=sys.stderr)


if __name__ == "__main__":
    main()


def problems(root: Path, index: dict) -> list[str]:
    """Everything on which the tree and ``index`` disagree, one line each."""
    found = []
    runs = set(run_folders(root))
    indexed = set(index.get("runs", {}))
    found += [f"run folder not in the index: results/{run}" for run in sorted(runs - indexed)]
    found += [f"indexed run not in results/: {run}" for run in sorted(indexed - runs)]
    cites, broken = cited_by(root)
    found += [f"a document cites a run that is not there: {line}" for line in broken]
    shipped = shipped_checkpoints(root)
    for run in sorted(runs & indexed):
        entry = index["runs"][run]
        if not cites[run]:
            found.append(f"no document cites results/{run}")
        elif entry.get("cited_by") != cites[run]:
            found.append(
                f"results/{run} is cited by {cites[run]}, the index says {entry.get('cited_by')}"
            )
        if not (root / "results" / run / "manifest.json").exists():
            found.append(f"results/{run} is not a run folder (no manifest.json)")
        measured = checkpoints(root / "results" / run)
        if entry.get("checkpoints") != measured:
            found.append(f"results/{run} ran {measured}, the index says {entry.get('checkpoints')}")
        gone = sorted(k for k, sha in measured.items() if sha and sha not in shipped)
        if gone and not entry.get("historical"):
            found.append(
                f"results/{run}: checkpoint of {gone} is not shipped and no reason is given"
            )
    return found
