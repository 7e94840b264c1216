"""Where a training run may write, checked before anything trains: a folder it can write, a
CUDA device that exists, and never over a model the run did not start."""

from __future__ import annotations

import os
from pathlib import Path

from ...harness import ArgumentError


def check_cuda(device: str, option: str = "training --device ") -> None:
    """A CUDA device where torch sees one, refused in one line before anything loads (torch
    is imported only for a CUDA device, so the Keras trainers stay free of it). ``option``:
    how the message names the value (``setting device=`` for a solver's setting)."""
    import torch

    if not torch.cuda.is_available():
        raise ArgumentError(f"{option}{device}: torch sees no CUDA device here; use cpu")
    index = int(device.partition(":")[2] or 0)
    if index >= torch.cuda.device_count():
        raise ArgumentError(
            f"{option}{device}: torch sees {torch.cuda.device_count()} CUDA device(s)"
        )


def writable_folder(out: str) -> Path:
    """``--out`` as a folder this process can write, made if missing; refused in one line
    (a file, a folder it may not write) before anything trains, not at the first save."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ArgumentError(f"--out {out}: a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".write-probe-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise ArgumentError(f"--out {out}: cannot write there ({exc.strerror or exc})") from None
    return path


def guard_existing_model(config: object, stem: str, continuing: bool) -> None:
    """Refuse, before anything trains, a new run whose checkpoints would replace a model it
    did not start: ``out`` holds ``STEM.json`` (a finished or shipped model) and no state of
    a run to continue. ``--replace`` says the user means it.

    Raises:
        ArgumentError: naming the model, the folder and the two ways on.
    """
    out, replace, resume = (getattr(config, k) for k in ("out", "replace", "resume"))
    card = Path(out) / f"{stem}.json"
    if continuing or replace or not card.exists():
        return
    why = "no training state of a run to continue is there" if resume else "--fresh"
    raise ArgumentError(
        f"--out {out} holds the model {card.name}, which a new run would replace ({why}); "
        "give --out another folder, or --replace to write over it"
    )
