"""Solution lengths count the answer's canonical form: turns of one face merged."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cubebench.harness.cube import (
    SOLVED,
    apply_sequence,
    length_htm,
    length_qtm,
    parse_moves,
    reduce_moves,
)
from cubebench.harness.cube.moves import QUARTER_TURN_MOVES
from tests.harness.cube.strategies import move_sequences

quarter_turn_sequences = st.lists(st.sampled_from(QUARTER_TURN_MOVES), max_size=40)


def _merged_by_rewriting(moves: list[int]) -> list[tuple[int, int]]:
    """An independent count: rewrite (face, quarter turns) pairs until nothing merges.

    Two turns of one face merge when only turns of the opposite face stand between them;
    a merge that makes no turn removes both. Repeats until a pass changes nothing.
    """
    seq = [(m // 3, m % 3 + 1) for m in moves]
    changed = True
    while changed:
        changed = False
        for i in range(len(seq)):
            face = seq[i][0]
            j = i + 1
            while j < len(seq) and seq[j][0] == (face + 3) % 6:
                j += 1
            if j < len(seq) and seq[j][0] == face:
                turns = (seq[i][1] + seq[j][1]) % 4
                del seq[j]
                if turns:
                    seq[i] = (face, turns)
                else:
                    del seq[i]
                changed = True
                break
    return seq


@given(quarter_turn_sequences)
def test_htm_length_of_quarter_turns_is_the_merged_count(moves):
    merged = _merged_by_rewriting(moves)
    htm, qtm = length_htm(moves), length_qtm(moves)
    assert htm == len(merged)
    assert qtm == sum(2 if turns == 2 else 1 for _, turns in merged)
    assert htm <= qtm <= 2 * htm
    assert htm <= len(moves)


@given(move_sequences)
def test_the_canonical_form_does_the_same_and_is_a_fixed_point(moves):
    reduced = reduce_moves(moves)
    assert np.array_equal(apply_sequence(SOLVED, reduced), apply_sequence(SOLVED, moves))
    assert reduce_moves(reduced) == reduced
    assert length_htm(moves) == len(_merged_by_rewriting(moves))


@pytest.mark.parametrize(
    ("text", "htm", "qtm"),
    [
        ("L L B B", 2, 4),
        ("D' F U U R'", 4, 5),
        ("U D U", 2, 3),
        ("L R L'", 1, 1),
        ("U R R' U", 1, 2),
        ("U2 U2", 0, 0),
        ("R U2 F' D2 L", 5, 7),
    ],
)
def test_lengths_of_spelled_answers(text, htm, qtm):
    assert (length_htm(parse_moves(text)), length_qtm(parse_moves(text))) == (htm, qtm)
