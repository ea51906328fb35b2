"""Each for himself: the outcome of a deal when every seat plays for its own score.

The coalition model (:mod:`kingsolve.solver`) gives each seat's guarantee: its
points with its best play against all the other seats together.  Those
guarantees do not add up to the deal's total.  Here every seat maximises its
own points and nothing else (multi-player game search calls this max^n), so
the result is one line of scores, one a seat, that does add up to the points
of the deal (from the position on), with the play that leads to it: the
equilibrium line.

A seat that can reach its best score with cards that give the others
different scores is indifferent; a named tie-break rule decides
(:data:`TIE_BREAKS`, defined in :func:`kingsolve.reference.each_choose`):
``neutral`` plays the lowest such card, ``pessimistic`` the one that holds
down whichever other seat would come out best from here.  The result says
whether such a tie was met on the equilibrium line, where the rule decided
what the others got.

This module and :mod:`kingsolve.solver` are the ones that talk to the Cython
core (``kingsolve._core.EachSearch``); seats are 0-based here.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import _core
from .engine import play
from .errors import KingsolveError
from .layout import Layout
from .reference import TIE_BREAKS, each_choose
from .solver import Deal
from .variants import Contract

# The largest hand, in cards a seat, that the exact search is offered: the
# 32-card tables from the first lead (ru4 8, ua3 and ru3 10 cards), king52
# from EACH_MAX_KING52 cards a hand on.  Measured (benchmarks/README.md, "Each
# for himself"; one random king52 deal, every contract): 7 cards a hand
# 0.01-0.1 s a contract, 8 cards 0.03-0.4 s, 9 cards 1-48 s (no-kings-jacks
# 94M nodes): the penalty contracts, where max^n cannot prune, grow 30-100
# times a card, so 10 cards would take an hour.
EACH_MAX_HAND = 10
EACH_MAX_KING52 = 9


class OutOfReach(KingsolveError):
    """A position too large for the exact each-for-himself search."""


def each_limit(contract: Contract) -> int:
    """The most cards a hand the each-for-himself search takes for ``contract``'s variant."""
    return EACH_MAX_KING52 if contract.variant.hand_size > 10 else EACH_MAX_HAND


@dataclass
class EachResult:
    """Every seat's points when each plays for itself.

    ``points``: score-sheet points of each seat from the position on (a
    seat's ``seat_base`` included, as the coalition values have it);
    ``total`` their sum; ``line`` the equilibrium play to the end;
    ``ties`` the indices into ``line`` of the plays where the seat to move was
    indifferent between cards that changed the others' points (the rule
    decided those plays; with none, the line's own choices were forced by
    the seats' interests, though ties off the line may still matter);
    ``cards`` {card: vector} for the seat to move when asked."""
    deal: Deal
    layout: Layout
    tie_break: str
    points: tuple
    line: list
    ties: list
    cards: dict | None = None
    stats: dict | None = None

    @property
    def total(self) -> int:
        return sum(self.points)

    @property
    def tie_met(self) -> bool:
        return bool(self.ties)

    def tie_plays(self) -> list:
        """[(trick, seat, card)] of the ties on the line: the trick's 1-based
        number in the deal, the 0-based seat that was indifferent, its card."""
        out, p = [], self.deal.position
        for k, c in enumerate(self.line):
            if k in self.ties:
                out.append((p.trick_index + 1, p.to_move, c))
            p = play(self.deal.rules, p, c).position
        return out


