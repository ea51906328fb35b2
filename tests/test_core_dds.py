"""The native core against DDS on bridge deals (trick_points all 1, no card points).

Golden cases (tests/golden/bridge_dds.json, made by benchmarks/make_golden.py)
always run; a live comparison against endplay runs when it is installed.
"""
from __future__ import annotations

import json
import os
import pathlib
import random

import pytest

from kingsolve._core import Search

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
# Every golden case always runs.  A full 13-card deal takes about a second for
# one leader, so those are checked for the first leader (and its complement);
# all four leaders with KINGSOLVE_SLOW_TESTS=1.
SLOW = os.environ.get("KINGSOLVE_SLOW_TESTS", "") not in ("", "0")


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
    leaders = range(4)
    if n == 13 and not SLOW:
        leaders = [0]
    for leader in leaders:
        tricks = case["tricks_by_leader"][leader]
        side = 0b0101 if leader % 2 == 0 else 0b1010
        assert search.value(hands, leader, [], 0, side) == tricks
        # the other partnership takes the rest
        assert search.value(hands, leader, [], 0, side ^ 0b1111) == n - tricks


def test_live_against_endplay():
    dds = pytest.importorskip("endplay.dds")
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    rnd = random.Random(20261129)
    s = Search(18)
    for it in range(30):
        per_hand = rnd.choice([3, 5, 7, 8, 9])
        deck = [su * 16 + r for su in range(4) for r in range(13)]
        rnd.shuffle(deck)
        hands = [sum(1 << c for c in deck[i * per_hand:(i + 1) * per_hand]) for i in range(4)]
        trump = rnd.choice([-1, 0, 1, 2, 3])
        leader = rnd.randrange(4)
        # a mid-trick start now and then: the first cards of the trick already played
        played = rnd.randint(0, 3) if it % 3 == 0 else 0
        trick = []
        deal = Deal(to_pbn(hands), first=Player(leader), trump=Denom(4 if trump < 0 else trump))
        for j in range(played):
            seat = (leader + j) % 4
            h = hands[seat]
            if trick:
                follow = h & (0x1FFF << (16 * (trick[0] >> 4)))
                h = follow or h
            c = rnd.choice([b for b in range(64) if (h >> b) & 1])
            hands[seat] &= ~(1 << c)
            trick.append(c)
            deal.play(f"{'SHDC'[c >> 4]}{RANKS[c & 15]}")
        s.configure(4, trump, False, [0] * 64, [1] * per_hand, 0, 0)
        to_move = (leader + played) % 4
        side = 0b0101 if to_move % 2 == 0 else 0b1010
        res = dds.solve_board(deal, SolveMode.OptimalAll)
        best = max(t for _, t in res)
        assert s.value(hands, leader, trick, 0, side) == best
        # every optimal card DDS lists has the best value in card_values
        cv = dict(s.card_values(hands, leader, trick, 0, side))
        for card, t in res:
            c = int(card.suit) * 16 + RANKS.index(card.rank.abbr) if hasattr(card.rank, "abbr") else None
            if c is not None:
                assert cv[c] == t
