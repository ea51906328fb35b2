"""Shared fixtures for the benchmarks and the golden-file generator.

Seeds are only ever appended (numpy's benchmarks/common.py does the same):
changing one would silently change every recorded timing and golden case.
That is also why :func:`deal` keeps its own ``random.Random`` shuffle: its
deals (bench_core's recorded node counts, the DDS golden files) predate
``kingsolve.knowledge``, the project's one sampler.  Deals of a King variant
for a new benchmark come from ``kingsolve.knowledge.random_deal`` (as
bench_table's and bench_advise's do).
Deals are plain lists of hand masks in the core's card encoding
(card = suit*16 + rank-2, suits S H D C, seats 0..n-1 = N E S W).
"""
from __future__ import annotations

import random

SEEDS = {
    "golden_bridge8": 20261129_01,
    "golden_bridge13": 20261129_02,
    "bench_bridge8": 20261129_11,
    "bench_bridge13": 20261129_12,
    "bench_king8": 20261129_21,
    "bench_king10": 20261129_22,
    "bench_king13": 20261129_23,
}

SUIT_LETTERS = "SHDC"
RANK_LETTERS = "23456789TJQKA"
SEAT_LETTERS = "NESW"
SUIT_MASK = [0x1FFF << (16 * s) for s in range(4)]


def deck(ranks=range(2, 15), exclude=()) -> list[int]:
    return [s * 16 + r - 2 for s in range(4) for r in ranks if s * 16 + r - 2 not in exclude]


def deal(rng: random.Random, n_seats: int, per_hand: int, cards: list[int]) -> list[int]:
    """Shuffle `cards` and give per_hand cards to each seat (the rest lie aside)."""
    cards = list(cards)
    rng.shuffle(cards)
    hands = []
    for i in range(n_seats):
        m = 0
        for c in cards[i * per_hand:(i + 1) * per_hand]:
            m |= 1 << c
        hands.append(m)
    return hands


def bridge_deals(seed_name: str, count: int, per_hand: int) -> list[tuple[list[int], int, int]]:
    """(hands, leader, trump) triples: per_hand=8 from the 32-card deck, 13 from 52."""
    rng = random.Random(SEEDS[seed_name])
    ranks = range(7, 15) if per_hand <= 8 else range(2, 15)
    out = []
    for _ in range(count):
        hands = deal(rng, 4, per_hand, deck(ranks))
        out.append((hands, rng.randrange(4), rng.choice([-1, 0, 1, 2, 3])))
    return out


def hand_pbn(mask: int) -> str:
    return ".".join(
        "".join(RANK_LETTERS[r] for r in range(12, -1, -1) if (mask >> (s * 16 + r)) & 1)
        for s in range(4))


def to_pbn(hands: list[int]) -> str:
    """'N:hand hand hand hand' with hands in seat order N E S W."""
    return "N:" + " ".join(hand_pbn(h) for h in hands)


def from_pbn(pbn: str) -> list[int]:
    first, rest = pbn.split(":", 1)
    start = SEAT_LETTERS.index(first.strip().upper())
    hands = [0, 0, 0, 0]
    for i, text in enumerate(rest.split()):
        m = 0
        for s, holding in enumerate(text.split(".")):
            for ch in holding:
                m |= 1 << (s * 16 + RANK_LETTERS.index(ch.upper()))
        hands[(start + i) % 4] = m
    return hands


def bridge_contract(n_tricks: int, trump: int):
    """Search.configure arguments for plain bridge: a trick is worth 1."""
    return (4, trump, False, [0] * 64, [1] * n_tricks, 0, 0)


def king_penalty_contract(n_seats: int, n_tricks: int):
    """A King "no hearts" penalty deal: every heart costs 2, no heart lead while holding
    another suit."""
    cp = [0] * 64
    for r in range(13):
        cp[16 + r] = -2
    return (n_seats, -1, False, cp, [0] * n_tricks, SUIT_MASK[1], 0)


def king_erajlash_contract(n_seats: int, n_tricks: int, ranks=range(7, 15)):
    """A King "erajlash"-like deal (everything penalised at once) on raw arrays:
    tricks -2, hearts -2, jacks -4, queens -4, last two -8, K of hearts -16."""
    cp = [0] * 64
    for s in range(4):
        for r in ranks:
            c = s * 16 + r - 2
            if s == 1:
                cp[c] -= 2
            if r == 11 or r == 12:
                cp[c] -= 4
    cp[16 + 13 - 2] -= 16
    tp = [-2] * n_tricks
    tp[-1] -= 8
    tp[-2] -= 8
    kh = 1 << (16 + 11)
    return (n_seats, -1, False, cp, tp, SUIT_MASK[1], kh)


def dds_deal(hands: list[int], leader: int, trump: int):
    """An endplay Deal for the bridge position (4 seats)."""
    from endplay.types import Deal, Denom, Player
    return Deal(to_pbn(hands), first=Player(leader), trump=Denom(4 if trump < 0 else trump))


def dds_trick_nodes(hands: list[int], leader: int, trump: int) -> float:
    """The nodes DDS reports for the same solve (futureTricks.nodes: positions at
    a trick's start, the count kingsolve keeps as trick_nodes), through endplay's
    low-level binding; NaN where that binding is not available."""
    try:
        import endplay._dds as _dds
        fut = _dds.futureTricks()
        _dds.SolveBoard(dds_deal(hands, leader, trump)._data, -1, 1, 1, fut, 0)
        return float(fut.nodes)
    except (ImportError, AttributeError):
        return float("nan")


def dds_tricks(hands: list[int], leader: int, trump: int) -> int:
    """Tricks for the side on lead, by DDS (endplay.dds.solve_board, optimal-one mode)."""
    from endplay.dds.solve import SolveMode, solve_board
    res = solve_board(dds_deal(hands, leader, trump), SolveMode.OptimalOne)
    return max(t for _, t in res)
