"""Full King deals against an independent search (tests/independent.py).

The product's values of every contract of a full ``ru4`` and ``ua3`` deal
(``make_table``: the core with all its tables, bounds and rank equivalence,
and the table's rescaling of related rows) are compared, one seat of each
deal, with a plain alpha-beta that shares no code with the product, rules
included.  Ten fresh random deals of each variant a run; the seed is in the
failure message, and ``KINGSOLVE_INDEPENDENT_SEED=<seed>`` replays it.

Cost: the plain search visits a few million trick starts for one seat of a
deal (every contract), some deals many more; ten deals of a variant take
about 40 s of CPU for seed 1, hard seeds several times that.  Each search
starts from the product's value as its guess (two tests prove it when it is
right; the value is what the tests prove, whatever the guess), and the
searches are spread over every core.  Only one seat a deal (each deal another
seat): every seat of every deal would take four (ru4) or three (ua3) times as
long.
"""
from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest
from independent import game, normal_form, seat_value, solve_job
from strategies import random_layout

from kingsolve.table import make_table
from kingsolve.variants import get_variant

DEALS = 10


def run_seed() -> int:
    text = os.environ.get("KINGSOLVE_INDEPENDENT_SEED", "").strip()
    return int(text) if text else random.SystemRandom().randrange(1 << 32)


@pytest.mark.parametrize("vid", ["ru4", "ua3"])
def test_full_deals_every_contract_against_an_independent_search(vid):
    seed = run_seed()
    rng = random.Random(seed)
    variant = get_variant(vid)
    n = variant.n_seats
    checks = []     # (what, product value, job key, unit)
    jobs = {}       # job key (normal form, deal, seat) -> job
    for k in range(DEALS):
        layout = random_layout(variant, rng, first=rng.randrange(n))
        seat = k % n
        for row in make_table(layout, variant).rows:
            c = row.contract
            form, unit = normal_form(game(vid, c.name, c.trump))
            key = (form, layout.hands, layout.first, seat)
            jobs.setdefault(key, (vid, c.name, c.trump, layout.hands, layout.first, seat, row.values[seat]))
            checks.append((f"deal {k} {layout} {c!r} seat {seat + 1}", row.values[seat], key, unit))
    keys = list(jobs)
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = dict(zip(keys, pool.map(solve_job, [jobs[key] for key in keys])))
    wrong = [f"{what}: product {value}, independent {results[key][0] * unit}"
             for what, value, key, unit in checks if results[key][0] * unit != value]
    assert not wrong, (f"seed {seed} (KINGSOLVE_INDEPENDENT_SEED={seed} replays it), "
                       f"{len(wrong)} of {len(checks)} values differ:\n" + "\n".join(wrong))
    # every contract: 7 penalty deals, their 7 mirrors, trump (4 suits),
    # misère and tricks (no trump or a suit)
    assert len(checks) == DEALS * 28


@pytest.mark.parametrize("name", ["no-king", "plus-last-two", "no-last-two", "plus-hearts"])
def test_the_guess_orders_the_work_never_the_value(name):
    """The independent search's value is what its tests prove: a right guess,
    a wrong one (above or below), one off the contract's scale, or none give
    the same value.  (A deal where seat 4 takes points in each of these cheap
    contracts, so that a guess too low is one it does reach.)"""
    layout = random_layout(get_variant("ru4"), random.Random(32), first=1)
    g = game("ru4", name, None)
    unit = normal_form(g)[1]
    value, _ = seat_value(g, layout.hands, layout.first, 3)
    assert value != 0
    for guess in (value, value - unit, value + unit, value - 3 * unit, value + 3 * unit, value - 1, -1000, 1000):
        assert seat_value(g, layout.hands, layout.first, 3, guess)[0] == value, guess
