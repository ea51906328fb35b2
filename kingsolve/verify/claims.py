"""Claims: a book's [Claim] made exact, and each claimed seat's result in one deal.

A finished record's score is compared with the claim; for an unfinished one
each claimed seat's value (that seat against the others, double dummy, from
where the record stops) plus what it already took must equal the claim.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine import trick_value, trick_winner
from ..errors import InvalidRulesError
from ..layout import parse_seat
from ..records import Setup
from ..settlement import settle_sold_game
from ..solver import Deal
from .inference import Reading, cut_position
from .solvers import Solvers, deal_at


@dataclass
class ClaimTarget:
    """A claim made exact: its seats (0-based) and values, its unit, the first
    trick it speaks of (0-based), and whether the debt of a bought game is in it."""
    claim: object
    unit: str                 # "tricks" or "points"
    seats: dict               # 0-based seat -> claimed value (as written)
    start: int                # 0-based first trick counted
    settled: bool             # the whole deal: a bought game's debt is included


def claim_target(setup: Setup, claim) -> ClaimTarget:
    """The claim's seats and values, its unit decided: as written (``tricks`` /
    ``points``), else points if any value is negative or the values add up to
    the deal's total, tricks if they add up to the number of tricks, or the
    contract is a penalty one (its points are never positive); else points."""
    n = setup.variant.n_seats
    seats = {}
    for who, val in claim.values:
        s = parse_seat(who, n)
        if s in seats:
            raise InvalidRulesError(f"claim {claim.text!r} names seat {s + 1} twice")
        seats[s] = val
    size = setup.size
    if claim.start > size:
        raise InvalidRulesError(f"claim {claim.text!r}: a deal of {setup.variant.id} has {size} tricks")
    c = setup.contract
    unit = claim.unit
    if unit is None:
        vals = list(seats.values())
        full = len(seats) == n
        left = size - claim.start + 1
        if any(x < 0 for x in vals):
            unit = "points"
        elif full and sum(vals) == left and c.total != left:
            unit = "tricks"
        elif full and sum(vals) == c.total:
            unit = "points"
        elif c.total < 0:
            unit = "tricks"
        else:
            unit = "points"
    return ClaimTarget(claim, unit, seats, claim.start - 1, claim.start == 1)


def printed_result(setup: Setup, cards, start: int = 0):
    """Points and tricks per seat in the completed printed tricks from ``start`` (0-based)."""
    n, rules = setup.variant.n_seats, setup.rules
    pts, trs = [0] * n, [0] * n
    leader = setup.leader
    for t in range(len(cards) // n):
        trick = list(cards[t * n:(t + 1) * n])
        w = trick_winner(rules, leader, trick)
        if t >= start:
            pts[w] += trick_value(rules, trick, t)
            trs[w] += 1
        leader = w
    return pts, trs


def settle(setup: Setup, points, tricks):
    """Points and tricks per seat after a sold game is settled (the хваленки
    debt, куплена за N хабарів, or a king52 auction: kingsolve.settlement)."""
    return settle_sold_game(setup.contract, setup.bought, points, tricks)


def trick_rules(setup: Setup):
    """Rules counting tricks for a seat playing its contract's way: fewest
    tricks in a penalty deal (−1 a trick), most otherwise (+1 a trick)."""
    if setup.trick_rules is None:
        sign = -1 if setup.contract.total < 0 else 1
        r = setup.rules
        setup.trick_rules = (replace(r, card_points=(0,) * len(r.card_points), trick_points=(sign,) * r.n_tricks,
                                     seat_base=0), sign)
    return setup.trick_rules


def printed_part(setup: Setup, r: Reading, target: ClaimTarget, solvers: Solvers) -> tuple:
    """(points, tricks) per seat of the printed tricks a claim counts (from its
    first trick; a bought game's debt settled when the claim is of the whole
    deal), worked out once per reading and claim in ``solvers.printed``."""
    key = (id(r), target.start, target.settled)
    got = solvers.printed.get(key)
    if got is None or got[0] is not r:
        pts, trs = printed_result(setup, r.cards, target.start)
        if target.settled:
            pts, trs = settle(setup, pts, trs)
        got = solvers.printed[key] = (r, pts, trs)
    return got[1], got[2]


def claim_values(setup: Setup, r: Reading, target: ClaimTarget, extra: tuple, solvers: Solvers,
                 cache: dict | None = None, stop_on_mismatch: bool = False) -> dict:
    """Each claimed seat's result in one layout: the printed tricks from the
    claim's first trick, plus the double-dummy value of the rest (that seat
    against the others, from where the record stops), plus the debt.

    ``cache`` (one dict per layout) shares the solves between claims;
    ``stop_on_mismatch`` stops at the first seat that disagrees with the claim."""
    if cache is None:
        cache = {}
    pts, trs = printed_part(setup, r, target, solvers)
    pos = cut_position(r, extra)
    out = {}
    for s, want in target.seats.items():
        key = (target.unit, s)
        if key in cache:
            rest = cache[key]
        elif pos.finished:
            rest = 0
        elif target.unit == "points":
            rest = cache[key] = solvers.main.value(deal_at(setup, pos), 1 << s)
        else:
            rules, sign = trick_rules(setup)
            rest = cache[key] = sign * solvers.tricks.value(Deal(setup.contract, pos, rules), 1 << s)
        out[s] = (pts[s] if target.unit == "points" else trs[s]) + rest
        if stop_on_mismatch and out[s] != want:
            break
    return out
