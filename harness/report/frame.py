"""Runs -> one tidy pandas frame, a row per solver x instance.

Runs are only combined when every suite they share holds the same cubes (the same states
hash; runs that predate it pin the file's sha256): results on different cubes are not
comparable, whatever the suite is called. Adding proved optima to a suite changes its file
but not its cubes, so runs made before and after compare, and every run's records get the
optima its suite holds now (:func:`fill_optima`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..naming import ArgumentError, check_entry_name, did_you_mean
from ..records.identity import completed, identity_parts, same_entry
from ..records.manifest import Manifest, SolverPin, SuitePin
from ..records.schema import RecordError
from ..records.store import RunStore
from ..suites.catalog import load_suite
from ..suites.model import SuiteError


class SuiteMismatchError(SuiteError):
    """Runs that measured differently hashed suites under one name."""


@dataclass(frozen=True)
class LoadedRun:
    folder: Path
    manifest: Manifest

    @property
    def run_id(self) -> str:
        """The name the frame's ``run`` column gives this run: its folder's, which a copied
        or renamed run folder does not share with the ``run_id`` inside its manifest."""
        return RunStore(self.folder).run_id


def one_puzzle(data: pd.DataFrame, what: str, hint: str = "give the runs of one") -> None:
    """Refuse a table over cubes of two puzzles: a 2×2×2 length beside a 3×3×3 one means
    nothing, so reports, sites and comparisons take one puzzle's suites at a time.

    Raises:
        RecordError: naming the puzzles and what to do.
    """
    puzzles = sorted(set(data["puzzle"]))
    if len(puzzles) > 1:
        raise RecordError(
            f"{what}: these runs hold cubes of {', '.join(puzzles)}; a table shows one "
            f"puzzle's ({hint})"
        )


def load_runs(
    folders: list[Path], labels: dict[str, str] | None = None, claims: Iterable[str] = ()
) -> tuple[pd.DataFrame, list[LoadedRun]]:
    """Read runs into one frame; refuse mixed suite hashes.

    ``labels``: names for entries (``ENTRY`` or ``RUN/ENTRY`` to a name, the CLI's
    ``--label``), which replace the labels the runs would give them. ``claims``: entries
    (by key, label or ``RUN/ENTRY``) whose ``claimed`` records, a peer's lengths that were
    never replayed, count as solved (``--claims``); no other claim ever does.

    Columns: run, solver (name), label (name plus the settings that tell runs of the same
    solver apart), family (the registered solver of a labelled entry, e.g. of a sweep), suite,
    suite_sha256, depth (for depth-k suites), qdepth (quarter-turn depth suites), instance,
    status, solved, length_htm, length_qtm, optimal_htm, gap_htm, optimal_qtm, gap_qtm, metric,
    wall_s, nodes, model_calls. Runs keep the order given; within a run, rows are sorted by
    solver, suite and instance, whatever order the workers wrote them in.
    """
    runs, frames = [], []
    pinned: dict[str, tuple[str, str]] = {}
    resolved = [Path(folder).resolve() for folder in folders]
    for i, path in enumerate(resolved):
        if path in resolved[:i]:
            raise RecordError(f"run {folders[i]} is given twice; each run counts once")
    for folder in folders:
        store = RunStore(Path(folder))
        manifest = store.read_manifest()
        if not manifest.suites or not manifest.solvers:
            raise RecordError(f"{store.folder}: its manifest has no suites or no solvers")
        for suite, info in manifest.suites.items():
            seen = pinned.setdefault(suite, (info.identity, store.run_id))
            if seen[0] != info.identity:
                raise SuiteMismatchError(
                    f"suite {suite} has sha256 {seen[0][:12]}… in run {seen[1]} but "
                    f"{info.identity[:12]}… in run {store.run_id}: results are only "
                    "comparable on the same cubes"
                )
        records = store.read_records()
        if not records:  # what a run stopped before its first cube leaves
            raise RecordError(
                f"run {folder} has no records yet: finish it (bench run --resume {folder}) "
                "or leave it out"
            )
        frame = _typed(pd.DataFrame([r.to_dict() for r in records]).drop(columns=["info", "error"]))
        # workers append records as they finish, so file order varies from run to run; a
        # bootstrap resamples by position, and its interval must not depend on that order
        frame = frame.sort_values(["solver", "suite", "instance"], kind="stable")
        frame["run"] = store.run_id
        frame["hardware"] = hardware_of(manifest)
        suites = manifest.suites
        frame["suite_sha256"] = frame["suite"].map({k: v.identity for k, v in suites.items()})
        frame = fill_optima(frame, suites)
        for column in ("depth", "qdepth"):  # face-turn and quarter-turn depth suites
            frame[column] = frame["suite"].map({k: v.meta.get(column) for k, v in suites.items()})
        frame["puzzle"] = frame["suite"].map({k: v.puzzle for k, v in suites.items()})
        runs.append(LoadedRun(Path(folder), manifest))
        frames.append(frame)
    if not frames:
        raise SuiteError("no runs given")
    data = pd.concat(frames, ignore_index=True)
    data["solved"] = data["status"] == "solved"
    known = {key for r in runs for key in r.manifest.solvers}
    known |= {f"{r.run_id}/{key}" for r in runs for key in r.manifest.solvers}
    for wanted in labels or {}:
        if wanted not in known:
            hint = did_you_mean(wanted, known, 4, "bench show RUN lists a run's entries")
            raise RecordError(
                f"--label {wanted}: no such entry (give ENTRY or RUN/ENTRY, RUN the run "
                f"folder's name); {hint}"
            )
    data["label"] = _labels(data, runs, labels)
    trusted = set(claims)
    for wanted in trusted:
        if wanted not in known | set(data["label"]):
            raise RecordError(f"--claims {wanted}: no such entry; {did_you_mean(wanted, known)}")
    if trusted:
        named = (
            data["solver"].isin(trusted)
            | data["label"].isin(trusted)
            | (data["run"] + "/" + data["solver"]).isin(trusted)
        )
        data.loc[named & (data["status"] == "claimed"), "solved"] = True
    family = {(r.run_id, key): pin.solver for r in runs for key, pin in r.manifest.solvers.items()}
    data["family"] = [
        family.get((run, s), s) for run, s in zip(data["run"], data["solver"], strict=True)
    ]
    apart = settings_apart(runs)
    data["setting"] = [
        apart.get((run, s), "") for run, s in zip(data["run"], data["solver"], strict=True)
    ]
    return data, runs


NUMERIC_COLUMNS = (
    "length_htm", "length_qtm", "optimal_htm", "gap_htm", "optimal_qtm", "gap_qtm",
    "wall_s", "cpu_s", "nodes", "model_calls",
)  # fmt: skip


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Number columns as numbers whatever the records hold: a run whose every record lacks a
    length (a solver that failed every cube) gives pandas a column of ``None`` objects, which
    no arithmetic takes; mixed columns are already floats, so only those change."""
    for column in NUMERIC_COLUMNS:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = pd.to_numeric(frame[column], errors="coerce").astype(float)
    return frame


