"""Answers computed elsewhere, as a run: ``bench runs import answers`` and ``bench runs export``.

An answers file (:mod:`.answers`) becomes an ordinary run folder: every answer is replayed on
the harness's engine and judged like a solver's (:func:`~cubebench.harness.verify.judge`),
its times are marked as the submitter's own (never this machine's time axis), and the
manifest keeps the metadata as the entry's provenance. ``bench runs export RUN --entry E``
writes one entry's records of one suite in the same format, so an export imported again
gives back the same records.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .answers import Answer, Answers, AnswersError, read_answers, write_answers
from .cube import facelets_to_state
from .naming import check_entry_name, check_path_name
from .published import _write_whole
from .records.manifest import Manifest, SolverPin, SuitePin
from .records.provenance import package_versions
from .records.schema import Record
from .records.store import RunStore
from .solver import Budget
from .suites.catalog import load_suite
from .suites.model import Suite, sha256_bytes
from .verify import RawAttempt, judge

_WORSE = {"timeout", "error", "unsolved"}


def suite_matches(suite: Suite, sha256: str | None) -> bool:
    """A submission's suite hash: its file's (as the run saw it) or its cubes'."""
    return sha256 is None or sha256 in (suite.sha256, suite.states_sha256)


def _judged(answer: Answer, instance: Any, entry: str, suite: str, metric: str) -> Record:
    state = np.asarray(facelets_to_state(instance.facelets))
    raw = RawAttempt(
        list(answer.moves or ()), answer.nodes, 0, {"metric": metric}, answer.seconds or 0.0
    )
    record = judge(
        state, raw, Budget(wall_seconds=None), solver=entry, suite=suite,
        instance=instance.id, optimal=(instance.optimal_htm, instance.optimal_qtm),
    )  # fmt: skip
    wall = None if answer.seconds is None else round(answer.seconds, 6)
    fields = {**record.to_dict(), "wall_s": wall}
    if (answer.status in _WORSE and record.status == "solved") or answer.moves is None:
        # the submitter's own verdict where it has no answer, or where it is worse
        fields["status"] = answer.status or "unsolved"
    if answer.moves is None:  # no answer at all (an empty one is a give-up: 0 moves)
        fields.update(moves="", length_htm=None, length_qtm=None, gap_htm=None, gap_qtm=None)
    fields.pop("solver")
    return Record(entry=entry, **fields)


def import_answers(
    path: Path,
    suite_name: str,
    out: Path,
    run_id: str | None = None,
    meta: dict[str, Any] | None = None,
    command: list[str] | None = None,
) -> RunStore:
    """Write the run folder of an answers file; ``meta`` adds to (or, for CSV, is) its
    metadata. Nothing is written unless every line reads and fits the suite.

    Raises:
        AnswersError: a bad file, another suite's hash, an id the suite lacks.
    """
    path = Path(path)
    submission = read_answers(path, meta)
    suite = load_suite(suite_name)
    declared = submission.meta.get("suite")
    if declared is not None and declared != suite.name:
        raise AnswersError(f"{path}: its answers are for suite {declared!r}, not {suite.name!r}")
    if not suite_matches(suite, submission.meta.get("suite_sha256")):
        raise AnswersError(
            f"{path}: suite_sha256 {submission.meta['suite_sha256'][:16]}… is neither the file's "
            f"nor the cubes' sha256 of suite {suite.name}"
        )
    by_id = {i.id: i for i in suite.instances}
    strangers = [a.id for a in submission.answers if a.id not in by_id]
    if strangers:
        raise AnswersError(f"{path}: id {strangers[0]} is not an instance of suite {suite.name}")
    system = check_entry_name(str(submission.meta["system"]), "system")
    run_id = check_path_name(run_id or f"answers-{system}".replace("/", "-"), "--run-id")
    folder = Path(out) / run_id
    if folder.exists():
        raise AnswersError(f"run folder {folder} exists; give another --run-id")
    metric = str(submission.meta["metric"])
    records = [
        _judged(a, by_id[a.id], system, suite.name, metric)
        for a in sorted(submission.answers, key=lambda a: a.id)
    ]
    made_by = command or ["import_answers", str(path), suite.name]
    _write_whole(folder, _manifest(path, submission, suite, system, run_id, made_by), records)
    return RunStore(folder)


