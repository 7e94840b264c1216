"""Importers for the formats peers publish their test sets in.

Every importer returns :class:`Instance` objects whose facelets went through full
validation; the caller registers them as a suite. Known optimal lengths are kept.
"""

from __future__ import annotations

import importlib
import io
import json
import pickle
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ClassVar, cast

import numpy as np

from ..cube import (
    FACES,
    SOLVED,
    InvalidCubeError,
    NotationError,
    apply_sequence,
    facelets_to_state,
    format_moves,
    parse_moves,
    state_to_facelets,
    validate_state,
)
from ..safe_pickle import check_pickle_size
from .model import MAX_SCRAMBLE_MOVES, Instance, SuiteError

# DeepCubeA (environments/cube3.py) orders faces U D L R B F and numbers each face's
# stickers (i, j) = divmod(p, 3) so that i runs along our columns and j up our rows; one
# grid rotation serves all six faces. Tests check the mapping on all 1000 published states.
_DEEPCUBEA_FACES = "UDLRBF"


def _deepcubea_to_facelet_index() -> np.ndarray:
    index = np.empty(54, dtype=np.intp)
    for p in range(54):
        face, within = divmod(p, 9)
        i, j = divmod(within, 3)
        row, col = 2 - j, i
        index[p] = 9 * FACES.index(_DEEPCUBEA_FACES[face]) + 3 * row + col
    return index


DEEPCUBEA_TO_FACELET = _deepcubea_to_facelet_index()
"""(54,) ``facelet_index = DEEPCUBEA_TO_FACELET[deepcubea_sticker]``."""
_DEEPCUBEA_COLOUR_TO_OURS = np.array([FACES.index(f) for f in _DEEPCUBEA_FACES], np.uint8)


def deepcubea_colours_to_state(colours: np.ndarray) -> np.ndarray:
    """DeepCubeA colour ids (0..5 = U D L R B F) in its sticker order -> (54,) state."""
    state = np.empty(54, dtype=np.uint8)
    state[DEEPCUBEA_TO_FACELET] = _DEEPCUBEA_COLOUR_TO_OURS[np.asarray(colours, np.intp)]
    return state


class _DeepCubeAState:
    """Stand-in for ``environments.cube3.Cube3State``: holds the state dict, runs nothing."""

    def __setstate__(self, state: object) -> None:
        if isinstance(state, tuple) and len(state) == 2:  # (None, slots dict) for __slots__
            state = state[1]
        if not isinstance(state, dict) or not isinstance(state.get("colors"), np.ndarray):
            raise SuiteError("a Cube3State in the pickle has no 'colors' array")
        self.colors = state["colors"]


MAX_PICKLE_ARRAY_BYTES = 2**28
"""The largest array a DeepCubeA pickle may ask for (its test file's arrays are 54 bytes each):
a hostile file's header can ask numpy for terabytes before a byte of it is read."""


def _array_bytes(shape: object, dtype: object) -> int:
    try:
        dims = [int(d) for d in (shape if isinstance(shape, tuple | list) else (shape,))]
        itemsize = np.dtype(dtype).itemsize if dtype is not None else 8  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return 0  # numpy itself refuses it, cheaply
    total = itemsize
    for dim in dims:
        total *= max(dim, 0)
    return total


