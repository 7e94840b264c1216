"""Kociemba two-phase labels, made in worker processes and cached on disk.

Seed 003 scrambles a cube with up to 25 half-turn moves that never turn one face twice in a
row, solves it with the ``kociemba`` package and keeps the solution's first move as the
scrambled state's label: one label per call. Here every prefix of the solution is kept as
well: after the first ``i`` moves of a two-phase solution the remaining moves still solve the
intermediate state (a two-phase-style route: the rest of phase 1, then phase 2), so one call
labels up to ~22 states. ``step`` records which prefix a label came from (0 is the seed's own
label), so the seed's distribution is the ``step == 0`` subset of the same file.

Short scrambles are solved with a length bound: for a scramble of ``length <= bound_until``
moves, ``kociemba.solve`` is given ``max_depth=length`` (the scramble itself proves such a
solution exists), so the two-phase search keeps going until its route is no longer than the
scramble. Unbounded, it returns 8.5 moves for 7-move scrambles (6.8 bounded) and 14.25 for
11-move ones (10.65): detours through G1 that a next-move predictor then has to learn, state
by state, for cubes that are a few moves from home. Longer scrambles keep the seed's call
(the bound costs 0.2 s a call at 12 moves and 0.6 s at 13, as
``benchmarks/mlp_kociemba_bound.py`` at commit 86dfdae measured). ``bound_until=0`` is the
seed's labelling exactly.

Stream 0 is the training set, stream 1 the validation set and stream 2 (``NEAR_STREAM``) an
optional supplement of short scrambles only (``max_length``, e.g. 10, all length-bounded):
the states a greedy rollout walks through, of which the seed's mix labels few along routes a
random short scramble would take. They are cheap: 0.04 ms a call at 7 moves, 1.6 ms at 10.

Label sets are deterministic in ``(seed, stream, count, max_length)`` whatever the number of
workers (each chunk of scrambles has its own random stream) and cached as ``.npz`` (no
pickles) under ``$CUBEBENCH_HOME/cache/mlp-kociemba`` (default ``~/.cubebench/cache``),
outside git.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import re
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...harness import (
    apply_moves,
    is_solved,
    parse_moves,
    solved_batch,
    state_to_facelets,
)
from ...harness import (
    cache_dir as cubebench_cache,
)
from ..common.walks import random_walks

MAX_SCRAMBLE = 25  # the seed's longest scramble
CHUNK = 100  # scrambles per worker task: each chunk has its own random stream
MAX_BOUND = 12  # longest scramble solved with max_depth=length (0.2 s a call at 12)
BOUND_UNTIL = 11  # the default: 10 ms a call at 11 moves
NEAR_STREAM = 2  # short scrambles only, a training supplement
FIELDS = ("states", "labels", "scramble_length", "step", "remaining")


@dataclass(frozen=True)
class LabelSet:
    """Labelled states, one row each.

    states (N, 54) uint8; labels (N,) int8 move ids (the next move of the two-phase
    solution); scramble_length (N,) int8, 1..25; step (N,) int8, the prefix of the solution
    already applied (0: the scrambled state itself, the seed's label); remaining (N,) int8,
    the moves left in the solution from this state (>= 1).
    """

    states: np.ndarray
    labels: np.ndarray
    scramble_length: np.ndarray
    step: np.ndarray
    remaining: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, mask: np.ndarray) -> LabelSet:
        return LabelSet(*(getattr(self, f)[mask] for f in FIELDS))

    def __add__(self, other: LabelSet) -> LabelSet:
        return LabelSet(*(np.concatenate([getattr(self, f), getattr(other, f)]) for f in FIELDS))


def cache_dir() -> Path:
    return cubebench_cache("mlp-kociemba")


def check_bound(bound_until: int) -> int:
    if not 0 <= bound_until <= MAX_BOUND:
        raise ValueError(f"label bound_until={bound_until}: must be in 0..{MAX_BOUND}")
    return bound_until


def _route(state: np.ndarray, length: int, bound_until: int) -> list[int]:
    """The two-phase solution of one scrambled state under the labelling rule."""
    import kociemba

    bound = length if length <= bound_until else 24  # 24: the package's default
    solution = parse_moves(kociemba.solve(state_to_facelets(state), max_depth=bound))
    if len(solution) > bound:
        raise RuntimeError(f"kociemba's solution {solution} is longer than {bound} moves")
    return solution


def _rows(state: np.ndarray, length: int, solution: list[int]) -> list[tuple]:
    rows = []
    for i, move in enumerate(solution):
        rows.append((state, move, length, i, len(solution) - i))
        state = apply_moves(state[:, None], np.array([move]))[:, 0]
    if not is_solved(state):
        raise RuntimeError(f"kociemba's solution {solution} does not solve its cube")
    return rows


def _arrays(rows: list[tuple]) -> tuple[np.ndarray, ...]:
    return (
        np.stack([r[0] for r in rows]).astype(np.uint8),
        *(np.array([r[k] for r in rows], dtype=np.int8) for k in range(1, 5)),
    )


def check_length(max_length: int) -> int:
    if not 1 <= max_length <= MAX_SCRAMBLE:
        raise ValueError(f"label max_length={max_length}: must be in 1..{MAX_SCRAMBLE}")
    return max_length


def _chunk(
    seed: int, stream: int, index: int, count: int, bound_until: int, max_length: int
) -> tuple[np.ndarray, ...]:
    """Label ``count`` scrambles of chunk ``index``; runs in a worker process."""
    rng = np.random.default_rng([seed, stream, index])
    lengths = rng.integers(1, max_length + 1, size=count)
    walks = random_walks(count, MAX_SCRAMBLE, rng)
    scrambled = solved_batch(count)  # (54, count)
    for step in range(MAX_SCRAMBLE):
        on = step < lengths
        scrambled[:, on] = apply_moves(scrambled[:, on], walks[on, step])
    rows: list[tuple] = []
    for state, length in zip(scrambled.T, lengths.tolist(), strict=True):
        if not is_solved(state):  # a walk like U D U' D' comes back: nothing to label
            rows += _rows(state, length, _route(state, length, bound_until))
    return _arrays(rows)


def _relabel(old: tuple[np.ndarray, ...], old_bound: int, bound_until: int) -> tuple:
    """Rows of whole calls from a set made under ``old_bound``, made again under
    ``bound_until``: a call whose rule is unchanged keeps its rows (kociemba is deterministic),
    the others are solved again from their scrambled state (their ``step == 0`` row)."""
    states, _, lengths, steps, _ = old
    starts = [*np.flatnonzero(steps == 0).tolist(), len(steps)]
    rows: list[tuple] = []
    for begin, end in itertools.pairwise(starts):
        length = int(lengths[begin])
        if (length <= old_bound) == (length <= bound_until):
            rows += [tuple(a[i] for a in old) for i in range(begin, end)]
        else:
            rows += _rows(states[begin], length, _route(states[begin], length, bound_until))
    return _arrays(rows)


def generate(
    count: int,
    seed: int = 0,
    stream: int = 0,
    workers: int | None = None,
    progress: bool = True,
    bound_until: int = BOUND_UNTIL,
    reuse: tuple[LabelSet, int, int] | None = None,
    max_length: int = MAX_SCRAMBLE,
) -> tuple[LabelSet, float]:
    """Label ``count`` scrambles with kociemba in ``workers`` processes.

    Args:
        reuse: ``(labels, calls, bound)``, a set of the first ``calls`` scrambles of the same
            seed and stream (a multiple of ``CHUNK``) made under another bound or none; its
            calls are relabelled where the rule differs, the rest are made afresh. The result
            is the same as without it.

    Returns:
        the labels and the labels made per second (wall time, all workers).
    """
    if count < 1:
        raise ValueError(f"label count={count}: must be at least 1")
    check_bound(bound_until)
    check_length(max_length)
    if reuse and max_length != MAX_SCRAMBLE:
        raise ValueError(f"reuse of a set with max_length={MAX_SCRAMBLE}: asked {max_length}")
    workers = workers or max(1, os.cpu_count() or 1)
    done = reuse[1] if reuse else 0
    if done % CHUNK or done > count:
        raise ValueError(f"reused calls={done}: must be a multiple of {CHUNK} up to {count}")
    tasks: list[tuple] = []
    if reuse:
        steps = reuse[0].step
        starts = [*np.flatnonzero(steps == 0)[:: 4 * CHUNK].tolist(), len(steps)]
        for begin, end in itertools.pairwise(starts):
            old = tuple(getattr(reuse[0], f)[begin:end] for f in FIELDS)
            calls = int((old[3] == 0).sum())  # the progress bar counts calls, not rows
            tasks.append((_relabel, (old, reuse[2], bound_until), calls))
    for i in range(done // CHUNK, -(-count // CHUNK)):
        n = min(CHUNK, count - i * CHUNK)
        tasks.append((_chunk, (seed, stream, i, n, bound_until, max_length), n))
    start = time.perf_counter()
    # spawned, not forked: the caller may already hold torch or tensorflow thread pools
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(fn, *args) for fn, args, _ in tasks]
        if progress:
            from rich.progress import Progress

            with Progress(transient=False) as bar:
                total = sum(n for *_, n in tasks)
                task = bar.add_task(f"kociemba labels ({workers} workers)", total=total)
                parts = []
                for future, (_, _, n) in zip(futures, tasks, strict=True):
                    parts.append(future.result())
                    bar.advance(task, n)
        else:
            parts = [f.result() for f in futures]
    seconds = time.perf_counter() - start
    labels = LabelSet(*(np.concatenate([p[k] for p in parts]) for k in range(len(FIELDS))))
    return labels, len(labels) / seconds


def cache_path(
    count: int,
    seed: int,
    stream: int,
    bound_until: int = BOUND_UNTIL,
    max_length: int = MAX_SCRAMBLE,
) -> Path:
    bound = f"-bound{bound_until}" if bound_until else ""  # 0: the seed's labels
    short = f"-len{max_length}" if max_length != MAX_SCRAMBLE else ""
    return cache_dir() / f"labels-seed{seed}-stream{stream}-n{count}{bound}{short}.npz"


def load_or_generate(
    count: int,
    seed: int = 0,
    stream: int = 0,
    workers: int | None = None,
    log=print,
    bound_until: int = BOUND_UNTIL,
    max_length: int = MAX_SCRAMBLE,
) -> LabelSet:
    """The cached label set for ``(count, seed, stream, bound_until, max_length)``; made
    when missing.

    A cache file that does not read back as a label set is named and made again: it is
    derived data, so nothing is lost.
    """
    path = cache_path(count, seed, stream, check_bound(bound_until), check_length(max_length))
    if path.exists():
        try:
            return read(path)
        except ValueError as exc:
            log(f"label cache {path} is unreadable ({exc}); making it again")
    reuse = _reusable(count, seed, stream, log) if max_length == MAX_SCRAMBLE else None
    labels, rate = generate(
        count, seed, stream, workers, bound_until=bound_until, reuse=reuse, max_length=max_length
    )
    log(f"{len(labels):,} labels from {count:,} kociemba calls, {rate:,.0f} labels/s")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **{f: getattr(labels, f) for f in FIELDS})
    os.replace(tmp, path)
    return labels


def _reusable(count: int, seed: int, stream: int, log) -> tuple[LabelSet, int, int] | None:
    """The largest readable cached set of the first calls of this seed and stream."""
    pattern = re.compile(rf"labels-seed{seed}-stream{stream}-n(\d+)(?:-bound(\d+))?\.npz")
    found = []
    for path in cache_dir().glob(f"labels-seed{seed}-stream{stream}-n*.npz"):
        match = pattern.fullmatch(path.name)
        if match and int(match[1]) <= count and int(match[1]) % CHUNK == 0:
            found.append((int(match[1]), int(match[2] or 0), path))
    for calls, bound, path in sorted(found, reverse=True):
        try:
            labels = read(path)
        except ValueError:
            continue
        log(f"reusing the {calls:,} calls of {path.name} (calls whose rule differs are redone)")
        return labels, calls, bound
    return None


def read(path: Path) -> LabelSet:
    """Read a cached label set, refusing anything but its five plain arrays."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {f: data[f] for f in FIELDS}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{type(exc).__name__}: {exc}") from exc
    n = len(arrays["labels"])
    if arrays["states"].shape != (n, 54) or arrays["states"].dtype != np.uint8:
        raise ValueError(f"states of shape {arrays['states'].shape}, expected ({n}, 54)")
    if any(arrays[f].shape != (n,) for f in FIELDS[1:]):
        raise ValueError("label arrays of different lengths")
    colours, moves = arrays["states"], arrays["labels"]
    if n and (colours.max() > 5 or moves.min() < 0 or moves.max() > 17):
        raise ValueError("colours outside 0..5 or moves outside 0..17")
    return LabelSet(**arrays)