def _manifest(
    path: Path, submission: Answers, suite: Suite, system: str, run_id: str, command: list[str]
) -> Manifest:
    meta = submission.meta
    now = datetime.now(UTC).isoformat()
    origin = {
        "registered": "answers",
        "target": system,
        "version": meta.get("version"),
        "code": meta.get("code"),
        "licence": meta.get("licence"),
        "command": meta.get("command"),
        "file_sha256": sha256_bytes(path.read_bytes()),
    }
    times = "absent" if meta.get("times") == "absent" else "the submitter's own"
    return Manifest(
        run_id=run_id,
        command=tuple(command),
        config={"imported": "answers", "metric": meta["metric"]},
        suites={suite.name: SuitePin(suite.sha256, suite.total, suite.meta, suite.states_sha256)},
        solvers={system: SolverPin(system, {}, origin, {"metric": meta["metric"]})},
        published={
            "system": system,
            "file": path.name,
            "hardware": meta["hardware"],
            "times": f"{times}, on its hardware: never this machine's time axis",
            "replayed": True,
            "answers": dict(meta),
        },
        machine={"cpu": None, "gpu": None, "published": meta["hardware"]},
        packages=package_versions(),
        started=now,
        finished=now,
    )


def export_answers(
    folder: Path, entry: str, out: Path, suite_name: str | None = None
) -> tuple[Path, int]:
    """One entry's answers on one suite of a run, as an answers file at ``out`` (a new
    file: an existing one is the user's and is never replaced); (the file, answers).

    Raises:
        AnswersError: no such entry or suite in the run, or ``out`` exists.
    """
    store = RunStore(Path(folder))
    manifest = store.read_manifest()
    if entry not in manifest.solvers:
        known = ", ".join(sorted(manifest.solvers)[:8])
        raise AnswersError(
            f"--entry {entry!r}: not an entry of run {folder} (its entries: {known})"
        )
    suites = sorted(manifest.suites)
    if suite_name is None and len(suites) != 1:
        raise AnswersError(f"run {folder} holds suites {', '.join(suites)}: give --suite")
    suite_name = suite_name or suites[0]
    if suite_name not in manifest.suites:
        raise AnswersError(f"--suite {suite_name!r}: not a suite of run {folder}")
    out = Path(out)
    if out.exists() or out.is_symlink():
        raise AnswersError(
            f"--out {out} exists; give a new file (an existing one is never replaced)"
        )
    records = [r for r in store.read_records() if r.entry == entry and r.suite == suite_name]
    answers = tuple(_answer_of(r) for r in sorted(records, key=lambda r: r.instance))
    metric = next((r.metric for r in records if r.metric), "htm")
    pin, suite_pin = manifest.solvers[entry], manifest.suites[suite_name]
    meta = {**_meta_of(manifest, pin, entry, suite_name, suite_pin), "metric": metric}
    config = manifest.config or {}
    limits = [config.get("limit"), (config.get("suite_limits") or {}).get(suite_name)]
    limits.append(((manifest.published or {}).get("answers") or {}).get("instances"))
    prefix = min((n for n in limits if isinstance(n, int)), default=None)
    if prefix is not None:
        meta["instances"] = prefix  # the run answered the suite's first cubes only
    write_answers(out, Answers(meta, answers))
    return out, len(answers)


def _answer_of(record: Record) -> Answer:
    from .cube import parse_moves

    # an answer the harness replayed has its lengths (a give-up: 0 moves); none came else
    moves = tuple(parse_moves(record.moves)) if record.length_htm is not None else None
    # an answer that was no move sequence (illegal) has nothing to replay: an error
    status = "error" if record.status == "illegal" else record.status
    return Answer(
        record.instance, moves, record.wall_s, record.nodes, status if status in _WORSE else None
    )


def _meta_of(
    manifest: Manifest, pin: SolverPin, entry: str, suite: str, suite_pin: SuitePin
) -> dict[str, Any]:
    machine = manifest.machine or {}
    published = manifest.published or {}
    answers = dict(published.get("answers") or {})
    cpu = machine.get("cpu")
    hardware = answers.get("hardware") or (
        f"{cpu}, {machine.get('cores')} cores" if cpu else machine.get("published") or "unknown"
    )
    commit = (manifest.git or {}).get("commit")
    return {
        "system": entry,
        "version": answers.get("version") or pin.pinned.get("program_version")
        or (manifest.packages or {}).get("cubebench"),
        "hardware": hardware,
        "code": answers.get("code") or (f"cubebench commit {commit}" if commit else None),
        "licence": answers.get("licence"),
        "command": answers.get("command") or " ".join(manifest.command),
        "suite": suite,
        "suite_sha256": suite_pin.states or suite_pin.sha256,
    }  # fmt: skip
