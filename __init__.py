"""The checkout's root is the ``cubebench`` package, laid out as the wheel installs it.

``harness/`` and ``solvers/`` install as ``cubebench.harness`` and ``cubebench.solvers``
(``setup.py``), and the code between them imports relatively (``from ...harness import X``
in ``solvers/common/``). This file makes those imports resolve by path in the checkout too:
readers, type checkers and structure viewers follow ``solvers/`` into ``harness/`` without an
install. The wheel does not ship it: installed, ``cubebench`` is ``package/__init__.py``
(its docstring and ``__version__``).
"""
