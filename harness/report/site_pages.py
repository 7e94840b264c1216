"""The site's drill-down pages: an entry, a matrix cell (its cubes), a cube (its answers)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..cube import SOLVED, apply_sequence, invert_sequence, parse_moves, state_to_facelets
from ..cube.puzzle import DEFAULT_PUZZLE, puzzle_of_facelets
from ..suites.catalog import load_suite
from ..suites.model import SuiteError
from .frame import LoadedRun
from .site_assets import FACE_COLOURS, net_svg
from .site_html import cell_href, cube_href, entry_href, esc, page, script_json, table

_VERDICT = {
    "solved": "solved, verified by the harness",
    "wrong": "wrong: the moves do not solve the cube",
    "illegal": "illegal: not moves of this cube",
    "unsolved": "unsolved: the solver gave up",
    "timeout": "out of time",
    "error": "error: the solver failed",
    "claimed": "claimed: published lengths, not replayed here",
}


def cube_facelets(runs: list[LoadedRun], data: pd.DataFrame) -> dict[tuple[str, int], str]:
    """Each cube's facelets: from its suite where the suite is here with the hash the runs
    pinned, else from a verified answer run backwards from solved."""
    found: dict[tuple[str, int], str] = {}
    pinned: dict[str, tuple[str, str]] = {}
    for run in runs:
        for name, info in run.manifest.suites.items():
            pinned.setdefault(name, (info.meta.get("source") or name, info.sha256))
    for name, (source, sha) in pinned.items():
        try:
            suite = load_suite(source)
        except (SuiteError, OSError, ValueError):
            continue
        if suite.sha256 == sha:
            found.update({(name, i.id): i.facelets for i in suite.instances})
    solved = data[data["status"] == "solved"]
    if "puzzle" in solved.columns:  # answers replayed backwards on the 3×3×3 only
        solved = solved[solved["puzzle"] == DEFAULT_PUZZLE]
    for suite, instance, moves in zip(
        solved["suite"], solved["instance"], solved["moves"], strict=True
    ):
        key = (suite, int(instance))
        if key not in found and isinstance(moves, str):
            state = apply_sequence(SOLVED, invert_sequence(parse_moves(moves)))
            found[key] = state_to_facelets(state)
    return found


def disagreeing(data: pd.DataFrame) -> set[tuple[str, int]]:
    """Cubes on which the entries differ in status or in face-turn length."""
    keys = data.assign(length=data["length_htm"].fillna(-1))
    spread = keys.groupby(["suite", "instance"]).agg(
        statuses=("status", "nunique"), lengths=("length", "nunique")
    )
    odd = spread[(spread["statuses"] > 1) | (spread["lengths"] > 1)]
    return {(s, int(i)) for s, i in odd.index}


def _others(suite_rows: pd.DataFrame, label: str) -> dict[int, str]:
    """Per cube, what the report's other entries did with it: a length, or the status."""
    others = suite_rows[suite_rows["label"] != label].sort_values(["label"], kind="stable")
    said: dict[int, list[str]] = {}
    for row in others.itertuples(index=False):
        done = row.status == "solved" and not pd.isna(row.length_htm)
        # both lengths, so that a face-turn entry and a quarter-turn one read side by side
        lengths = f"{int(row.length_htm)} HTM / {int(row.length_qtm)} QTM" if done else ""
        said.setdefault(int(row.instance), []).append(
            f"{row.label} {lengths}" if done else f"{row.label} {row.status}"
        )
    return {instance: "; ".join(texts) for instance, texts in said.items()}


def cell_page(
    suite: str, label: str, rows: pd.DataFrame, odd: set, suite_rows: pd.DataFrame
) -> str:
    """An entry's cubes on a suite, the cubes where the entries disagree first, each beside
    what the other entries did with it."""
    others = _others(suite_rows, label)
    rows = rows.assign(first=[(suite, int(i)) not in odd for i in rows["instance"]])
    rows = rows.sort_values(["first", "instance"], kind="stable")
    shown = pd.DataFrame(
        {
            "cube": rows["instance"].astype(int),
            "status": rows["status"],
            "HTM": rows["length_htm"].astype("Int64"),
            "QTM": rows["length_qtm"].astype("Int64"),
            "gap": rows["gap_qtm"].where(rows["metric"] == "qtm", rows["gap_htm"]).astype("Int64"),
            "time s": rows["wall_s"].map(lambda v: "" if pd.isna(v) else f"{v:.3f}"),
            "entries agree": ["yes" if f else "no" for f in rows["first"]],
            "the other entries": [others.get(int(i), "") for i in rows["instance"]],
        }
    )
    links = {(i, "cube"): cube_href(suite, c, 2) for i, c in enumerate(shown["cube"])}
    marks = ["" if f else "disagree" for f in rows["first"]]
    disagree = int((~rows["first"]).sum())
    body = (
        f"<p>Entry <a href='{entry_href(label, 2)}'>{esc(label)}</a> on suite {esc(suite)}: "
        f"{len(rows)} cubes, {int((rows['status'] == 'solved').sum())} solved. The "
        f"{disagree} cubes where the entries of this report differ (status or length) "
        "come first. The gap is to the optimum in the metric the entry searched.</p>"
        + table(shown, links, marks)
    )
    return page(f"{label} on {suite}", body, 2)