def settings_apart(runs: list[LoadedRun]) -> dict[tuple[str, str], str]:
    """(run, entry key) -> the settings that set the entry apart from the other entries of
    its solver (``"beam_width=1024"``), read from the manifests; empty for a solver's only
    entry. A sweep's figure draws one point per value."""
    by_family: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for r in runs:
        for key, pin in r.manifest.solvers.items():
            by_family.setdefault(pin.solver, []).append((r.run_id, key, dict(pin.settings)))
    out = {}
    for members in by_family.values():
        names = sorted({k for _, _, s in members for k in s})
        differ = [k for k in names if len({repr(s.get(k)) for _, _, s in members}) > 1]
        for run, key, s in members:
            out[(run, key)] = ", ".join(f"{k}={s.get(k)}" for k in differ)
    return out


def fill_optima(frame: pd.DataFrame, suites: Mapping[str, SuitePin]) -> pd.DataFrame:
    """Give records the exact optima their suite holds now where they have none (the suite
    was annotated after the run), with the gaps of solved records. Only a registered suite
    with the run's very cubes (the same states hash) lends its optima."""
    for name, info in suites.items():
        if info.states is None:
            continue
        try:
            current = load_suite(name)
        except SuiteError:  # an imported suite this machine does not have
            continue
        if current.states_sha256 != info.states:
            continue
        rows = frame["suite"] == name
        for metric in ("htm", "qtm"):
            known = {i.id: getattr(i, f"optimal_{metric}") for i in current.instances}
            optimum, gap, length = f"optimal_{metric}", f"gap_{metric}", f"length_{metric}"
            missing = rows & frame[optimum].isna()
            found = pd.to_numeric(frame.loc[missing, "instance"].map(known), errors="coerce")
            if found.isna().all():
                continue
            for column in (optimum, gap):
                frame[column] = pd.to_numeric(frame[column], errors="coerce")
            frame.loc[missing, optimum] = found
            solved = missing & (frame["status"] == "solved") & frame[optimum].notna()
            frame.loc[solved, gap] = frame.loc[solved, length] - frame.loc[solved, optimum]
    return frame


