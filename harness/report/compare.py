"""``bench compare``: two entries head to head on the cubes both attempted.

An entry is a solver with its settings and checkpoint as a run labels it (its key in the
records). Two entries of one run (``--base kociemba --new my-iddfs``), the same entry in two
runs (a regression check), or any entry of one run against any of another are paired
instance by instance within each suite (and pooled over the suites), so every difference is
paired: Wilson intervals for each solve rate, McNemar's exact test on the discordant cubes
for their difference, a paired bootstrap for the length difference (HTM and QTM) on the
cubes both solved, and the median of the per-cube time ratios. Suites of different hashes
are never paired (:func:`~cubebench.harness.report.frame.load_runs` refuses them).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from ..metrics import mcnemar_exact, paired_bootstrap_diff
from ..naming import did_you_mean
from .formatting import suite_key
from .frame import load_runs, one_puzzle
from .rules import NothingToCompareError, Rule
from .stats import BY_NAME as STATS

POOLED = "(pooled)"


def head_to_head(
    folders: list[Path],
    base: str | None = None,
    new: str | None = None,
    claims: Iterable[str] = (),
) -> pd.DataFrame:
    """One row per pair of entries and suite they share, then a pooled row per pair.

    Args:
        folders: one run (then ``base`` and ``new`` name two of its entries) or two runs
            (BASE, NEW: entries of the same name are paired, or ``base`` from the first run
            against ``new`` from the second).
        claims: entries whose claimed (never replayed) lengths count as solved; without,
            a claim counts as not solved.

    Raises:
        NothingToCompareError: no such entry, or no instance both attempted.
    """
    if len(folders) not in (1, 2):
        raise NothingToCompareError(f"compare takes one run or two, got {len(folders)}")
    data, runs = load_runs(folders, claims=claims)
    one_puzzle(data, "bench compare")
    run_ids = [r.run_id for r in runs]
    rows = []
    for first, second in _pairs(data, run_ids, base, new):
        rows += pair_rows(data, first, second)
    if not rows:
        raise NothingToCompareError(_why_nothing(data, run_ids))
    table = pd.DataFrame(rows)
    first_columns = ["base_run", "base", "new_run", "new", "suite"]
    return table[first_columns + [c for c in table.columns if c not in first_columns]]


def pair_rows(data: pd.DataFrame, base: tuple[str, str], new: tuple[str, str]) -> list[dict]:
    """Rows of one pair of entries, each given as (run id, entry key), over a loaded frame:
    one per suite both attempted instances of, then a pooled one when there are several."""
    (run_a, entry_a), (run_b, entry_b) = base, new
    a = data[(data["run"] == run_a) & (data["solver"] == entry_a)]
    b = data[(data["run"] == run_b) & (data["solver"] == entry_b)]
    names = {"base_run": run_a, "base": entry_a, "new_run": run_b, "new": entry_b}
    return [names | row for row in _suite_rows(a, b)]


def _suite_rows(a: pd.DataFrame, b: pd.DataFrame) -> list[dict]:
    rows, aligned = [], []
    for suite in sorted(set(a["suite"]) & set(b["suite"])):
        pair = _align(a[a["suite"] == suite], b[b["suite"] == suite])
        if pair is not None:
            aligned.append(pair)
            rows.append(_row(pair, suite))
    if len(aligned) > 1:
        pooled = tuple(pd.concat(side, ignore_index=True) for side in zip(*aligned, strict=True))
        rows.append(_row(pooled, POOLED))
    return rows


def baseline_label(data: pd.DataFrame, baseline: str) -> str | None:
    """The label of the entry ``baseline`` names (a label, or a solver name that one entry
    of these runs has; where several have it, the first run's first). None: no such entry."""
    labels = list(dict.fromkeys(data["label"]))
    if baseline in labels:
        return baseline
    named = list(dict.fromkeys(data.loc[data["solver"] == baseline, "label"]))
    return named[0] if named else None


def baseline_matrix(data: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Every other entry against the entry labelled ``baseline``, per suite: the solve-rate
    difference with McNemar's p, and the paired HTM length difference with its interval on
    the cubes both solved. An entry is a label, over every run that measured it (a frame
    after :func:`~cubebench.harness.report.frame.drop_repeats` holds each cube once), so a
    suite only a later run holds is compared too. Empty when ``baseline`` is not in
    ``data``."""
    base = data[data["label"] == baseline]
    if base.empty:
        return pd.DataFrame()
    rows = []
    for label in dict.fromkeys(data["label"]):
        if label != baseline:
            rows += [
                {"entry": label} | row for row in _suite_rows(base, data[data["label"] == label])
            ]
    return pd.DataFrame(rows)


def matrix_cells(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`baseline_matrix` as a report shows it: an entry per row, a suite per column."""
    if table.empty:
        return table

    def cell(row: pd.Series) -> str:
        rate = f"{row['solve_rate_diff_pp']:+.1f} pp (p {row['mcnemar_p']:.2g})"
        for metric, name in (("length", "HTM"), ("length_qtm", "QTM")):
            if not pd.isna(row[f"{metric}_diff"]):
                low, high = row[f"{metric}_ci_low"], row[f"{metric}_ci_high"]
                rate += f"; {name} {row[f'{metric}_diff']:+.2f} [{low:+.2f}, {high:+.2f}]"
        return rate

    shown = table.assign(cell=table.apply(cell, axis=1))
    # suites in their own order (a suite only a later run holds among them), pooled last
    order = sorted(dict.fromkeys(shown["suite"]), key=lambda s: (s == POOLED, suite_key(s)))
    wide = shown.pivot_table(index="entry", columns="suite", values="cell", aggfunc="first")
    return wide[[s for s in order if s in wide.columns]].fillna("").reset_index()


def _pairs(
    data: pd.DataFrame, run_ids: list[str], base: str | None, new: str | None
) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    entries = {run: sorted(set(data.loc[data["run"] == run, "solver"])) for run in run_ids}
    base_run, new_run = run_ids[0], run_ids[-1]
    if base is None and new is None:
        if len(run_ids) == 1:
            raise NothingToCompareError(
                f"one run: name two of its entries with --base and --new "
                f"({', '.join(entries[base_run])})"
            )
        shared = [e for e in entries[base_run] if e in entries[new_run]]
        if not shared:
            raise NothingToCompareError(
                f"runs {base_run} and {new_run} share no entry "
                f"({', '.join(entries[base_run])} against {', '.join(entries[new_run])}); "
                "name the two with --base and --new"
            )
        return [((base_run, e), (new_run, e)) for e in shared]
    if base is None or new is None:
        raise NothingToCompareError("give both --base and --new, or neither")
    chosen = []
    for run, wanted, option in ((base_run, base, "--base"), (new_run, new, "--new")):
        rows = data[data["run"] == run]
        if wanted in entries[run]:
            chosen.append((run, wanted))
            continue
        by_label = sorted(set(rows.loc[rows["label"] == wanted, "solver"]))
        if not by_label:  # the solver's name, where the run has one entry of it
            by_label = sorted(set(rows.loc[rows["family"] == wanted, "solver"]))
            if len(by_label) > 1:
                raise NothingToCompareError(
                    f"{option} {wanted!r}: run {run} has {len(by_label)} entries of it "
                    f"({', '.join(by_label)}); name one"
                )
        if len(by_label) != 1:
            raise NothingToCompareError(
                f"{option} {wanted!r}: run {run} has no such entry; "
                f"{did_you_mean(wanted, entries[run])}"
            )
        chosen.append((run, by_label[0]))
    if chosen[0] == chosen[1]:
        raise NothingToCompareError(f"--base and --new are the same entry ({base})")
    return [(chosen[0], chosen[1])]


def _align(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """The instances both attempted, in instance order (a bootstrap resamples by position)."""
    a, b = a.set_index("instance"), b.set_index("instance")
    common = a.index.intersection(b.index).sort_values()
    if common.empty:
        return None
    return a.loc[common].reset_index(), b.loc[common].reset_index()


def _row(pair: tuple[pd.DataFrame, pd.DataFrame], suite: str) -> dict:
    a, b = pair
    # a peer's claimed lengths (moves never published) count only where the user named the
    # entry (load_runs' ``claims``); either way the row says whose lengths are claims
    solved_a = a["solved"].to_numpy(bool)
    solved_b = b["solved"].to_numpy(bool)
    n = len(a)
    only_a, only_b = int((solved_a & ~solved_b).sum()), int((solved_b & ~solved_a).sum())
    both = solved_a & solved_b
    row: dict = {"suite": suite, "n": n}
    claims = [side for side, f in (("base", a), ("new", b)) if (f["status"] == "claimed").any()]
    row["not replayed"] = ", ".join(claims)  # whose lengths are a published claim
    for side, frame in (("base", a), ("new", b)):  # the summary's own statistics
        row[f"{side}_rate"] = STATS["solved %"].of(frame)
        row[f"{side}_low"] = STATS["CI low %"].of(frame)
        row[f"{side}_high"] = STATS["CI high %"].of(frame)
    row |= {
        "solve_rate_diff_pp": 100 * (solved_b.mean() - solved_a.mean()),
        "only_base": only_a,
        "only_new": only_b,
        "mcnemar_p": mcnemar_exact(only_a, only_b),
        "both_solved": int(both.sum()),
    }
    for metric, column in (("", "length_htm"), ("_qtm", "length_qtm")):
        la, lb = a.loc[both, column].to_numpy(float), b.loc[both, column].to_numpy(float)
        mean, low, high = paired_bootstrap_diff(la, lb)
        row |= {f"length{metric}_diff": mean, f"length{metric}_ci_low": low}
        row[f"length{metric}_ci_high"] = high
        if not metric:
            row["new_shorter"], row["base_shorter"] = int((lb < la).sum()), int((la < lb).sum())
    ta, tb = a["wall_s"].to_numpy(float), b["wall_s"].to_numpy(float)
    timed = (ta > 0) & (tb > 0)
    ratio = float(np.median(tb[timed] / ta[timed])) if timed.any() else np.nan
    # a peer's published times are its own, on its own hardware: never in a ratio or a gate
    published = any(f["hardware"].astype(str).str.startswith("published").any() for f in (a, b))
    if published:
        ratio = np.nan
    row["published_times"] = published
    row |= {
        "time_ratio": ratio,
        "time_change_pct": 100 * (ratio - 1),
        "base_median_s": float(np.median(ta)) if n else np.nan,
        "new_median_s": float(np.median(tb)) if n else np.nan,
        "base_nodes": float(a["nodes"].mean()),
        "new_nodes": float(b["nodes"].mean()),
        "base_model_calls": float(a["model_calls"].mean()),
        "new_model_calls": float(b["model_calls"].mean()),
    }
    return row


def _why_nothing(data: pd.DataFrame, run_ids: list[str]) -> str:
    suites = {run: sorted(set(data.loc[data["run"] == run, "suite"])) for run in run_ids}
    if len(run_ids) == 2 and not set(suites[run_ids[0]]) & set(suites[run_ids[1]]):
        return (
            f"nothing to pair: {run_ids[0]} ran {', '.join(suites[run_ids[0]])} and "
            f"{run_ids[1]} ran {', '.join(suites[run_ids[1]])}"
        )
    return "nothing to pair: the two entries attempted no instance in common"


def printable(table: pd.DataFrame) -> pd.DataFrame:
    """The table as a terminal shows it: one line per pair and suite, intervals in brackets."""

    def ci(row: pd.Series, name: str, digits: int = 2) -> str:
        mean, low, high = row[f"{name}_diff"], row[f"{name}_ci_low"], row[f"{name}_ci_high"]
        if pd.isna(mean):
            return "-"
        return f"{mean:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"

    def side(row: pd.Series, which: str) -> str:
        entry, run = row[which], row[f"{which}_run"]
        return entry if row["base_run"] == row["new_run"] else f"{entry} in {run}"

    out = pd.DataFrame(
        {
            "base": table.apply(side, axis=1, args=("base",)),
            "new": table.apply(side, axis=1, args=("new",)),
            "suite": table["suite"],
            "n": table["n"],
            "base %": table["base_rate"].map("{:.1f}".format),
            "new %": table["new_rate"].map("{:.1f}".format),
            "diff pp": table["solve_rate_diff_pp"].map("{:+.1f}".format),
            "only base/new": [
                f"{a}/{b}" for a, b in zip(table["only_base"], table["only_new"], strict=True)
            ],
            "McNemar p": table["mcnemar_p"].map("{:.3g}".format),
            "HTM diff [95% CI]": table.apply(ci, axis=1, args=("length",)),
            "QTM diff [95% CI]": table.apply(ci, axis=1, args=("length_qtm",)),
            "shorter new/base": [
                f"{a}/{b}" for a, b in zip(table["new_shorter"], table["base_shorter"], strict=True)
            ],
            "time x": [
                "published" if peer else f"{ratio:.3g}"
                for ratio, peer in zip(table["time_ratio"], table["published_times"], strict=True)
            ],
            "not replayed": table["not replayed"].replace("", "-"),
        }
    )
    return out


def printable_groups(table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The table as a terminal shows it: a heading per pair (the entries, and their runs once)
    and its suites below, without the columns that would only repeat the heading."""
    shown = printable(table)
    groups = []
    keys = list(zip(table["base"], table["base_run"], table["new"], table["new_run"], strict=True))
    for key in dict.fromkeys(keys):
        base, base_run, new, new_run = key
        rows = [k == key for k in keys]
        part = shown[rows].drop(columns=["base", "new"])
        if (part["not replayed"] == "-").all():
            part = part.drop(columns=["not replayed"])
        where = f" (run {base_run})" if base_run == new_run else ""
        heading = (
            f"{new} against {base}{where}"
            if base_run == new_run
            else f"{new} (run {new_run}) against {base} (run {base_run})"
        )
        short = {
            "only base/new": "only b/n",
            "HTM diff [95% CI]": "HTM diff [CI]",
            "QTM diff [95% CI]": "QTM diff [CI]",
            "shorter new/base": "shorter n/b",
        }
        groups.append((heading, part.rename(columns=short)))
    return groups


def failures(table: pd.DataFrame, rules: list[Rule]) -> list[str]:
    """Every (rule, row) pair where the rule's threshold is crossed."""
    out = []
    for rule in rules:
        for _, row in table.iterrows():
            if rule.crossed(row.to_dict()):
                who = (
                    row["new"]
                    if row["new"] == row["base"]
                    else f"{row['new']} against {row['base']}"
                )
                out.append(
                    f"{who} on {row['suite']}: {rule.metric} {rule.op} {rule.value:+g}{rule.unit}"
                )
    return out
