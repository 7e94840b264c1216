"""Pattern databases: exact distances in a coordinate space, built by breadth-first search.

A pattern database maps a coordinate (an abstraction of the cube) to the number of moves
that solve the abstraction, which never exceeds the moves that solve the cube: an
admissible lower bound for IDA*. Two sizes:

- ``small`` (about 2 MB, a second to build): ``twist x slice`` and ``flip x slice``, the
  pruning tables of Kociemba's two-phase solver. Weak, but enough for shallow cubes (tests).
- ``large`` (about 1.75 GB, four minutes to build on two cores): Kociemba's optimal solver's
  table, ``twist x flip x sorted slice`` reduced by the 16 symmetries of the U-D axis
  (1,523,864 classes of ``flip x sorted`` x 2187 twists = 3,332,690,568 entries, four bits
  each; :mod:`.flipslice`), looked up on three axes, and the corners (``cperm x twist``,
  88,179,840 entries, a byte each).
- ``dense`` (about 2.6 GB a metric): Rokicki's nxopt coset table (:mod:`.dense`), corners
  by layer and twist reduced by the 16 symmetries (9,930 classes) x flip x slice places,
  10,066,636,800 entries of two bits; with the corner table and the small tables, which
  bound the entries its two bits leave open. Its goal holds more of the cube than the
  large table's (the corners' layers beside the slice edges' places), and a lookup misses
  the cache once where the large table's misses twice.
- ``corners`` (88 MB, seconds to build): the large sizes' corner table alone, which a value
  search may add to its model's estimate (:mod:`.bounds`).
- ``xlarge`` (about 3.4 GB, face turns only): the large table with the corner permutation's
  parity beside the twist, twice the entries. Its goal is the even half of the large
  table's, which raises the bound of many cubes by one. In quarter turns it would add
  nothing: every quarter turn changes the parity, so a search already knows that a state's
  distance has its parity.

Tables are built once per metric into ``$CUBEBENCH_HOME/cache/optimal``, written to a
temporary name and renamed, and checked against the SHA-256 of their entries recorded in
:data:`KNOWN_SHA256` whenever they are loaded (the builds are deterministic, so a table
with another hash is damaged and is refused with its path).
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

import numba
import numpy as np

from ...harness import QUARTER_TURN_MOVES, InputError, cache_dir
from . import dense, flipslice
from .coords import N_CPERM, N_FLIP, N_SLICE, N_TWIST, SOLVED_SLICE, move_tables
from .flipslice import N_CLASSES, UNSEEN
from .memory import huge_empty

Progress = Callable[[str, int, int], None]
"""``progress(table, entries_done, entries_total)`` during a build, after each level."""


def bar_on_stderr(table: str, done: int, total: int) -> None:
    """The default :data:`Progress`: a bar on standard error, one level of the breadth-first
    search a step (a large table takes about four minutes on two cores, once)."""
    width = 30
    filled = width * done // total
    end = "\n" if done >= total else ""
    print(
        f"\rbuilding {table}: [{'#' * filled}{'.' * (width - filled)}] "
        f"{100 * done / total:5.1f}% of {total:,} entries",
        end=end,
        file=sys.stderr,
        flush=True,
    )


KNOWN_SHA256: Final[dict[str, str]] = {
    "dense-qtm.npy": "73d0ede43fe8e6ffb85d44d1b5a93ed402ee45ab3ddc824306b6cf253805328c",
    "dense-htm.npy": "bdb965bb4681f4e858dab5209361df7531a70650ebe75046e2ea89cac58059f8",
    "corners-htm.npy": "227ba950996876f0e7cb2ce888599f197103be20e4fe2118b7463ad8fe585424",
    "corners-qtm.npy": "b08ee2f4382a4987021e02ece8f1bb7908ae792a9059881ed4275222e321d0a7",
    "flip-slice-htm.npy": "499ffd9047146c2c941d2ef81ffaa2aa2ce98facba02759ccbab8999d920c4d4",
    "flip-slice-qtm.npy": "7ddd4e2e451c44307e5f34c8995c89629341b8b3cb06f1018da60914f574a968",
    "phase1x24-htm.npy": "de3a6a4c1ee9badf1d29597249c93a14f65ae4b661ec7a0f7fb74405cd0072d0",
    "phase1x24-parity-htm.npy": "0d8ff7899e91f6df7014468b105a3959235a5fa71995e123d0103d159bbdea8d",
    "phase1x24-qtm.npy": "e90d9fb7b302d03f92bb2e1a2add5f4fd68e6440ce333d8b8a7ae692b148deb0",
    "twist-slice-htm.npy": "10d3d4ff07eabaee580d8c2723de7fcc9ceffcbe1a1289d49cfde8ed3c5270f9",
    "twist-slice-qtm.npy": "ebefd67e806d4b95135cb12e2dc82dd6a0d242e0478dc8d36df93ad2a556da59",
}
"""File name -> SHA-256 of the entries (not the file header) of every table a correct build
writes: the builds are deterministic."""


@dataclass(frozen=True)
class Spec:
    """One table: its name, its dimensions (slowest first) and the coordinates they index."""

    name: str
    dims: tuple[int, ...]
    coordinates: tuple[str, ...]
    packed: bool  # four bits an entry

    @property
    def size(self) -> int:
        return int(np.prod(self.dims, dtype=np.int64))


SPECS: Final = {
    "small": (
        Spec("twist-slice", (N_SLICE, N_TWIST), ("slice", "twist"), False),
        Spec("flip-slice", (N_SLICE, N_FLIP), ("slice", "flip"), False),
    ),
    "large": (
        Spec("phase1x24", (N_CLASSES, N_TWIST), ("flipslice class", "twist"), True),
        Spec("corners", (N_CPERM, N_TWIST), ("cperm", "twist"), False),
    ),
    # the corner table alone: the bound a value search may add to its model's estimate
    "corners": (Spec("corners", (N_CPERM, N_TWIST), ("cperm", "twist"), False),),
    # Rokicki's nxopt coset table, two bits an entry (:mod:`.dense`), with the small tables
    # for the entries it leaves open and the corner table
    "dense": (
        Spec("dense", (dense.N_CORNER_CLASSES, dense.N_EDGE), ("corner class", "edge"), True),
        Spec("corners", (N_CPERM, N_TWIST), ("cperm", "twist"), False),
        Spec("twist-slice", (N_SLICE, N_TWIST), ("slice", "twist"), False),
        Spec("flip-slice", (N_SLICE, N_FLIP), ("slice", "flip"), False),
    ),
    "xlarge": (
        Spec(
            "phase1x24-parity",
            (N_CLASSES, N_TWIST * 2),
            ("flipslice class", "twist x corner parity"),
            True,
        ),
        Spec("corners", (N_CPERM, N_TWIST), ("cperm", "twist"), False),
    ),
}
SOLVED_COORDINATE: Final = {"slice": SOLVED_SLICE, "flip": 0, "twist": 0, "cperm": 0}


def metric_moves(metric: str) -> np.ndarray:
    """The move ids of a metric: all 18, or the 12 quarter turns."""
    return np.arange(18) if metric == "htm" else np.asarray(QUARTER_TURN_MOVES)


@numba.njit(parallel=True, cache=True)
def _level(table, dims, mv0, mv1, mv2, moves, depth, forward):  # pragma: no cover - compiled
    """One breadth-first level over a table of up to three coordinates, in place.

    ``forward``: every entry at ``depth`` marks its unseen neighbours ``depth + 1``.
    Otherwise every unseen entry with a neighbour at ``depth`` becomes ``depth + 1`` (cheaper
    once most of the table is seen). Two threads may write the same value to one entry.
    """
    n = table.size
    d1, d2 = dims[1], dims[2]
    chunks = 4096
    step = (n + chunks - 1) // chunks
    for c in numba.prange(chunks):
        for i in range(c * step, min(n, (c + 1) * step)):
            v = table[i]
            if forward:
                if v != depth:
                    continue
            elif v != UNSEEN:
                continue
            a, rest = divmod(i, d1 * d2)
            b, cc = divmod(rest, d2)
            for m in moves:
                j = (mv0[a, m] * d1 + mv1[b, m]) * d2 + mv2[cc, m]
                if forward:
                    if table[j] == UNSEEN:
                        table[j] = depth + 1
                elif table[j] == depth:
                    table[i] = depth + 1
                    break


def build(spec: Spec, metric: str, progress: Progress | None = None) -> np.ndarray:
    """Breadth-first search of ``spec``'s coordinate space from solved, in ``metric``: one
    level a step, forward from the newest entries while they are few, then backward from the
    unseen ones."""
    moves = metric_moves(metric).astype(np.int64)
    if spec.name == "dense":
        table = dense.build(moves, progress=_dense_progress(spec, metric, progress))
        return dense.pack(table, metric)
    if spec.name.startswith("phase1x24"):  # by symmetry class (:mod:`.flipslice`)
        parity = spec.name.endswith("parity")
        table = flipslice.start_table(parity)

        def level(depth: int, forward: bool) -> None:
            flipslice.level(table, moves, depth, forward, parity)

    else:
        tables = move_tables()
        dims = np.array((*spec.dims, 1, 1)[:3], np.int64)
        ones = np.zeros((1, 18), np.int32)
        mvs = [tables[c] for c in spec.coordinates] + [ones] * (3 - len(spec.coordinates))
        table = np.full(spec.size, UNSEEN, np.uint8)
        start = 0
        for c, d in zip(spec.coordinates, spec.dims, strict=True):
            start = start * d + SOLVED_COORDINATE[c]
        table[start] = 0

        def level(depth: int, forward: bool) -> None:
            _level(table, dims, *mvs, moves, depth, forward)

    seen, depth = 1, 0
    while seen < spec.size:
        level(depth, seen < spec.size // 3)
        now = int(np.count_nonzero(table != UNSEEN))
        if now == seen:
            raise RuntimeError(f"{spec.name}: {spec.size - seen} entries unreachable")
        seen, depth = now, depth + 1
        if progress:
            progress(f"{spec.name}-{metric}", seen, spec.size)
    return _pack(table) if spec.packed else table


def _dense_progress(
    spec: Spec, metric: str, progress: Progress | None
) -> Callable[[int, np.ndarray], None]:
    def report(depth: int, counts: np.ndarray) -> None:
        if progress:
            progress(f"{spec.name}-{metric}", spec.size - int(counts[UNSEEN]), spec.size)

    return report


def _pack(table: np.ndarray) -> np.ndarray:
    """Two entries a byte: entry ``i`` is the low nibble of byte ``i // 2`` when ``i`` is even."""
    padded = np.append(table, np.uint8(0)) if table.size % 2 else table
    return (padded[0::2] | (padded[1::2] << 4)).astype(np.uint8)


