"""The default benchmark, as the Python API defines it: what ``bench run`` with no solver
and no suite runs (every system the project names over ``depth-01-v1`` ... ``depth-20-v1``
and ``random-state-v1``, and the 2×2×2's and 4×4×4's entries over ``cube2-random-state-v1``
and ``cube4-depth-15-v1``; each entry solves the suites of its own puzzle), and
:func:`default_benchmark`, the same run as a :class:`~cubebench.harness.runner.RunConfig`
for a script.
"""

from __future__ import annotations

from .runconfig import RunConfig, SolverSpec
from .solver import DEFAULT_TIME_LIMIT_S
from .suites.generate import MAX_DEPTH, RANDOM_STATE_SUITE, depth_suite_name

OTHER_SIZES = ("cube2-random-state-v1", "cube4-depth-15-v1")
"""The other sizes' suites in the default benchmark: the 2×2×2's uniform random states (every
one with its exact optimum) and the 4×4×4's fifteen-move scrambles, where its learned and its
classic solvers part."""
ALL_SUITES = (
    *(depth_suite_name(d) for d in range(1, MAX_DEPTH + 1)),
    RANDOM_STATE_SUITE,
    *OTHER_SIZES,
)
DEFAULT_ENTRIES: dict[str, tuple[dict[str, str], int | None]] = {
    "kociemba": ({}, None),
    "random": ({}, 20),
    "policy-mlp": ({}, None),
    "cnn-faces": ({}, None),
    "mlp-kociemba": ({}, None),
    "seq2seq-transformer": ({}, None),
    "value-transformer": ({"beam_width": "300"}, 3),
    "deepcubea": ({}, 3),
    "cayley-mlp": ({}, 5),
    "dietz-cubex": ({}, None),
    "winter-kociemba": ({}, 10),
    "cube2-optimal": ({}, None),
    "cube2-policy": ({}, None),
    "cube2-value": ({}, None),
    "dietz-cu2": ({}, None),
    "cube4-policy": ({}, 20),
    "dietz-mcube": ({}, None),
}
"""The default benchmark: every system the project names, each with the settings and the
number of cubes a suite (None: the run's) that fit the run in under 15 minutes on 2 cores.
The fast ones run at their defaults on every cube of the run; ``seq2seq-transformer``
decodes greedily, as its seed; ``random``, the floor every learned solver must clear, on
the first 20. The value searches cost seconds a cube, so they run on the first few cubes of
each suite: the flagship ``cayley-mlp`` at its defaults (a beam of 8,192, quarter turns;
a few seconds a random state) on 5, ``deepcubea``'s A* at its defaults on 3, and
``value-transformer``'s beam at 300, its seed's width for 10-move scrambles (its default,
1000, takes several times as long a deep cube), on 3. The classic C programs run where
``cubebench[classic]`` is installed: ``dietz-cubex`` (milliseconds a cube) on every cube,
``winter-kociemba`` (which loads its tables again for every cube, half a second) on the
first 10 of each suite. On the 2×2×2 the exact table (``cube2-optimal``), the learned
``cube2-policy`` and ``cube2-value`` and Dietz's ``cu2`` run on every cube; on the 4×4×4
Dietz's ``mcube`` on every cube and the learned ``cube4-policy`` (a beam of 1,024 up to 80
moves, seconds a cube) on the first 20; ``random`` runs on every size.
An entry at other than its defaults is labelled with them, and a matrix cell says how many
cubes it covers. ``--set`` still overrides."""
DEFAULT_SOLVERS = tuple(DEFAULT_ENTRIES)
DEFAULT_LIMIT = 100
"""Instances per suite in the default benchmark, sized to finish in under 15 minutes here."""
DEFAULT_WORKERS = 2
"""Worker processes per entry in ``bench run`` and the default benchmark: one a core here.
(:class:`RunConfig` itself defaults to one, so a script asks for parallel solving.)"""


def default_entries(entries: list[SolverSpec]) -> list[SolverSpec]:
    """The default benchmark's own settings and per-entry limits, under the user's ``--set``
    and ``--sweep`` (which win, and keep their own labels)."""
    out = []
    for spec in entries:
        settings, limit = DEFAULT_ENTRIES.get(spec.name, ({}, None))
        chosen = {k: v for k, v in settings.items() if k not in spec.settings}
        label = spec.label
        if chosen and not label:
            label = spec.name + "[" + ",".join(f"{k}={v}" for k, v in chosen.items()) + "]"
        out.append(SolverSpec(spec.name, {**chosen, **spec.settings}, label, limit))
    return out


def default_benchmark(
    out: str = "", available: tuple[str, ...] | None = None, full: bool = False
) -> RunConfig:
    """The default benchmark's run: its entries (those of ``available`` solvers, when
    given), suites, cubes per suite, workers and time limit. ``full``: every entry at its
    defaults on every cube (hours)."""
    names = [n for n in DEFAULT_SOLVERS if available is None or n in available]
    specs = [SolverSpec(name) for name in names]
    return RunConfig(
        solvers=tuple(specs if full else default_entries(specs)),
        suites=ALL_SUITES,
        limit=None if full else DEFAULT_LIMIT,
        time_limit=DEFAULT_TIME_LIMIT_S,
        workers=DEFAULT_WORKERS,
        out=out,
    )
