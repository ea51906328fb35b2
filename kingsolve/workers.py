"""Worker processes that stop at once when the run is interrupted.

``bid`` and ``stats`` solve their deals in a pool of processes.  Ctrl-C goes
to the whole process group, but only the parent should act on it: it keeps
what has finished and reports.  So the workers ignore SIGINT, and the parent
tells them to stop through a shared event instead: a thread in each worker
waits for it and then stops the searches there
(:func:`kingsolve.solver.abort_searches`): the running one within
milliseconds, and any later one before it starts.  Without this the parent would wait for
every running and queued task to finish (a chunk of king52 deals can take
minutes), or leave the processes running.
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import signal
import threading

from .errors import InvalidRulesError


def _init(event) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    threading.Thread(target=_watch, args=(event,), daemon=True).start()


def _watch(event) -> None:
    from .solver import abort_searches
    event.wait()
    abort_searches(True)


class StoppablePool:
    """A ``ProcessPoolExecutor`` of ``jobs`` processes whose tasks can be
    stopped: :meth:`submit` as usual, :meth:`stop` on an interrupt (running
    tasks fail with KeyboardInterrupt within milliseconds, queued ones at
    their first search), :meth:`shutdown` in the end."""

    def __init__(self, jobs: int):
        ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
        self._event = ctx.Event()
        self._pool = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init,
                                            initargs=(self._event,))

    def submit(self, fn, *args) -> cf.Future:
        return self._pool.submit(fn, *args)

    def stop(self) -> None:
        self._event.set()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def dask_client(address: str):
    """A Dask ``distributed.Client`` of the cluster at ``address`` (``--scheduler``);
    a one-line error when Dask is not installed or the scheduler cannot be reached."""
    try:
        from distributed import Client
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise InvalidRulesError("--scheduler needs Dask: pip install 'kingsolve[cluster]'") from err
    try:
        return Client(address, timeout=15)
    except (OSError, TimeoutError) as err:
        raise InvalidRulesError(f"--scheduler {address}: cannot connect ({err})") from err
