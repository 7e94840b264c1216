"""``results/`` holds the runs the documents cite, and only those, each indexed with what it
measured (``results/index.json``; ``benchmarks/tools/results_index.py`` rewrites it)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from benchmarks.tools.results_index import ROOT, build_index, problems, run_folders


def test_the_committed_index_matches_the_tree():
    index = json.loads((ROOT / "results" / "index.json").read_text())
    assert problems(ROOT, index) == []
    # the cited runs, not an archive: a few measurements behind each of a dozen model cards
    assert 10 <= len(index["runs"]) <= 80


def test_a_users_own_run_beside_them_is_not_the_projects(tmp_path):
    """The README's benchmark command in a checkout writes an untracked run folder into results/."""
    own = ROOT / "results" / "zz-a-users-run"
    own.mkdir()
    try:
        shutil.copy(ROOT / "results" / "default-v14" / "manifest.json", own)
        assert own.name not in run_folders(ROOT)
        assert problems(ROOT, json.loads((ROOT / "results" / "index.json").read_text())) == []
    finally:
        shutil.rmtree(own)


def _tree(tmp_path: Path) -> Path:
    """A copy of the project's documents, model cards and run manifests (not the records)."""
    root = tmp_path / "copy"
    root.mkdir()
    for name in ("README.md", "docs", "reports"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    for card in (ROOT / "solvers").glob("*/checkpoints/*.json"):
        (root / card.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(card, root / card.relative_to(ROOT))
    for readme in (ROOT / "solvers").glob("*/README.md"):
        (root / readme.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(readme, root / readme.relative_to(ROOT))
    for manifest in (ROOT / "results" / run / "manifest.json" for run in run_folders(ROOT)):
        (root / manifest.relative_to(ROOT)).parent.mkdir(parents=True)
        shutil.copy(manifest, root / manifest.relative_to(ROOT))
    return root


def test_a_broken_copy_is_caught_for_each_kind_of_fault(tmp_path):
    root = _tree(tmp_path)
    index = build_index(root, json.loads((ROOT / "results" / "index.json").read_text()))
    assert problems(root, index) == []

    (root / "results" / "stray-run").mkdir()  # an experiment nobody cites, not indexed
    shutil.copy(root / "results" / "default-v14" / "manifest.json", root / "results" / "stray-run")
    readme = root / "README.md"
    readme.write_text(readme.read_text() + "\nSee `results/no-such-run`.\n")
    shutil.rmtree(root / "results" / "pmlp-greedy")  # indexed, then deleted
    historical = next(r for r, e in index["runs"].items() if e.get("historical"))
    del index["runs"][historical]["historical"]  # a retired checkpoint with no reason
    found = "\n".join(problems(root, index))
    assert "run folder not in the index: results/stray-run" in found
    assert "no document cites results/stray-run" not in found  # unindexed comes first
    assert "indexed run not in results/: pmlp-greedy" in found
    assert "cites a run that is not there: README.md: results/no-such-run" in found
    assert re.search(rf"results/{historical}: checkpoint of \[.*\] is not shipped", found)

    index = build_index(root, index)  # re-indexed: the stray run is in, but cited by nobody
    assert "no document cites results/stray-run" in "\n".join(problems(root, index))
