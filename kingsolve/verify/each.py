"""Each for himself against the book (``verify --model each``; кожен за себе).

The coalition marks (:mod:`.analysis`) grade a play by one seat's guarantee
against all the others together.  Here the yardstick is the outcome when
every seat plays for its own points (:mod:`kingsolve.each`, max^n): one row
of points, one a seat, adding up to the deal's total.  For a record whose
deal is known this module gives

* the **equilibrium**: every seat's points when each plays for himself from
  the first lead (or from the first trick the exact search reaches, the
  book's tricks before it as played);
* the **book's result** on the same scale: the replayed play of a finished
  record; for one that stops early, its printed tricks and then each seat
  playing for itself from where it stops;
* for **every play** from there on: the row of points after the card played
  (every seat playing for itself afterwards) against the row of the card the
  each-for-himself rule plays there.  The play *departed* when the player's
  own points fell; the difference of the two rows says by how much, for him
  and for every other seat.

Points are whole-deal score-sheet points (a king52 ``minus`` seat's start
included): the tricks taken before the position plus the each-for-himself
points from it on, so every row sums to the deal's total.  A bought game's
debt is settled after play, alike for every line, and is left out here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..each import EachResult, EachSolver, each_limit
from ..engine import Position, play
from ..reference import each_choose
from ..records import Setup
from .report import RecordReport
from .solvers import deal_at

EACH_TT_LOG2 = 18
"""The vector table of a verification's each-for-himself solver (2^18 entries, as ``solve --model each``)."""

EACH_GRADE_KING52 = 8
"""The largest king52 hand (cards a seat) from which verify grades the plays.
``solve --model each`` answers one question up to :data:`kingsolve.each.EACH_MAX_KING52`
cards; verify asks one for every play, and a king52 search of 9 cards a hand
can take minutes where one of 8 takes seconds."""


def grade_limit(contract) -> int:
    """The most cards a hand from which ``verify --model each`` solves and grades."""
    limit = each_limit(contract)
    return min(limit, EACH_GRADE_KING52) if contract.variant.hand_size > 10 else limit


@dataclass
class EachPlay:
    """One play of the record against the each-for-himself outcome of its position.

    ``vector``: every seat's whole-deal points after the card played, each
    seat playing for itself from then on; ``best``: the same after the card
    the each-for-himself rule plays there (the seat's most points, the tie
    rule among equals); ``best_cards``: every card giving the seat its most
    points; ``tie``: the seat was indifferent there between cards that change
    the others' points (the rule chose among them)."""
    index: int           # 0-based place in the play
    trick: int           # 1-based
    seat: int            # 1-based
    card: int
    vector: tuple
    best: tuple
    best_cards: tuple
    tie: bool = False

    @property
    def loss(self) -> int:
        """The player's own points lost against its best card (0 when it kept the outcome)."""
        return self.best[self.seat - 1] - self.vector[self.seat - 1]

    @property
    def departed(self) -> bool:
        """The play lost its player's points against playing for himself."""
        return self.loss > 0

    @property
    def change(self) -> tuple:
        """What the card played did to every seat against the rule's card (``vector - best``)."""
        return tuple(v - b for v, b in zip(self.vector, self.best))


@dataclass
class EachCheck:
    """The record against the each-for-himself model.  ``reason`` is the one
    line said instead when there is nothing to solve (the deal is not known,
    the record stops before the exact search reaches, or — with nothing
    else — the record's whole deal is too large); ``start`` the 0-based trick
    the analysis starts at (0: from the first lead)."""
    tie_break: str
    reason: str | None = None
    start: int = 0
    start_note: str | None = None       # why the analysis starts after the first trick
    equilibrium: tuple | None = None    # every seat's whole-deal points, each for himself from ``start``
    ties: list = field(default_factory=list)   # [(trick, 0-based seat, card)] met on the equilibrium line
    line: list = field(default_factory=list)   # the equilibrium play from ``start``
    book: tuple | None = None           # the book's result on the same scale
    book_continued: int | None = None   # 0-based trick from which ``book`` is each for himself (unfinished)
    plays: list = field(default_factory=list)  # EachPlay per play analysed
    stats: dict | None = None

    @property
    def solved(self) -> bool:
        return self.equilibrium is not None

    @property
    def total(self) -> int | None:
        return sum(self.equilibrium) if self.equilibrium is not None else None

    @property
    def equal(self) -> bool | None:
        """The book's result is the each-for-himself outcome."""
        return None if not self.solved else self.book == self.equilibrium

    @property
    def departures(self) -> list:
        return [p for p in self.plays if p.departed]