def unpack(packed: np.ndarray, size: int) -> np.ndarray:
    """The inverse of the packing (for tests and inspection)."""
    out = np.empty(packed.size * 2, np.uint8)
    out[0::2], out[1::2] = packed & 15, packed >> 4
    return out[:size]


def file_name(spec: Spec, metric: str) -> str:
    return f"{spec.name}-{metric}.npy"


class TableError(InputError):
    """A cached table whose contents are not what a correct build writes, or one that
    cannot be written: the message names the file and what to do (one line, exit 2)."""


def ensure(
    size: str, metric: str, folder: Path | None = None, progress: Progress | None = None
) -> list[Path]:
    """The files of the tables of ``size`` in ``metric`` in ``folder`` (default
    ``$CUBEBENCH_HOME/cache/optimal``), building those it lacks with ``progress`` (default: a
    bar on standard error). A build is written under a temporary name and renamed, so a
    stopped build leaves no table behind."""
    folder = folder or cache_dir("optimal")
    paths = []
    for spec in SPECS[size]:
        path = folder / file_name(spec, metric)
        if not path.exists():
            table = build(spec, metric, progress or bar_on_stderr)
            partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with partial.open("wb") as f:
                    np.save(f, table)
                os.replace(partial, path)
            except OSError as exc:  # a full disk, a read-only cache: nothing half-written
                partial.unlink(missing_ok=True)
                raise TableError(
                    f"cannot write the table {path} ({table.nbytes >> 20} MB): "
                    f"{exc.strerror or exc}; free space there or set CUBEBENCH_HOME"
                ) from None
        paths.append(path)
    return paths


