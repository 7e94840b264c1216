"""cubebench: a benchmarking harness for learned Rubik's Cube solvers.

It answers one question honestly: which solver is better, on the same cubes, under the same
budget, and how far each is from the best possible. ``bench run`` runs solvers over fixed,
hashed scramble suites and replays every answer itself; ``bench show``, ``bench report``,
``bench site`` and ``bench compare`` read the runs.

- :mod:`cubebench.harness`: the public API (the solver protocol, the cube engine, suites,
  runs, program solvers); ``help(cubebench.harness)`` lists it.
- :mod:`cubebench.solvers`: the built-in solvers, one subpackage each, each with its card.

The project's README and ``docs/`` (in its source distribution and repository) are the
guide; ``bench --help`` lists the commands.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("cubebench")
except PackageNotFoundError:  # imported from a checkout that was never installed
    __version__ = "0+unknown"