class _RestrictedUnpickler(pickle._Unpickler):  # the Python one: its opcodes can be checked
    """Maps DeepCubeA's state class and numpy's array rebuilders; refuses every other name
    and any array larger than :data:`MAX_PICKLE_ARRAY_BYTES`."""

    _ALLOWED: ClassVar[dict[tuple[str, str], Callable]] = {
        ("environments.cube3", "Cube3State"): _DeepCubeAState,
        ("numpy", "ndarray"): np.ndarray,
        ("numpy", "dtype"): np.dtype,
    }
    _NUMPY_HELPERS: ClassVar[frozenset[str]] = frozenset({"_reconstruct", "scalar"})
    dispatch: ClassVar[dict] = dict(pickle._Unpickler.dispatch)

    def find_class(self, module: str, name: str) -> type | Callable:
        if (module, name) in self._ALLOWED:
            return self._ALLOWED[(module, name)]
        if module in ("numpy.core.multiarray", "numpy._core.multiarray") and (
            name in self._NUMPY_HELPERS
        ):
            return getattr(importlib.import_module("numpy._core.multiarray"), name)
        raise SuiteError(
            f"refusing to load {module}.{name} from the pickle: a DeepCubeA test file holds "
            "only Cube3State objects and numpy arrays (anything else could run code)"
        )

    @staticmethod
    def _check_size(shape: object, dtype: object) -> None:
        if _array_bytes(shape, dtype) > MAX_PICKLE_ARRAY_BYTES:
            raise SuiteError(
                f"the pickle asks for an array of shape {shape} ({dtype}), over the "
                f"{MAX_PICKLE_ARRAY_BYTES >> 20} MB a DeepCubeA test file could need"
            )

    def load_reduce(self) -> None:
        func, args = self.stack[-2], self.stack[-1]  # type: ignore[attr-defined]
        if func is np.ndarray and isinstance(args, tuple) and args:
            self._check_size(args[0], args[1] if len(args) > 1 else None)
        elif getattr(func, "__name__", "") == "_reconstruct" and isinstance(args, tuple):
            self._check_size(args[1] if len(args) > 1 else (), args[2] if len(args) > 2 else None)
        super().load_reduce()  # type: ignore[misc]  # pickle._Unpickler's, untyped

    def load_build(self) -> None:
        state, inst = self.stack[-1], self.stack[-2]  # type: ignore[attr-defined]
        if isinstance(inst, np.ndarray) and isinstance(state, tuple) and len(state) >= 3:
            self._check_size(state[1], state[2])
        super().load_build()  # type: ignore[misc]

    dispatch[pickle.REDUCE[0]] = load_reduce
    dispatch[pickle.BUILD[0]] = load_build


MAX_PICKLE_OPCODES = 2_000_000
"""What a DeepCubeA test file of up to 10,000 states can hold (its 1000-state file has 181k
opcodes): a bound on the objects the unpickler builds, whatever the file's size."""


def import_deepcubea(path: Path) -> list[Instance]:
    """DeepCubeA's ``data/cube3/test/data_0.pkl``: states and optimal quarter-turn solutions."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise SuiteError(f"{path}: not readable ({exc.strerror or exc})") from None
    check_pickle_size(raw, MAX_PICKLE_OPCODES, path, SuiteError)
    try:
        data = _RestrictedUnpickler(io.BytesIO(raw)).load()
    except SuiteError:
        raise
    except (
        pickle.UnpicklingError,
        EOFError,
        ValueError,
        TypeError,
        AttributeError,
        IndexError,
        KeyError,
        MemoryError,
    ) as exc:
        raise SuiteError(f"{path}: not a readable DeepCubeA pickle ({exc})") from exc
    if not isinstance(data, dict) or "states" not in data:
        raise SuiteError(f"{path}: expected a dict with 'states' (DeepCubeA's test format)")
    solutions = data.get("solutions")
    instances = []
    for idx, obj in enumerate(data["states"]):
        colours = np.asarray(getattr(obj, "colors", None))
        if colours.shape != (54,) or sorted(colours.tolist()) != list(range(54)):
            raise SuiteError(f"{path}: state {idx} is not a permutation of DeepCubeA's 54 stickers")
        state = deepcubea_colours_to_state(colours // 9)
        facelets = _checked_facelets(state, f"{path}: state {idx}")
        optimal_qtm = None
        if solutions is not None:
            moves = _deepcubea_solution(solutions[idx], f"{path}: solution {idx}")
            if not np.array_equal(apply_sequence(state, moves), SOLVED):
                raise SuiteError(f"{path}: solution {idx} does not solve state {idx}")
            optimal_qtm = len(moves)
        instances.append(Instance(id=idx, facelets=facelets, optimal_qtm=optimal_qtm))
    return instances


def _deepcubea_solution(solution: object, where: str) -> list[int]:
    try:
        pairs = cast(Iterable[tuple[str, int]], solution)  # checked as it is read
        text = " ".join(face + ("" if int(sign) == 1 else "'") for face, sign in pairs)
        return parse_moves(text)
    except (TypeError, ValueError) as exc:
        raise SuiteError(f"{where}: not a list of [face, +1 or -1] pairs ({exc})") from exc


def import_efficientcube(path: Path) -> list[Instance]:
    """EfficientCube's JSON list of scramble strings."""
    try:
        scrambles = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise SuiteError(f"{path}: not readable JSON ({exc})") from exc
    if not isinstance(scrambles, list) or not all(isinstance(s, str) for s in scrambles):
        raise SuiteError(f"{path}: expected a JSON list of scramble strings")
    return [_from_scramble(i, s, f"{path}: entry {i}") for i, s in enumerate(scrambles)]


