"""Package layout: the repository keeps ``harness/`` and ``solvers/`` at its top level, and the
wheel installs them as ``cubebench.harness`` and ``cubebench.solvers``, so ``cubebench`` is the
only top-level import package a user's environment gets; ``package/`` holds that package's own
docstring and version. Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

ROOTS = ("harness", "solvers")

setup(
    packages=[
        "cubebench",  # its docstring and __version__ (package/__init__.py)
        *(f"cubebench.{name}" for name in find_packages(include=[f"{r}*" for r in ROOTS])),
    ],
    package_dir={"cubebench": "package", **{f"cubebench.{root}": root for root in ROOTS}},
)
