"""``alphacube``: EfficientCube's author's own solver (Takano 2023), run as it ships.

AlphaCube's ``load_model`` reads ``CACHE/MODEL_ID.zip`` (its ``small``, ``base`` and ``large``
models, fetched from its author's host on first use, or a local weights file in its
``Model`` format), its ``Cube3`` takes the cube as stickers, and its ``beam_search`` expands
every candidate by the 18 face turns, keeps the ``beam_width`` paths of highest cumulative
log-probability and returns the first solutions found (``extra_depths`` more layers for
shorter alternatives). This adapter converts the harness's cube to AlphaCube's stickers, runs
that search, and maps the moves back. Nothing is fetched here: missing weights are refused
at load with where the file must be and how to get it.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import numpy as np
import torch

from ...harness import (
    Attempt,
    Budget,
    Range,
    SolverLoadError,
    SolverSettings,
    is_solved,
)
from ..common.cards import sha256_file
from ..common.frameworks import require
from ..common.peer_cube import PeerCube, derive_peer_cube, direction_options
from ..common.peers import OutOfTimeError, import_peer, peer_version
from ..search.kinds import BEAM_WIDTH

COLOUR_FACES = "UDLRBF"  # AlphaCube's Cube3: colour c on face COLOUR_FACES[c]
MODEL_IDS = ("small", "base", "large")
# its load_model builds any other name with a `Model` class whose constructor fails there
ALPHACUBE_TESTED = "0.1.6"


@dataclass(frozen=True)
class AlphaCubeSettings(SolverSettings):
    model_id: Literal["small", "base", "large"] = "small"
    weights: str = ""
    cache_dir: str = ""
    beam_width: Annotated[int, BEAM_WIDTH] = 1024
    extra_depths: Annotated[int, Range(min=0, max=20)] = 0
    max_depth: Annotated[int, Range(min=1, max=100)] = 100
    quantize: bool = True
    threads: Annotated[int, Range(min=1, max=1024)] = 1

    OPTION_HELP: ClassVar = {
        "model_id": "AlphaCube's model: small, base or large (its file CACHE/MODEL_ID.zip)",
        "weights": "a local file of one of AlphaCube's models, named small.zip, base.zip or "
        "large.zip (overrides model_id and cache_dir)",
        "cache_dir": "where AlphaCube keeps its models (default: its own, ~/.cache/alphacube)",
        "beam_width": "paths AlphaCube's beam keeps per depth",
        "extra_depths": "layers searched past the first solution, for shorter ones",
        "max_depth": "depths searched before giving up (AlphaCube's default: 100)",
        "quantize": "AlphaCube's int8 dynamic quantization of the hidden layers on CPU",
        "threads": "torch intra-op threads per worker",
    }


@cache
def _env_tables() -> tuple[list[str], PeerCube]:
    """AlphaCube's 18 face turns and the mapping derived from its own sticker moves."""
    env = import_peer("alphacube", "alphacube").env.Cube3(allow_wide=False)
    names = list(env.moves[:18])
    tables = []
    for name in names:
        table = np.arange(54)
        table[np.asarray(env.sticker_target[name])] = np.asarray(env.sticker_source[name])
        tables.append(table)
    quarters = [(n[0], 2 if n.endswith("2") else 3 if n.endswith("'") else 1) for n in names]
    cube = derive_peer_cube(np.array(tables), env.GOAL, direction_options(quarters, COLOUR_FACES))
    return names, cube