def import_cayleypy(path: Path) -> list[Instance]:
    """CayleyPy's int8 tensor [N, 54] of DeepCubeA colours in DeepCubeA's sticker order."""
    torch = importlib.import_module("torch")  # only this importer needs torch
    try:
        tensor = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many types for bad files; report any of them
        raise SuiteError(f"{path}: not a tensor file torch can load safely ({exc})") from exc
    if not isinstance(tensor, torch.Tensor) or tensor.ndim != 2 or tensor.shape[1] != 54:
        raise SuiteError(f"{path}: expected a tensor of shape [N, 54]")
    colours = tensor.numpy().astype(np.int64)
    if colours.min() < 0 or colours.max() > 5:
        raise SuiteError(f"{path}: colours must be 0..5 (DeepCubeA's U D L R B F)")
    return [
        Instance(
            id=i, facelets=_checked_facelets(deepcubea_colours_to_state(c), f"{path}: row {i}")
        )
        for i, c in enumerate(colours)
    ]


def import_text(path: Path) -> list[Instance]:
    """One facelet string or one scramble per line; blank lines and ``#`` comments skipped."""
    try:
        lines = Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{path}: not readable text ({exc})") from exc
    instances: list[Instance] = []
    for line_no, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path} line {line_no}"
        if len(line) == 54 and " " not in line:
            try:
                facelets = state_to_facelets(facelets_to_state(line))
            except InvalidCubeError as exc:
                raise SuiteError(f"{where}: {exc}") from exc
            instances.append(Instance(id=len(instances), facelets=facelets))
        else:
            instances.append(_from_scramble(len(instances), line, where))
    if not instances:
        raise SuiteError(f"{path}: no cubes in the file")
    return instances


def _from_scramble(idx: int, scramble: str, where: str) -> Instance:
    if len(scramble) > 4 * MAX_SCRAMBLE_MOVES or len(scramble.split()) > MAX_SCRAMBLE_MOVES:
        raise SuiteError(f"{where}: a scramble of more than {MAX_SCRAMBLE_MOVES} moves")
    try:
        moves = parse_moves(scramble)
    except NotationError as exc:
        raise SuiteError(f"{where}: {exc}") from exc
    state = apply_sequence(SOLVED, moves)
    return Instance(id=idx, facelets=state_to_facelets(state), scramble=format_moves(moves))


def _checked_facelets(state: np.ndarray, where: str) -> str:
    try:
        validate_state(state)
    except InvalidCubeError as exc:
        raise SuiteError(f"{where}: {exc}") from exc
    return state_to_facelets(state)


IMPORTERS: dict[str, Callable[[Path], list[Instance]]] = {
    "deepcubea": import_deepcubea,
    "efficientcube": import_efficientcube,
    "cayleypy": import_cayleypy,
    "text": import_text,
}
