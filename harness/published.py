"""A peer's published run, imported as a run folder: its answers judged like the harness's own.

EfficientCube released every solution of its beam search on the DeepCubeA test set, and
DeepCubeA its A*'s length, nodes and time per state. ``bench runs import FORMAT PATH --suite
SUITE`` turns such a file into an ordinary run folder, so ``show``, ``report``, ``compare``
and ``leaderboard`` treat it like any run:

- ``efficientcube``: the result pickle, a dict of plain lists (``solutions``, ``times``,
  ``num_nodes_generated``), loaded by an unpickler that allows **no global at all** (a file
  that names one is refused before anything of it runs). Every answer is replayed on the
  harness's engine and judged by :func:`~cubebench.harness.verify.judge`, as a solver's is.
- ``deepcubea-output``: DeepCubeA's ``output.txt``, lengths only. Its records have status
  ``claimed``: the length is the peer's, the moves were never published, and no table
  counts such a record as verified.

The manifest says where the answers came from (system, source, file sha256, licence, the
peer's hardware as published) and that the times are the peer's own. A file that does not
match the suite (another count, a token that is not a move) is refused in one line before
anything is written; a single answer that does not solve its cube is recorded ``wrong``.
"""

from __future__ import annotations

import io
import pickle
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .cube import NotationError, facelets_to_state, parse_moves
from .naming import check_path_name
from .records.manifest import Manifest, SolverPin, SuitePin
from .records.provenance import package_versions
from .records.schema import Record, RecordError
from .records.store import RunStore
from .solver import Budget
from .suites.catalog import load_suite
from .suites.model import sha256_bytes
from .verify import RawAttempt, judge

FORMATS = ("efficientcube", "deepcubea-output")
MAX_FILE_BYTES = 64 * 2**20
"""A published run of a thousand cubes is well under a megabyte; past this it is not one."""

PUBLISHERS: dict[str, dict[str, str]] = {
    "efficientcube": {
        "system": "efficientcube",
        "source": "kyo-takano/efficientcube, results/cube3/ (Takano 2023)",
        "licence": "CC-BY-4.0",
        "hardware": "the authors' GPU machine (as published with the results)",
    },
    "deepcubea-output": {
        "system": "deepcubea-published",
        "source": "forestagostinelli/DeepCubeA, results/cube3/output.txt (Agostinelli et al. 2019)",
        "licence": "MIT",
        "hardware": "the authors' GPU machine (as published with the results)",
    },
}


class PublishedRunError(RecordError):
    """A published-run file that cannot be imported onto the suite; nothing was written."""


@dataclass(frozen=True)
class PublishedAnswer:
    """One cube's published answer: its moves (None where only a length was published)."""

    moves: list[int] | None
    claimed_qtm: int | None
    wall_s: float
    nodes: int


class _NoGlobals(pickle.Unpickler):
    """Plain containers and scalars only: any class or function named in the file refuses it."""

    def find_class(self, module: str, name: str) -> Any:
        raise PublishedRunError(
            f"the pickle names {module}.{name}; a published run holds plain lists only, so "
            "nothing of it was run"
        )


def read_efficientcube(path: Path, count: int) -> list[PublishedAnswer]:
    """EfficientCube's result pickle: ``count`` solutions of quarter-turn move strings."""
    try:
        data = _NoGlobals(io.BytesIO(path.read_bytes())).load()
    except PublishedRunError:
        raise
    except Exception as exc:  # a damaged pickle fails in many ways; none of them runs code
        raise PublishedRunError(f"{path}: not an EfficientCube result ({exc})") from None
    keys = ("solutions", "times", "num_nodes_generated")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), list) for k in keys):
        raise PublishedRunError(f"{path}: expected a dict of the lists {', '.join(keys)}")
    sizes = {k: len(data[k]) for k in keys}
    if set(sizes.values()) != {count}:
        raise PublishedRunError(f"{path}: {sizes} answers, the suite has {count} cubes")
    answers = []
    for i, (moves, wall, nodes) in enumerate(zip(*(data[k] for k in keys), strict=True)):
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise PublishedRunError(f"{path}: solution {i} is not a list of moves")
        try:
            parsed = parse_moves(" ".join(moves))
        except NotationError as exc:
            raise PublishedRunError(f"{path}: solution {i}: {exc}") from None
        if not isinstance(wall, int | float) or not isinstance(nodes, int):
            raise PublishedRunError(f"{path}: time or node count of solution {i} is not a number")
        answers.append(PublishedAnswer(parsed, None, float(wall), int(nodes)))
    return answers


_OUTPUT_LINE = re.compile(
    r"State: (\d+), SolnCost: ([\d.]+), # Moves: (\d+), # Nodes Gen: ([\d,]+), Time: ([\d.]+)"
)


