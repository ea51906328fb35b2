"""The native core against DDS on bridge deals (trick_points all 1, no card points).

Golden cases (tests/golden/bridge_dds.json, made by benchmarks/make_golden.py)
always run, every deal for every leader.  A live comparison against DDS
(endplay, a declared test dependency) runs on fresh random deals every run:
every legal card's score, DDS's against kingsolve's card values in the
``tricks`` contract for the partnership of the seat to move.  Its seed is in
every failure message; ``KINGSOLVE_DDS_SEED=<seed>`` replays that run.
"""
from __future__ import annotations

import json
import os
import pathlib
import random

import pytest
from strategies import random_hands

from kingsolve._core import Search
from kingsolve.layout import Layout
from kingsolve.solver import Deal, Solver
from kingsolve.variants import get_variant

GOLDEN = pathlib.Path(__file__).parent / "golden" / "bridge_dds.json"
RANKS = "23456789TJQKA"


def from_pbn(pbn: str) -> list[int]:
    first, rest = pbn.split(":", 1)
    start = "NESW".index(first)
    hands = [0, 0, 0, 0]
    for i, text in enumerate(rest.split()):
        for s, holding in enumerate(text.split(".")):
            for ch in holding:
                hands[(start + i) % 4] |= 1 << (s * 16 + RANKS.index(ch))
    return hands


def to_pbn(hands: list[int]) -> str:
    return "N:" + " ".join(
        ".".join("".join(RANKS[r] for r in range(12, -1, -1) if (h >> (s * 16 + r)) & 1)
                 for s in range(4)) for h in hands)


CASES = json.loads(GOLDEN.read_text())["cases"]


@pytest.fixture(scope="module")
def search():
    return Search(20)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['cards']}c-{i}" for i, c in enumerate(CASES)])
def test_golden_bridge_deal(search, case):
    hands = from_pbn(case["pbn"])
    assert to_pbn(hands) == case["pbn"]
    trump = -1 if case["trump"] == "NT" else "SHDC".index(case["trump"])
    n = case["cards"]
    search.configure(4, trump, False, [0] * 64, [1] * n, 0, 0)
    for leader in range(4):
        tricks = case["tricks_by_leader"][leader]
        side = 0b0101 if leader % 2 == 0 else 0b1010
        assert search.value(hands, leader, [], 0, side) == tricks
        # the other partnership takes the rest
        assert search.value(hands, leader, [], 0, side ^ 0b1111) == n - tricks


def live_seed() -> int:
    """KINGSOLVE_DDS_SEED if set (to replay a failure), else a fresh seed."""
    text = os.environ.get("KINGSOLVE_DDS_SEED", "").strip()
    return int(text) if text else random.SystemRandom().randrange(1 << 32)


LIVE_DEALS = 40


def test_live_against_endplay():
    """Fresh random deals of 1..10 cards a hand (and one full 13-card deal),
    any trump, any leader, a third of them with the first cards of the trick
    already on the table: every legal card of the seat to move gets the same
    score (tricks its partnership takes from this trick on) from DDS and from
    kingsolve's card values."""
    dds = pytest.importorskip("endplay.dds")
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as DdsDeal, Denom, Player

    seed = live_seed()
    rnd = random.Random(seed)
    variant = get_variant("king52")
    solver = Solver(18)
    for it in range(LIVE_DEALS):
        per_hand = 13 if it == LIVE_DEALS - 1 else rnd.randint(1, 10)
        hands = list(random_hands(variant, rnd, per_hand))
        trump = rnd.choice([None, 0, 1, 2, 3])
        leader = rnd.randrange(4)
        played = rnd.randint(1, 3) if it % 3 == 0 else 0
        where = (f"seed {seed} (KINGSOLVE_DDS_SEED={seed} replays it), deal {it}: "
                 f"{to_pbn(hands)} trump {trump} leader {leader}")
        ddeal = DdsDeal(to_pbn(hands), first=Player(leader), trump=Denom(4 if trump is None else trump))
        trick = []
        for j in range(played):
            seat = (leader + j) % 4
            h = hands[seat]
            if trick:
                h = h & (0x1FFF << (16 * (trick[0] >> 4))) or h
            c = rnd.choice([b for b in range(64) if (h >> b) & 1])
            hands[seat] &= ~(1 << c)
            trick.append(c)
            ddeal.play(f"{'SHDC'[c >> 4]}{RANKS[c & 15]}")
        where += f" table {trick}"
        deal = Deal.from_layout(variant.contract("tricks", trump), Layout(tuple(hands)), leader, trick)
        to_move = (leader + played) % 4
        side = 0b0101 if to_move % 2 == 0 else 0b1010
        want = {int(card.suit) * 16 + card.rank.value.bit_length() - 3: t
                for card, t in dds.solve_board(ddeal, SolveMode.Default)}
        got = solver.card_values(deal, side)
        assert got == want, where
        assert solver.value(deal, side) == max(want.values()), where
