"""Would the inverse start's beam, meeting the first start's beam, find shorter paths?

Run: ``python benchmarks/beam_meeting.py --suite .cubebench/dev/random-dev.jsonl --limit 20
[--width 65536] [--out FILE.jsonl]``. ``cayley-mlp``'s two starts (quarter turns,
``mitm_radius=7``) search as the DeepCubeA set is run, and the second one also looks for
the first one's beam. The first beam keeps every state it held, level by level: states
``C a``, ``a`` a path of ``i`` moves. The second beam, from the inverse ``C^-1``, carries a
shadow of each of its states: the same moves ``b`` (``j`` of them) played on a solved cube.
Where a shadow equals a state of the first beam, ``C a = b``, so ``a`` followed by
``b^-1`` solves the cube in ``i + j`` moves: a meet in the middle of the two beams, beside
the meeting with the table. Prints, per cube, each start's length and the shortest meeting,
and counts the cubes a meeting made shorter than both starts.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from cubebench.harness import SOLVED, invert_sequence, move_set, state_hash
from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite
from cubebench.solvers.search import CheckedModel
from cubebench.solvers.search.beam import _dedup, _path, _value_step
from cubebench.solvers.search.meet import meet_table
from cubebench.solvers.search.models import SearchLimits
from cubebench.solvers.search.starts import Start, start_state

MAX_DEPTH = 40


class Levels:
    """The first beam, level by level: sorted hashes with (level, index), and the parents
    and moves that rebuild a path."""

    def __init__(self) -> None:
        self.hashes: list[np.ndarray] = []
        self.parents: list[np.ndarray] = []
        self.taken: list[np.ndarray] = []

    def index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hashes = np.concatenate(self.hashes)
        level = np.concatenate([np.full(h.size, i) for i, h in enumerate(self.hashes)])
        where = np.concatenate([np.arange(h.size) for h in self.hashes])
        order = np.argsort(hashes, kind="stable")
        return hashes[order], level[order], where[order]

    def path(self, level: int, where: int, moves) -> tuple[int, ...]:
        path = []
        for depth in range(level - 1, -1, -1):
            path.append(int(self.taken[depth][where]))
            where = int(self.parents[depth][where])
        return tuple(int(moves.moves[m]) for m in reversed(path))


def first_beam(cube, model, width, moves, meet) -> tuple[tuple[int, ...] | None, Levels]:
    """The first start's beam, keeping its levels."""
    beam, scores = np.asarray(cube, np.uint8)[:, None], np.zeros(1)
    last = np.full(1, -1)
    levels = Levels()
    levels.hashes.append(state_hash(beam))
    for _ in range(MAX_DEPTH - meet.radius):
        model.spend_nodes(beam.shape[1])
        beam, scores, last, parent, solved, tail = _value_step(
            beam, scores, last, model, width, moves, meet
        )
        if solved is not None:
            path = _path(levels.parents, levels.taken, int(parent[solved]), int(last[solved]))
            return tuple(int(moves.moves[m]) for m in path) + (tail or ()), levels
        levels.parents.append(parent)
        levels.taken.append(last)
        levels.hashes.append(state_hash(beam))
    return None, levels


def second_beam(cube, model, width, moves, meet, best, levels):
    """The inverse's beam for a path shorter than ``best``, meeting the table or the first
    beam: (the shortest path found or None, the length through the table or None, the
    shortest meeting with the first beam or None)."""
    hashes, level, where = levels.index()
    beam = start_state(cube, Start(0, True))[:, None]
    shadow = SOLVED[:, None].copy()  # the moves so far, played on a solved cube
    last = np.full(1, -1)
    parents: list[np.ndarray] = []
    taken: list[np.ndarray] = []
    found, through_table, meeting = None, None, None
    for j in range(1, MAX_DEPTH + 1):
        target = (len(best) if found is None else len(found)) - 2
        if j > target:
            break
        n = beam.shape[1]
        model.spend_nodes(n)
        keep = np.flatnonzero(moves.allowed_after(last).T.reshape(-1))
        children = moves.expand(beam)
        keep = keep[_dedup(np.take(children, keep, axis=1), None)]
        kept = np.take(children, keep, axis=1)
        shadows = np.take(moves.expand(shadow), keep, axis=1)

        def moves_to(c: int, keep=keep, n=n) -> tuple[int, ...]:
            local = _path(parents, taken, int(keep[c] % n), int(keep[c] // n))
            return tuple(int(moves.moves[m]) for m in local)

        sh = state_hash(shadows)
        pos = np.minimum(np.searchsorted(hashes, sh), hashes.size - 1)
        for c in np.flatnonzero(hashes[pos] == sh).tolist():
            i = int(level[pos[c]])
            if meeting is None or i + j < meeting:
                meeting = i + j
            if i + j <= target:
                head = levels.path(i, int(where[pos[c]]), moves)
                found = head + tuple(invert_sequence(list(moves_to(c))))
                target = len(found) - 2
        table = meet.table_distance(kept)
        near = int(np.argmin(table))
        if table[near] <= meet.radius:
            whole = moves_to(near) + tuple(meet.path_to_solved(kept[:, near]))
            through_table = len(whole)
            if len(whole) <= target:
                found = tuple(invert_sequence(list(whole)))
            break
        scores = -model(kept)
        top = np.argpartition(-scores, width - 1)[:width] if keep.size > width else slice(None)
        beam, shadow = np.take(kept, np.arange(keep.size)[top], axis=1), shadows[:, top]
        parents.append((keep % n)[top])
        taken.append((keep // n)[top])
        last = (keep // n)[top]
    return found, through_table, meeting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="development cubes (a JSONL path)")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--skip", type=int, default=0, help="begin after this many cubes")
    parser.add_argument("--width", type=int, default=65536)
    parser.add_argument("--out", type=Path, help="append one JSON line a cube here")
    args = parser.parse_args()
    solver = make_solver("cayley-mlp", {"beam_width": args.width, "mitm_radius": 7})
    moves, meet = move_set("qtm"), meet_table("qtm", 7)
    shortened = 0
    for instance in load_suite(args.suite).instances[args.skip : args.skip + args.limit]:
        cube = facelets_to_state(instance.facelets)
        with solver.inference():
            first, levels = first_beam(
                cube, CheckedModel(solver.value, "value", 16384), args.width, moves, meet
            )
            if first is None:
                print(f"cube {instance.id}: unsolved by the first start, left out")
                continue
            limits = SearchLimits(max_depth=MAX_DEPTH)
            model = CheckedModel(solver.value, "value", 16384, limits)
            found, table, meeting = second_beam(cube, model, args.width, moves, meet, first, levels)
        best = first if found is None else found
        if not is_solved(apply_sequence(cube, best)):
            raise SystemExit(f"cube {instance.id}: a joined path does not solve it")
        record = {
            "id": instance.id,
            "first": len(first),
            "second": table,
            "meeting": meeting,
            "best": len(best),
        }
        # the two starts alone give the shorter of ``first`` and ``second``
        shortened += meeting is not None and meeting < min(len(first), table or MAX_DEPTH)
        print(json.dumps(record), flush=True)
        if args.out:
            with args.out.open("a") as out:
                print(json.dumps(record), file=out)
    print(f"cubes a meeting of the two beams made shorter than both starts: {shortened}")


if __name__ == "__main__":
    main()
