"""Anytime answers and nothing silent: ``--time-limit`` and the streaming of
``solve``'s seat lines.

A search stopped by its time limit stops as on Ctrl-C (the same poll, every
65,536 nodes), and the answer is the interval its finished probes had proven:
it must always hold the exact value, whatever the limit.  The exact values
here are the solver's own, unlimited, on positions it solves in seconds; the
limits are tiny so that the searches are stopped at every stage, from before
the first probe finished to the last one.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

import kingsolve
from kingsolve import solver as solver_mod
from kingsolve.cli import main
from kingsolve.layout import Layout
from kingsolve.solver import Deal, Interval, Solver, bounds_of, solve, timed_value
from kingsolve.table import make_table, parse_contracts
from kingsolve.variants import get_variant

# test_interrupt's king52 deal: no-girls seat 1 takes minutes, seat 4 (who
# cannot keep from taking all four queens) milliseconds
LAYOUT = "1:6.KT7652.AT63.AT AQT9832.4.85.K65 5.J83.KJ72.QJ872 KJ74.AQ9.Q94.943"
KING52 = get_variant("king52")
LIMITS = [0.001, 0.01, 0.03, 0.1, 0.3]


def _deal(contract: str) -> Deal:
    return Deal.from_layout(KING52.contract(contract), Layout.from_str(LAYOUT), 0)


@pytest.mark.parametrize("contract,seat", [("no-king", 2), ("no-hearts", 0), ("no-kings-jacks", 3),
                                           ("trump:H", 0)])
def test_an_interval_a_time_limit_leaves_holds_the_exact_value(contract, seat):
    deal = Deal.from_layout(parse_contracts(KING52, contract)[0], Layout.from_str(LAYOUT), 0)
    exact = Solver(18).value(deal, 1 << seat)
    seen = set()
    for limit in LIMITS:
        # a fresh table each time: nothing left from a longer search
        got = timed_value(Solver(18), deal, 1 << seat, deadline=solver_mod.deadline_after(limit))
        low, high = bounds_of(got)
        assert low <= exact <= high, (contract, seat, limit, got, exact)
        if isinstance(got, Interval):
            assert low < high          # a closed interval is given as the value itself
        else:
            assert got == exact
        seen.add(isinstance(got, Interval))
    # the limits stop the search at least once: the test tests something
    assert True in seen


def test_a_solve_with_a_time_limit_gives_intervals_that_hold_each_seats_value():
    # no-king: every seat's value within seconds; with a limit of 10 ms the
    # slower seats are stopped, and each answer holds the exact value
    v = KING52
    exact = solve(Layout.from_str(LAYOUT), v.contract("no-king"), solver=Solver(18))
    timed = solve(Layout.from_str(LAYOUT), v.contract("no-king"), time_limit=0.01, jobs=2)
    for e, t in zip(exact.results, timed.results):
        assert t.side == e.side
        assert t.low <= e.value <= t.high
        assert t.exact == (t.value is not None) == (t.low == t.high)
        assert not t.exact or t.value == e.value


def test_a_table_with_a_time_limit_holds_every_exact_value():
    # the rescaled rows (tricks:NT from trump:NT) scale an interval's ends too
    v = KING52
    chosen = parse_contracts(v, "no-king,trump:NT,tricks:NT")
    exact = make_table(Layout.from_str(LAYOUT), v, contracts=chosen, tt_log2=18)
    for jobs in (1, 2):
        cells = []
        timed = make_table(Layout.from_str(LAYOUT), v, contracts=chosen, tt_log2=18, jobs=jobs,
                           time_limit=0.005, progress=cells.append)
        assert sum(cells) == 3 * v.n_seats
        for e, t in zip(exact.rows, timed.rows):
            for x, y in zip(e.values, t.values):
                low, high = bounds_of(y)
                assert low <= x <= high, (e.contract, x, y)


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_an_inexact_answer_in_text_json_and_csv():
    # no-girls seat 1 takes minutes: 50 ms leaves an interval; seat 4 is exact
    args = ["solve", LAYOUT, "-V", "king52", "-c", "no-girls", "--time-limit", "0.05"]
    r = run(*args, "-p", "1")
    assert r.exit_code == 0, r.output
    head, note, line = r.output.strip().splitlines()
    assert note.startswith("  value: ")          # what a value is, said once (issue 29 §4)
    m = re.fullmatch(r"\s*seat 1\s+value between ([-+]\d+) and ([-+]\d+) \(time limit\)", line)
    assert m, line
    low, high = int(m.group(1)), int(m.group(2))
    assert -200 <= low < high <= 0
    r = run(*args, "-F", "json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)["results"]
    assert res[0]["value"] is None and res[0]["exact"] is False and res[0]["low"] < res[0]["high"]
    assert {k: res[3][k] for k in ("side", "value", "low", "high", "exact")} == {
        "side": [4], "value": -200, "low": -200, "high": -200, "exact": True}
    r = run(*args, "-F", "csv", "-p", "1")
    assert r.exit_code == 0, r.output
    header, row = r.output.strip().splitlines()
    got = dict(zip(header.split(","), row.split(",")))
    assert got["value"] == "" and got["exact"] == "false" and int(got["low"]) < int(got["high"]) <= 0
    r = run(*args, "-F", "csv", "-p", "4")
    got = dict(zip(*(x.split(",") for x in r.output.strip().splitlines())))
    assert (got["value"], got["low"], got["high"], got["exact"]) == ("-200", "-200", "-200", "true")


def test_cli_table_with_a_time_limit():
    r = run("table", LAYOUT, "-V", "king52", "-C", "no-girls", "--time-limit", "0.05", "-F", "json")
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)["rows"][0]
    assert row["exact"] is False and row["values"][3] == -200 and row["values"][0] is None
    assert all(lo <= hi for lo, hi in zip(row["low"], row["high"]))
    r = run("table", LAYOUT, "-V", "king52", "-C", "no-girls", "--time-limit", "0.05")
    assert r.exit_code == 0 and "L..H: the time limit ran out" in r.output
    r = run("table", LAYOUT, "-V", "king52", "--time-limit", "0")
    assert r.exit_code == 2
    # the reference solver (tiny end positions) takes the option and needs no limit
    r = run("table", "1:.A7.. .K8.. K8...", "-V", "ua3", "--reference", "-C", "no-hearts", "--time-limit", "1",
            "-F", "json")
    assert r.exit_code == 0 and json.loads(r.output)["rows"][0]["values"] == [-4, -4, 0], r.output


def test_solve_reports_each_side_in_order_as_soon_as_it_and_those_before_are_known(monkeypatch):
    """In lanes the sides finish out of order; on_result gets them in order,
    each as soon as it and those before it are known: seat 2's search waits
    until seat 1's result has been reported (had the reports waited for the
    end, it would wait in vain), seat 3 finishes before seat 1."""
    real = Solver.value
    reported = []
    first_told = threading.Event()
    seat3_done = threading.Event()

    def value(self, deal, side, guess=None, deadline=None):
        if side == 0b0001:
            seat3_done.wait(10)
        v = real(self, deal, side, guess, deadline)
        if side == 0b0100:
            seat3_done.set()
        if side == 0b0010:
            assert first_told.wait(10), "seat 1 was not reported before seat 2 finished"
        return v

    def on_result(res, r):
        reported.append(r.side)
        if r.side == (0,):
            first_told.set()

    monkeypatch.setattr(Solver, "value", value)
    lay = Layout.from_str("1:.A7.. .K8.. K8...")
    v = get_variant("ua3")
    # three lanes: seats 1, 2, 3 at once; seat 3 ends first, seat 1 next
    res = solve(lay, v.contract("no-hearts"), jobs=3, on_result=on_result)
    assert reported == [(0,), (1,), (2,)] == [r.side for r in res.results]


def test_cli_solve_prints_a_seat_while_the_next_is_searched(tmp_path):
    # The deal renumbered so that seat 1 (milliseconds) comes before seat 2
    # (minutes): the head line and seat 1's come out while seat 2 is searched.
    hands = LAYOUT.split(":", 1)[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(kingsolve.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (root, os.environ.get("PYTHONPATH")) if x))
    p = subprocess.Popen([sys.executable, "-m", "kingsolve", "solve", "2:" + hands, "-V", "king52",
                          "-c", "no-girls", "-j", "2"], stdout=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        lines = [p.stdout.readline() for _ in range(3)]
        assert p.poll() is None, "finished: seat 2 should take minutes"
        assert lines[0].startswith("king52 no-girls") and lines[1].startswith("  value: "), lines
        assert lines[2].split() == ["seat", "1", "-200"], lines
    finally:
        p.kill()
        p.wait()


def test_the_progress_line_shows_what_a_running_seat_has_proven():
    # --progress (a terminal's default): while seat 1's no-girls search runs,
    # the line on stderr shows its interval so far and its time; the seat's
    # answer goes to stdout as before
    r = CliRunner().invoke(main, ["solve", LAYOUT, "-V", "king52", "-c", "no-girls", "-p", "1",
                                 "--time-limit", "1.5", "--progress"])
    assert r.exit_code == 0, r.output
    assert re.search(r"seat 1 -200\.\.[-+]\d+ \d+s", r.stderr), r.stderr[-500:]
    assert "value between" in r.stdout and "seat/s" not in r.stdout


def test_progress_text():
    from kingsolve.reporting.solve import progress_text
    assert progress_text([((0,), (-200, -50), 12.4), ((1,), None, 0.2), ((2, 3), (-10, -10), 3)]) == (
        "seat 1 -200..-50 12s; seat 2 … 0s; side 3,4 -10 3s")