def _hand_size(pos: Position) -> int:
    return max(bin(h).count("1") for h in pos.hands)


def each_check(rep: RecordReport, setup: Setup, tie_break: str = "neutral", plays: bool = True,
               solver: EachSolver | None = None) -> EachCheck:
    """The record of ``rep`` (verified: its deal known in ``rep.layout``)
    against every seat playing for itself: the equilibrium, the book's
    result, and with ``plays`` every play's row against the best row."""
    out = EachCheck(tie_break)
    if rep.layout is None:
        agree = (f" ({rep.n_matching:,} of those checked agree with the claims)" if rep.claims and rep.n_matching
                 else "")
        out.reason = (f"each for himself needs the deal, and {rep.layouts_total:,} deals fit the play{agree}: "
                      f"give it as [Layout]")
        return out
    rules, n = setup.rules, setup.variant.n_seats
    cards = list(rep.reading.cards)
    limit = grade_limit(setup.contract)
    # Walk the book's play, the points taken so far, to the first trick the exact search reaches.
    pos = Position(tuple(rep.layout.hands), setup.leader)
    taken = [rules.seat_base] * n
    k = 0
    while _hand_size(pos) > limit and k < len(cards) and not pos.finished:
        step = play(rules, pos, cards[k])
        if step.winner is not None:
            taken[step.winner] += step.points
        pos, k = step.position, k + 1
    size = setup.size
    if _hand_size(pos) > limit:
        first = size - limit + 1
        out.reason = (f"verify grades each for himself from {limit} cards a hand in {setup.variant.id} (trick "
                      f"{first} on); the record stops before trick {first}: nothing to solve")
        return out
    out.start = pos.trick_index
    if out.start:
        out.start_note = (f"verify grades each for himself from {limit} cards a hand in {setup.variant.id}: from "
                          f"trick {out.start + 1}, the book's first {out.start} tricks as played")
    solver = solver or EachSolver(EACH_TT_LOG2)
    deal = deal_at(setup, pos)
    eq = solver.value(deal, tie_break)
    out.equilibrium = tuple(t + v - rules.seat_base for t, v in zip(taken, eq))
    out.line, line_ties = solver.line(deal, tie_break)
    out.ties = EachResult(deal, rep.layout, tie_break, eq, out.line, line_ties).tie_plays()
    # The plays from the start on, and the book's result on the same scale.
    for i in range(k, len(cards)):
        c = cards[i]
        if plays:
            vectors = solver.card_vectors(deal_at(setup, pos), tie_break)
            options = sorted(vectors.items())
            pick, tie = each_choose(tie_break, pos.to_move, options)
            own = max(v[pos.to_move] for v in vectors.values())
            whole = lambda v: tuple(t + x - rules.seat_base for t, x in zip(taken, v))  # noqa: E731
            out.plays.append(EachPlay(i, pos.trick_index + 1, pos.to_move + 1, c, whole(vectors[c]),
                                      whole(options[pick][1]),
                                      tuple(x for x, v in options if v[pos.to_move] == own), tie))
        step = play(rules, pos, c)
        if step.winner is not None:
            taken[step.winner] += step.points
        pos = step.position
    if pos.finished:
        out.book = tuple(taken)
    else:
        out.book_continued = pos.trick_index
        rest = solver.value(deal_at(setup, pos), tie_break)
        out.book = tuple(t + v - rules.seat_base for t, v in zip(taken, rest))
    out.stats = solver.stats
    return out

