"""Benchmarks of whole King tables and of single king52 contracts.

    python benchmarks/bench_table.py [--layouts 10] [--runs 3] [--only ru4 ua3 king52] [--jobs N]
    python benchmarks/bench_table.py --only king52-table --layouts 2 --jobs 2 [--time-limit S]

ru4 and ua3: ``make_table`` over every contract and trump of the variant (the rows
``kingsolve table`` prints), every seat against the rest, the first seat on lead,
one fresh Solver per table with the default table size, as the CLI does (the
layout's check and the Python set-up are timed too).  Reported:
the median over the layouts of the per-layout median over the runs, and the
slowest contracts (their share of the total).

king52: one contract for one seat (seat 1 against the rest, seat 1 on lead),
each solve on an empty table of the product's default (growing in long
searches); median per contract over the layouts, and the largest the main
table grew to.

king52-table: whole king52 tables on ``--jobs`` lanes (``kingsolve table -V
king52 -j 2``): the time of each and the peak resident memory (issue 31: within
1 GB with two lanes).

Random layouts come from fixed seeds (numpy SeedSequence), so every run times the
same deals.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time
from collections import defaultdict

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent))  # an in-place build works too

from kingsolve.knowledge import random_deal  # noqa: E402
from kingsolve.layout import Layout  # noqa: E402
from kingsolve.solver import Deal, Interval, deadline_after, solver_for, timed_value  # noqa: E402
from kingsolve.table import all_contracts, contract_label, make_table  # noqa: E402
from kingsolve.variants import get_variant  # noqa: E402

SEED = 20261130


def layouts(variant, count: int) -> list[Layout]:
    """The benchmark's deals: deals 0 .. count-1 of ``SEED`` as ``stats`` deals them."""
    return [Layout(random_deal(variant, SEED, k), 0) for k in range(count)]


