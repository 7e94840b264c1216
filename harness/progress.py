"""Live progress of a run: one bar per solver and suite, with solved so far."""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cubebench.harness.records.schema import Record


class RunProgress:
    def __init__(
        self, totals: dict[tuple[str, str], int], done: Iterable[Record], enabled: bool = True
    ) -> None:
        self.enabled = enabled
        self._solved = dict.fromkeys(totals, 0)
        self._count = dict.fromkeys(totals, 0)
        for record in done:
            pair = (record.solver, record.suite)
            if pair in totals:
                self._count[pair] += 1
                self._solved[pair] += record.status == "solved"
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[solved]}"),
            TimeElapsedColumn(),
            disable=not enabled,
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
        pair = (record.solver, record.suite)
        if pair not in self._tasks:
            return
        self._count[pair] += 1
        self._solved[pair] += record.status == "solved"
        self._progress.update(self._tasks[pair], advance=1, solved=self._label(pair))

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
