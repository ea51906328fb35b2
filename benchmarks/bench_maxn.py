"""Benchmarks of the each-for-himself (max^n) search, one thread.

    python benchmarks/bench_maxn.py [--layouts 5] [--runs 3] [--only ru4 ua3 king52]
                                    [--tie-break neutral|pessimistic] [--ablation | --nodes]

ru4 and ua3: a whole deal from the first lead (seat 1), every contract and trump
of the variant, every seat's vector (``EachSearch.value``, neutral tie rule);
king52: endings of 7 cards a hand (28 cards dealt from the 52, the rest already
played), every contract and trump, seat 1 on lead.  Each solve starts on an
empty vector table of 2^18 entries (a new EachSearch, whose table grows to 2^20
entries when a search stores more positions than it holds); set-up is outside
the timed part.
Reported per variant: the median over every (layout, contract) of the per-solve
median over the runs (wall clock, and the thread's CPU time, which a loaded
machine inflates less), the slowest contract's median, the median and total
nodes, the table's hit rate, and the searches shallow pruning stopped (what
each technique saves: --ablation).

--ablation: node counts with each technique switched off in turn (the vector
table, rank equivalence, shallow pruning), summed over the layouts, on the same
deals: endings of 6 cards a hand (without the table 5), as whole deals without
rank equivalence take more than ten minutes a layout.  The values are checked
equal to the full search's.

--nodes: per contract, summed over the layouts (one run each: node counts do
not depend on the machine), the nodes, the table's probes and hits, and the
searches shallow pruning stopped (after a card / before any card or on a
bound kept in the table), with the vector of the first layout as a check
that a change kept the values.

Random layouts come from a fixed seed, so every run times the same deals.
"""
from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time
from collections import defaultdict

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent))  # an in-place build works too

from kingsolve._core import EachSearch  # noqa: E402
from kingsolve.cards import cards_of  # noqa: E402
from kingsolve.table import all_contracts, contract_label  # noqa: E402
from kingsolve.variants import get_variant  # noqa: E402

SEED = 20261203
HAND = {"ru4": None, "ua3": None, "king52": 7}


def hands_for(variant, rng: random.Random, size: int | None) -> list:
    k = variant.hand_size if size is None else size
    cards = sorted(cards_of(variant.deck))
    rng.shuffle(cards)
    out = []
    for s in range(variant.n_seats):
        m = 0
        for c in cards[s * k:(s + 1) * k]:
            m |= 1 << c
        out.append(m)
    return out


def jobs_for(vid: str, layouts: int, size: int | None):
    """[(label, rules args, hands)] for every contract of every layout."""
    v = get_variant(vid)
    rng = random.Random(f"{SEED}-{vid}-{size}")
    out = []
    for _ in range(layouts):
        hands = hands_for(v, rng, size)
        for con in all_contracts(v):
            r = con.deal_rules(size)
            args = (r.n_seats, r.trump, r.inverted, r.card_points, r.trick_points, r.lead_restricted,
                    r.discard_forced)
            out.append((contract_label(con), args, hands))
    return out


def solve(args, hands, tie_break: str = "neutral", switches=(True, True, True)):
    es = EachSearch(18)
    es.configure(*args)
    es.techniques(*switches)
    es.reset_stats()
    t0 = time.perf_counter()
    c0 = time.thread_time()
    vec = es.value(hands, 0, [], 0, tie_break)
    return vec, (time.perf_counter() - t0, time.thread_time() - c0), es.stats


