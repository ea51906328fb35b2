"""kingsolve.workers.run_units: the one driver of bid's, stats' and advise's
worker processes and Dask tasks (issue 32: one way to do each thing)."""
import itertools

import pytest

import kingsolve.workers as W


def _square(x):
    return x * x


def test_every_unit_runs_once_and_reaches_the_caller():
    got = {}
    W.run_units(_square, lambda workers: ((k,) for k in range(23)), lambda i, unit, r: got.__setitem__(i, (unit, r)),
                jobs=2)
    assert got == {k: ((k,), k * k) for k in range(23)}


def test_units_are_taken_lazily_and_ctrl_c_keeps_what_finished(monkeypatch, in_process_pool):
    # ten billion units: only a few a worker are ever out; an interrupt in the caller hands over the finished
    monkeypatch.setattr(W, "StoppablePool", in_process_pool)
    taken = []

    def units(workers):
        assert workers == 3
        for k in itertools.count():
            taken.append(k)
            yield (k,)

    seen = []

    def finished(i, unit, r):
        seen.append(i)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        W.run_units(_square, units, finished, jobs=3, per_worker=2)
    assert len(taken) <= 5 + 3 * 2
    assert sorted(seen) == sorted(set(seen)) and len(seen) == len(taken)   # every finished unit handed over once


def test_what_the_caller_holds_counts_against_the_units_out(monkeypatch, in_process_pool):
    # stats writes in deal order: a result finished ahead of an earlier one is held, and counts as out
    monkeypatch.setattr(W, "StoppablePool", in_process_pool)
    taken, done, held = [], [], []

    def units(workers):
        for k in range(20):
            assert (len(taken) - len(done)) + len(held) < 4   # a new unit only while fewer than 4 are out or held
            taken.append(k)
            yield (k,)

    def finished(i, unit, r):
        done.append(i)
        held.append(i)
        if len(held) == 3:              # released three at a time
            held.clear()

    W.run_units(_square, units, finished, jobs=1, per_worker=4, held=lambda: len(held))
    assert sorted(done) == list(range(20))
