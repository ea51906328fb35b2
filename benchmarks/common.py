"""Shared fixtures for the benchmarks and the golden-file generator.

The benchmarks' deals are data: ``benchmarks/deals.json`` holds every deal
set (bench_core's recorded node counts rest on them), and the DDS golden
cases keep their own deals in ``tests/golden/bridge_dds.json``.  Both are only
ever appended: a changed deal would silently change every recorded timing and
golden case.  Deals of a King variant for a new benchmark come from
``kingsolve.knowledge.random_deal``, the project's one sampler (as
bench_table's and bench_advise's do).
Deals are plain lists of hand masks in the core's card encoding
(card = suit*16 + rank-2, suits S H D C, seats 0..n-1 = N E S W).
"""
from __future__ import annotations

import json
import pathlib

DEALS = pathlib.Path(__file__).with_name("deals.json")
SUIT_LETTERS = "SHDC"
RANK_LETTERS = "23456789TJQKA"
SEAT_LETTERS = "NESW"
SUIT_MASK = [0x1FFF << (16 * s) for s in range(4)]


def deck(ranks=range(2, 15), exclude=()) -> list[int]:
    return [s * 16 + r - 2 for s in range(4) for r in ranks if s * 16 + r - 2 not in exclude]


def stored_deals(set_name: str, count: int) -> list[tuple[list[int], int, int]]:
    """The first ``count`` deals of the set ``set_name`` of deals.json, as
    (hands, leader, trump) triples (trump -1: none; King sets have none)."""
    deals = json.loads(DEALS.read_text())["sets"][set_name]
    if count > len(deals):
        raise ValueError(f"{set_name}: {count} deals asked for, {len(deals)} stored")
    return [(from_pbn(d["hands"]), SEAT_LETTERS.index(d["leader"]), trump_of(d.get("trump", "NT")))
            for d in deals[:count]]


def trump_of(text: str) -> int:
    """-1 for "NT", else the suit's number."""
    return -1 if text == "NT" else SUIT_LETTERS.index(text)


def hand_pbn(mask: int) -> str:
    return ".".join(
        "".join(RANK_LETTERS[r] for r in range(12, -1, -1) if (mask >> (s * 16 + r)) & 1)
        for s in range(4))


def to_pbn(hands: list[int]) -> str:
    """'N:hand hand hand hand' with hands in seat order N E S W."""
    return "N:" + " ".join(hand_pbn(h) for h in hands)


def from_pbn(pbn: str) -> list[int]:
    """The hands of 'N:hand hand hand hand' (or of three hands: three seats)."""
    first, rest = pbn.split(":", 1)
    start = SEAT_LETTERS.index(first.strip().upper())
    texts = rest.split()
    hands = [0] * len(texts)
    for i, text in enumerate(texts):
        m = 0
        for s, holding in enumerate(text.split(".")):
            for ch in holding:
                m |= 1 << (s * 16 + RANK_LETTERS.index(ch.upper()))
        hands[(start + i) % len(texts)] = m
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
