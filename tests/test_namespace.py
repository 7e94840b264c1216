"""The wheel installs one import package, ``cubebench``: no module of this project may name
the folders ``harness`` or ``solvers`` as top-level packages (both names belong to other
projects on the package index), or an installed copy would import the wrong code or none."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bare_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [
            f"{path.relative_to(ROOT)}:{node.lineno} {n}"
            for n in names
            if n.split(".")[0] in ("harness", "solvers")
        ]
    return found


def test_every_module_imports_the_project_through_cubebench():
    files = [
        p for d in ("harness", "solvers", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py")
    ]
    assert len(files) > 150
    bare = [hit for path in files for hit in _bare_imports(path)]
    assert not bare, bare
