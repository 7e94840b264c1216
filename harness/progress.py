"""Live progress of a run: one bar per solver and suite, with solved so far.

On a terminal the bars redraw in place. Written to a file or a pipe (CI, ``nohup``, ``tee``)
they would appear only when the run ends, so there the run prints plain lines instead: one
when an entry finishes a suite, and a count of all records at most every
:data:`PLAIN_EVERY_S` seconds in between.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .records.schema import Record

PLAIN_EVERY_S = 30.0
"""Seconds between two count lines in a log (entry-and-suite lines come as they finish)."""


class RunProgress:
    def __init__(
        self, totals: dict[tuple[str, str], int], done: Iterable[Record], enabled: bool = True
    ) -> None:
        self.enabled = enabled
        self.console = Console()
        self.plain = enabled and not self.console.is_terminal
        self._totals = dict(totals)
        self._started = self._last_line = time.monotonic()
        self._solved = dict.fromkeys(totals, 0)
        self._count = dict.fromkeys(totals, 0)
        for record in done:
            pair = (record.entry, record.suite)
            if pair in totals:
                self._count[pair] += 1
                self._solved[pair] += record.status == "solved"
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[solved]}"),
            TimeElapsedColumn(),
            disable=not enabled or self.plain,
        )
        self._tasks = {
            pair: self._progress.add_task(
                f"{pair[0]} · {pair[1]}",
                total=total,
                completed=self._count[pair],
                solved=self._label(pair),
            )
            for pair, total in totals.items()
        }

    def _label(self, pair: tuple[str, str]) -> str:
        count = self._count[pair]
        if not count:
            return "solved -"
        return f"solved {self._solved[pair]} ({100 * self._solved[pair] / count:.1f}%)"

    def update(self, record: Record) -> None:
        pair = (record.entry, record.suite)
        if pair not in self._tasks:
            return
        self._count[pair] += 1
        self._solved[pair] += record.status == "solved"
        self._progress.update(self._tasks[pair], advance=1, solved=self._label(pair))
        if self.plain:
            self._plain_lines(pair)

    def _plain_lines(self, pair: tuple[str, str]) -> None:
        now = time.monotonic()
        elapsed = _clock(now - self._started)
        if self._count[pair] == self._totals[pair]:
            self._say(
                f"{elapsed}  done {pair[0]} · {pair[1]}: {self._count[pair]}/"
                f"{self._totals[pair]}, {self._label(pair)}"
            )
        elif now - self._last_line >= PLAIN_EVERY_S:
            done, total = sum(self._count.values()), sum(self._totals.values())
            self._say(f"{elapsed}  {done}/{total} records ({100 * done / total:.1f}%)")
        else:
            return
        self._last_line = now

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