def hardware_of(manifest: Manifest) -> str:
    """Where a run's times were taken: the GPU where one was used, else the CPU and cores,
    and how many processes solved at once (times of several at once share the cores)."""
    if manifest.published:  # a peer's own times, on its own machine
        return f"published: {manifest.published.get('hardware', '?')}"
    machine, config = manifest.machine, manifest.config
    gpu = machine.get("gpu")
    where = f"GPU {gpu}" if gpu else f"{machine.get('cpu', '?')}, {machine.get('cores', '?')} cores"
    workers = config.get("workers")
    alone = config.get("timing") == "alone"
    # a run from before CPU budgets (no clock) ran on the wall clock
    clock = "CPU-time budget" if config.get("clock") == "cpu" else "wall-clock budget"
    if alone:
        return where + f", timed alone, {clock}"
    return (
        where
        + (f", {workers} solving at once" if isinstance(workers, int) else "")
        + (f", {clock}")
    )


def drop_repeats(data: pd.DataFrame, runs: list[LoadedRun]) -> tuple[pd.DataFrame, list[str]]:
    """Count each cube once per entry: where a later run measured the same entry (the same
    identity, :func:`entry_identity`, hence the same label) on a cube an earlier run already
    holds, the earlier run's record is kept. Reports put runs side by side, and each run of
    a benchmark carries the ``kociemba`` reference: without this, two runs give it every
    cube twice and a row against itself. Runs that measured an entry on different cubes (a
    set split over two runs) still add up. An entry whose code, settings or checkpoint
    changed is another entry with its own label, so its records are never replaced by the
    other's. Returns the frame and a line per dropped entry, naming the runs.
    """
    del runs  # the labels carry the identities (load_runs)
    keys = data[["label", "suite", "instance"]]
    repeat = keys.duplicated(keep="first")  # runs keep the order given: the first one wins
    kept = data["run"].groupby([keys[c] for c in keys.columns]).transform("first")
    notes = [
        f"{label}: {len(group)} cube(s) of run {run} are taken from run "
        f"{', '.join(dict.fromkeys(kept[group.index]))}"
        for (run, label), group in data[repeat].groupby(["run", "label"], sort=False)
    ]
    return data[~repeat].reset_index(drop=True), notes