_ANSWER_COLUMNS = ("label", "status", "moves", "length_htm", "length_qtm", "wall_s")
"""What a cube page shows of each entry's answer, in the order :func:`cube_page` reads them."""


def cube_page(suite: str, instance: int, rows: pd.DataFrame, facelets: str | None) -> str:
    """A cube's page: its facts and every entry's answer; on the 3×3×3 its net and a replay
    of each answer move by move (the page's script knows the 3×3×3's moves only, so a
    2×2×2 or 4×4×4 cube shows its facelets and the answers as text)."""
    answers: list[dict[str, Any]] = []
    items: list[str] = []
    statuses = list(rows["status"])  # the page opens on the first verified answer
    chosen = statuses.index("solved") if "solved" in statuses else 0
    replay = facelets is not None and puzzle_of_facelets(facelets) == DEFAULT_PUZZLE
    # the columns as lists: a row at a time through pandas costs more than the page itself
    columns = zip(*(rows[c].tolist() for c in _ANSWER_COLUMNS), strict=True)
    for label, status, text, htm, qtm, wall_s in columns:
        moves = text if isinstance(text, str) else ""
        ids = parse_moves(moves) if replay and moves and status != "illegal" else []
        index = len(answers)
        answers.append({"entry": label, "ids": ids, "tokens": moves.split() if ids else []})
        checked = " checked" if index == chosen else ""
        lengths = (  # a length is a solution's: an answer that is none has no length
            "" if pd.isna(htm) or status != "solved" else f"{int(htm)} HTM, {int(qtm)} QTM; "
        )
        items.append(
            f"<li><label><input type='radio' name='answer' value='{index}'{checked}> "
            f"<a href='{entry_href(label, 2)}'>{esc(label)}</a></label>: "
            f"<span class='status-{esc(status)}'>{esc(_VERDICT.get(status, status))}"
            f"</span>; {lengths}{wall_s:.3f} s"
            f"<div class='moves'>{esc(moves) or '(no moves)'}</div></li>"
        )
    first = rows.iloc[0]
    facts = []
    for key, name in (("depth", "scramble depth"), ("optimal_htm", "optimum, HTM"),
                      ("optimal_qtm", "optimum, QTM")):  # fmt: skip
        if key in rows.columns and not pd.isna(first[key]):
            facts.append(f"<dt>{name}</dt><dd>{int(first[key])}</dd>")
    body = [
        f"<dl class='facts'><dt>suite</dt><dd>{esc(suite)}</dd><dt>cube</dt><dd>{instance}</dd>"
    ]
    body += facts
    if facelets and not replay:
        body.append(f"<dt>facelets</dt><dd><code>{esc(facelets)}</code></dd></dl>")
        body.append("<ul>" + "".join(items) + "</ul>")
    elif facelets:
        body.append(f"<dt>facelets</dt><dd><code>{facelets}</code></dd></dl>")
        data = {"facelets": facelets, "colours": FACE_COLOURS, "answers": answers}
        body += [
            "<div class='replay'>",
            net_svg(
                facelets,
                f"cube {instance} of {suite}, as unfolded: U above F, then L F R B, D below",
            ),
            "<div><fieldset><legend>Answer to replay</legend><ul>",
            *items,
            "</ul></fieldset><div id='stepper' class='stepper' role='group' "
            "aria-label='replay the answer move by move'>"
            "<button type='button' id='first'>&#xAB; start</button>"
            "<button type='button' id='back' aria-label='back one move'>&#x25C0; back</button>"
            "<button type='button' id='next' aria-label='forward one move'>next &#x25B6;</button>"
            "<button type='button' id='last'>end &#xBB;</button></div>"
            "<p id='position' aria-live='polite'></p></div></div>",
            "<script type='application/json' id='cube-data'>" + script_json(data) + "</script>",
        ]
    else:
        body.append("</dl><p>This cube's suite is not installed here and no entry solved it, "
                    "so its state cannot be drawn.</p><ul>" + "".join(items) + "</ul>")  # fmt: skip
    return page(f"Cube {instance} of {suite}", "".join(body), 2)


Verdicts = dict[tuple[str, str], str]
"""What ``bench check`` says of each entry of each run, by (run id, entry key)."""


