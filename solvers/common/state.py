"""A torch training run's resumable state: one file per model, ``STEM.train-state.pt``.

It holds what continuing needs (weights, optimizer, step, samples, elapsed time, both RNGs,
the best validation loss), what the task keeps beside the model (value iteration's target
network), the run options fixed when the run started, and the list of sittings. It is
written atomically at every validation, read with ``torch.load(weights_only=True)``
(tensors and plain data only), and is never part of the wheel. A finished run's state is
removed from the tree once its checkpoint ships.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import torch

from cubebench.harness import ArgumentError

STATE_VERSION = 1


def state_path(folder: Path | str, stem: str) -> Path:
    return Path(folder) / f"{stem}.train-state.pt"


def read_state(path: Path, device: str = "cpu") -> dict[str, Any] | None:
    """The saved state, or None when there is none; a file that is not one is refused."""
    if not path.exists():
        return None
    try:
        state = torch.load(path, map_location=device, weights_only=True)
    except Exception as exc:  # torch reports bad files with many exception types
        raise ArgumentError(f"training state {path}: cannot be read ({exc}); --fresh") from exc
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        found = state.get("version") if isinstance(state, dict) else type(state).__name__
        raise ArgumentError(
            f"training state {path}: version {found}, expected {STATE_VERSION}; "
            "--fresh starts a new run"
        )
    state["progress"] = json.loads(state["progress"])
    state["rng"] = json.loads(state["rng"])
    state["run_options"] = json.loads(state["run_options"])
    state["sittings"] = json.loads(state["sittings"])
    return state


def read_run_options(path: Path) -> dict[str, Any] | None:
    state = read_state(path)
    return None if state is None else state["run_options"]


def write_state(path: Path, state: dict[str, Any]) -> None:
    """Atomically replace the state file (plain data as JSON strings, tensors as tensors)."""
    payload = {
        "version": STATE_VERSION,
        "model": state["model"],
        "optimizer": state["optimizer"],
        "torch_rng": state["torch_rng"],
        **{key: json.dumps(state[key]) for key in ("progress", "rng", "run_options", "sittings")},
        **({"task": state["task"]} if "task" in state else {}),
    }
    tmp = path.with_name(path.name + ".tmp")
    torch.save(payload, tmp)
    os.replace(tmp, path)
