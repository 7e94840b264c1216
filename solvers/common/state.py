"""A torch training run's resumable state: one file per model, ``STEM.train-state.pt``.

It holds what continuing needs (weights, optimizer, step, samples, elapsed time, both RNGs,
the best validation loss), what the task keeps beside the model (value iteration's target
network), the run options fixed when the run started, and the list of sittings. It is
written atomically at every validation, gzip-compressed (a 4×4×4 network's weights and Adam
moments stay under a repository's 25 MB file limit), read with ``torch.load(weights_only=True)``
(tensors and plain data only), and is never part of the wheel. Uncompressed states written
before compression still read. A finished run's state is
removed from the tree once its checkpoint ships.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any

import torch

from ...harness import ArgumentError

STATE_VERSION = 1


def state_path(folder: Path | str, stem: str) -> Path:
    return Path(folder) / f"{stem}.train-state.pt"


def stem_of(path: Path) -> str:
    """The model a state file belongs to, by its name: ``cayley-mlp-qtm`` of
    ``cayley-mlp-qtm.train-state.pt``."""
    return Path(path).name.removesuffix(".train-state.pt")


def read_state(path: Path, device: str = "cpu") -> dict[str, Any] | None:
    """The saved state, or None when there is none.

    A file that is not a state of this model is refused in one line before anything trains:
    unreadable, another version, another model's (a quarter-turn state under a half-turn
    name), missing or mistyped parts, or a step past the run's own budget.
    """
    if not path.exists():
        return None
    try:
        state = load_payload(path, device)
    except Exception as exc:  # torch reports bad files with many exception types
        raise ArgumentError(
            f"training state {path}: cannot be read ({_first_line(exc)}); --fresh starts anew"
        ) from None
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        found = state.get("version") if isinstance(state, dict) else type(state).__name__
        raise ArgumentError(
            f"training state {path}: version {found}, expected {STATE_VERSION}; "
            "--fresh starts a new run"
        )
    return _checked(path, state)


def load_payload(path: Path, device: str = "cpu") -> Any:
    """The file's raw contents, unchecked: gzip-compressed or plain ``torch.save`` output."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return torch.load(io.BytesIO(data), map_location=device, weights_only=True)


def save_payload(path: Path, payload: dict[str, Any]) -> None:
    """Atomically replace ``path`` with the compressed payload (no timestamp inside, so one
    state always makes the same bytes)."""
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(gzip.compress(buffer.getvalue(), compresslevel=6, mtime=0))
    os.replace(tmp, path)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def digest(payload: dict[str, Any]) -> str:
    """sha256 over everything a state holds but its digest: every tensor's dtype, shape and
    bytes, every other value as JSON, in key order. An edited or damaged state that still
    loads (a flipped byte inside a weight) no longer matches it."""
    h = hashlib.sha256()

    def feed(value: Any) -> None:
        if isinstance(value, torch.Tensor):
            t = value.detach().cpu().contiguous().reshape(-1)  # 0-d tensors cannot be viewed
            h.update(f"T{t.dtype}{tuple(value.shape)}".encode())
            h.update(t.view(torch.uint8).numpy().tobytes() if t.numel() else b"")
        elif isinstance(value, dict):
            h.update(b"{")
            for key in sorted(value, key=str):
                h.update(json.dumps(str(key)).encode())
                feed(value[key])
            h.update(b"}")
        elif isinstance(value, list | tuple):
            h.update(b"[")
            for item in value:
                feed(item)
            h.update(b"]")
        else:
            h.update(json.dumps(value, default=str).encode())

    feed({k: v for k, v in payload.items() if k != "digest"})
    return h.hexdigest()


def _checked(path: Path, state: dict[str, Any]) -> dict[str, Any]:
    def bad(why: str) -> ArgumentError:
        return ArgumentError(f"training state {path}: {why}; --fresh starts a new run")

    if "digest" in state and state["digest"] != digest(state):
        raise bad("its contents do not match its checksum (edited or damaged)")

    stem = state.get("stem")
    if stem is not None and stem != stem_of(path):
        raise bad(f"it is the state of {stem!r}, not of {stem_of(path)!r}")
    for key, kind in (("model", dict), ("optimizer", dict), ("torch_rng", torch.Tensor)):
        if not isinstance(state.get(key), kind):
            raise bad(f"its {key} is missing or not a {kind.__name__}")
    parsed: dict[str, Any] = {}
    for key, kind in (("progress", dict), ("rng", dict), ("run_options", dict), ("sittings", list)):
        try:
            parsed[key] = json.loads(state[key])
        except (KeyError, TypeError, ValueError):
            raise bad(f"its {key} is missing or not JSON") from None
        if not isinstance(parsed[key], kind):
            raise bad(f"its {key} is not a {kind.__name__}")
    progress, options = parsed["progress"], parsed["run_options"]
    for key in ("step", "samples"):
        if type(progress.get(key)) is not int or progress[key] < 0:
            raise bad(f"progress {key}={progress.get(key)!r} is not a count")
    elapsed = progress.get("elapsed")
    if not isinstance(elapsed, int | float) or isinstance(elapsed, bool) or not elapsed >= 0:
        raise bad(f"progress elapsed={elapsed!r} is not a duration")
    steps = options.get("steps")
    if isinstance(steps, int) and progress["step"] > steps:
        raise bad(f"step {progress['step']} is past the run's budget of {steps} steps")
    if not isinstance(parsed["rng"].get("bit_generator"), str):
        raise bad("its random generator state has no bit_generator")
    return state | parsed


def read_run_options(path: Path) -> dict[str, Any] | None:
    state = read_state(path)
    return None if state is None else state["run_options"]


def write_state(path: Path, state: dict[str, Any]) -> None:
    """Atomically replace the state file (plain data as JSON strings, tensors as tensors)."""
    payload: dict[str, Any] = {
        "version": STATE_VERSION,
        "stem": stem_of(path),
        "model": state["model"],
        "optimizer": state["optimizer"],
        "torch_rng": state["torch_rng"],
        **{key: json.dumps(state[key]) for key in ("progress", "rng", "run_options", "sittings")},
        **({"task": state["task"]} if "task" in state else {}),
    }
    payload["digest"] = digest(payload)
    save_payload(path, payload)
