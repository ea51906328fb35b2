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


def run_units(fn, units, finished, *, jobs: int = 2, scheduler: str | None = None, per_worker: int = 2,
              held=None) -> None:
    """Run ``fn(*unit)`` for every argument tuple of ``units(workers)`` (an
    iterable, taken lazily; ``workers`` the number of processes or Dask
    threads, for the caller to size its units) in ``jobs`` worker processes
    (:class:`StoppablePool`), or on the Dask cluster at ``scheduler`` (then
    one worker a thread of the cluster), calling ``finished(index, unit, result)`` here as each
    finishes, in any order.  At most ``per_worker`` units a worker are out at
    a time, counting ``held()`` (the results the caller keeps unwritten, if
    it says), so memory does not grow with the number of units.

    Ctrl-C (KeyboardInterrupt here) stops the workers' searches within
    milliseconds, hands every result already finished to ``finished`` and is
    raised again: the caller keeps what finished.  bid, stats and advise run
    their samples and deals through this one driver."""
    if scheduler is not None:
        client = dask_client(scheduler)
        try:
            from distributed import wait
            workers = max(1, sum(client.nthreads().values()))
            _drive(units(workers), finished, lambda u: client.submit(fn, *u, pure=False),
                   lambda pending: wait(list(pending), return_when="FIRST_COMPLETED").done,
                   lambda fut: fut.status == "finished",
                   lambda pending: client.cancel(list(pending)), per_worker * workers, held)
        finally:
            client.close()
        return
    pool = StoppablePool(jobs)
    try:
        _drive(units(jobs), finished, lambda u: pool.submit(fn, *u),
               lambda pending: cf.wait(pending, return_when=cf.FIRST_COMPLETED)[0],
               lambda fut: fut.done() and not fut.cancelled() and fut.exception() is None,
               lambda pending: (pool.stop(), pool.shutdown()), per_worker * jobs, held)
    finally:
        pool.shutdown()


def _drive(units, finished, submit, wait_first, succeeded, stop, ahead: int, held) -> None:
    # Keep `ahead` units out (less what the caller holds), taking the next as
    # one finishes; on Ctrl-C stop, hand over what finished, and raise again.
    pending = {}                        # future -> (index, unit)
    todo = enumerate(units)
    try:
        while True:
            while len(pending) + (held() if held else 0) < ahead:
                nxt = next(todo, None)
                if nxt is None:
                    break
                pending[submit(nxt[1])] = nxt
            if not pending:
                return
            for fut in wait_first(pending):
                i, unit = pending.pop(fut)
                finished(i, unit, fut.result())
    except KeyboardInterrupt:
        def hand_over():
            for fut, (i, unit) in list(pending.items()):
                if succeeded(fut):
                    del pending[fut]
                    finished(i, unit, fut.result())
        try:
            hand_over()                 # what finished before the stop (a cancelled Dask task says no more)
        finally:
            stop(pending)               # the workers' searches stop within milliseconds
        hand_over()                     # and what finished while they stopped
        raise
