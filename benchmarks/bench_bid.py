"""Benchmark of ``kingsolve bid``: wall time of a whole simulation, 1 and N
worker processes, and the speed-up.

    python benchmarks/bench_bid.py [--runs 3] [--samples 1000] [--king52-samples 40] [--jobs 2] [--only NAME ...]

Every case is a real command-line question, every game the seat could name:
the third hand of source 000's bought game (ua3) and a ru4 hand at 1000
samples, "buy+1" with the seller's named game (the defence of that game
only), "buy+all" without it (the defence of every game he could have named);
and the king52 auction with the dealer's game given (NT) at 40 samples
(every own game, the dealer's tricks in the negative deals up to 2, the
defence of NT).  Fixed seeds (below; only ever appended).  Before anything is
timed, a known answer is checked (every trump: every trick); every timed run
must return the same counts as the first (so the timing is also a --jobs
invariance check), and a run of half the samples must return the first half
(the prefix property).  Reported: the median wall time over the runs for 1
and N processes (process start-up included), solves per second, the
speed-up, and the median CPU seconds of a run (this process and its workers:
on a shared machine the wall time measures the load as much as the work; the
CPU seconds show what parallel running costs on top of one process), and
"balance": the speed-up N processes would reach on N idle cores given only the
grain of the work — the CPU seconds of every unit of a 1-job run (timed as it
runs) handed out in order to the first free worker, total / longest worker.
"""
from __future__ import annotations

import argparse
import pathlib
import resource
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent))  # an in-place build works too

import numpy as np  # noqa: E402

from kingsolve import bid as B  # noqa: E402
from kingsolve.layout import parse_hand  # noqa: E402
from kingsolve.variants import get_variant  # noqa: E402

SEEDS = {
    "bid_ua3": 20261129_31,
    "bid_ru4": 20261129_32,
    "bid_king52": 20261203_33,
}

CASES = {
    # name: (variant, hand, seat (1-based), seller's trump or None for every seller's game, seed name)
    "ua3-buy+1": ("ua3", "97.KQJ.AKT9.K", 3, "C", "bid_ua3"),
    "ua3-buy+all": ("ua3", "97.KQJ.AKT9.K", 3, None, "bid_ua3"),
    "ru4-buy+1": ("ru4", "♠AK7 ♥AQ ♦K98", 2, "D", "bid_ru4"),
    "ru4-buy+all": ("ru4", "♠AK7 ♥AQ ♦K98", 2, None, "bid_ru4"),
    "king52-auction": ("king52", "AKQJ.AKQ.432.432", 2, "NT", "bid_king52"),
}


def check_known_answer():
    a = B.analyse(get_variant("ru4"), parse_hand("♠AKQJ1098 7"), samples=20, seed=1, games=["S"])
    assert list(a.tricks["own:S"]) == [8] * 20, "every trump must make every trick"


def run_case(name, samples, jobs, runs):
    vid, hand, seat, seller_trump, seed_name = CASES[name]
    variant, mask = get_variant(vid), parse_hand(hand)
    kw = dict(seat=seat - 1, seed=SEEDS[seed_name], seller_trump=seller_trump)
    ref = None
    times, cpu = {}, {}
    for j in sorted({1, jobs}):
        times[j], cpu[j] = [], []
        for _ in range(runs):
            c0 = cpu_seconds()
            t0 = time.perf_counter()
            if j == 1:   # the units are timed in this process (a worker could not pickle the clock)
                with UnitClock() as clock:
                    a = B.analyse(variant, mask, samples=samples, jobs=j, **kw)
                units = clock.units
            else:
                a = B.analyse(variant, mask, samples=samples, jobs=j, **kw)
            times[j].append(time.perf_counter() - t0)
            cpu[j].append(cpu_seconds() - c0)
            if ref is None:
                ref = a
            else:
                for key in ref.tricks:
                    assert np.array_equal(ref.tricks[key], a.tricks[key]), f"{name}: jobs={j} changed {key}"
    half = B.analyse(variant, mask, samples=samples // 2, jobs=jobs, **kw)
    for key in ref.tricks:
        assert np.array_equal(ref.tricks[key][: samples // 2], half.tricks[key]), f"{name}: prefix of {key}"
    solves = samples * len(ref.tricks)
    med = {j: statistics.median(ts) for j, ts in times.items()}
    return med, solves, ref, times, {j: statistics.median(c) for j, c in cpu.items()}, balance(units, jobs)


class UnitClock:
    """Times every unit of work of the runs in this process (jobs=1), wrapping
    ``bid.solve_range``: CPU seconds per unit, in order."""

    def __init__(self):
        self.units = []
        self._solve = B.solve_range

    def __enter__(self):
        def timed(*args, **kwargs):
            t0 = time.process_time()
            out = self._solve(*args, **kwargs)
            self.units.append(time.process_time() - t0)
            return out
        B.solve_range = timed
        return self

    def __exit__(self, *exc):
        B.solve_range = self._solve


def balance(units, workers: int) -> float:
    """Total / makespan of ``units`` (seconds) handed out in order to the first free of ``workers``."""
    free = [0.0] * workers
    for u in units:
        k = free.index(min(free))
        free[k] += u
    return sum(units) / max(free) if max(free) else 1.0


def cpu_seconds() -> float:
    """User and system CPU time of this process and its finished workers."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def answer(a) -> str:
    s = a.summary
    if a.role == "bidder":
        return f"{s['recommended']}, best bid {s['best_bid']} ({s['other_reading']}: {s['best_bid_other_reading']})"
    if s.get("seller_trump"):
        return f"{s['recommended']}, max offer {s['max_offer']}"
    return f"{s['recommended']}, max offers {' '.join(f'{k}:{v}' for k, v in s['offers'].items())}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--samples", type=int, default=1000, help="samples of the ru4 and ua3 cases")
    ap.add_argument("--king52-samples", type=int, default=40, help="samples of the king52 case")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None, choices=sorted(CASES))
    args = ap.parse_args(argv)
    check_known_answer()
    print(f"{'case':<15}{'samples':>8}{'solves':>8}{'1 job s':>10}{f'{args.jobs} jobs s':>10}{'solves/s':>10}"
          f"{'speed-up':>10}{'CPU s':>14}{'balance':>9}  answer; every run's seconds (1 job | {args.jobs} jobs)")
    for name in args.only or CASES:
        samples = args.king52_samples if CASES[name][0] == "king52" else args.samples
        med, solves, a, times, cpu, bal = run_case(name, samples, args.jobs, args.runs)
        t1, tn = med[1], med[args.jobs]
        runs = " ".join(f"{t:.2f}" for t in times[1]) + " | " + " ".join(f"{t:.2f}" for t in times[args.jobs])
        print(f"{name:<15}{samples:>8}{solves:>8}{t1:>10.2f}{tn:>10.2f}{solves / tn:>10.0f}{t1 / tn:>9.2f}×"
              f"{cpu[1]:>7.2f}|{cpu[args.jobs]:<6.2f}{bal:>8.2f}×  {answer(a)}; {runs}", flush=True)


if __name__ == "__main__":
    main()
