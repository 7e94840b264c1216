"""Hypothesis strategies for moves and states."""

from hypothesis import strategies as st

move_ids = st.integers(min_value=0, max_value=17)
move_sequences = st.lists(move_ids, min_size=0, max_size=30)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
