"""The harness and ``bench --help`` stay free of heavy frameworks."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import cubebench.harness.cube, cubebench.harness.suites.catalog
import cubebench.harness.suites.importers, cubebench.harness.cli.main
heavy = sorted(m for m in ("torch", "tensorflow", "keras") if m in sys.modules)
print(",".join(heavy))
"""


def test_harness_imports_no_framework():
    result = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_bench_help_runs():
    result = subprocess.run(
        [sys.executable, "-c", "from cubebench.harness.cli.main import main; main()", "--help"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and "suites" in result.stdout
