"""``cubebench.harness`` declares its public API in ``__all__``, and the built-in solvers use
only that, as any plug-in would: a solver importing an internal harness module fails here."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import cubebench.harness as harness

ROOT = Path(__file__).resolve().parents[1]


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module an import names, a relative one resolved against the file's package
    (``from ...harness.cube import X`` in ``solvers/optimal/solver.py`` is
    ``cubebench.harness.cube``): every solver imports the harness relatively."""
    if not node.level:
        return node.module or ""
    package = ["cubebench", *path.relative_to(ROOT).with_suffix("").parts[:-1]]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _harness_imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """Every import of cubebench.harness in a file, absolute or relative, top level or inside
    functions."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            module = _absolute(path, node)
            if module == "cubebench" and any(a.name == "harness" for a in node.names):
                found.append((node.lineno, "cubebench", ["harness"]))  # the package itself
            elif module.startswith("cubebench.harness"):
                found.append((node.lineno, module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, a.name, [])
                for a in node.names
                if a.name.startswith("cubebench.harness")
            ]
    return found


def test_solvers_import_only_the_public_api():
    files = sorted((ROOT / "solvers").rglob("*.py"))
    assert len(files) > 50
    private = [
        f"{path.relative_to(ROOT)}:{line} {module} {names}"
        for path in files
        for line, module, names in _harness_imports(path)
        if module != "cubebench.harness" or not set(names) <= set(harness.__all__)
    ]
    assert not private, "\n".join(private)


def test_the_check_sees_relative_imports_of_private_modules(tmp_path):
    """The tree as it was: ``from ...harness.cube.moves import MOVE_FACE`` in a solver, and a
    search importing a solver's module, are caught."""
    source = "from ...harness.cube.moves import MOVE_FACE\nfrom ...harness import Budget\n"
    path = ROOT / "solvers" / "optimal" / "probe.py"
    node_a, node_b = ast.parse(source).body
    assert _absolute(path, node_a) == "cubebench.harness.cube.moves"
    assert _absolute(path, node_b) == "cubebench.harness"
    nested = ast.parse("from ..optimal.bounds import corner_bound").body[0]
    assert (
        _absolute(ROOT / "solvers" / "search" / "x.py", nested)
        == "cubebench.solvers.optimal.bounds"
    )


def test_searches_and_shared_code_import_no_solver():
    """``solvers/search`` (and the pattern databases, and the code solvers share) stand
    below every solver: a search that imports a solver's module would make every learned
    solver depend on that one."""
    solvers = {p.parent.name for p in (ROOT / "solvers").glob("*/solver.py")}
    below = [ROOT / "solvers" / name for name in ("search", "patterns", "common")]
    found = []
    for folder in below:
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom):
                    parts = _absolute(path, node).split(".")
                    if (
                        parts[:2] == ["cubebench", "solvers"]
                        and len(parts) > 2
                        and parts[2] in solvers
                    ):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {'.'.join(parts)}")
    assert not found, "\n".join(found)


def test_every_public_name_resolves():
    for name in harness.__all__:
        assert getattr(harness, name) is not None, name
    assert harness.symmetry_group("ud").size == 16  # exported under a name that says what


def test_importing_the_api_loads_nothing_heavy():
    code = (
        "import sys, cubebench.harness as h; h.Budget; h.move_set('qtm');"
        "print(sorted(m for m in ('torch', 'tensorflow', 'pandas', 'seaborn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_a_type_checker_sees_every_public_name_where_it_lives():
    """The lazy exports are also imported under ``TYPE_CHECKING``, each from the module that
    serves it at run time, so an editor types ``from cubebench.harness import Attempt``."""
    import ast
    import importlib

    import cubebench.harness as api

    tree = ast.parse(Path(api.__file__).read_text())
    (block,) = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    seen = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.unparse(node)
        for alias in node.names:
            assert alias.asname is not None, f"{alias.name}: re-export it as itself"
            seen[alias.asname] = (node.module, alias.name)
    assert set(seen) == set(api.__all__)
    for public, (module, private) in seen.items():
        served = getattr(importlib.import_module(f"cubebench.harness.{module}"), private)
        assert getattr(api, public) is served, public


def test_every_error_a_user_can_fix_shares_one_base_the_cli_catches():
    """The CLI prints any InputError as one line (exit 2): each error class that means "your
    input is wrong" derives from it, so none can be missing from a hand-kept list."""
    from cubebench.harness.cli.main import USER_ERRORS
    from cubebench.harness.cube import InvalidCubeError, NotationError
    from cubebench.harness.errors import InputError
    from cubebench.harness.naming import ArgumentError
    from cubebench.harness.records.schema import RecordError
    from cubebench.harness.registry import UnknownSolverError
    from cubebench.harness.report.rules import NothingToCompareError, ThresholdError
    from cubebench.harness.settings import SettingsError
    from cubebench.harness.solver import SolverLoadError
    from cubebench.harness.suites.model import SuiteError

    for error in (ArgumentError, SettingsError, SolverLoadError, SuiteError, RecordError,
                  NotationError, InvalidCubeError, UnknownSolverError, ThresholdError,
                  NothingToCompareError):  # fmt: skip
        assert issubclass(error, InputError) and issubclass(error, ValueError), error
    assert (InputError, FileNotFoundError) == USER_ERRORS
