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
import math
import multiprocessing
import signal
import threading
import time
from dataclasses import dataclass

import numpy as np

from .errors import InvalidRulesError


class TimeLimitReached(Exception):
    """A run's time limit passed: its driver stopped the workers, as for
    Ctrl-C, and handed over what had finished."""


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
              held=None, deadline: float | None = None) -> None:
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
    raised again: the caller keeps what finished.  ``deadline`` (a
    ``time.monotonic()`` time) stops the run the same way when it passes,
    raising :class:`TimeLimitReached`.  bid, stats and advise run their
    samples and deals through this one driver."""
    if scheduler is not None:
        client = dask_client(scheduler)
        try:
            from distributed import wait
            workers = max(1, sum(client.nthreads().values()))
            def wait_first(pending, timeout):
                try:
                    return wait(list(pending), timeout=timeout, return_when="FIRST_COMPLETED").done
                except TimeoutError:
                    return set()
            _drive(units(workers), finished, lambda u: client.submit(fn, *u, pure=False), wait_first,
                   lambda fut: fut.status == "finished",
                   lambda pending: client.cancel(list(pending)), per_worker * workers, held, deadline)
        finally:
            client.close()
        return
    pool = StoppablePool(jobs)
    try:
        _drive(units(jobs), finished, lambda u: pool.submit(fn, *u),
               lambda pending, timeout: cf.wait(pending, timeout=timeout, return_when=cf.FIRST_COMPLETED)[0],
               lambda fut: fut.done() and not fut.cancelled() and fut.exception() is None,
               lambda pending: (pool.stop(), pool.shutdown()), per_worker * jobs, held, deadline)
    finally:
        pool.shutdown()


def _drive(units, finished, submit, wait_first, succeeded, stop, ahead: int, held, deadline) -> None:
    # Keep `ahead` units out (less what the caller holds), taking the next as
    # one finishes; on Ctrl-C or at the deadline stop, hand over what
    # finished, and raise.
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
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            done = wait_first(pending, timeout)
            if not done and deadline is not None and time.monotonic() >= deadline:
                raise TimeLimitReached
            for fut in done:
                i, unit = pending.pop(fut)
                finished(i, unit, fut.result())
    except (KeyboardInterrupt, TimeLimitReached):
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


# --------------------------------------------------------------------------- sampled runs

MAX_RANGE = 100        # samples in one unit of work, at most
"""Most samples in a unit of work of short hands: a unit of a worker process
makes its own Solver (its 2^16 table for a short hand is committed at once:
benchmarks/README.md), so units are kept large enough for that to be a small
part of their work."""
TIMED_RANGE = 10       # at most, in a run with a time limit (what is running at the limit is lost)


def range_size(hand_size: int, samples: int, workers: int, timed: bool = False, most: int = MAX_RANGE) -> int:
    """Samples per unit of work: one for 13-card hands (a sample can take
    seconds, or minutes early in a king52 penalty deal: progress and Ctrl-C
    then lose nothing), else about four units a worker, at most ``most``
    (:data:`TIMED_RANGE` in a run with a time limit)."""
    from .solver import long_deal
    if long_deal(hand_size):
        return 1
    return max(1, min(TIMED_RANGE if timed else most, most, math.ceil(samples / (4 * max(1, workers)))))


@dataclass
class SampleRun:
    """What a sampled run finished: ``values`` (samples, width) of the first
    samples without a gap (sample i is always the same deal, so they are the
    run's first ``len(values)``), and how it stopped early, if it did."""
    values: np.ndarray
    requested: int
    interrupted: bool = False          # by Ctrl-C
    time_limit_reached: bool = False   # by its time limit


def run_samples(samples: int, width: int, hand_size: int, *, local, fn, args, jobs: int = 1,
                scheduler: str | None = None, progress=None, time_limit: float | None = None,
                most: int = MAX_RANGE) -> SampleRun:
    """Solve samples 0 … ``samples`` − 1 in ranges (:func:`range_size`, of at
    most ``most``):
    ``local(start, stop, deadline)`` in this process when ``jobs`` is 1 and
    there is no ``scheduler`` (its searches stopped by ``deadline``, a
    ``time.monotonic()`` time or None), else ``fn(*args(start, stop, lanes))``
    in ``jobs`` worker processes (``lanes``: how many solve at once on this
    machine) or on the Dask cluster.  Each returns the (stop − start, width)
    values of its samples; ``progress(k)`` is called as k more finish.
    Ctrl-C, or ``time_limit`` seconds, stops the run within milliseconds and
    keeps every sample finished before the first one that did not.  bid and
    advise run their samples through this one driver."""
    from .errors import SearchTimedOut
    done = _Prefix(width)
    deadline = time.monotonic() + time_limit if time_limit else None
    result = SampleRun(np.zeros((0, width), dtype=np.int64), samples)
    size = {}

    def finished(start, arr):
        done.add(start, arr)
        if progress:
            progress(len(arr))

    def ranges(workers):
        k = size["k"] = range_size(hand_size, samples, workers, deadline is not None, most)
        return ((start, min(samples, start + k)) for start in range(0, samples, k))

    try:
        if scheduler is not None or jobs > 1:
            lanes = 1 if scheduler is not None else jobs
            run_units(fn, lambda workers: (args(start, stop, lanes) for start, stop in ranges(workers)),
                      lambda i, _, arr: finished(i * size["k"], arr), jobs=jobs, scheduler=scheduler,
                      per_worker=4, deadline=deadline)
        else:
            for start, stop in ranges(1):
                finished(start, local(start, stop, deadline))
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeLimitReached
    except (TimeLimitReached, SearchTimedOut, TimeoutError):
        result.time_limit_reached = True
    except KeyboardInterrupt:
        result.interrupted = True
    result.values = done.array()
    return result


class _Prefix:
    """Finished ranges, kept until they join the prefix of samples done."""

    def __init__(self, width: int):
        self.parts, self.waiting, self.next = [], {}, 0
        self.width = width

    def add(self, start: int, arr: np.ndarray) -> None:
        self.waiting[start] = arr
        while self.next in self.waiting:
            a = self.waiting.pop(self.next)
            self.parts.append(a)
            self.next += len(a)

    def array(self) -> np.ndarray:
        if not self.parts:
            return np.zeros((0, self.width), dtype=np.int64)
        return np.concatenate(self.parts, axis=0).astype(np.int64)