class EachSolver:
    """An each-for-himself solver holding one native search and its vector
    table, kept across questions about the same contract and tie rule (every
    step of a line, every card).  Not shared between threads."""

    def __init__(self, tt_log2: int = 18):
        """A vector table of 2^``tt_log2`` entries of 80 bytes (2^18: 20 MB), which
        grows up to 2^20 entries (80 MB) while a search stores more positions
        than it holds."""
        if not 10 <= int(tt_log2) <= 28:
            raise ValueError(f"table size 2^{tt_log2} entries is out of range (2^10 .. 2^28)")
        self._search = _core.EachSearch(int(tt_log2))
        self._config = None

    def _args(self, deal: Deal, tie_break: str):
        if tie_break not in TIE_BREAKS:
            raise KingsolveError(f"tie-break {tie_break!r} is not one of {', '.join(TIE_BREAKS)}")
        r = deal.rules
        key = (r.n_seats, r.trump, r.inverted, r.card_points, r.trick_points, r.lead_restricted,
               r.discard_forced)
        if key != self._config:
            self._search.configure(*key)
            self._config = key
        p = deal.position
        return list(p.hands), p.leader, list(p.trick), p.trick_index, tie_break

    def value(self, deal: Deal, tie_break: str = "neutral") -> tuple:
        """Every seat's score-sheet points from here to the end."""
        base = deal.rules.seat_base
        if deal.position.finished:
            return (base,) * deal.rules.n_seats
        return tuple(v + base for v in self._search.value(*self._args(deal, tie_break)))

    def card_vectors(self, deal: Deal, tie_break: str = "neutral") -> dict:
        """{card: every seat's points} after each legal card of the seat to move."""
        if deal.position.finished:
            return {}
        base = deal.rules.seat_base
        return {c: tuple(x + base for x in v)
                for c, v in self._search.card_vectors(*self._args(deal, tie_break))}

    def line(self, deal: Deal, tie_break: str = "neutral") -> tuple:
        """(line, ties): the equilibrium play from here to the end, each card
        chosen by the rule from the card vectors, and the indices of the
        plays that were ties changing the others' points."""
        line, ties = [], []
        rules, pos = deal.rules, deal.position
        while not pos.finished:
            d = Deal(deal.contract, pos, rules)
            options = sorted(self.card_vectors(d, tie_break).items())
            i, tie = each_choose(tie_break, pos.to_move, options)
            if tie:
                ties.append(len(line))
            line.append(options[i][0])
            pos = play(rules, pos, options[i][0]).position
        return line, ties

    @property
    def stats(self) -> dict:
        """Search counters since the solver was made: nodes (cards played),
        table probes, hits and stores, searches cut by shallow pruning."""
        return dict(self._search.stats)


def solve_each(layout: Layout, contract: Contract, *, leader: int = 0, trick=(), tie_break: str = "neutral",
               cards: bool = False, solver: EachSolver | None = None) -> EachResult:
    """Every seat's points when each plays for itself, the equilibrium line and
    its ties, and with ``cards`` each legal card's vector for the seat to move.
    Raises :class:`OutOfReach` for a position larger than :func:`each_limit`."""
    deal = Deal.from_layout(contract, layout, leader, trick)
    size = len(deal.position.hands) and max(bin(h).count("1") for h in deal.position.hands)
    limit = each_limit(contract)
    if size > limit:
        raise OutOfReach(f"each for himself is solved exactly up to {limit} cards a hand in "
                         f"{contract.variant.id}; this position has {size}: give a later position "
                         f"(the hands after some tricks)")
    solver = solver or EachSolver()
    points = solver.value(deal, tie_break)
    line, ties = solver.line(deal, tie_break)
    result = EachResult(deal, layout, tie_break, points, line, ties)
    if cards:
        result.cards = solver.card_vectors(deal, tie_break)
    result.stats = solver.stats
    return result


@dataclass(frozen=True)
class EachRow:
    """One contract of :func:`each_table`: every seat's points (0-based order)
    and the ties met on the equilibrium line (``EachResult.tie_plays``)."""
    contract: Contract
    points: tuple
    ties: tuple

    @property
    def total(self) -> int:
        return sum(self.points)


@dataclass
class EachTable:
    """``table --model each``: every contract's row of points for one layout and leader (0-based)."""
    variant: object
    layout: Layout
    leader: int
    tie_break: str
    rows: list

    @property
    def n_tricks(self) -> int:
        return bin(self.layout.hands[self.leader]).count("1")


def each_table(layout: Layout, contracts: list, *, leader: int = 0, tie_break: str = "neutral",
               solver: EachSolver | None = None, progress=None) -> EachTable:
    """Every seat's each-for-himself points under each of ``contracts`` (of one
    variant), one solver for the whole grid.  ``progress`` is called after each row."""
    variant = contracts[0].variant
    solver = solver or EachSolver()
    out = EachTable(variant, layout, leader, tie_break, [])
    for con in contracts:
        res = solve_each(layout, con, leader=leader, tie_break=tie_break, solver=solver)
        out.rows.append(EachRow(con, res.points, tuple(res.tie_plays())))
        if progress is not None:
            progress(1)
    return out
