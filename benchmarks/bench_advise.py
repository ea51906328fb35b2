"""Benchmark of ``kingsolve advise``: wall time of play and order decisions,
with 1 and N worker processes.

    python benchmarks/bench_advise.py [--runs 3] [--jobs 2] [--only NAME ...]

Issue 30's targets (2 cores): a ru4 or ua3 play decision at 500 samples in at
most 2 s with --jobs 2; order advice for a ru4 hand over all 14 deal types at
200 samples in at most 10 s; the single-dummy marks of the three textbook
examples (``verify --single-dummy``) in at most 60 s.  Play decisions are timed at trick 1 (the seat
leads its whole hand: the dearest point, every card valued over full hands)
and later in the deal (after a random legal play from a fixed deal: seed
below; the deal is ``kingsolve.knowledge.random_deal``'s).  Every timed run
must return the same values as the first (a --jobs invariance check).  Reported: the median wall time over the runs, samples per
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

from kingsolve.advise import drop_solvers, order_advice, play_advice  # noqa: E402
from kingsolve.cards import cards_of  # noqa: E402
from kingsolve.engine import Position, legal_mask, play  # noqa: E402
from kingsolve.knowledge import random_deal, rng_for  # noqa: E402
from kingsolve.layout import parse_hand  # noqa: E402
from kingsolve.variants import get_variant  # noqa: E402

SEEDS = {
    "advise_deal": 20261203_41,
    "advise_samples": 20261203_42,
}

RU4_HAND = "♠AK7 ♥Q9 ♦J8 ♣7"
UA3_HAND = "♠KQ ♥AQJ10 ♦AJ7 ♣10"

# name: (variant, contract, tricks played before the decision, samples)
PLAY_CASES = {
    "ru4-no-tricks-t1": ("ru4", "no-tricks", 0, 500),
    "ru4-no-hearts-t1": ("ru4", "no-hearts", 0, 500),
    "ru4-no-tricks-t3": ("ru4", "no-tricks", 2, 500),
    "ru4-erajlash-t3": ("ru4", "erajlash", 2, 500),
    "ua3-no-tricks-t1": ("ua3", "no-tricks", 0, 500),
    "ua3-no-hearts-t4": ("ua3", "no-hearts", 3, 500),
    "ua3-trump-t1": ("ua3", "trump", 0, 500),
}
ORDER_CASES = {"ru4-order-14": ("ru4", RU4_HAND, 200)}
SINGLE_DUMMY_SAMPLES = 20
EXAMPLES = pathlib.Path(__file__).parent.parent / "examples"


def play_question(vid, contract_name, tricks):
    """(variant, contract, seat, hand, played): trick 1 with the fixed hand, or a
    fixed random deal played at random for ``tricks`` tricks, the seat to move asking."""
    v = get_variant(vid)
    con = v.contract(contract_name, "D" if contract_name == "trump" else "default")
    if tricks == 0:
        return v, con, 0, parse_hand(RU4_HAND if vid == "ru4" else UA3_HAND), []
    hands = random_deal(v, SEEDS["advise_deal"], 0)
    rng = rng_for(SEEDS["advise_deal"], 1)       # the random play: a stream apart from the deal's
    rules = con.deal_rules()
    pos = Position(hands, 0)
    played = []
    for _ in range(tricks * v.n_seats):
        legal = list(cards_of(legal_mask(rules, pos)))
        x = legal[int(rng.integers(len(legal)))]
        played.append(x)
        pos = play(rules, pos, x).position
    return v, con, pos.to_move, hands[pos.to_move], played


def time_runs(fn, runs):
    times, first = [], None
    for _ in range(runs):
        # every run starts cold, as `kingsolve advise` does: the solvers of an
        # earlier run hold its samples' answers, and forked workers inherit
        # them (a ru4 play decision with --jobs 2 after a 1-job run took
        # 1.4-2.5 s against 11-16 s cold, once its duck tables could grow)
        drop_solvers()
        t0 = time.perf_counter()
        a = fn()
        times.append(time.perf_counter() - t0)
        if first is None:
            first = a.values
        elif not np.array_equal(first, a.values):
            raise SystemExit("a run gave other values than the first: results depend on --jobs")
    return statistics.median(times), first


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args(argv)
    seed = SEEDS["advise_samples"]
    print(f"{'case':<20}{'samples':>8}{'1 job s':>10}{f'{args.jobs} jobs s':>10}{'samples/s':>11}{'speed-up':>10}")
    for name, (vid, con_name, tricks, n) in PLAY_CASES.items():
        if args.only and name not in args.only:
            continue
        v, con, seat, hand, played = play_question(vid, con_name, tricks)
        t = {}
        ref = None
        for j in sorted({1, args.jobs}):
            t[j], vals = time_runs(lambda: play_advice(v, con, seat, hand, played=played, samples=n, seed=seed,
                                                       jobs=j), args.runs)
            if ref is None:
                ref = vals
            elif not np.array_equal(ref, vals):
                raise SystemExit(f"{name}: --jobs {j} changed the values")
        tj = t[args.jobs]
        print(f"{name:<20}{n:>8}{t[1]:>10.2f}{tj:>10.2f}{n / tj:>11.0f}{t[1] / tj:>10.2f}")
    for name, (vid, hand, n) in ORDER_CASES.items():
        if args.only and name not in args.only:
            continue
        v = get_variant(vid)
        t = {}
        for j in sorted({1, args.jobs}):
            t[j], _ = time_runs(lambda: order_advice(v, 0, parse_hand(hand), samples=n, seed=seed, jobs=j),
                                args.runs)
        tj = t[args.jobs]
        print(f"{name:<20}{n:>8}{t[1]:>10.2f}{tj:>10.2f}{n / tj:>11.0f}{t[1] / tj:>10.2f}")
    if not args.only or "examples-single-dummy" in args.only:
        from kingsolve.kdn import parse_kdn
        from kingsolve.verify import verify_record
        recs = [r for f in sorted(EXAMPLES.glob("*.kdn")) for r in parse_kdn(f.read_text(encoding="utf-8"))]
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            graded = sum(1 for r in recs
                         if verify_record(r, single_dummy=SINGLE_DUMMY_SAMPLES, seed=seed).single_samples)
            times.append(time.perf_counter() - t0)
        print(f"{'examples-single-dummy':<20}{SINGLE_DUMMY_SAMPLES:>8}{statistics.median(times):>10.2f}"
              f"  ({graded} of {len(recs)} records graded; an unfinished one over the hands of 3 of its deals; "
              f"one process)")


if __name__ == "__main__":
    main()
