"""CayleyPy's cube graphs, and how their states and moves map onto the harness's.

The graphs are CayleyPy's own ``Puzzles.rubik_cube(N, metric)``: stickers in its face order
U F R B L D, generators named by layer (``f0`` the front layer, ``f1`` the next one in, the
last the back layer turned the same way; ``f0^2`` a half turn). On the 3×3×3 ``HTM``/``QTM``;
on the 2×2×2 ``fixed_HTM``/``fixed_QTM`` (F, R and D turns, whatever
their names say: the UBL corner never moves); on
the 4×4×4 ``QTM``, the 24 layer quarter turns (the harness's 4×4×4 ``qtm``; CayleyPy's
4×4×4 ``HTM`` counts single-layer half turns, not the harness's face-and-wide turns, so it
is not offered). The sticker and move mapping is derived from the graph's own permutations
(:mod:`cubebench.solvers.common.peer_cube`), so a change in CayleyPy's definition fails at
load instead of solving the wrong cube.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ...harness import move_set, puzzle
from ..common.peer_cube import PeerCube, derive_peer_cube, layer_options
from ..common.peers import import_peer

_AXIS_FACE = {"f": "F", "r": "R", "d": "D"}
COLOUR_FACES = "UFRBLD"  # CayleyPy's central state: colour c on face COLOUR_FACES[c]
GRAPH_METRICS: dict[str, dict[str, str]] = {
    "cube2": {"htm": "fixed_HTM", "qtm": "fixed_QTM"},
    "cube3": {"htm": "HTM", "qtm": "QTM"},
    "cube4": {"qtm": "QTM"},
}
"""CayleyPy's metric name of each harness puzzle's metric it has a graph for."""


def graph_definition(metric: str, puzzle_name: str = "cube3") -> Any:
    """CayleyPy's ``CayleyGraphDef`` of the puzzle's cube in ``metric`` (htm or qtm)."""
    cayleypy = import_peer("cayleypy", "cayleypy")
    return cayleypy.Puzzles.rubik_cube(puzzle(puzzle_name).size, GRAPH_METRICS[puzzle_name][metric])


def _layer_moves(names: list[str]) -> list[tuple[str, int, int]]:
    """Generator names -> (face, layer depth from it, quarter turns as named)."""
    out = []
    for name in names:
        layer = name.split("'")[0].split("^")[0]
        quarters = 2 if name.endswith("^2") else 3 if name.endswith("'") else 1
        out.append((_AXIS_FACE[layer[0]], int(layer[1:]), quarters))
    return out


@cache
def peer_cube(metric: str, puzzle_name: str = "cube3") -> PeerCube:
    """The derived mapping for the graph (cached: it is the same for every cube). On the
    2×2×2 the harness side is its move set's frame: the DBL corner home, U, R, F turns."""
    definition = graph_definition(metric, puzzle_name)
    rotate = puzzle_name == "cube2"
    options = layer_options(
        _layer_moves(list(definition.generator_names)),
        COLOUR_FACES,
        puzzle_name,
        rotate=rotate,
        any_side=rotate,  # the 2×2×2's generators are typed in by hand: "r1" turns R
        within=[int(m) for m in move_set(metric, puzzle_name).moves] if rotate else None,
    )
    return derive_peer_cube(
        np.asarray(definition.generators_permutations),
        np.asarray(definition.central_state),
        options,
        puzzle_name=puzzle_name,
    )


def cube_graph(
    metric: str, batch_size: int = 2**20, device: str = "cpu", puzzle_name: str = "cube3"
) -> Any:
    """A ``CayleyGraph`` over the definition; ``batch_size`` bounds one model call."""
    cayleypy = import_peer("cayleypy", "cayleypy")
    definition = graph_definition(metric, puzzle_name)
    return cayleypy.CayleyGraph(definition, batch_size=batch_size, device=device)
