"""Benchmarks of the native search core, side by side with DDS on the same deals.

    python benchmarks/bench_core.py [--runs 3] [--quick] [--only NAME ...]

Deals are fixed data (benchmarks/deals.json, only ever appended).  Bridge
results are checked against DDS before anything is timed (that the table size
never changes a King value is a test: tests/test_table_sizes.py).  Each solve
starts from an empty transposition table; set-up is outside the timed part.
Reported per deal set: median milliseconds per solve (median over the deals of
the per-deal median over the runs), DDS's median on the same deals, the ratio
kingsolve / DDS of those medians, the median over the deals of the per-deal
ratio, search nodes per second, the table hit rate, and the ratio of
trick-start positions searched (kingsolve's trick_nodes / DDS's own node count,
which counts the same thing), and the search nodes of one run over the set (the
steady measure: a change to the search's cost shows there, whatever the load).
bench_bridge13_40 is the first 40 deals of the
13-card set (its first 12 are bench_bridge13): with 12 deals the two medians
can fall on different deals, far apart.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
sys.path.insert(1, str(pathlib.Path(__file__).parent.parent))  # an in-place build works too
from common import (  # noqa: E402
    bridge_contract, dds_deal, dds_trick_nodes, dds_tricks, king_erajlash_contract, king_penalty_contract,
    stored_deals)

from kingsolve._core import Search  # noqa: E402
from kingsolve.solver import default_max_tt_log2, default_tt_log2  # noqa: E402


def time_kingsolve(search: Search, jobs, runs: int):
    """jobs: list of (config, hands, leader, side); returns (per-job medians, nodes/s, hit rate,
    per-job trick_nodes, search nodes of one run over the jobs)."""
    per_job = [[] for _ in jobs]
    trick_nodes = [0] * len(jobs)
    nodes = hits = probes = 0
    total_t = 0.0
    for _ in range(runs):
        for i, (config, hands, leader, side) in enumerate(jobs):
            search.configure(*config)
            search.clear()
            search.reset_stats()
            t0 = time.perf_counter()
            search.value(hands, leader, [], 0, side)
            dt = time.perf_counter() - t0
            per_job[i].append(dt)
            total_t += dt
            nodes += search.nodes
            hits += search.tt_hits
            probes += search.tt_probes
            trick_nodes[i] = search.trick_nodes
    return ([statistics.median(x) for x in per_job], nodes / total_t, hits / max(probes, 1), trick_nodes,
            nodes // runs)


def time_dds(jobs, runs: int):
    from endplay.dds.solve import SolveMode, solve_board
    per_job = [[] for _ in jobs]
    for _ in range(runs):
        for i, (hands, leader, trump) in enumerate(jobs):
            d = dds_deal(hands, leader, trump)
            t0 = time.perf_counter()
            solve_board(d, SolveMode.OptimalOne)
            per_job[i].append(time.perf_counter() - t0)
    return [statistics.median(x) for x in per_job]


def bridge_set(name: str, count: int, per_hand: int, runs: int, search: Search, set_name: str | None = None):
    deals = stored_deals(set_name or name, count)
    jobs = []
    for hands, leader, trump in deals:
        side = 0b0101 if leader % 2 == 0 else 0b1010
        config = bridge_contract(per_hand, trump)
        search.configure(*config)
        search.clear()
        got = search.value(hands, leader, [], 0, side)
        want = dds_tricks(hands, leader, trump)
        assert got == want, f"{name}: kingsolve {got} != DDS {want} for {hands} leader {leader} trump {trump}"
        jobs.append((config, hands, leader, side))
    ks, nps, hit, ks_tn, n_nodes = time_kingsolve(search, jobs, runs)
    dds = time_dds(deals, runs)
    dds_tn = [dds_trick_nodes(*d) for d in deals]
    ks_ms = statistics.median(ks) * 1e3
    dds_ms = statistics.median(dds) * 1e3
    return dict(name=name, solves=len(jobs), ks_ms=ks_ms, dds_ms=dds_ms, ratio=ks_ms / dds_ms,
                deal_ratio=statistics.median(a / b for a, b in zip(ks, dds)),
                ks_total=sum(ks) * 1e3, dds_total=sum(dds) * 1e3, nps=nps, hit=hit,
                tn_ratio=sum(ks_tn) / sum(dds_tn), nodes=n_nodes)


def king_set(name: str, count: int, config, runs: int, search: Search, label: str | None = None):
    jobs = []
    for hands, leader, _ in stored_deals(name, count):
        for seat in range(len(hands)):
            jobs.append((config, hands, leader, 1 << seat))
    ks, nps, hit, _, n_nodes = time_kingsolve(search, jobs, runs)
    ks_ms = statistics.median(ks) * 1e3
    nan = float("nan")
    return dict(name=label or name, solves=len(jobs), ks_ms=ks_ms, dds_ms=nan, ratio=nan, deal_ratio=nan,
                ks_total=sum(ks) * 1e3, dds_total=nan, nps=nps, hit=hit, tn_ratio=nan, nodes=n_nodes)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="timed runs per deal (median taken)")
    ap.add_argument("--quick", action="store_true", help="fewer deals")
    ap.add_argument("--only", nargs="*", help="deal sets to run (bench_king13 only when named)")
    ap.add_argument("--tt-log2", type=int, default=None,
                    help="table size (default: what the product uses for the hand size)")
    args = ap.parse_args(argv)
    q = args.quick

    def search_for(per_hand: int) -> Search:
        # the product's table: of the size asked for, else the default, growing as long searches fill it
        if args.tt_log2:
            return Search(args.tt_log2)
        return Search(default_tt_log2(per_hand), default_max_tt_log2(per_hand))
    sets = {
        "bench_bridge8": lambda: bridge_set("bench_bridge8", 20 if q else 60, 8, args.runs, search_for(8)),
        "bench_bridge13": lambda: bridge_set("bench_bridge13", 4 if q else 12, 13, args.runs, search_for(13)),
        "bench_bridge13_40": lambda: bridge_set("bench_bridge13_40", 8 if q else 40, 13, args.runs, search_for(13),
                                                set_name="bench_bridge13"),
        "bench_king8": lambda: king_set("bench_king8", 3 if q else 10, king_penalty_contract(4, 8), args.runs,
                                        search_for(8)),
        "bench_king8_erajlash": lambda: king_set("bench_king8", 3 if q else 10, king_erajlash_contract(4, 8),
                                                 args.runs, search_for(8), "bench_king8_erajlash"),
        # ua3: 32 cards minus the black aces, three seats
        "bench_king10": lambda: king_set("bench_king10", 3 if q else 8, king_penalty_contract(3, 10), args.runs,
                                         search_for(10)),
        "bench_king13": lambda: king_set("bench_king13", 1, king_penalty_contract(4, 13), args.runs,
                                         search_for(13)),
    }
    # The 4-seat 13-card penalty deals take from milliseconds to minutes per seat
    # (benchmarks/README.md), so they run only when asked for.
    names = args.only or [k for k in sets if k != "bench_king13"]
    print(f"{'deal set':22} {'solves':>6} {'ks ms':>9} {'DDS ms':>9} {'ratio':>7} {'per deal':>8} "
          f"{'ks total':>10} {'DDS total':>10} {'Mnodes/s':>9} {'TT hit':>7} {'tnodes':>7} {'nodes':>11}")
    for name in names:
        r = sets[name]()
        print(f"{r['name']:22} {r['solves']:6d} {r['ks_ms']:9.3f} {r['dds_ms']:9.3f} {r['ratio']:7.2f} "
              f"{r['deal_ratio']:8.2f} {r['ks_total']:10.1f} {r['dds_total']:10.1f} {r['nps'] / 1e6:9.2f} "
              f"{r['hit']:7.1%} {r['tn_ratio']:7.2f} {r['nodes']:11,d}", flush=True)


if __name__ == "__main__":
    main()
