"""The symmetry classes behind the large table, against the harness's own symmetries."""

from __future__ import annotations

import numpy as np

from cubebench.harness.cube import random_states
from cubebench.harness.cube.symmetry import conjugate
from cubebench.solvers.patterns import flipslice
from cubebench.solvers.patterns.coords import N_SORTED, coordinates


def _coordinates(states: np.ndarray) -> dict[str, np.ndarray]:
    return coordinates(states, ("twist", "flip", "sorted"))


def test_the_tables_conjugate_coordinates_as_the_stickers_do() -> None:
    conj = flipslice.conjugation_tables()
    states = np.asarray(random_states(300, np.random.default_rng(5)))
    before = _coordinates(states)
    value = before["flip"] * N_SORTED + before["sorted"]
    for j, k in enumerate(flipslice.UD):
        after = _coordinates(conjugate(states, int(k)))
        predicted = [
            flipslice.conjugate_flipslice(int(v), j, conj.flip, conj.sorted, conj.mask)
            for v in value
        ]
        assert predicted == list(after["flip"] * N_SORTED + after["sorted"])
        assert (conj.twist[before["twist"], j] == after["twist"]).all()
        back = _coordinates(
            conjugate(conjugate(states, int(k)), int(flipslice.UD[conj.inverse[j]]))
        )
        assert (back["sorted"] == before["sorted"]).all() and (back["flip"] == before["flip"]).all()


def test_every_value_names_its_class_and_the_symmetry_to_its_representative() -> None:
    conj, found = flipslice.conjugation_tables(), flipslice.classes()
    assert found.reps.size == flipslice.N_CLASSES  # Kociemba's count of classes
    values = np.random.default_rng(6).integers(0, flipslice.N_FLIPSLICE, 2000)
    for x in values:
        c, j = found.cls[x], found.sym[x]
        rep = flipslice.conjugate_flipslice(int(x), int(j), conj.flip, conj.sorted, conj.mask)
        assert rep == found.reps[c]
        # a symmetry fixing the representative is marked, and no other is
        fixed = [
            flipslice.conjugate_flipslice(int(rep), i, conj.flip, conj.sorted, conj.mask) == rep
            for i in range(16)
        ]
        assert fixed == [bool(found.stab[c] >> i & 1) for i in range(16)]
