"""Ctrl-C stops a long search within milliseconds, and the solver stays right.

The native search runs without the GIL, so Python's SIGINT handler could not
run until it returned: a king52 no-girls solve kept the terminal for minutes.
It now polls for the signal (and for abort_searches, which stops the worker
threads and processes that never see the signal) every 65,536 nodes.

The long positions here take minutes to solve (king52 no-girls, seat 1:
hundreds of millions of nodes), so a stop seconds after the signal can only
come from the poll.  The time limits are that generous on purpose: they do
not measure speed, only that the search did not run to its end.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import kingsolve
from kingsolve.errors import SearchInterrupted
from kingsolve.layout import Layout
from kingsolve.solver import Deal, Solver, abort_searches, solve
from kingsolve.table import make_table, parse_contracts
from kingsolve.variants import get_variant

LAYOUT = "1:6.KT7652.AT63.AT AQT9832.4.85.K65 5.J83.KJ72.QJ872 KJ74.AQ9.Q94.943"
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(kingsolve.__file__)))
STOP_WITHIN = 30.0   # seconds; the searches stopped here run for minutes


def _deal(contract: str) -> Deal:
    v = get_variant("king52")
    return Deal.from_layout(v.contract(contract), Layout.from_str(LAYOUT), 0)


def _stop_after(solver: Solver, n: int, query):
    """Run ``query()`` (a search with ``solver``) in a thread and stop it with
    abort_searches once ``solver`` has searched ``n`` nodes; return what
    stopped it and the nodes searched when it was told to."""
    out = {}

    def run():
        try:
            out["value"] = query()
        except KeyboardInterrupt as err:
            out["stopped"] = err

    t = threading.Thread(target=run, daemon=True)
    t.start()
    while t.is_alive() and solver._search.nodes < n:
        time.sleep(0.001)
    assert t.is_alive(), "the query was answered before it could be stopped: pick a longer one"
    nodes_at_stop = solver._search.nodes
    abort_searches(True)
    try:
        t.join(STOP_WITHIN)
        assert not t.is_alive(), "abort_searches did not stop the search"
    finally:
        abort_searches(False)
    assert "stopped" in out and "value" not in out
    return out["stopped"], nodes_at_stop


def test_abort_searches_stops_a_search_in_another_thread_and_the_table_stays_right():
    # No-king for seat 3, who cannot keep from taking the king (-160): about
    # 320,000 nodes.  A stopped search returns zeros as it unwinds; had the
    # table kept the bounds built on them, the solver would answer 0 next
    # time (checked: it does when tt_store ignores the stop).
    deal = _deal("no-king")
    solver = Solver(18)
    stop, nodes_at_stop = _stop_after(solver, 100_000, lambda: solver.value(deal, 0b0100))
    # at the next poll (every 65,536 nodes) after the call
    assert solver._search.nodes - nodes_at_stop < 200_000
    # the same solver, with what its table kept, gives the value a fresh one does
    value = solver.value(deal, 0b0100)
    assert value == Solver(18).value(deal, 0b0100) < 0
    # what the stopped search had proven holds the value
    assert isinstance(stop, SearchInterrupted) and stop.side == (2,)
    assert stop.low <= value <= stop.high


def test_a_stopped_value_says_what_its_finished_probes_proved():
    # No-kings-jacks, seat 4 (-210, about 11M nodes): by 2M nodes the probes
    # coming down from 0 have brought the upper bound below -120
    deal = _deal("no-kings-jacks")
    solver = Solver(18)
    stop, _ = _stop_after(solver, 2_000_000, lambda: solver.value(deal, 0b1000))
    assert isinstance(stop, SearchInterrupted) and stop.side == (3,)
    assert stop.high <= -120
    assert stop.low <= solver.value(deal, 0b1000) <= stop.high


def test_a_stopped_solve_keeps_the_seats_it_finished():
    # No-girls: seat 4 cannot keep from taking all four queens (-200, 85,000
    # nodes); seat 1 takes minutes.  Stopped in seat 1, the seats before it
    # are kept, and what was proven of seat 1 lies within its contract's points.
    v = get_variant("king52")
    solver = Solver(18)
    stop, _ = _stop_after(solver, 400_000, lambda: solve(
        Layout.from_str(LAYOUT), v.contract("no-girls"), sides=[0b1000, 0b0001], solver=solver))
    assert isinstance(stop, SearchInterrupted) and stop.side == (0,)
    assert [(r.side, r.value) for r in stop.finished.results] == [((3,), -200)]
    assert -200 <= stop.low <= stop.high <= 0


def _interrupt(args, wait: float, cwd, group: bool = False, with_stdout: bool = False):
    """Run ``kingsolve ARGS`` and send SIGINT once it has used ``wait`` seconds
    of processor time (:func:`_wait_for_cpu`; with ``group``, it and its
    worker processes together, and the signal goes to the whole process
    group, as a terminal's Ctrl-C does); return the exit code,
    stderr and the seconds it took to stop (and stdout, when ``with_stdout``).
    ``cwd`` is a scratch directory, and the child imports the kingsolve these
    tests import (an installed package, or a checkout whose core was built in
    place: put on ``PYTHONPATH``, since ``python -m`` run elsewhere would not
    find it and the child would exit at once, "finished before the signal")."""
    # As from a terminal, the child starts with SIGINT's default action: a
    # shell's background job (a CI script started with `&`) inherits SIGINT
    # ignored, and Python then installs no handler for it at all.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        x for x in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if x))
    p = subprocess.Popen([sys.executable, "-m", "kingsolve", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for_cpu(p, wait, group=group)
        if p.poll() is not None:
            pytest.fail(f"finished before the signal (exit {p.returncode}): {p.stderr.read().decode()[-500:]}")
        t0 = time.perf_counter()
        if group:
            os.killpg(p.pid, signal.SIGINT)
        else:
            p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=STOP_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"kingsolve {args[0]} still running {STOP_WITHIN} s after Ctrl-C")
        took = time.perf_counter() - t0
        if with_stdout:
            return p.returncode, err.decode(), took, out.decode()
        return p.returncode, err.decode(), took
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def _cpu_seconds(pid: int, group: bool) -> float | None:
    # utime + stime of process pid, or with group of every process in its
    # process group (the child leads its own: start_new_session); None when
    # /proc cannot tell
    tick = os.sysconf("SC_CLK_TCK")
    pids = [str(pid)] if not group else [d for d in os.listdir("/proc") if d.isdigit()]
    total, seen = 0, False
    for d in pids:
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if group and int(fields[2]) != pid:                   # pgrp
            continue
        total += int(fields[11]) + int(fields[12])            # utime + stime
        seen = True
    return total / tick if seen else None


def _wait_for_cpu(p, seconds: float, most: float = 120.0, group: bool = False) -> None:
    """Wait until process ``p`` (with ``group``, it and its worker processes
    together) has used ``seconds`` of processor time, or has ended, or
    ``most`` seconds have passed: on a loaded machine a wait by the clock
    could end before the child had even imported kingsolve, let alone
    finished any work.  Where /proc is missing, by the clock."""
    if not os.path.exists(f"/proc/{p.pid}/stat"):
        time.sleep(seconds)
        return
    end = time.monotonic() + most
    while p.poll() is None and time.monotonic() < end:
        used = _cpu_seconds(p.pid, group)
        if used is None or used >= seconds:
            return
        time.sleep(0.05)


def test_ctrl_c_stops_solve(tmp_path):
    rc, err, _ = _interrupt(["solve", LAYOUT, "-V", "king52", "-c", "no-girls", "-p", "1"], wait=3, cwd=tmp_path)
    assert rc == 130
    # one line, no traceback: the seat and what its search had proven (the
    # first probes of a lone seat in a penalty game take milliseconds)
    m = re.fullmatch(r"interrupted: seat 1, value between ([-+]\d+) and ([-+]\d+) \(proven so far\)\n", err)
    assert m, err
    assert -200 <= int(m.group(1)) <= int(m.group(2)) <= 0


def test_ctrl_c_in_solve_prints_the_seats_finished(tmp_path):
    # The same deal with the seats renumbered (seat 2 is LAYOUT's seat 1, on
    # lead): seat 1, which cannot keep from taking every queen, is solved in
    # milliseconds and printed; seat 2 takes minutes
    hands = LAYOUT.split(":", 1)[1]
    rc, err, _, out = _interrupt(["solve", "2:" + hands, "-V", "king52", "-c", "no-girls", "-F", "json"],
                                 wait=3, cwd=tmp_path, with_stdout=True)
    assert rc == 130
    assert re.fullmatch(r"interrupted: seat 2, value between [-+]\d+ and [-+]\d+ \(proven so far\)\n", err), err
    data = json.loads(out)
    assert [(r["side"], r["value"]) for r in data["results"]] == [([1], -200)], data


def test_ctrl_c_stops_a_table_solved_in_threads(tmp_path):
    rc, err, _, out = _interrupt(["table", LAYOUT, "-V", "king52", "--jobs", "2"], wait=3, cwd=tmp_path,
                                 with_stdout=True)
    assert rc == 130
    # its first row, no-tricks, takes minutes: nothing to print
    assert re.fullmatch(r"interrupted: 0 of \d+ rows finished\n", err), err
    assert out == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_a_table_prints_the_rows_finished(tmp_path, jobs):
    # trump:S takes a second at most; no-girls's seat 1 minutes
    rc, err, _, out = _interrupt(["table", LAYOUT, "-V", "king52", "-C", "trump:S,no-girls", "-j", jobs,
                                  "-F", "json"], wait=3, cwd=tmp_path, with_stdout=True)
    assert rc == 130
    assert err == "interrupted: 1 of 2 rows finished\n"
    rows = json.loads(out)["rows"]
    v = get_variant("king52")
    whole = make_table(Layout.from_str(LAYOUT), v, contracts=parse_contracts(v, "trump:S"))
    assert [(r["contract"], r["trump"], r["values"]) for r in rows] == [
        ("trump", "S", list(whole.rows[0].values))], rows


def test_ctrl_c_stops_stats_worker_processes(tmp_path):
    # the workers ignore SIGINT and are told to stop by the parent; before,
    # the parent waited for every running chunk of king52 deals (minutes)
    out = tmp_path / "rows.csv"
    rc, err, _ = _interrupt(["stats", "-V", "king52", "-n", "4", "--seed", "1", "-j", "2",
                             "-C", "no-girls", "--out", str(out)], wait=4, cwd=tmp_path, group=True)
    assert rc == 130
    assert "Traceback" not in err
    assert err.startswith("warning: king52 with 13 cards a hand")     # the cost, said before the work
    m = re.search(r"^interrupted: (\d) of 4 deals finished", err, re.M)
    assert m and int(m.group(1)) < 4, err
    if m.group(1) == "0":
        # no file to resume from: the note does not point to --resume
        assert f"nothing written to {out}" in err and "--resume" not in err
        assert not out.exists()
    else:
        # a fast machine finished a deal within the wait: its rows are kept
        assert f"rows written to {out}" in err and "--resume" in err
        assert out.stat().st_size > 0


def test_ctrl_c_stops_bid_worker_processes(tmp_path):
    rc, err, _ = _interrupt(["bid", "-V", "king52", "--hand", "♠AKQ2 ♥K54 ♦QJ3 ♣A92", "--samples", "400",
                             "--seed", "3", "-j", "2"], wait=4, cwd=tmp_path, group=True)
    assert rc == 130
    assert "Traceback" not in err


def test_ctrl_c_in_solve_in_lanes_prints_the_seats_finished_and_each_lane_stopped(tmp_path):
    # The deal of the test above on two lanes: seat 1 (milliseconds) is
    # finished and printed, seat 2 (minutes) is stopped in its lane; the
    # other lane has moved on to the next seats in turn, and is stopped in
    # the one it holds, if any
    hands = LAYOUT.split(":", 1)[1]
    rc, err, took, out = _interrupt(["solve", "2:" + hands, "-V", "king52", "-c", "no-girls", "-F", "json",
                                     "-j", "2"], wait=3, cwd=tmp_path, with_stdout=True)
    assert rc == 130
    stopped = r"seat (\d), value between [-+]\d+ and [-+]\d+ \(proven so far\)"
    m = re.fullmatch(rf"interrupted: {stopped}(?:; {stopped})?\n", err)
    assert m, err
    halted = [int(g) for g in m.groups() if g is not None]
    data = json.loads(out)
    finished = [(r["side"], r["value"]) for r in data["results"]]
    assert finished[0] == ([1], -200), data
    done = [s[0] for s, _ in finished]
    # seat 2 stopped (and the other lane's seat, if any), in seat order; the
    # seats are taken in order, so those finished or stopped are the first k
    assert 2 in halted and halted == sorted(set(halted)) and not set(done) & set(halted)
    assert done == sorted(done) and sorted(done + halted) == list(range(1, len(done) + len(halted) + 1))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_bid_of_ten_billion_samples_reports_what_finished(tmp_path, jobs):
    # issue 29: --samples 10000000000 built every block up front; now the work is generated as it is taken,
    # and Ctrl-C reports the first samples finished (reproducible with --samples k)
    rc, err, _, out = _interrupt(["bid", "-V", "ru4", "--hand", "♠AK7 ♥AQ ♦K98", "--games", "S,H",
                                  "--seller-trump", "S", "--samples", "10000000000", "--seed", "3", "-j", jobs,
                                  "-F", "json"], wait=6, cwd=tmp_path, with_stdout=True, group=True)
    assert rc == 130 and "Traceback" not in err
    m = re.fullmatch(r"interrupted: the first (\d+) of 10000000000 samples finished "
                     r"\(--samples \1 --seed 3 gives the same\)\n", err)
    assert m, err
    data = json.loads(out)
    assert data["interrupted"] is True and data["samples"] == int(m.group(1)) > 0
    assert data["requested_samples"] == 10 ** 10


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_in_advise_reports_the_samples_finished(tmp_path, jobs):
    # ru4 no-tricks at trick 1: every card valued over full hands, tens of ms a deal; after
    # 4 s some chunks of samples are done: the report is printed for them and says so
    rc, err, _, out = _interrupt(["advise", "-V", "ru4", "-c", "no-tricks", "-s", "1", "-H", "♠AK7 ♥Q9 ♦J8 ♣7",
                                  "-n", "5000", "--seed", "3", "-j", jobs, "-F", "json"],
                                 wait=4, cwd=tmp_path, group=True, with_stdout=True)
    assert rc == 130 and "Traceback" not in err
    data = json.loads(out)
    assert data["interrupted"] and 0 < data["samples"] < 5000 and data["samples"] % 10 == 0
    assert re.fullmatch(r"interrupted: the first (\d+) of 5000 samples finished \(--samples \1 --seed 3 gives the same\)\n",
                        err), err