def submission_verdicts(runs: list[LoadedRun]) -> Verdicts:
    """Every run's entries checked as ``bench check --entry`` checks them, each run and its
    suites read once: a line each, fit for a leaderboard or which checks it fails."""
    from ..check import check_entries
    from ..errors import InputError

    out: Verdicts = {}
    for run in runs:
        try:
            checked = check_entries(run.folder)
        except (InputError, ValueError) as exc:
            out |= {(run.run_id, key): f"not checked: {exc}" for key in run.manifest.solvers}
            continue
        for key, findings in checked.items():
            failed = [f for f in findings if not f.ok]
            out[(run.run_id, key)] = (
                "not fit: " + "; ".join(f"{f.check}: {f.message}" for f in failed)
                if failed
                else "fit for a leaderboard (bench check: every check passes)"
            )
    return out


def entry_fit(label: str, data: pd.DataFrame, verdicts: Verdicts) -> bool:
    """Whether every run of an entry passes ``bench check`` for it."""
    rows = data[data["label"] == label][["run", "solver"]].drop_duplicates()
    pairs = zip(rows["run"], rows["solver"], strict=True)
    return all(verdicts.get(pair, "").startswith("fit") for pair in pairs)


def entry_page(label: str, runs: list[LoadedRun], data: pd.DataFrame, verdicts: Verdicts) -> str:
    rows = data[data["label"] == label][["run", "solver"]].drop_duplicates()
    by_id = {r.run_id: r for r in runs}
    body = []
    for run_id, key in zip(rows["run"], rows["solver"], strict=True):
        manifest = by_id[run_id].manifest
        pin = manifest.solvers[key]
        entry, machine, origin = pin.pinned, manifest.machine, pin.origin or {}
        device = pin.settings.get("device", "cpu")
        facts = {
            "run": run_id,
            "solver": pin.solver,
            "version": entry.get("program_version") or origin.get("version"),
            "package": f"{origin.get('distribution', '?')} "
            f"{manifest.packages.get(origin.get('distribution', ''), '')}".strip(),
            "code": origin.get("target"),
            "checkpoint sha256": pin.checkpoint_sha256,
            "precision": f"{entry.get('precision', '')} ({entry.get('precision_reason', '')})",
            "threads": entry.get("threads"),
            "device": device,
            "machine": f"{machine.get('cpu')}, {machine.get('cores')} cores, "
            f"{machine.get('memory_gb')} GB, GPU {machine.get('gpu')}",
            "load time s": entry.get("load_s"),
            "load peak memory MB": entry.get("load_peak_rss_mb"),
            "command": " ".join(manifest.command),
            "submission check": verdicts.get((run_id, key), "not checked"),
        }
        body.append(f"<h2>In run {esc(run_id)}</h2><dl class='facts'>")
        body += [
            f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in facts.items() if v not in (None, "")
        ]
        body.append("</dl><h3>Settings</h3><dl class='facts'>")
        body += [
            f"<dt>{esc(k)}</dt><dd><code>{esc(v)}</code></dd>" for k, v in pin.settings.items()
        ]
        body.append("</dl>")
    # what a reader comes for first: how it did and where it did worst; then what ran
    head = ["<h2>Results</h2>" + _results(label, data)]
    head.append("<h2>Its worst cubes</h2>" + _worst(label, data))
    return page(f"Entry {label}", "".join(head + body), 1)


WORST_SHOWN = 20


def _worst(label: str, data: pd.DataFrame) -> str:
    """The entry's worst cubes first: those it did not solve, then its longest gaps to the
    optimum, then its longest answers; each opens the cube's page."""
    rows = data[data["label"] == label]
    gap = rows["gap_qtm"].where(rows["metric"] == "qtm", rows["gap_htm"])
    length = rows["length_qtm"].where(rows["metric"] == "qtm", rows["length_htm"])
    ranked = rows.assign(
        _solved=rows["solved"], _gap=gap.fillna(-1), _length=length.fillna(-1)
    ).sort_values(["_solved", "_gap", "_length"], ascending=[True, False, False], kind="stable")
    worst = ranked.head(WORST_SHOWN)
    shown = pd.DataFrame(
        {
            "suite": worst["suite"],
            "cube": worst["instance"].astype(int),
            "status": worst["status"],
            "length": length.loc[worst.index].astype("Int64"),
            "gap": gap.loc[worst.index].astype("Int64"),
        }
    ).reset_index(drop=True)
    links = {
        (i, "cube"): cube_href(s, c, 1)
        for i, (s, c) in enumerate(zip(shown["suite"], shown["cube"], strict=True))
    }
    return table(shown, links)


def _results(label: str, data: pd.DataFrame) -> str:
    """The entry's statistics a suite (the summary's), each suite opening its cubes; the
    last column says how its unsolved cubes ended (gave up, time-out, error, ...)."""
    from .formatting import format_table
    from .stats import summarize

    rows = summarize(data[data["label"] == label], statuses=True)
    keep = ["suite", "n", "solved %", "mean HTM", "mean QTM", "mean gap", "optimal %"]
    keep += ["median s", "other"]
    shown = format_table(rows[[c for c in keep if c in rows.columns]])
    shown = shown.rename(columns={"other": "not solved"})
    links = {(i, "suite"): cell_href(s, label, 1) for i, s in enumerate(shown["suite"])}
    return table(shown, links)
