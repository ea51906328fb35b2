"""The one lane scheduler (kingsolve.lanes) that `solve -j` and `table -j` share.

Its users are tested through their results (test_solver, test_table,
test_interrupt, test_time_limit); these pin the scheduler's own contract with
tasks that need no search: results in task order as soon as known, tasks
that wait for others, tasks filled in the calling thread, the lane's choice,
errors and stops raised in the caller with what had finished."""
from __future__ import annotations

import threading

import pytest

from kingsolve.errors import SearchInterrupted
from kingsolve.lanes import run_in_lanes


def test_results_come_back_in_task_order_each_as_soon_as_those_before_are_known():
    # task 0 finishes last: nothing is reported before it, then everything in order
    release = threading.Event()
    reported, progress = [], []

    def work(solver, i, results):
        if i == 0:
            assert release.wait(10)
        elif i == 3:
            release.set()
        return i * 10

    got = run_in_lanes(4, work, ["a", "b"], on_result=lambda i, r: reported.append((i, r)),
                       on_progress=progress.append)
    assert got == [0, 10, 20, 30]
    assert reported == [(0, 0), (1, 10), (2, 20), (3, 30)]
    assert sum(progress) == 4


def test_a_task_waits_for_what_it_is_ready_on_and_filled_tasks_are_filled_by_the_caller():
    # task 2 needs tasks 0 and 1 (and sees their results); task 3 is filled
    # from task 2 in the calling thread; task 4 needs the filled task 3
    caller = threading.current_thread()
    seen = {}

    def work(solver, i, results):
        assert threading.current_thread() is not caller
        seen[i] = list(results)
        return {0: 1, 1: 2, 2: None, 4: None}[i] or sum(r for r in results[:i] if r)

    def ready(i, results):
        return {2: results[0] is not None and results[1] is not None, 4: results[3] is not None}.get(i, True)

    def fill3(results):
        assert threading.current_thread() is caller
        return results[2] * 100

    got = run_in_lanes(5, work, [None, None], ready=ready, fill={3: fill3}, new_solver=object)
    assert got == [1, 2, 3, 300, 306]
    assert seen[2][:2] == [1, 2] and seen[4][3] == 300


def test_each_lane_picks_its_task_and_owns_its_solver():
    # pick: lane k takes the tasks i with i % 2 == k while it has one; both
    # lanes wait at their first task until the other has taken one
    ran = []
    both = threading.Barrier(2, timeout=10)
    lock = threading.Lock()

    def work(solver, i, results):
        with lock:
            first = solver not in [s for s, _ in ran]
            ran.append((solver, i))
        if first:
            both.wait()
        return i

    def pick(ready, lane):
        own = [i for i in ready if i % 2 == lane]
        return (own or ready)[0]

    got = run_in_lanes(6, work, ["s0", "s1"], pick=pick)
    assert got == list(range(6))
    assert [next(i for s, i in ran if s == lane) for lane in ("s0", "s1")] == [0, 1]
    assert sorted(i for _, i in ran) == list(range(6))


def test_an_error_in_a_lane_is_raised_in_the_caller_and_no_more_tasks_start():
    started = []

    def work(solver, i, results):
        started.append(i)
        if i == 1:
            raise ValueError("lane failed")
        return i

    with pytest.raises(ValueError, match="lane failed"):
        run_in_lanes(50, work, [1])
    assert started == [0, 1]


def test_a_stopped_lane_stops_the_run_keeping_what_finished():
    # a lane whose search is stopped (abort_searches) raises SearchInterrupted
    # in it: the caller gets it with the results finished, the first stopped
    # task's interval, the others in `also`
    def work(solver, i, results):
        if i == 2:
            raise SearchInterrupted(-40, -10, side=(2,))
        return i

    with pytest.raises(SearchInterrupted) as info:
        run_in_lanes(6, work, [1])
    err = info.value
    assert (err.low, err.high, err.side, err.also) == (-40, -10, (2,), [])
    assert err.finished == [0, 1, None, None, None, None]


def test_an_error_in_the_choice_of_a_task_is_raised_in_the_caller_not_a_hang():
    def pick(ready, lane):
        raise LookupError("no choice")

    with pytest.raises(LookupError, match="no choice"):
        run_in_lanes(3, lambda solver, i, results: i, [1, 2], pick=pick)
