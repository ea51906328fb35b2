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


# --------------------------------------------------------------------------- run_samples: bid's and advise's runs

def _range_values(start, stop, *_):
    return [[i] for i in range(start, stop)]


def _slow_from(k):
    # a local range function: samples before k are quick, sample k and later take 0.2 s each
    import time

    def local(start, stop, deadline):
        if stop > k:
            time.sleep(0.2 * (stop - max(start, k)))
        return _range_values(start, stop)
    return local


def test_run_samples_local_time_limit_keeps_the_first_samples():
    # ranges of one sample for 13-card hands; the time limit stops the run after the ranges finished in time
    run = W.run_samples(50, 1, 13, local=_slow_from(3), fn=None, args=None, time_limit=0.5)
    assert run.time_limit_reached and not run.interrupted and run.requested == 50
    assert 3 <= len(run.values) < 50 and run.values[:, 0].tolist() == list(range(len(run.values)))


def test_run_samples_without_a_limit_solves_every_sample_in_order(monkeypatch, in_process_pool):
    monkeypatch.setattr(W, "StoppablePool", in_process_pool)
    for jobs in (1, 3):
        run = W.run_samples(57, 1, 8, local=lambda a, b, d: _range_values(a, b), fn=_range_values,
                            args=lambda a, b, lanes: (a, b, lanes), jobs=jobs)
        assert not run.time_limit_reached and not run.interrupted
        assert run.values[:, 0].tolist() == list(range(57))


def _sleepy_range(start, stop, lanes):
    if start >= 4:
        # a search of minutes (king52 no-girls, seat 1 alone: test_time_limit's deal), stopped by the
        # driver at the time limit long before
        from kingsolve.layout import Layout
        from kingsolve.solver import Deal, Solver
        from kingsolve.variants import get_variant
        layout = "1:6.KT7652.AT63.AT AQT9832.4.85.K65 5.J83.KJ72.QJ872 KJ74.AQ9.Q94.943"
        Solver().value(Deal.from_layout(get_variant("king52").contract("no-girls"), Layout.from_str(layout), 0), 1)
    return [[i] for i in range(start, stop)]


def test_run_samples_pool_time_limit_stops_the_workers():
    # worker processes: at the time limit the driver stops them (as for Ctrl-C) and keeps the finished prefix
    import time
    t0 = time.monotonic()
    run = W.run_samples(40, 1, 13, local=None, fn=_sleepy_range, args=lambda a, b, lanes: (a, b, lanes), jobs=2,
                        time_limit=1.0)
    assert time.monotonic() - t0 < 25
    assert run.time_limit_reached and run.values[:, 0].tolist() == [0, 1, 2, 3]


def test_sample_progress_clock_runs_without_updates():
    # the bar of bid and advise is redrawn every second, so its clock moves while a long deal is solved
    import io
    import time

    from kingsolve.cli.progress import TickingBar
    buf = io.StringIO()
    bar = TickingBar(5, buf)
    time.sleep(2.5)
    bar.close()
    assert "0/5 [00:01" in buf.getvalue() or "0/5 [00:02" in buf.getvalue()
