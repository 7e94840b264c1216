"""Live progress of a run: what it will do, what runs now, and when the entry running ends.

A run opens with its plan (:meth:`RunProgress.announce`): the run id and folder, its entries
and suites, the cubes each entry attempts and the budget. Entries run one after another, so
the progress shows a bar for the whole run, a bar for the entry running with the time its
cubes so far say it needs for the rest (its ETA), and a bar for each of its suite cells
being solved now; a cell that finishes prints one line and its bar goes. On a terminal the
bars redraw in place. Written to a file or a pipe (CI, ``nohup``, ``tee``) they would
appear only when the run ends, so there the run prints plain lines instead: one when a cell
finishes, and a count with the entry's ETA at most every :data:`PLAIN_EVERY_S` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .records.schema import Record
from .records.store import RunStore
from .runconfig import RunConfig

PLAIN_EVERY_S = 30.0
"""Seconds between two count lines in a log (a cell's line comes as it finishes)."""


class RunProgress:
    def __init__(
        self, totals: dict[tuple[str, str], int], done: Iterable[Record], enabled: bool = True
    ) -> None:
        self.enabled = enabled
        self.console = Console()
        self.plain = enabled and not self.console.is_terminal
        self._totals = dict(totals)
        self._entries = list(dict.fromkeys(entry for entry, _ in totals))
        self._started = self._last_line = time.monotonic()
        self._solved = dict.fromkeys(totals, 0)
        self._count = dict.fromkeys(totals, 0)
        for record in done:
            pair = (record.entry, record.suite)
            if pair in totals:
                self._count[pair] += 1
                self._solved[pair] += record.status == "solved"
        self._entry: str | None = None
        self._entry_since = self._started
        self._entry_done = 0  # records of the entry running, made since it began here
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"),
            TimeElapsedColumn(),
            disable=not enabled or self.plain,
            console=self.console,
        )
        self._all = self._progress.add_task(
            "all entries", total=sum(totals.values()), completed=self._done(), note=""
        )
        self._entry_task = self._progress.add_task("", total=1, visible=False, note="")
        self._tasks = {
            pair: self._progress.add_task(
                f"  {pair[0]} · {pair[1]}",
                total=total,
                completed=self._count[pair],
                note=self._label(pair),
                visible=False,
            )
            for pair, total in totals.items()
        }

    def _done(self, entry: str | None = None) -> int:
        return sum(n for (e, _), n in self._count.items() if entry is None or e == entry)

    def _total(self, entry: str | None = None) -> int:
        return sum(n for (e, _), n in self._totals.items() if entry is None or e == entry)

    def _label(self, pair: tuple[str, str]) -> str:
        count = self._count[pair]
        if not count:
            return "solved -"
        return f"solved {self._solved[pair]} ({100 * self._solved[pair] / count:.1f}%)"

    def announce(self, lines: Iterable[str]) -> None:
        """The run's opening lines: its id, its plan, its budget."""
        if self.enabled:
            for line in lines:
                self._say(line)

    def start_entry(self, entry: str) -> None:
        """The runner starts the entry ``entry`` (entries run one after another)."""
        self._entry, self._entry_since, self._entry_done = entry, time.monotonic(), 0
        position = self._entries.index(entry) + 1 if entry in self._entries else 0
        self._progress.update(
            self._entry_task,
            description=f"entry {position} of {len(self._entries)}: {entry}",
            total=self._total(entry),
            completed=self._done(entry),
            note="ETA -",
            visible=True,
        )
        if self.plain:
            left = self._total(entry) - self._done(entry)
            self._say(f"{_clock(time.monotonic() - self._started)}  {entry}: {left} cubes to go")

    def eta(self) -> float | None:
        """Seconds the entry running needs for its remaining cubes, at its pace so far here."""
        if self._entry is None or not self._entry_done:
            return None
        pace = (time.monotonic() - self._entry_since) / self._entry_done
        return pace * (self._total(self._entry) - self._done(self._entry))

    def update(self, record: Record) -> None:
        pair = (record.entry, record.suite)
        if pair not in self._tasks:
            return
        self._count[pair] += 1
        self._solved[pair] += record.status == "solved"
        if record.entry == self._entry:
            self._entry_done += 1
        eta = self.eta()
        note = "ETA -" if eta is None else f"ETA {_clock(eta)}"
        finished = self._count[pair] == self._totals[pair]
        self._progress.update(
            self._tasks[pair], advance=1, note=self._label(pair), visible=not finished
        )
        self._progress.update(self._entry_task, completed=self._done(record.entry), note=note)
        self._progress.update(self._all, completed=self._done())
        if finished and not self.plain and self.enabled:
            self._progress.console.print(self._finished_line(pair), highlight=False)
        if self.plain:
            self._plain_lines(pair, note)

    def _finished_line(self, pair: tuple[str, str]) -> str:
        elapsed = _clock(time.monotonic() - self._started)
        count = self._count[pair]
        eta = self.eta()
        left = self._total(pair[0]) - self._done(pair[0])
        rest = f"; {pair[0]}: {left} cubes to go, ETA {_clock(eta)}" if left and eta else ""
        return f"{elapsed}  done {pair[0]} · {pair[1]}: {count}/{count}, {self._label(pair)}{rest}"

    def _plain_lines(self, pair: tuple[str, str], note: str) -> None:
        now = time.monotonic()
        if self._count[pair] == self._totals[pair]:
            self._say(self._finished_line(pair))
        elif now - self._last_line >= PLAIN_EVERY_S:
            done, total = self._done(), self._total()
            entry = self._entry or pair[0]
            self._say(
                f"{_clock(now - self._started)}  {done}/{total} records; {entry}: "
                f"{self._done(entry)}/{self._total(entry)}, {note}"
            )
        else:
            return
        self._last_line = now

    def say(self, line: str) -> None:
        """A line of the run's own (the report being written, say)."""
        if self.enabled:
            self._say(line)

    def _say(self, line: str) -> None:
        print(line, file=self.console.file, flush=True)

    def __enter__(self) -> RunProgress:
        self._progress.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._progress.__exit__(exc_type, exc, tb)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"


def plan_lines(
    store: RunStore, config: RunConfig, totals: dict[tuple[str, str], int], done: int
) -> list[str]:
    """What a run says before its first cube: its id and folder, its entries and suites,
    the cubes each entry attempts, and the budget."""
    per_entry: dict[str, int] = {}
    for (entry, _), n in totals.items():
        per_entry[entry] = per_entry.get(entry, 0) + n
    total = sum(per_entry.values())
    shown = ", ".join(f"{e} {n:,}" for e, n in list(per_entry.items())[:6])
    more = f", and {len(per_entry) - 6} more" if len(per_entry) > 6 else ""
    budget = "no time limit" if config.time_limit is None else f"{config.time_limit:g} s a cube"
    clock = "CPU time" if config.clock == "cpu" else "wall clock"
    memory = "" if config.memory_limit_gb is None else f", {config.memory_limit_gb:g} GB a worker"
    lines = [
        f"run {store.run_id} -> {store.folder}",
        f"plan: {len(per_entry)} entries × {len(config.suites)} suites, {total:,} cubes "
        f"({shown}{more}); entries run one after another",
        f"budget: {budget} ({clock}), {config.workers} worker(s) an entry{memory}",
    ]
    if done:
        lines.append(f"resumed: {done:,} records kept, {total - done:,} cubes to go")
    return lines