def read_deepcubea_output(path: Path, count: int) -> list[PublishedAnswer]:
    """DeepCubeA's ``output.txt``: a line per state, in order, then summary lines."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PublishedRunError(f"{path}: not readable text ({exc})") from None
    answers: list[PublishedAnswer] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("State:"):
            continue
        match = _OUTPUT_LINE.fullmatch(line.strip())
        if match is None or int(match[1]) != len(answers):
            raise PublishedRunError(
                f"{path} line {number}: expected state {len(answers)} in DeepCubeA's form "
                "'State: i, SolnCost: c, # Moves: m, # Nodes Gen: n, Time: t'"
            )
        moves = int(match[3])
        nodes = int(match[4].replace(",", ""))
        answers.append(PublishedAnswer(None, moves, float(match[5]), nodes))
    if len(answers) != count:
        raise PublishedRunError(f"{path}: {len(answers)} states, the suite has {count} cubes")
    return answers


READERS = {"efficientcube": read_efficientcube, "deepcubea-output": read_deepcubea_output}


def default_system(fmt: str, path: Path) -> str:
    """``efficientcube[beam_width=65536]`` from ``beam_width_65536.pkl``; else the format's."""
    width = re.fullmatch(r"beam_width_(\d+)\.pkl", path.name)
    base = PUBLISHERS[fmt]["system"]
    return f"{base}[beam_width={width[1]}]" if fmt == "efficientcube" and width else base


def import_published(
    fmt: str,
    path: Path,
    suite_name: str,
    out: Path,
    run_id: str | None = None,
    system: str | None = None,
    command: list[str] | None = None,
) -> RunStore:
    """Write the run folder of a published run; see the module's description.

    ``command``: what the manifest records as the command that made it (the CLI's own).
    """
    if fmt not in FORMATS:
        raise PublishedRunError(f"format {fmt!r}: choose one of {', '.join(FORMATS)}")
    path = Path(path)
    if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
        raise PublishedRunError(f"{path}: not a file of a published run")
    suite = load_suite(suite_name)
    answers = READERS[fmt](path, len(suite))  # everything is checked before a byte is written
    system = system or default_system(fmt, path)
    run_id = run_id or f"published-{system.replace('[', '-').replace(']', '').replace('=', '-')}"
    check_path_name(run_id, "--run-id")
    store = RunStore(Path(out) / run_id)
    if store.folder.exists():
        raise PublishedRunError(f"run folder {store.folder} exists; give another --run-id")
    store.folder.mkdir(parents=True)
    store.lock()
    try:
        made_by = command or ["import_published", fmt, str(path), suite.name]
        store.write_manifest(_manifest(fmt, path, suite, system, run_id, made_by))
        for instance, answer in zip(suite.instances, answers, strict=True):
            store.append(_record(system, suite.name, instance, answer))
    finally:
        store.close()
    return store


def _manifest(
    fmt: str, path: Path, suite: Any, system: str, run_id: str, command: list[str]
) -> Manifest:
    publisher = PUBLISHERS[fmt]
    now = datetime.now(UTC).isoformat()
    origin = {
        "registered": "published",
        "target": system,
        "format": fmt,
        "source": publisher["source"],
        "licence": publisher["licence"],
        "file_sha256": sha256_bytes(path.read_bytes()),
    }
    return Manifest(
        run_id=run_id,
        command=tuple(command),
        config={"imported": fmt},
        suites={suite.name: SuitePin(suite.sha256, suite.total, suite.meta, suite.states_sha256)},
        solvers={system: SolverPin(system, {}, origin)},
        published={
            "system": system,
            "file": path.name,
            "hardware": publisher["hardware"],
            "times": "the peer's own, on its hardware: never this machine's time axis",
            "replayed": fmt != "deepcubea-output",
        },
        machine={"cpu": None, "gpu": None, "published": publisher["hardware"]},
        packages=package_versions(),
        started=now,
        finished=now,
    )


def _record(system: str, suite: str, instance: Any, answer: PublishedAnswer) -> Record:
    optimal = (instance.optimal_htm, instance.optimal_qtm)
    if answer.moves is None:  # a length only: claimed, never verified
        gap = None if instance.optimal_qtm is None else answer.claimed_qtm - instance.optimal_qtm
        return Record(
            solver=system,
            suite=suite,
            instance=instance.id,
            status="claimed",
            length_qtm=answer.claimed_qtm,
            optimal_htm=instance.optimal_htm,
            optimal_qtm=instance.optimal_qtm,
            gap_qtm=gap,
            wall_s=answer.wall_s,
            nodes=answer.nodes,
            metric="qtm",
            error="the peer published this length, not the moves: not replayed",
        )
    state = np.asarray(facelets_to_state(instance.facelets))
    raw = RawAttempt(answer.moves, answer.nodes, 0, {"metric": "qtm"}, answer.wall_s)
    return judge(
        state, raw, Budget(wall_seconds=None), solver=system, suite=suite,
        instance=instance.id, optimal=optimal,
    )  # fmt: skip
