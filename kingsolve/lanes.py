"""Lanes: a few threads, each owning a Solver, working through a list of tasks.

``solve -j N`` (a side a task) and ``table -j N`` (a cell a task) share this
scheduler.  The native search runs without the GIL, so N lanes search on N
cores.  Each lane is a thread with its own :class:`~kingsolve.solver.Solver`
(a Solver is never shared between threads) that picks its next task itself,
under the lock, as soon as it is free: handing each task out from the calling
thread left a lane waiting between tasks (see benchmarks/README.md).  A task
may wait for others (``ready``: a table's erajlash cell needs its parts'
values for its guess), and a lane may prefer some tasks (``pick``: its own
seats, whose tables it keeps warm).

The calling thread only waits: it hands the results back in task order, each
as soon as it and every task before it are known, fills the tasks that need
no search (``fill``) when their turn comes, and is the thread Ctrl-C reaches.
The lanes never see the signal, so on Ctrl-C the calling thread stops their
searches (:func:`~kingsolve.solver.abort_searches`) and waits for them; a
search stopped from elsewhere (``abort_searches`` called by another thread)
stops its lane likewise.  Either way :class:`~kingsolve.errors.SearchInterrupted`
is raised with what had finished; any other error a lane meets is raised in
the calling thread once the lanes have stopped.

The lanes' memory is one budget: lanes made here take their Solvers from
:func:`~kingsolve.solver.solver_for` with ``lanes`` = their number, which
gives each lane its share of the table a single Solver would have.
"""
from __future__ import annotations

import threading

from .errors import SearchInterrupted

POLL = 0.05
"""Seconds the calling thread waits at a time: Ctrl-C is seen within this."""


def run_in_lanes(n_tasks: int, work, solvers, *, ready=None, pick=None, fill=None,
                 on_result=None, on_progress=None, new_solver=None) -> list:
    """Run tasks ``0 .. n_tasks-1`` on lanes and return their results, in order.

    ``solvers``: one entry a lane, a Solver or None (made by ``new_solver()``
    in the lane, when it takes its first task).  ``work(solver, i, results)``
    runs task ``i`` in a lane and returns its result (not None);
    ``results`` holds every result known so far (None where not yet), those
    ``ready`` waited for among them.  ``ready(i, results)``: whether task ``i``
    may start (default: always); ``pick(ready, lane)``: which of the ``ready``
    task numbers (in order, never empty) lane ``lane`` takes (default: the
    first).  ``fill``: {i: f}, tasks that need no search: ``f(results)`` gives
    task ``i``'s result in the calling thread as soon as every task before it
    is known (it may read only those).

    ``on_result(i, result)`` is called for each task in order, as soon as it
    and every task before it are known; ``on_progress(k)`` as ``k`` more tasks
    finish, in any order; both from the calling thread.

    Stopped (Ctrl-C here, or :func:`~kingsolve.solver.abort_searches`
    stopping a lane's search), it raises
    :class:`~kingsolve.errors.SearchInterrupted` whose ``finished`` is the
    list of results (None where a task had not finished), with what was proven
    of the first stopped task (in task order), the others stopped in
    ``also``."""
    fill = dict(fill or {})
    results = [None] * n_tasks
    todo = [i for i in range(n_tasks) if i not in fill]
    stopped = {}                       # task -> SearchInterrupted
    failed = []                        # the first error a lane met
    halt = [False]                     # no more tasks handed out
    done = [0]                         # tasks finished (on_progress)
    cond = threading.Condition()

    def take(lane):
        # under the lock: the lane's next task, or None when none is left
        # for it (or the lanes are stopping); waits while every task left
        # waits for one running
        while not halt[0] and todo:
            can = todo if ready is None else [i for i in todo if ready(i, results)]
            if can:
                i = can[0] if pick is None else pick(can, lane)
                todo.remove(i)
                return i
            cond.wait()
        return None

    def lane_main(lane):
        solver = solvers[lane]
        i = None
        try:
            while True:
                with cond:
                    i = take(lane)
                if i is None:
                    return
                if solver is None:
                    solver = new_solver()
                r = work(solver, i, results)
                with cond:
                    results[i] = r
                    done[0] += 1
                    cond.notify_all()
                i = None
        except KeyboardInterrupt as err:   # its search was stopped
            with cond:
                if i is None:
                    failed.append(err)     # (not in a search: from ready or pick)
                else:
                    stopped[i] = err if isinstance(err, SearchInterrupted) else SearchInterrupted()
                halt[0] = True
                cond.notify_all()
        except BaseException as err:   # noqa: B036 -- raised in the calling thread
            with cond:
                failed.append(err)
                halt[0] = True
                cond.notify_all()

    n_lanes = max(1, min(len(solvers), len(todo)))
    threads = [threading.Thread(target=lane_main, args=(k,), daemon=True) for k in range(n_lanes)]
    for th in threads:
        th.start()
    said = told = 0                    # results handed to on_result, tasks to on_progress
    try:
        while True:
            with cond:
                if said < n_tasks and results[said] is None and said in fill:
                    # a task filled here may be what a waiting task is ready on
                    results[said] = fill[said](results)
                    done[0] += 1
                    cond.notify_all()
                new = []
                while said < n_tasks and results[said] is not None:
                    new.append(said)
                    said += 1
                k, told = done[0] - told, done[0]
                over = failed or (said == n_tasks) or (halt[0] and not any(th.is_alive() for th in threads))
                if not new and not k and not over:
                    cond.wait(POLL)    # timed, so that Ctrl-C is seen here at once
                    continue
            if on_progress is not None and k:
                on_progress(k)
            if on_result is not None:
                for i in new:
                    on_result(i, results[i])
            if over:
                break
        if not failed:
            for th in threads:
                while th.is_alive():
                    th.join(POLL)      # (a stopped run waits for its other lanes)
    except KeyboardInterrupt:
        # Ctrl-C in this thread: the lanes never see the signal, so their
        # searches are told to stop
        _stop(threads, halt, cond)
        raise _interrupted(results, stopped) from None
    except BaseException:
        _stop(threads, halt, cond)     # an error in a callback
        raise
    if failed:
        _stop(threads, halt, cond)
        raise failed[0]
    if stopped:
        raise _interrupted(results, stopped)     # abort_searches, called from elsewhere
    return results


def _stop(threads, halt, cond) -> None:
    # No more tasks; the lanes' searches stopped (abort_searches: the lanes
    # never see Ctrl-C themselves), the lanes joined, then searches allowed again.
    from .solver import abort_searches
    with cond:
        halt[0] = True
        cond.notify_all()
    abort_searches(True)
    try:
        for th in threads:
            th.join()
    finally:
        abort_searches(False)


def _interrupted(results: list, stopped: dict) -> SearchInterrupted:
    # what finished, and what was proven of each task a lane was running
    halted = [stopped[i] for i in sorted(stopped)] or [SearchInterrupted()]
    first = halted[0]
    return SearchInterrupted(first.low, first.high, side=first.side, finished=list(results), also=halted[1:])