def verify(size: str, metric: str, folder: Path | None = None) -> None:
    """Check every cached table of ``size`` in ``metric`` against a correct build's SHA-256
    without holding it in memory (a process that starts workers checks them first, so a
    damaged file is refused in one line, not in each worker).

    Raises:
        TableError: a file that is damaged, cut short, or not a table.
    """
    folder = folder or cache_dir("optimal")
    for spec in SPECS[size]:
        path = folder / file_name(spec, metric)
        expected = KNOWN_SHA256.get(path.name)
        with path.open("rb") as f:
            _header(f, path)
            digest = hashlib.sha256()
            while chunk := f.read(1 << 24):
                digest.update(chunk)
        if expected is not None and digest.hexdigest() != expected:
            raise TableError(
                f"{path}: its entries' SHA-256 differs from a correct build's; delete the "
                "file to rebuild it"
            )


def load(
    size: str, metric: str, folder: Path | None = None, progress: Progress | None = None
) -> tuple[np.ndarray, ...]:
    """The tables of ``size`` in ``metric``, built the first time (:func:`ensure`) and read
    from the cache after.

    Raises:
        TableError: a cached file's SHA-256 differs from the one a correct build writes.
    """
    out = []
    for path in ensure(size, metric, folder, progress):
        table = _read(path)
        expected = KNOWN_SHA256.get(path.name)
        if expected is not None and hashlib.sha256(table).hexdigest() != expected:
            raise TableError(
                f"{path}: its entries' SHA-256 differs from a correct build's; delete the "
                "file to rebuild it"
            )
        out.append(table)
    return tuple(out)


