"""CayleyPy's cube graph, and how its states and moves map onto the harness's.

The graph is CayleyPy's own ``Puzzles.rubik_cube(3, "QTM" | "HTM")``: 54 stickers in its
face order U F R B L D, generators named by layer (``f0`` the front layer, ``f2`` the back
one turned the same way, ``f0^2`` a half turn). The sticker and move mapping is derived
from the graph's own permutations (:mod:`cubebench.solvers.common.peer_cube`), so a change
in CayleyPy's definition fails at load instead of solving the wrong cube.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..common.peer_cube import PeerCube, derive_peer_cube, direction_options
from ..common.peers import import_peer

_LAYER_FACE = {"f0": "F", "f2": "B", "r0": "R", "r2": "L", "d0": "D", "d2": "U"}
COLOUR_FACES = "UFRBLD"  # CayleyPy's central state: colour c on face COLOUR_FACES[c]


def graph_definition(metric: str) -> Any:
    """CayleyPy's ``CayleyGraphDef`` of the 3x3x3 cube in ``metric`` (htm or qtm)."""
    cayleypy = import_peer("cayleypy", "cayleypy")
    return cayleypy.Puzzles.rubik_cube(3, metric.upper())


def _face_moves(names: list[str]) -> list[tuple[str, int]]:
    """Generator names -> (face, clockwise quarter turns as named)."""
    out = []
    for name in names:
        layer = name.split("'")[0].split("^")[0]
        quarters = 2 if name.endswith("^2") else 3 if name.endswith("'") else 1
        out.append((_LAYER_FACE[layer], quarters))
    return out


@cache
def peer_cube(metric: str) -> PeerCube:
    """The derived mapping for ``metric``'s graph (cached: it is the same for every cube)."""
    definition = graph_definition(metric)
    return derive_peer_cube(
        np.asarray(definition.generators_permutations),
        np.asarray(definition.central_state),
        COLOUR_FACES,
        direction_options(_face_moves(list(definition.generator_names))),
    )


def cube_graph(metric: str, batch_size: int = 2**20, device: str = "cpu") -> Any:
    """A ``CayleyGraph`` over ``metric``'s definition; ``batch_size`` bounds one model call."""
    cayleypy = import_peer("cayleypy", "cayleypy")
    return cayleypy.CayleyGraph(graph_definition(metric), batch_size=batch_size, device=device)
