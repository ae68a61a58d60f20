"""One progress display for a whole report run: a bar across every game's experiments.

The unit is one experiment; an experiment advances its share chunk by chunk (each computed
chunk is ``1 / most chunks it may need``, the rest when it stops), so the bar moves during long
runs. No time left is shown: experiments differ widely in cost (a Cash'n Guns replay against
a Gang run with the specialists' estimate) and the games' chapters run side by side, so a pace
per experiment foretells a time left many times too long. On a
terminal the bar is a rich progress bar on stderr; elsewhere (a log, CI) one plain line is printed per finished game instead. Notes
(per-experiment lines under ``--verbose``) go through :meth:`Tracker.note` so they print above
the bar rather than through it.
"""

from __future__ import annotations

import math
import sys
import time
from types import TracebackType


class Tracker:
    """The overall progress over ``total`` experiments (a report's, or a tune's candidate runs)."""

    def __init__(self, total: int, *, enabled: bool = True, label: str = "report") -> None:
        self.total = max(total, 1)
        self.done = 0.0
        self.enabled = enabled
        self._started = time.perf_counter()
        self._share = 0.0  # of the current experiment, advanced so far
        self._bar = None
        self._task = None
        if enabled:
            from rich.console import Console

            console = Console(stderr=True)
            if console.is_terminal:
                from rich.progress import (
                    BarColumn,
                    Progress,
                    TaskProgressColumn,
                    TextColumn,
                    TimeElapsedColumn,
                )

                self._bar = Progress(
                    TextColumn(label),
                    BarColumn(),
                    TaskProgressColumn(),
                    TextColumn("{task.fields[experiments]}"),
                    TimeElapsedColumn(),
                    TextColumn("[dim]{task.description}"),
                    console=console,
                    transient=True,
                )
                self._task = self._bar.add_task("", total=self.total, experiments=self._count_text())

    def __enter__(self) -> Tracker:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.stop()

    def _count_text(self) -> str:
        return f"{math.floor(self.done + 1e-9):,}/{self.total:,} experiments"

    def _update(self, description: str | None = None) -> None:
        if self._bar is not None:
            fields = {"description": description} if description is not None else {}
            self._bar.update(self._task, completed=self.done, experiments=self._count_text(), **fields)

    def extend(self, more: int) -> None:
        """``more`` experiments join the plan (e.g. a search that refines)."""
        self.total += more
        if self._bar is not None:
            self._bar.update(self._task, total=self.total)
        self._update()

    def start(self, game: str, key: str) -> None:
        """The experiment ``key`` of ``game`` begins."""
        self._share = 0.0
        self._update(f"{game}: {key}")

    def chunk(self, most_chunks: int) -> None:
        """One chunk of the current experiment was computed (it needs at most ``most_chunks``)."""
        step = min(1.0 / max(most_chunks, 1), 0.999 - self._share)
        if step > 0:
            self._share += step
            self.done += step
            self._update()

    def finish(self) -> None:
        """The current experiment stopped."""
        self.done += 1.0 - self._share
        self._share = 0.0
        self._update()

    def game_done(self, title: str) -> None:
        """Off a terminal: one line per finished game with the time so far and the overall share
        of experiments done."""
        if self.enabled and self._bar is None:
            print(
                f"{title} done after {time.perf_counter() - self._started:.0f} s "
                f"({self.done / self.total:.0%} of the experiments)",
                file=sys.stderr,
            )

    def note(self, text: str) -> None:
        """A line on stderr above the bar."""
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=sys.stderr)
