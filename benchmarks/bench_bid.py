"""Benchmark of ``kingsolve bid``: wall time of a whole simulation, 1 and N
worker processes, and the speed-up.

    python benchmarks/bench_bid.py [--runs 3] [--samples 1000] [--jobs 2] [--only NAME ...]

Every case is a real command-line question (the hand of docs/bid.md's example
and a ru4 hand), 1000 samples, every game the seat could name.  "buy+1" also
solves the defence of the seller's named trump (the usual question: the buyer
knows it); "buy+all" the defence of every seller's game (when it is not given).
Fixed seeds (below; only ever appended).  Before anything is timed, a known
answer is checked (every trump: every trick); every timed run must return the
same counts as the first (so the timing is also a --jobs invariance check).
Reported: the median wall time over the runs for 1 and N processes, solves per
second, and the speed-up.
"""
from __future__ import annotations

import argparse
import pathlib
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
}

CASES = {
    # name: (variant, hand, seller's trump or None for every seller's game, seed name)
    "ua3-buy+1": ("ua3", "♠KQ ♥AQJ10 ♦AJ7 ♣10", "C", "bid_ua3"),
    "ua3-buy+all": ("ua3", "♠KQ ♥AQJ10 ♦AJ7 ♣10", None, "bid_ua3"),
    "ru4-buy+1": ("ru4", "♠AK7 ♥AQ ♦K98", "D", "bid_ru4"),
    "ru4-buy+all": ("ru4", "♠AK7 ♥AQ ♦K98", None, "bid_ru4"),
}


def check_known_answer():
    a = B.analyse(get_variant("ru4"), parse_hand("♠AKQJ1098 7"), samples=20, seed=1, games=["S"])
    assert list(a.tricks["own:S"]) == [8] * 20, "every trump must make every trick"


def run_case(name, samples, jobs, runs):
    vid, hand, seller_trump, seed_name = CASES[name]
    variant, mask = get_variant(vid), parse_hand(hand)
    ref = None
    times = {}
    for j in sorted({1, jobs}):
        times[j] = []
        for _ in range(runs):
            t0 = time.perf_counter()
            a = B.analyse(variant, mask, samples=samples, seed=SEEDS[seed_name], seller_trump=seller_trump, jobs=j)
            times[j].append(time.perf_counter() - t0)
            if ref is None:
                ref = a
            else:
                for key in ref.tricks:
                    assert np.array_equal(ref.tricks[key], a.tricks[key]), f"{name}: jobs={j} changed {key}"
    solves = samples * len(ref.tricks)
    med = {j: statistics.median(ts) for j, ts in times.items()}
    return med, solves, ref


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None, choices=sorted(CASES))
    args = ap.parse_args(argv)
    check_known_answer()
    print(f"{'case':<13}{'solves':>8}{'1 job s':>10}{f'{args.jobs} jobs s':>10}{'solves/s':>10}{'speed-up':>10}"
          f"  recommended, max offer")
    for name in args.only or CASES:
        med, solves, a = run_case(name, args.samples, args.jobs, args.runs)
        t1, tn = med[1], med[args.jobs]
        print(f"{name:<13}{solves:>8}{t1:>10.2f}{tn:>10.2f}{solves / tn:>10.0f}{t1 / tn:>9.2f}×"
              f"  {a.summary['recommended']}, {a.summary['max_offer']}", flush=True)


if __name__ == "__main__":
    main()