def entry_identity(entry: SolverPin, settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The entry's identity as its manifest records it (:mod:`~cubebench.harness.records.
    identity`), with ``settings`` in place of its own where given."""
    if settings is None:
        return entry.identity
    return identity_parts(entry.solver, settings, entry.origin, entry.pinned)


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] if len(text) == 64 else text  # a sha256 by its first 12 digits


def _labels(
    data: pd.DataFrame, runs: list[LoadedRun], names: dict[str, str] | None = None
) -> pd.Series:
    """One label per entry identity (:func:`entry_identity`): the entry's key, then the
    settings that differ between its identities, then (where those are the same) the code,
    checkpoint or precision that differs, and last the run that measured it. ``names``
    (``--label``: ``ENTRY`` or ``RUN/ENTRY`` to a name) replaces a label."""
    entries: list[tuple[str, str, dict[str, Any]]] = []
    settings_of: dict[str, set[str]] = {}
    for r in runs:
        for key, entry in r.manifest.solvers.items():
            parts = entry.identity
            entries.append((r.run_id, key, parts))
            named = {k.removeprefix("setting.") for k in parts if k.startswith("setting.")}
            settings_of.setdefault(key, set()).update(named)
    groups: dict[str, list[tuple[dict[str, Any], list[str]]]] = {}
    for run, key, parts in entries:
        # a run that predates a setting ran as the setting's first default (frozen in
        # SETTINGS_ADDED), never as the code installed now says
        identity = completed(parts, settings_of[key])
        found = next((g for g in groups.setdefault(key, []) if same_entry(g[0], identity)), None)
        if found is None:
            groups[key].append((identity, [run]))
        else:
            found[0].update(identity)
            found[1].append(run)
    label_of: dict[tuple[str, str], str] = {}
    owners: dict[str, set[tuple[str, int]]] = {}
    for key, group in groups.items():
        for i, ((_, members), text) in enumerate(
            zip(group, _group_labels(key, group), strict=True)
        ):
            given = _chosen_name(names or {}, key, members, len(group))
            chosen = given or text
            if given:
                check_entry_name(given, "--label")
            else:
                try:
                    check_entry_name(text, "entry")
                except ArgumentError as exc:
                    raise RecordError(
                        f"{exc} (run {members[0]}); name it with --label {members[0]}/{key}=NAME"
                    ) from None
            label_of.update({(run, key): chosen for run in members})
            owners.setdefault(chosen, set()).add((key, i))
    for label, owner in owners.items():
        if len(owner) > 1:  # a name given twice, or an entry key equal to another's label
            raise RecordError(
                f"label {label!r} would name {len(owner)} different entries "
                f"({', '.join(sorted({k for k, _ in owner}))}); give each its own --label"
            )
    return pd.Series(
        [label_of[(run, s)] for run, s in zip(data["run"], data["solver"], strict=True)],
        index=data.index,
        dtype=object,
    )


def _group_labels(key: str, group: list[tuple[dict[str, Any], list[str]]]) -> list[str]:
    """Labels for the identities of one entry key, each told apart by what differs."""
    if len(group) == 1:
        return [key]
    fields = sorted({k for identity, _ in group for k in identity})

    def differing(prefix: bool) -> list[str]:
        return [
            k
            for k in fields
            if k.startswith("setting.") == prefix
            and len({json.dumps(identity.get(k), sort_keys=True) for identity, _ in group}) > 1
        ]

    shown = differing(True)
    labels = [
        ", ".join(f"{k.removeprefix('setting.')}={identity.get(k)}" for k in shown)
        for identity, _ in group
    ]
    if len(set(labels)) < len(labels):  # the same settings: the code or files differ
        other = [k for k in differing(False) if k != "solver"]
        labels = [
            ", ".join(
                [text] * bool(text)
                + [f"{k.removeprefix('origin.')}={_short(identity.get(k))}" for k in other]
            )
            for text, (identity, _) in zip(labels, group, strict=True)
        ]
    if len(set(labels)) < len(labels):
        labels = [f"{text}, run={members[0]}" if text else f"run={members[0]}"
                  for text, (_, members) in zip(labels, group, strict=True)]  # fmt: skip
    return [f"{key} [{text}]" for text in labels]


def _chosen_name(
    names: dict[str, str], key: str, members: list[str], identities: int
) -> str | None:
    """The ``--label`` given for this identity: by ``RUN/ENTRY``, or by ``ENTRY`` where the
    entry has one identity in these runs (else the name would join different entries)."""
    for run in members:
        if f"{run}/{key}" in names:
            return names[f"{run}/{key}"]
    if key in names and identities > 1:
        raise RecordError(
            f"--label {key}={names[key]}: {key} is {identities} different entries in these "
            f"runs; name one as RUN/{key}=NAME"
        )
    return names.get(key)
