"""Progress lines on stderr that keep moving while a long search runs: for
``kingsolve solve`` the seats of a layout done, and for each seat being solved
the interval its search has proven so far and the time it has taken; for
``bid`` and ``advise`` the deals sampled.  Each is redrawn by a thread of its
own, since the searches run in the calling thread too."""
from __future__ import annotations

import threading
import time

import click

from ..reporting.solve import progress_text


class SolveProgress:
    """A tqdm bar counting ``total`` seats whose text shows each running
    side (:meth:`started`, called with the Solver that runs it); lines
    printed with :meth:`echo` clear and redraw it."""

    def __init__(self, total: int, file):
        from tqdm import tqdm
        self._bar = tqdm(total=total, unit="seat", file=file, leave=False, dynamic_ncols=True)
        self._running = {}             # seats -> (solver, start time)
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True)
        self._ticker.start()

    def started(self, seats, solver) -> None:
        with self._lock:
            self._running[seats] = (solver, time.monotonic())

    def finished(self, seats) -> None:
        with self._lock:
            self._running.pop(seats, None)
        self._bar.update()

    def echo(self, text: str) -> None:
        with self._bar.external_write_mode():
            click.echo(text)

    def _tick(self) -> None:
        while not self._done.wait(0.5):
            now = time.monotonic()
            with self._lock:
                items = [(seats, solver.proving, now - t0) for seats, (solver, t0) in sorted(self._running.items())]
            self._bar.set_postfix_str(progress_text(items))

    def close(self) -> None:
        self._done.set()
        self._ticker.join()
        self._bar.close()


class TickingBar:
    """A tqdm bar on ``file`` counting ``unit`` s (the sampled deals of
    ``bid``, ``advise`` and ``stats``; the searches of ``verify``), redrawn
    every second by a thread of its own, so that its clock runs while a long
    search (13-card hands early in a penalty contract: minutes) is solved."""

    def __init__(self, total: int, file, unit: str = "deal"):
        from tqdm import tqdm
        tqdm.monitor_interval = 0      # no monitor thread of tqdm's own (the workers are forked)
        self._bar = tqdm(total=total, unit=unit, file=file, leave=False, dynamic_ncols=True)
        self._stage = None
        self._done = threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True)
        self._ticker.start()

    def update(self, k: int) -> None:
        self._bar.update(k)

    def stage(self, name: str, done: int, total: int) -> None:
        """Show ``done`` of ``total`` of the stage ``name`` (the bar restarts
        when the stage changes)."""
        if name != self._stage:
            self._stage = name
            self._bar.set_description_str(name, refresh=False)
            self._bar.reset(total=total)                 # drawn at once: a new stage shows
        self._bar.update(done - self._bar.n)

    def _tick(self) -> None:
        while not self._done.wait(1.0):
            self._bar.refresh()

    def close(self) -> None:
        self._done.set()
        self._ticker.join()
        self._bar.close()
