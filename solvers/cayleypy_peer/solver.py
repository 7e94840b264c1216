"""``cayleypy``: CayleyPy's own beam search and predictor over its own cube graph.

The harness's cube is converted to CayleyPy's colours (:mod:`.graph`), CayleyPy's
``BeamSearchAlgorithm`` ("simple" mode, the one that returns a path) searches it with a
``Predictor`` over a model built from CayleyPy's ``ModelConfig``, and the path of generator
ids comes back as harness moves, which the runner verifies like any other answer. With
``mitm_radius`` > 0 the search ends as soon as a layer meets CayleyPy's BFS ball of that
radius around solved, and the path is finished through the ball (their meet in the middle).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import numpy as np
import torch

from ...harness import Attempt, Budget, Metric, Range, SolverLoadError, SolverSettings, move_set
from ..common.frameworks import require
from ..common.inference import resolve_torch
from ..common.metric import check_metric_offered
from ..common.peers import OutOfTimeError, import_peer, peer_version
from ..search.kinds import BATCH, BEAM_WIDTH, DEPTH
from ..search.settings import (
    SearchSettings,
    prepare_search,
    run_search,
)
from .checkpoint import SHIPPED_BY_PUZZLE
from .graph import cube_graph, peer_cube


@dataclass(frozen=True)
class CayleyPySettings(SolverSettings):
    search: Literal["cayleypy", "cubebench"] = "cayleypy"
    metric: Metric = "qtm"
    beam_width: Annotated[int, BEAM_WIDTH] = 8192
    mitm_radius: Annotated[int, Range(min=0, max=6)] = 0
    max_depth: Annotated[int, DEPTH] = 40
    batch_size: Annotated[int, BATCH] = 16384
    precision: Literal["auto", "fp32", "bf16"] = "auto"
    checkpoint: str = ""
    weights: str = ""
    device: str = "cpu"
    threads: Annotated[int, Range(min=1, max=1024)] = 1

    PUZZLE: ClassVar[str] = "cube3"  # the cube whose CayleyPy graph is searched
    OPTION_HELP: ClassVar = {
        "search": "cayleypy (CayleyPy's BeamSearchAlgorithm) or cubebench (this project's "
        "value beam, as cayley-mlp searches, over the same CayleyPy model)",
        "metric": "qtm (12 quarter turns) or htm (18 face turns): CayleyPy's graph searched, "
        "and the model trained on it",
        "beam_width": "states CayleyPy's beam keeps per step",
        "mitm_radius": "meet in the middle: end when a layer meets CayleyPy's BFS ball of this "
        "radius around solved (0: off; radius 6 holds 0.98M states in QTM, 8.2M in HTM); with "
        "search=cubebench, this project's table of the same radius",
        "max_depth": "steps of beam search before giving up",
        "batch_size": "states per model call (CayleyGraph's batch_size)",
        "precision": "auto (bf16 where the hardware has it natively), fp32 or bf16",
        "checkpoint": "a folder with a model `bench train cayleypy --out` wrote (default: shipped)",
        "weights": "a file written by cayleypy.models.save_checkpoint (a model trained with "
        "CayleyPy elsewhere); its graph hash must match the metric's graph",
        "device": "cpu or cuda",
        "threads": "torch intra-op threads per worker",
    }


class CayleyPySolver:
    Settings: ClassVar[type[CayleyPySettings]] = CayleyPySettings
    name = "cayleypy"
    METRICS: ClassVar[tuple[str, ...]] = ("qtm",)
    puzzles: ClassVar[tuple[str, ...]] = ("cube3",)

    def __init__(self, settings: CayleyPySettings | None = None) -> None:
        self.settings = s = settings or CayleyPySettings()
        require("torch", self.name)
        cayleypy = import_peer("cayleypy", self.name)
        if not s.weights:
            check_metric_offered(self.name, self.METRICS, s.metric, s.checkpoint)
        self.metric = s.metric
        torch.set_num_threads(s.threads)
        self.resolved = resolve_torch(s.precision, s.device, ("fp32", "bf16"))
        self.graph = cube_graph(s.metric, s.batch_size, s.device, s.PUZZLE)
        self.cube = peer_cube(s.metric, s.PUZZLE)
        self.moves = move_set(s.metric, s.PUZZLE)
        self.model, self.card = self._load()
        self.checkpoint_sha256 = self.card["sha256"]
        self.predictor = cayleypy.Predictor(self.graph, self._score)
        self.ball = (
            self.graph.bfs(max_diameter=s.mitm_radius, return_all_hashes=True)
            if s.mitm_radius and s.search == "cayleypy"
            else None
        )
        # search=cubebench: this project's value beam, meeting this project's table
        self.beam_settings = SearchSettings(
            search="beam",
            metric=s.metric,
            beam_width=s.beam_width,
            batch_size=s.batch_size,
            max_depth=s.max_depth,
            mitm_radius=s.mitm_radius,
            device=s.device,
            threads=s.threads,
        )
        if s.search == "cubebench":
            prepare_search(self.beam_settings)
        self._deadline = float("inf")
        self._now = time.perf_counter
        self._calls = self._scored = self._expanded = 0
        neighbours = self.graph.get_neighbors

        def counting_neighbours(states: torch.Tensor) -> torch.Tensor:
            self._expanded += int(states.shape[0])
            return neighbours(states)

        self.graph.get_neighbors = counting_neighbours  # nodes expanded, for the record

    def _load(self) -> tuple[torch.nn.Module, dict[str, Any]]:
        s = self.settings
        if not s.weights:
            shipped = SHIPPED_BY_PUZZLE[s.PUZZLE]
            folder = Path(s.checkpoint) if s.checkpoint else shipped.folder
            return shipped.load(folder, s.device, s.metric)
        from cayleypy.models import load_checkpoint as cayleypy_load
        from cayleypy.models.checkpoint import graph_hash

        from ..common.checkpoint import sha256_file

        path = Path(s.weights)
        if not path.is_file():
            raise SolverLoadError(f"solver cayleypy: weights={s.weights}: no such file")
        try:
            model, config = cayleypy_load(path, s.device, self.graph.definition)
        except Exception as exc:  # a foreign file fails inside cayleypy in any way it may
            why = (str(exc).strip().splitlines() or [""])[0][:200]
            raise SolverLoadError(
                f"solver cayleypy: weights={s.weights}: not a CayleyPy checkpoint "
                f"({type(exc).__name__}: {why})"
            ) from None
        try:  # a model for another puzzle fails here, in one line, not on every cube
            model(torch.as_tensor(self.graph.central_state).reshape(1, -1))
        except (RuntimeError, ValueError, IndexError) as exc:
            raise SolverLoadError(
                f"solver cayleypy: weights={s.weights}: the model does not take this cube's "
                f"states ({exc})"
            ) from exc
        checked = "checked" if config.graph_hash else "absent from the file"
        card = {
            "sha256": sha256_file(path),
            "architecture": config.to_dict(),
            "parameters": sum(p.numel() for p in model.parameters()),
            "graph_hash": f"{graph_hash(self.graph.definition)} ({checked})",
        }
        return model.eval(), card

    def _score(self, states: torch.Tensor) -> torch.Tensor:
        """The predictor CayleyPy calls: (N, S) colours -> (N,) estimated distances."""
        if self._now() > self._deadline:
            raise OutOfTimeError
        self._calls += 1
        self._scored += int(states.shape[0])
        kind = "cuda" if self.settings.device.startswith("cuda") else "cpu"
        bf16 = self.resolved.precision == "bf16"
        with torch.inference_mode(), torch.autocast(kind, torch.bfloat16, enabled=bf16):
            return self.model(states).float()

    @property
    def runtime_info(self) -> dict[str, object]:
        return {
            **self.resolved.to_dict(),
            "threads": self.settings.threads,
            "metric": self.metric,
            "library": f"cayleypy {peer_version('cayleypy')}",
            "parameters": self.card.get("parameters"),
        }

    def value(self, states: np.ndarray) -> np.ndarray:
        """(54, N) harness states -> (N,) the CayleyPy model's distances: the model in this
        project's own searches."""
        peer = torch.as_tensor(self.cube.states_to_peer(states), device=self.settings.device)
        return self._score(peer).cpu().numpy()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        s = self.settings
        if s.search == "cubebench":
            return self._solve_with_cubebench_beam(cube, budget)
        steps = s.max_depth if budget.max_length is None else min(s.max_depth, budget.max_length)
        if budget.max_nodes is not None:  # a step expands at most beam_width states
            steps = min(steps, max(1, budget.max_nodes // s.beam_width))
        self._now = budget.now  # the budget's clock: CPU seconds, or wall
        self._deadline = budget.deadline()
        self._calls = self._scored = self._expanded = 0
        info: dict[str, Any] = {"cayleypy": peer_version("cayleypy"), "metric": self.metric}
        # the 2×2×2 turned whole so its DBL corner is home: the frame the mapping is in
        relabel, oriented = self.moves.orient(np.asarray(cube, np.uint8))
        try:
            result = self.graph.beam_search(
                start_state=self.cube.states_to_peer(oriented[:, None])[0],
                predictor=self.predictor,
                beam_width=s.beam_width,
                max_steps=steps,
                return_path=True,
                bfs_result_for_mitm=self.ball,
            )
        except OutOfTimeError:
            result, info["reason"] = None, "wall budget spent inside the beam search"
        if result is not None and self._now() > self._deadline:  # found after the last call
            result, info["reason"] = None, "wall budget spent inside the beam search"
        if budget.max_model_calls is not None and self._calls > budget.max_model_calls:
            result, info["reason"] = None, f"{self._calls} model calls, over the budget"
        info["states_scored"] = self._scored
        info["search"] = "cayleypy"
        moves: tuple[int, ...] = ()
        if result is not None and result.path_found:
            moves = tuple(self.cube.peer_moves(result.path))
            if relabel is not None:  # read back in the cube's own frame, move for move
                moves, info["turned"] = tuple(int(relabel[m]) for m in moves), True
        elif result is not None:
            info["reason"] = f"no path within {steps} steps of width {s.beam_width}"
        return Attempt(moves, nodes_expanded=self._expanded, model_calls=self._calls, info=info)

    def _solve_with_cubebench_beam(self, cube: np.ndarray, budget: Budget) -> Attempt:
        self._deadline = float("inf")  # the search library keeps its own clock
        attempt = run_search(cube, budget, self.beam_settings, value=self.value)
        info = {**attempt.info, "cayleypy": peer_version("cayleypy"), "search": "cubebench"}
        return Attempt(attempt.moves, attempt.nodes_expanded, attempt.model_calls, info)


@dataclass(frozen=True)
class CayleyPyCube2Settings(CayleyPySettings):
    """CayleyPy's fixed-corner 2×2×2 graphs, in both metrics; its beam search only (this
    project's searches on the 2×2×2 are ``cube2-policy``'s and ``cube2-value``'s)."""

    search: Literal["cayleypy"] = "cayleypy"
    metric: Metric = "htm"
    beam_width: Annotated[int, BEAM_WIDTH] = 1024
    max_depth: Annotated[int, DEPTH] = 20

    PUZZLE: ClassVar[str] = "cube2"
    OPTION_HELP: ClassVar = {
        **CayleyPySettings.OPTION_HELP,
        "search": "cayleypy (CayleyPy's BeamSearchAlgorithm)",
        "metric": "htm (9 turns of U, R, F) or qtm (6): CayleyPy's fixed-corner graph "
        "searched, and the model trained on it",
        "mitm_radius": "meet in the middle: end when a layer meets CayleyPy's BFS ball of this "
        "radius around solved (0: off)",
        "checkpoint": "a folder with a model `bench train cayleypy-cube2 --out` wrote "
        "(default: shipped)",
    }


class CayleyPyCube2Solver(CayleyPySolver):
    """``cayleypy-cube2``: CayleyPy's model and beam search on its ``cube_2/2/2`` graph."""

    Settings = CayleyPyCube2Settings
    name = "cayleypy-cube2"
    METRICS = ("htm", "qtm")
    puzzles = ("cube2",)


@dataclass(frozen=True)
class CayleyPyCube4Settings(CayleyPySettings):
    """CayleyPy's 4×4×4 graph of 24 layer quarter turns (the harness's 4×4×4 ``qtm``)."""

    search: Literal["cayleypy"] = "cayleypy"
    metric: Literal["qtm"] = "qtm"
    beam_width: Annotated[int, BEAM_WIDTH] = 1024  # 24 children a state: ~0.2 s a step here
    max_depth: Annotated[int, DEPTH] = 60

    PUZZLE: ClassVar[str] = "cube4"
    OPTION_HELP: ClassVar = {
        **CayleyPyCube2Settings.OPTION_HELP,
        "metric": "qtm (the 24 layer quarter turns): CayleyPy's graph searched, and the model "
        "trained on it",
        "checkpoint": "a folder with a model `bench train cayleypy-cube4 --out` wrote "
        "(default: shipped)",
    }


class CayleyPyCube4Solver(CayleyPySolver):
    """``cayleypy-cube4``: CayleyPy's model and beam search on its ``cube_4/4/4`` graph."""

    Settings = CayleyPyCube4Settings
    name = "cayleypy-cube4"
    METRICS = ("qtm",)
    puzzles = ("cube4",)