def _read(path: Path) -> np.ndarray:
    """A table file read into memory backed by huge pages (:mod:`.memory`): a lookup lands
    anywhere in a gigabyte."""
    with path.open("rb") as f:
        shape = _header(f, path)
        table = huge_empty(int(shape[0]), np.uint8)
        view = memoryview(table)
        done = 0
        while done < shape[0]:
            read = f.readinto(view[done : done + (1 << 26)])
            if not read:
                raise TableError(f"{path}: ends after {done} of {shape[0]} entries")
            done += read
        view.release()
    return table


def _header(f: BinaryIO, path: Path) -> tuple[int]:
    """The table's shape from its header, refused unless it is a one-dimensional uint8
    array whose entries the file holds exactly (a header may claim any size)."""
    try:
        version = np.lib.format.read_magic(f)
        read_header = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(f)
    except (ValueError, OSError, SyntaxError) as exc:
        raise TableError(f"{path}: not a table file ({exc}); delete it to rebuild it") from None
    if fortran or dtype != np.uint8 or len(shape) != 1:
        raise TableError(f"{path}: not a one-dimensional uint8 table; delete it to rebuild it")
    held = os.fstat(f.fileno()).st_size - f.tell()
    if int(shape[0]) != held:
        raise TableError(
            f"{path}: its header claims {int(shape[0]):,} entries, the file holds {held:,}; "
            "delete it to rebuild it"
        )
    return (int(shape[0]),)