def bench_tables(vid: str, n_layouts: int, runs: int, tt_log2: int | None = None, jobs: int = 1) -> None:
    variant = get_variant(vid)
    contracts = all_contracts(variant)
    per_layout = []
    per_contract = defaultdict(list)
    nodes = []
    for lay in layouts(variant, n_layouts):
        times = []
        for _ in range(runs):
            solver = solver_for(lay.hand_size, tt_log2) if jobs == 1 else None
            stamps = []
            cells = [0]

            def tick(k, stamps=stamps, cells=cells):
                # progress counts cells: a row's time ends with its last cell
                rows_before = cells[0] // variant.n_seats
                cells[0] += k
                stamps.extend([time.perf_counter()] * (cells[0] // variant.n_seats - rows_before))

            t0 = time.perf_counter()
            make_table(lay, variant, leader=0, contracts=contracts, solver=solver, jobs=jobs, tt_log2=tt_log2,
                       progress=tick)
            for c, t_prev, t_row in zip(contracts, [t0] + stamps, stamps):
                per_contract[contract_label(c)].append(t_row - t_prev)
            times.append(stamps[-1] - t0)
            if solver is not None:
                nodes.append(solver.stats["nodes"])
        per_layout.append(statistics.median(times))
    med = statistics.median(per_layout) * 1e3
    total = sum(sum(v) for v in per_contract.values())
    top = sorted(per_contract.items(), key=lambda kv: -sum(kv[1]))[:5]
    nodes_text = (f"{statistics.median(nodes) / 1e3:.0f}k nodes, {sum(nodes) // runs:,} over the layouts"
                  if nodes else f"{jobs} threads")
    print(f"{vid} table: {len(contracts)} contracts x {variant.n_seats} seats, {n_layouts} layouts: "
          f"median {med:.1f} ms per table (min {min(per_layout) * 1e3:.1f}, max {max(per_layout) * 1e3:.1f}); "
          f"{nodes_text}")
    print("  slowest: " + ", ".join(f"{k} {sum(v) / total:.0%}" for k, v in top), flush=True)


PENALTY = ["no-tricks", "no-hearts", "no-girls", "no-kings-jacks", "no-king", "no-last-two"]


def _spread(xs, limit=None) -> str:
    # median, 90th percentile and max of seconds; with a time limit, a figure
    # at the limit is a lower bound (that search was stopped there)
    def one(x):
        return ("≥" if limit and x >= limit else "") + f"{x:.2f}s"
    return (f"median {one(float(np.median(xs)))}, p90 {one(float(np.percentile(xs, 90)))}, "
            f"max {one(max(xs))}")


def bench_king52(n_layouts: int, runs: int, names, time_limit: float | None = None) -> None:
    variant = get_variant("king52")
    every = all_contracts(variant)
    # a name (no-girls, or trump for every trump) or a label (trump:H, minus:S)
    contracts = [c for c in every if names is None or c.name in names or contract_label(c) in names]
    unknown = set(names or ()) - {c.name for c in every} - {contract_label(c) for c in every}
    if unknown:
        raise SystemExit(f"bench_table: no king52 contract {', '.join(sorted(unknown))} "
                         f"(names: {', '.join(sorted({c.name for c in every}))}; or labels such as minus:H)")
    every_time = []
    for c in contracts:
        per_layout, nodes, table_mb = [], [], []
        for lay in layouts(variant, n_layouts):
            deal = Deal.from_layout(c, lay, 0)
            times = []
            for _ in range(runs):
                solver = solver_for(13)
                t0 = time.perf_counter()
                got = timed_value(solver, deal, 1, deadline=deadline_after(time_limit))
                times.append(time.perf_counter() - t0)
                if isinstance(got, Interval):
                    times[-1] = max(times[-1], time_limit)
            per_layout.append(statistics.median(times))
            nodes.append(solver.stats["nodes"])
            table_mb.append(solver._search.table_bytes / 2 ** 20)
            if time_limit:
                print(f"  {contract_label(c)} layout {len(per_layout) - 1}: {per_layout[-1]:.2f} s, "
                      f"{nodes[-1] / 1e6:.2f}M nodes, {got}", flush=True)
        if c.name in PENALTY:
            every_time += per_layout
        print(f"king52 {contract_label(c):>16}: median {statistics.median(per_layout) * 1e3:9.1f} ms, "
              f"max {max(per_layout) * 1e3:9.1f} ms, nodes median {statistics.median(nodes) / 1e6:.2f}M "
              f"max {max(nodes) / 1e6:.2f}M, table up to {max(table_mb):.0f} MB  ({n_layouts} layouts, seat 1)"
              f"; {_spread(per_layout, time_limit)}", flush=True)
    if every_time:
        print(f"king52 penalty contracts, seat 1, {len(every_time)} searches: {_spread(every_time, time_limit)}"
              + (f" (each stopped at {time_limit:g} s)" if time_limit else ""), flush=True)


def bench_king52_tables(n_layouts: int, jobs: int, time_limit: float | None = None) -> None:
    """Whole king52 tables (every contract, every seat) as ``kingsolve table -V
    king52 -j JOBS`` solves them, one after the other in this process: the time
    of each, its cells left an interval by the time limit, and the peak
    resident memory of the process so far (the lanes' tables at their largest)."""
    import resource
    variant = get_variant("king52")
    for k, lay in enumerate(layouts(variant, n_layouts)):
        t0 = time.perf_counter()
        table = make_table(lay, variant, leader=0, jobs=jobs, time_limit=time_limit)
        took = time.perf_counter() - t0
        cells = [v for r in table.rows for v in r.values]
        inexact = sum(isinstance(v, Interval) for v in cells)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024     # kB on Linux
        print(f"king52 table, layout {k}, {jobs} lanes: {took:.1f} s, {len(cells) - inexact} of {len(cells)} cells "
              f"exact" + (f" (each cell stopped at {time_limit:g} s)" if time_limit else "")
              + f"; peak resident memory so far {peak:.0f} MB", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layouts", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=["ru4", "ua3", "king52"],
                    help="ru4 ua3 king52, or king52-table: whole king52 tables on --jobs lanes (at least 2) "
                         "and the peak memory")
    ap.add_argument("--contracts", nargs="*", help="king52 contract names (default: all)")
    ap.add_argument("--tt-log2", type=int, default=None,
                    help="table size for ru4/ua3 (default: what the product uses)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="ru4/ua3: cells solved at once in threads (make_table's jobs; the times of a "
                         "row are then from the previous row's end to its own)")
    ap.add_argument("--time-limit", type=float, default=None,
                    help="king52: stop each search after this many seconds (counted as at least that)")
    args = ap.parse_args(argv)
    for vid in args.only:
        if vid == "king52-table":
            bench_king52_tables(args.layouts, max(args.jobs, 2), args.time_limit)
        elif vid == "king52":
            bench_king52(args.layouts, args.runs, args.contracts, args.time_limit)
        else:
            bench_tables(vid, args.layouts, args.runs, args.tt_log2, args.jobs)


if __name__ == "__main__":
    main()
