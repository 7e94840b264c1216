"""Another library's cube as this harness's: which sticker is which, and which move is which.

A peer library (CayleyPy, AlphaCube) numbers its 54 stickers, colours and moves its own way.
Rather than type a sticker table in by hand, the mapping is *derived* from the peer's own
move permutations: for each choice of turning direction per face, random move sequences are
played in both engines, and every peer sticker is matched to the harness sticker that shows
the same colour after every sequence. Exactly one choice gives a one-to-one match; it is the
mapping, and the interop tests then check both engines agree move for move on random states.

Conventions: a *gather table* ``t`` applies a move as ``new = old[t]`` (the harness's, and
CayleyPy's and AlphaCube's too once written that way); harness states are sticker-major
``(54, N)`` colour ids in ``FACES`` order.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...harness import FACES, MOVE_INVERSE, MOVE_NAMES, MOVE_TABLES, SOLVED


@dataclass(frozen=True)
class PeerCube:
    """How a peer's cube maps onto the harness's.

    ``moves[g]`` is the harness move id of peer generator ``g``; ``to_peer[p]`` the harness
    sticker shown at peer sticker ``p``; ``colour_to_peer[c]`` the peer's colour id of
    harness colour ``c``.
    """

    moves: np.ndarray  # (G,) int64
    to_peer: np.ndarray  # (54,) intp
    colour_to_peer: np.ndarray  # (6,) uint8

    def states_to_peer(self, states: np.ndarray) -> np.ndarray:
        """(54, N) harness states -> (N, 54) peer colour ids (int64, the peers' dtype)."""
        return self.colour_to_peer[states[self.to_peer]].T.astype(np.int64)

    def peer_moves(self, generators: Sequence[int]) -> list[int]:
        """Peer generator ids -> harness move ids."""
        return [int(self.moves[g]) for g in generators]


def _play(tables: np.ndarray, start: np.ndarray, sequences: np.ndarray) -> np.ndarray:
    """Apply ``sequences`` (K, L) of gather tables ``tables`` (G, 54) to ``start`` (54,):
    (54, K) final states, one column per sequence."""
    states = np.repeat(start[:, None], sequences.shape[0], axis=1)
    for step in range(sequences.shape[1]):
        moved = tables[sequences[:, step]]  # (K, 54)
        states = np.take_along_axis(states, moved.T, axis=0)
    return states


def derive_peer_cube(
    peer_tables: np.ndarray,
    peer_solved: np.ndarray,
    colour_faces: str,
    move_options: Sequence[np.ndarray],
    *,
    sequences: int = 48,
    length: int = 30,
    seed: int = 0,
) -> PeerCube:
    """The mapping from the peer's move tables, solved state and colour names.

    Args:
        peer_tables: (G, 54) gather tables of the peer's generators.
        peer_solved: (54,) the peer's solved state (its colour ids).
        colour_faces: the face letter (``FACES``) of each peer colour id.
        move_options: the alternatives, each a (G,) array of harness move ids
            (:func:`direction_options`).

    Raises:
        ValueError: when no choice of moves makes the two engines agree, naming the peer's
            generator count, so a changed peer library fails loudly, never silently.
    """
    peer_tables = np.asarray(peer_tables, dtype=np.intp)
    peer_solved = np.asarray(peer_solved, dtype=np.int64)
    colour_to_peer = np.array([colour_faces.index(f) for f in FACES], dtype=np.uint8)
    rng = np.random.default_rng(seed)
    played = rng.integers(0, len(peer_tables), size=(sequences, length))
    peer_states = _play(peer_tables, peer_solved, played)  # (54, K)
    peer_keys = {row.tobytes(): p for p, row in enumerate(peer_states)}
    for choice in move_options:
        moves = np.asarray(choice, dtype=np.int64)
        ours = _play(MOVE_TABLES.astype(np.intp), SOLVED, moves[played])
        translated = colour_to_peer[ours].astype(np.int64)  # (54, K) in peer colour ids
        to_peer = np.full(54, -1, dtype=np.intp)
        for h, row in enumerate(translated):
            p = peer_keys.get(row.tobytes())
            if p is None or to_peer[p] != -1:
                break
            to_peer[p] = h
        else:
            if (to_peer >= 0).all():
                return PeerCube(moves, to_peer, colour_to_peer)
    raise ValueError(
        f"no mapping of the peer's {len(peer_tables)} generators onto the harness's moves "
        "makes both engines agree: the peer's cube definition is not the one this adapter knows"
    )


def direction_options(face_moves: Sequence[tuple[str, int]]) -> list[np.ndarray]:
    """The alternatives for generators named by face and clockwise quarter turns (1, 2 or 3):
    whether a library's "clockwise" is the harness's is unknown until tried, so each face's
    quarter turns may all be reversed together (2**faces alternatives); half turns are fixed.
    """
    named = [MOVE_NAMES.index(f + {1: "", 2: "2", 3: "'"}[q]) for f, q in face_moves]
    faces = sorted({f for f, _ in face_moves})
    options = []
    for flips in itertools.product((False, True), repeat=len(faces)):
        flipped = {f for f, flip in zip(faces, flips, strict=True) if flip}
        options.append(
            np.array(
                [
                    int(MOVE_INVERSE[m]) if f in flipped else m
                    for m, (f, _) in zip(named, face_moves, strict=True)
                ],
                dtype=np.int64,
            )
        )
    return options