class _Timed(torch.nn.Module):
    """AlphaCube's model, counting calls and stopping the search when time is up."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model
        self.deadline = float("inf")
        self.now = time.perf_counter  # the budget's clock, set for each cube
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.now() > self.deadline:
            raise OutOfTimeError
        self.calls += 1
        return self.model(x)


class AlphaCubeSolver:
    Settings = AlphaCubeSettings
    name = "alphacube"
    metric = "htm"

    def __init__(self, settings: AlphaCubeSettings | None = None) -> None:
        self.settings = s = settings or AlphaCubeSettings()
        require("torch", self.name)
        self.alphacube = alphacube = import_peer("alphacube", self.name)
        path = self._weights_path(alphacube)
        torch.set_num_threads(s.threads)
        self.checkpoint_sha256 = sha256_file(path)
        # AlphaCube deletes a model file it fails to load (so that its next run downloads it
        # again): it only ever sees a private copy, never the user's file
        with tempfile.TemporaryDirectory(prefix="cubebench-alphacube-") as private:
            shutil.copyfile(path, Path(private) / path.name)
            try:
                model = alphacube.model.load_model(
                    path.stem, quantize=s.quantize, cache_dir=private
                )
            except (ValueError, RuntimeError, KeyError, OSError) as exc:
                why = str(exc).partition("Original error: ")[2] or str(exc)
                raise SolverLoadError(
                    f"solver alphacube: {path} is not a loadable AlphaCube {path.stem} model "
                    f"({why.strip().splitlines()[0][:200]}); the file was left as it is"
                ) from None
        self.model = _Timed(model)
        self.names, self.cube = _env_tables()
        self.weights = str(path)

    def _weights_path(self, alphacube: Any) -> Path:
        """The file AlphaCube will read, which must already be there (nothing is fetched)."""
        s = self.settings
        if s.weights:
            path = Path(s.weights)
            if path.suffix != ".zip" or path.stem not in MODEL_IDS:
                raise SolverLoadError(
                    f"solver alphacube: weights={s.weights}: AlphaCube {ALPHACUBE_TESTED} "
                    f"builds only its own models, read from files named "
                    f"{', '.join(m + '.zip' for m in MODEL_IDS)}"
                )
            if not path.is_file():
                raise SolverLoadError(f"solver alphacube: weights={s.weights}: no such file")
            return path
        folder = Path(s.cache_dir) if s.cache_dir else Path(alphacube.utils.cache_dir)
        path = folder / f"{s.model_id}.zip"
        if not path.is_file():
            raise SolverLoadError(
                f"solver alphacube: model_id={s.model_id}: no weights at {path}; AlphaCube "
                "fetches them from its author's host on first use, which this machine cannot "
                f'reach: on one with internet run `python -c "import alphacube; '
                f"alphacube.load('{s.model_id}')\"` and copy the file there (or set "
                "weights=PATH to a local file)"
            )
        return path

    @property
    def runtime_info(self) -> dict[str, object]:
        return {
            "library": f"alphacube {peer_version('alphacube')}",
            "weights": self.weights,
            "quantize": self.settings.quantize,
            "threads": self.settings.threads,
            "metric": self.metric,
        }

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        alphacube, s = self.alphacube, self.settings
        info: dict[str, Any] = {"alphacube": peer_version("alphacube"), "metric": self.metric}
        if is_solved(cube):
            return Attempt((), info=info)  # AlphaCube refuses a solved cube; nothing to do
        depth = s.max_depth if budget.max_length is None else min(s.max_depth, budget.max_length)
        env = alphacube.env.Cube3(allow_wide=False)
        env.state[:] = self.cube.states_to_peer(cube[:, None])[0]
        env.reset_axes()
        self.model.now = budget.now
        self.model.deadline = budget.deadline()
        self.model.calls = 0
        try:
            found = alphacube.search.beam_search(
                env, self.model, s.beam_width, extra_depths=s.extra_depths, max_depth=depth
            )
        except OutOfTimeError:
            found, info["reason"] = None, "wall budget spent inside the beam search"
        if not found:
            info.setdefault("reason", f"no solution within {depth} depths of width {s.beam_width}")
            return Attempt((), model_calls=self.model.calls, info=info)
        best = min(found["solutions"], key=lambda text: len(text.split()))
        moves = self.cube.peer_moves([self.names.index(m) for m in best.split()])
        info["solutions_found"] = len(found["solutions"])
        return Attempt(
            tuple(moves),
            nodes_expanded=int(found["num_nodes"]),
            model_calls=self.model.calls,
            info=info,
        )