def main(argv: list[str] | None = None) -> None:
    """``python -m cubebench.solvers.mlp_kociemba.labels --count N``: fill the cache ahead of
    training."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m cubebench.solvers.mlp_kociemba.labels")
    parser.add_argument("--count", type=int, required=True, help="scrambles (kociemba calls)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--stream", type=int, default=0, help="0 training, 1 validation, 2 near-solved"
    )
    parser.add_argument(
        "--max-length", type=int, default=MAX_SCRAMBLE, help="longest scramble (1..25)"
    )
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    parser.add_argument(
        "--bound-until",
        type=int,
        default=BOUND_UNTIL,
        help=f"solve scrambles of up to this many moves with max_depth=length (0..{MAX_BOUND}; "
        "0: the seed's unbounded labels)",
    )
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error(f"--count {args.count}: must be at least 1")
    if args.workers is not None and args.workers < 1:
        parser.error(f"--workers {args.workers}: must be at least 1")
    try:
        check_bound(args.bound_until)
        check_length(args.max_length)
    except ValueError as exc:
        parser.error(str(exc))
    bound, length = args.bound_until, args.max_length
    labels = load_or_generate(
        args.count, args.seed, args.stream, args.workers, bound_until=bound, max_length=length
    )
    path = cache_path(args.count, args.seed, args.stream, bound, length)
    print(f"{len(labels):,} labels in {path}")


if __name__ == "__main__":
    main()
