"""Kociemba two-phase labels, made in worker processes and cached on disk.

Seed 003 scrambles a cube with up to 25 half-turn moves that never turn one face twice in a
row, solves it with the ``kociemba`` package and keeps the solution's first move as the
scrambled state's label: one label per call. Here every prefix of the solution is kept as
well: after the first ``i`` moves of a two-phase solution the remaining moves still solve the
intermediate state (a two-phase-style route: the rest of phase 1, then phase 2), so one call
labels up to ~22 states. ``step`` records which prefix a label came from (0 is the seed's own
label), so the seed's distribution is the ``step == 0`` subset of the same file.

Label sets are deterministic in ``(seed, stream, count)`` whatever the number of workers (each
chunk of scrambles has its own random stream) and cached as ``.npz`` (no pickles) under
``$CUBEBENCH_HOME/cache/mlp-kociemba`` (default ``~/.cubebench/cache``), outside git.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from harness.cube import apply_moves, is_solved, parse_moves, solved_batch, state_to_facelets
from harness.suites.registry import user_suite_dir
from solvers.common.walks import random_walks

MAX_SCRAMBLE = 25  # the seed's longest scramble
CHUNK = 100  # scrambles per worker task: each chunk has its own random stream
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


def cache_dir() -> Path:
    return user_suite_dir().parent / "cache" / "mlp-kociemba"


def _chunk(seed: int, stream: int, index: int, count: int) -> tuple[np.ndarray, ...]:
    """Label ``count`` scrambles of chunk ``index``; runs in a worker process."""
    import kociemba

    rng = np.random.default_rng([seed, stream, index])
    lengths = rng.integers(1, MAX_SCRAMBLE + 1, size=count)
    walks = random_walks(count, MAX_SCRAMBLE, rng)
    scrambled = solved_batch(count)  # (54, count)
    for step in range(MAX_SCRAMBLE):
        on = step < lengths
        scrambled[:, on] = apply_moves(scrambled[:, on], walks[on, step])
    rows: list[tuple[np.ndarray, int, int, int, int]] = []
    for state, length in zip(scrambled.T, lengths, strict=True):
        if is_solved(state):  # a walk like U D U' D' comes back: nothing to label
            continue
        solution = parse_moves(kociemba.solve(state_to_facelets(state)))
        for i, move in enumerate(solution):
            rows.append((state, move, int(length), i, len(solution) - i))
            state = apply_moves(state[:, None], np.array([move]))[:, 0]
        if not is_solved(state):
            raise RuntimeError(f"kociemba's solution {solution} does not solve its cube")
    return (
        np.stack([r[0] for r in rows]).astype(np.uint8),
        *(np.array([r[k] for r in rows], dtype=np.int8) for k in range(1, 5)),
    )


def generate(
    count: int, seed: int = 0, stream: int = 0, workers: int | None = None, progress: bool = True
) -> tuple[LabelSet, float]:
    """Label ``count`` scrambles with kociemba in ``workers`` processes.

    Returns:
        the labels and the labels made per second (wall time, all workers).
    """
    if count < 1:
        raise ValueError(f"label count={count}: must be at least 1")
    workers = workers or max(1, os.cpu_count() or 1)
    sizes = [min(CHUNK, count - start) for start in range(0, count, CHUNK)]
    parts: list[tuple[np.ndarray, ...]] = []
    start = time.perf_counter()
    # spawned, not forked: the caller may already hold torch or tensorflow thread pools
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_chunk, seed, stream, i, n) for i, n in enumerate(sizes)]
        if progress:
            from rich.progress import Progress

            with Progress(transient=False) as bar:
                task = bar.add_task(f"kociemba labels ({workers} workers)", total=count)
                for future, n in zip(futures, sizes, strict=True):
                    parts.append(future.result())
                    bar.advance(task, n)
        else:
            parts = [f.result() for f in futures]
    seconds = time.perf_counter() - start
    labels = LabelSet(*(np.concatenate([p[k] for p in parts]) for k in range(len(FIELDS))))
    return labels, len(labels) / seconds


def cache_path(count: int, seed: int, stream: int) -> Path:
    return cache_dir() / f"labels-seed{seed}-stream{stream}-n{count}.npz"


def load_or_generate(
    count: int, seed: int = 0, stream: int = 0, workers: int | None = None, log=print
) -> LabelSet:
    """The cached label set for ``(count, seed, stream)``; made and saved when missing.

    A cache file that does not read back as a label set is named and made again: it is
    derived data, so nothing is lost.
    """
    path = cache_path(count, seed, stream)
    if path.exists():
        try:
            return read(path)
        except ValueError as exc:
            log(f"label cache {path} is unreadable ({exc}); making it again")
    labels, rate = generate(count, seed, stream, workers)
    log(f"{len(labels):,} labels from {count:,} kociemba calls, {rate:,.0f} labels/s")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **{f: getattr(labels, f) for f in FIELDS})
    os.replace(tmp, path)
    return labels


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
    """``python -m solvers.mlp_kociemba.labels --count N``: fill the cache ahead of training."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m solvers.mlp_kociemba.labels")
    parser.add_argument("--count", type=int, required=True, help="scrambles (kociemba calls)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stream", type=int, default=0, help="0 training, 1 validation")
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    args = parser.parse_args(argv)
    labels = load_or_generate(args.count, args.seed, args.stream, args.workers)
    print(f"{len(labels):,} labels in {cache_path(args.count, args.seed, args.stream)}")


if __name__ == "__main__":
    main()
