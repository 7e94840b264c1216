"""The submission checker: is a run folder, or an answers file, fit for a leaderboard?

``bench check PATH`` runs each check and prints one line for it; it passes only when every
check does. The checks, in order:

- ``schema``: the format's version is one this harness reads;
- ``suite``: the suite is a known one and the sha256 the submission pins is its file's or its
  cubes';
- ``complete``: every instance of the suite (or of the prefix it declares) is answered
  exactly once, by each entry;
- ``replayed``: every answer given as solving the cube does, replayed on the harness's engine;
- ``provenance``: who and what made it: the system, its version, the hardware, and a code URL
  or commit (a local run: the harness's own record of its commit and machine);
- ``times``: every answer has its time, or the submission declares times absent;
- ``optima``: no answer is shorter than the optimum proved for its cube.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .answers import ANSWERS_VERSION, AnswersError, read_answers
from .cube import (
    apply_sequence,
    facelets_to_state,
    format_moves,
    is_solved,
    parse_moves,
)
from .cube.notation import solution_lengths
from .records.manifest import Manifest
from .records.schema import SCHEMA_VERSION, Record
from .records.store import RunStore
from .submissions import suite_matches
from .suites.catalog import load_suite
from .suites.model import Suite, SuiteError

CHECKS = ("schema", "suite", "complete", "replayed", "provenance", "times", "optima")


@dataclass(frozen=True)
class Finding:
    check: str
    ok: bool
    message: str


@dataclass(frozen=True)
class _Answer:
    entry: str
    instance: int
    moves: str | None  # None: not given as solved
    seconds: float | None
    metric: str


def check_submission(
    path: Path, suite: str | None = None, entry: str | None = None
) -> list[Finding]:
    """Every check of :data:`CHECKS` on a run folder (``entry``: that entry's answers only)
    or an answers file, in order.

    Raises:
        InputError: a path that is neither, or a file that cannot be read at all.
    """
    path = Path(path)
    if not path.is_dir():
        return _merge(list(_check_file(path, suite)))
    store = RunStore(path)
    try:
        manifest, records = store.read_manifest(), store.read_records()
    except (AnswersError, ValueError) as exc:
        return [Finding("schema", False, str(exc))]
    if entry is not None and entry not in manifest.solvers:
        raise AnswersError(f"--entry {entry!r}: not an entry of run {path}")
    return _merge(list(_check_run(manifest, records, entry, {})))


def check_entries(folder: Path) -> dict[str, list[Finding]]:
    """Each entry of a run folder checked on its own, as ``check_submission(folder,
    entry=key)`` does, with the run and its suites read once (a report checks every entry
    of every run it shows).

    Raises:
        InputError: a folder whose manifest or records cannot be read.
    """
    store = RunStore(Path(folder))
    manifest, records = store.read_manifest(), store.read_records()
    suites: dict[str, Suite | None] = {}
    return {
        key: _merge(list(_check_run(manifest, records, key, suites))) for key in manifest.solvers
    }


def _merge(found: list[Finding]) -> list[Finding]:
    merged: list[Finding] = []
    for check in CHECKS:  # one line a check: a failure, else what the checks found
        mine = [f for f in found if f.check == check]
        failed = [f for f in mine if not f.ok]
        if failed:
            merged.append(failed[0])
        elif mine:
            merged.append(Finding(check, True, _summary([f.message for f in mine])))
    return merged


def _summary(messages: list[str]) -> str:
    """Several suites' passing lines as one: counts of one kind added up, else the first."""
    unique = list(dict.fromkeys(messages))
    parts = [re.fullmatch(r"(\d+) (.*)", m) for m in unique]
    if len(unique) > 1 and all(parts) and len({m[2] for m in parts if m}) == 1:
        total = sum(int(m[1]) for m in parts if m)
        return f"{total} {parts[0][2] if parts[0] else ''}"
    more = f" (and {len(unique) - 1} suites more, alike)" if len(unique) > 1 else ""
    return unique[0] + more


def _suite(name: str | None) -> Suite | None:
    if name is None:
        return None
    try:
        return load_suite(name)
    except SuiteError:
        return None


def _check_file(path: Path, suite_name: str | None) -> Iterator[Finding]:
    try:
        submission = read_answers(path, lenient=True)
    except AnswersError as exc:
        yield Finding("schema", False, str(exc))
        return
    meta = submission.meta
    yield Finding("schema", True, f"cubebench answers, version {ANSWERS_VERSION}")
    name = suite_name or meta.get("suite")
    suite = _suite(name)
    pinned = meta.get("suite_sha256")
    if suite is None:
        yield Finding("suite", False, f"suite {name!r} is not a known suite (give --suite)")
        return
    if pinned is None or not suite_matches(suite, pinned):
        why = "pins no suite_sha256" if pinned is None else f"pins sha256 {pinned[:16]}…"
        yield Finding("suite", False, f"{why}, not suite {suite.name}'s file or cubes")
    else:
        yield Finding("suite", True, f"{suite.name}, sha256 {pinned[:16]}…")
    entry, metric = str(meta.get("system") or "(no system)"), str(meta["metric"])
    answers = [
        _Answer(
            entry, a.id, None if a.moves is None else format_moves(list(a.moves)), a.seconds, metric
        )
        for a in submission.answers
    ]
    yield _complete(suite, {entry: [a.instance for a in answers]}, meta.get("instances"))
    yield from _replayed_and_optima(suite, answers)
    missing = [k for k in ("system", "version", "hardware", "code") if not meta.get(k)]
    yield Finding(
        "provenance",
        not missing,
        f"missing {', '.join(missing)}"
        if missing
        else f"{entry} {meta['version']}, {meta['hardware']}",
    )
    yield _times(answers, meta.get("times") == "absent")


def _check_run(
    manifest: Manifest, records: list[Record], entry: str | None, loaded: dict[str, Suite | None]
) -> Iterator[Finding]:
    """The checks of a run's records (``entry``: that entry's alone); ``loaded`` holds the
    suites read so far, by name, for the next call on the same run."""
    if entry is not None:
        manifest = replace(manifest, solvers={entry: manifest.solvers[entry]})
        records = [r for r in records if r.entry == entry]
    yield Finding(
        "schema", True, f"run folder, record schema {manifest.schema_version} of {SCHEMA_VERSION}"
    )
    suites: dict[str, Suite] = {}
    for name, pin in manifest.suites.items():
        if name not in loaded:
            loaded[name] = _suite(name)
        suite = loaded[name]
        if suite is None:
            yield Finding("suite", False, f"suite {name} is not known here")
            return
        if pin.identity not in (suite.sha256, suite.states_sha256):
            solving = [r for r in records if r.suite == name and r.status == "solved"]
            if pin.states is not None or not solving or not _all_replay(suite, solving):
                yield Finding("suite", False, f"suite {name}: the run's cubes are not its cubes")
                return
            # a run from before runs pinned cubes pins an earlier file of the suite (one with
            # fewer optima): its answers solving today's cubes show they are its cubes
            yield Finding("suite", True, f"{name} (an earlier file; its answers solve its cubes)")
        suites[name] = suite
    yield Finding("suite", True, ", ".join(sorted(suites)))
    config = manifest.config or {}
    for name, suite in suites.items():
        mine = [r for r in records if r.suite == name]
        by_entry = {e: [r.instance for r in mine if r.entry == e] for e in manifest.solvers}
        imported = ((manifest.published or {}).get("answers") or {}).get("instances")
        for key, ids in by_entry.items():
            own = [s.get("limit") for s in config.get("solvers", []) if _key(s) == key]
            limits = [config.get("limit"), (config.get("suite_limits") or {}).get(name)]
            declared = min((n for n in [*limits, imported, *own] if n), default=None)
            yield _complete(suite, {key: ids}, declared)
        yield from _replayed_and_optima(suite, [_of(r) for r in mine])
    published = manifest.published or {}
    if published:
        answers = published.get("answers") or {}
        missing = [k for k in ("version", "code") if not answers.get(k)]
        ok = bool(published.get("hardware")) and not missing
        message = f"imported: {published.get('system')}, {published.get('hardware')}"
        yield Finding(
            "provenance",
            ok,
            message if ok else f"imported, missing {', '.join(missing) or 'hardware'}",
        )
    else:
        commit = (manifest.git or {}).get("commit")
        cpu = (manifest.machine or {}).get("cpu")
        ok = bool(commit and cpu)
        yield Finding(
            "provenance",
            ok,
            f"cubebench commit {str(commit)[:12]}, {cpu}"
            if ok
            else "no commit or machine recorded",
        )
    absent = "absent" in str(published.get("times", ""))
    yield _times([_of(r) for r in records], absent)


def _key(spec: dict) -> str:
    """An entry's key in a stored run config (its label, else its solver's name)."""
    return str(spec.get("label") or spec.get("name"))


def _of(record: Record) -> _Answer:
    solved = record.status == "solved"
    return _Answer(
        record.entry,
        record.instance,
        record.moves if solved else None,
        record.wall_s,
        record.metric or "htm",
    )


def _all_replay(suite: Suite, records: list[Record]) -> bool:
    by_id = {i.id: i for i in suite.instances}
    for record in records:
        instance = by_id.get(record.instance)
        if instance is None:
            return False
        state = np.asarray(facelets_to_state(instance.facelets))
        if not is_solved(apply_sequence(state, parse_moves(record.moves))):
            return False
    return True


def _complete(suite: Suite, by_entry: dict[str, list[int]], declared: int | None) -> Finding:
    wanted = [i.id for i in suite.instances[:declared]]
    for entry, ids in by_entry.items():
        counts = Counter(ids)
        doubled = sorted(k for k, n in counts.items() if n > 1)
        missing = [k for k in wanted if k not in counts]
        extra = sorted(set(counts) - set(wanted))
        if doubled or missing or extra:
            parts = []
            if missing:
                parts.append(f"{len(missing)} of {len(wanted)} missing (first: {missing[0]})")
            if doubled:
                parts.append(f"{len(doubled)} answered twice (first: {doubled[0]})")
            if extra:
                parts.append(f"{len(extra)} beyond the declared {len(wanted)} (first: {extra[0]})")
            return Finding("complete", False, f"{entry} on {suite.name}: " + "; ".join(parts))
    what = f"the first {len(wanted)}" if declared else f"all {len(wanted)}"
    return Finding("complete", True, f"{what} instances of each suite, once each")


def _replayed_and_optima(suite: Suite, answers: list[_Answer]) -> Iterator[Finding]:
    by_id = {i.id: i for i in suite.instances}
    wrong: list[str] = []
    short: list[str] = []
    given = [a for a in answers if a.moves is not None and a.instance in by_id]
    for a in given:
        instance = by_id[a.instance]
        moves = parse_moves(a.moves or "")
        state = np.asarray(facelets_to_state(instance.facelets))
        if not is_solved(apply_sequence(state, moves)):
            wrong.append(f"{a.entry} #{a.instance}")
            continue
        htm, qtm = solution_lengths(moves)
        optimum = instance.optimal_qtm if a.metric == "qtm" else instance.optimal_htm
        length = qtm if a.metric == "qtm" else htm
        if optimum is not None and length < optimum:
            short.append(f"{a.entry} #{a.instance}: {length} < {optimum} {a.metric.upper()}")
    yield Finding(
        "replayed",
        not wrong,
        f"{len(wrong)} answers given as solved do not solve their cubes (first: {wrong[0]})"
        if wrong
        else f"{len(given)} answers replayed to solved",
    )
    yield Finding(
        "optima",
        not short,
        f"{len(short)} answers shorter than the proved optimum (first: {short[0]})"
        if short
        else "no answer shorter than a proved optimum",
    )


def _times(answers: list[_Answer], declared_absent: bool) -> Finding:
    if declared_absent:
        return Finding("times", True, "declared absent")
    missing = [a for a in answers if a.seconds is None]
    if missing:
        return Finding(
            "times",
            False,
            f"{len(missing)} answers have no time (first: #{missing[0].instance}); give them, "
            'or declare "times": "absent"',
        )
    return Finding("times", True, f"{len(answers)} answers timed")
