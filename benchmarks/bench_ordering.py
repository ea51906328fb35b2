"""How much of a search is the cost of its move order: every query answered
again with the refutations its last search found tried first
(``Search.order_oracle``), until the node count settles.

    KINGSOLVE_ORDER_ORACLE=1 python setup.py build_ext --inplace --force   # the memo compiled in
    python benchmarks/bench_ordering.py [--variant ru4] [--layouts 3] [--rounds 4]
    python benchmarks/bench_ordering.py --variant king52 --contracts no-tricks --layouts 3 [--target -120]

Round 0 is the product's search on an empty table.  Before each later round
the table is emptied and the memo of the cards that cut off is kept, so the
search meets the positions of the round before with a refuting card first;
it converges on the search with a perfect move order along the refutations it
found.  The last round over round 0 bounds what any move-ordering heuristic
could save on these queries (a smaller proof along other refutations is not
ruled out, so it is an estimate, not a proof of the minimum).

ru4 / ua3: every contract and seat of each layout (each cell a lone seat's
``value`` with a fresh Solver, no guesses; the rescaled rows of ``kingsolve
table`` counted too).  king52: seat 1 in each chosen contract (its
``value``, or with ``--target`` one zero-window ``reaches``): these take
seconds to minutes a round.

The product's build leaves the memo out of the search's innermost loop (the
same nodes, fewer instructions: benchmarks/README.md), so this needs the
build above; rebuild without the variable (``--force``) afterwards.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time
from collections import defaultdict

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent))  # an in-place build works too
sys.path.insert(0, str(pathlib.Path(__file__).parent))

from bench_table import layouts  # noqa: E402

from kingsolve.solver import Deal, long_deal, solver_for  # noqa: E402
from kingsolve.table import all_contracts, contract_label  # noqa: E402
from kingsolve.variants import get_variant  # noqa: E402


def rounds_of(deal: Deal, side: int, hand_size: int, rounds: int, memo_log2: int, target=None) -> list[int]:
    """Nodes of each round of one query (see the module's docstring); the
    answers of every round must agree."""
    solver = solver_for(hand_size)
    search = solver._search
    search.order_oracle(memo_log2)
    nodes, answers = [], set()
    for _ in range(rounds):
        search.clear()
        n0 = search.nodes
        answers.add(solver.value(deal, side) if target is None else solver.reaches(deal, side, target))
        nodes.append(search.nodes - n0)
    assert len(answers) == 1, f"the answers differ between rounds: {answers}"
    return nodes


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ru4")
    ap.add_argument("--layouts", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--contracts", nargs="*", help="contract labels (default: all; king52: no-tricks)")
    ap.add_argument("--seat", type=int, default=1, help="king52: the lone seat (1-based)")
    ap.add_argument("--target", type=int, default=None, help="king52: ask reaches(target) instead of the value")
    ap.add_argument("--memo-log2", type=int, default=None,
                    help="memo entries, 2**N (default 20 for short hands, 26 for king52)")
    args = ap.parse_args(argv)
    variant = get_variant(args.variant)
    every = all_contracts(variant)
    names = args.contracts or (["no-tricks"] if long_deal(variant.hand_size) else None)
    chosen = [c for c in every if names is None or c.name in names or contract_label(c) in names]
    if not chosen:
        raise SystemExit(f"bench_ordering: no {variant.id} contract among {names}")
    is_long = long_deal(variant.hand_size)
    memo = args.memo_log2 or (26 if is_long else 20)
    seats = [args.seat - 1] if is_long else range(variant.n_seats)
    per_contract = defaultdict(lambda: [0] * args.rounds)
    t0 = time.perf_counter()
    for k, lay in enumerate(layouts(variant, args.layouts)):
        for c in chosen:
            deal = Deal.from_layout(c, lay, 0)
            for seat in seats:
                nodes = rounds_of(deal, 1 << seat, variant.hand_size, args.rounds, memo, args.target)
                for r, x in enumerate(nodes):
                    per_contract[contract_label(c)][r] += x
                if is_long:
                    print(f"layout {k} {contract_label(c)} seat {seat + 1}: "
                          + " -> ".join(f"{x / 1e6:.2f}M" for x in nodes), flush=True)
    total = [sum(v[r] for v in per_contract.values()) for r in range(args.rounds)]
    print(f"{variant.id}, {args.layouts} layouts, {len(chosen)} contracts x {len(seats)} seats "
          f"({time.perf_counter() - t0:.0f} s): nodes by round " + " -> ".join(f"{x / 1e6:.3f}M" for x in total)
          + f"; the last round is {total[-1] / total[0]:.2f} of the first")
    if not is_long:
        for label, v in sorted(per_contract.items(), key=lambda kv: -kv[1][0])[:8]:
            print(f"  {label:<14} {v[0] / 1e3:8.0f}k -> {v[-1] / 1e3:8.0f}k  ({v[-1] / v[0]:.2f})")


if __name__ == "__main__":
    main()