def bench(vid: str, layouts: int, runs: int, tie_break: str) -> None:
    per_contract = defaultdict(list)
    per_contract_cpu = defaultdict(list)
    times, cpu, nodes, hits, probes, cuts, bound_cuts = [], [], [], 0, 0, 0, 0
    for label, args, hands in jobs_for(vid, layouts, HAND[vid]):
        ts, cs = [], []
        for _ in range(runs):
            _, (dt, ct), st = solve(args, hands, tie_break)
            ts.append(dt)
            cs.append(ct)
        t = statistics.median(ts)
        times.append(t)
        cpu.append(statistics.median(cs))
        per_contract[label].append(t)
        per_contract_cpu[label].append(cpu[-1])
        nodes.append(st["nodes"])
        hits += st["tt_hits"]
        probes += st["tt_probes"]
        cuts += st["cuts"]
        bound_cuts += st["bound_cuts"]
    worst = max(per_contract, key=lambda k: statistics.median(per_contract[k]))
    size = f"{HAND[vid]} cards a hand" if HAND[vid] else "whole deal"
    print(f"{vid:7} {size:17} {len(times):4} solves  median {statistics.median(times) * 1000:8.1f} ms "
          f"(thread CPU {statistics.median(cpu) * 1000:.1f} ms)  "
          f"slowest contract {worst} {statistics.median(per_contract[worst]) * 1000:.1f} ms "
          f"(CPU {statistics.median(per_contract_cpu[worst]) * 1000:.1f} ms, worst solve "
          f"{max(per_contract_cpu[worst]) * 1000:.1f} ms)  "
          f"max {max(times) * 1000:.1f} ms  median nodes {statistics.median(nodes):,.0f}  "
          f"total nodes {sum(nodes):,}  hit rate {hits / max(probes, 1):.3f}  "
          f"shallow cuts {cuts:,} after a card, {bound_cuts:,} before any card")


SWITCHES = {"no table": (False, True, True), "no rank equivalence": (True, False, True),
            "no shallow pruning": (True, True, False)}


def nodes(vid: str, layouts: int, tie_break: str) -> None:
    per = defaultdict(lambda: defaultdict(int))
    first = {}
    for label, args, hands in jobs_for(vid, layouts, HAND[vid]):
        vec, _, st = solve(args, hands, tie_break)
        first.setdefault(label, vec)
        for k, x in st.items():
            per[label][k] += x
    total = defaultdict(int)
    print(f"{vid} {tie_break}, {layouts} layouts: contract, nodes, table probes/hits, cuts after a card / before any card")
    for label, st in per.items():
        for k, x in st.items():
            total[k] += x
        print(f"  {label:14} {st['nodes']:13,} {st['tt_probes']:12,} {st['tt_hits']:12,} "
              f"{st['cuts']:11,} {st['bound_cuts']:11,}  {first[label]}")
    print(f"  {'all':14} {total['nodes']:13,} {total['tt_probes']:12,} {total['tt_hits']:12,} "
          f"{total['cuts']:11,} {total['bound_cuts']:11,}  hit rate {total['tt_hits'] / max(total['tt_probes'], 1):.3f}")


def ablation(vid: str, layouts: int) -> None:
    for name, sw in SWITCHES.items():
        size = 5 if name == "no table" else 6
        full = off = cuts = 0
        t_full = t_off = 0.0
        for label, args, hands in jobs_for(vid, layouts, size):
            ref, (dt, _), st = solve(args, hands)
            full += st["nodes"]
            cuts += st["cuts"] + st["bound_cuts"]
            t_full += dt
            vec, (dt, _), st = solve(args, hands, switches=sw)
            assert vec == ref, (vid, label, name, vec, ref)
            off += st["nodes"]
            t_off += dt
        where = f"{size} cards a hand" if size else "whole deals"
        print(f"{vid:7} {name:20} {where:17} nodes {off:14,} against {full:12,} with it: x{off / max(full, 1):.2f}"
              f"  ({t_off:.2f} s against {t_full:.2f} s; prunings with it {cuts:,})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--layouts", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=["ru4", "ua3", "king52"])
    ap.add_argument("--tie-break", choices=["neutral", "pessimistic"], default="neutral")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--ablation", action="store_true")
    mode.add_argument("--nodes", action="store_true")
    a = ap.parse_args()
    for vid in a.only:
        if a.ablation:
            ablation(vid, a.layouts)
        elif a.nodes:
            nodes(vid, a.layouts, a.tie_break)
        else:
            bench(vid, a.layouts, a.runs, a.tie_break)


if __name__ == "__main__":
    main()
