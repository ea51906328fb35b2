"""A plain minimax reference solver: obviously correct, slow, the oracle that
every change to the Cython core is tested against (small positions only)."""
from __future__ import annotations

from functools import lru_cache

from .cards import cards_of, count
from .engine import Position, legal_mask, play
from .variants import DealRules


def value(rules: DealRules, pos: Position, side: int) -> int:
    """Points the seats of ``side`` (a bitmask of 0-based seats) take from ``pos``
    to the end, the side maximising and every other seat minimising.

    Only what the tricks score: the points every seat starts with
    (``rules.seat_base``, king52 minus's 325) are not included — add
    ``rules.seat_base`` once per seat of the side for a score-sheet value, as
    :class:`kingsolve.solver.Solver` does."""

    @lru_cache(maxsize=None)
    def search(p: Position) -> int:
        if p.finished:
            return 0
        maximise = bool(side >> p.to_move & 1)
        best = None
        for c in cards_of(legal_mask(rules, p)):
            step = play(rules, p, c)
            v = search(step.position)
            if step.winner is not None and side >> step.winner & 1:
                v += step.points
            if best is None or (v > best if maximise else v < best):
                best = v
        return best

    return search(pos)


def card_values(rules: DealRules, pos: Position, side: int) -> dict:
    """The value for ``side`` after each legal card of the seat to move."""
    out = {}
    for c in cards_of(legal_mask(rules, pos)):
        step = play(rules, pos, c)
        v = value(rules, step.position, side)
        if step.winner is not None and side >> step.winner & 1:
            v += step.points
        out[c] = v
    return out


class ReferenceSolver:
    """The minimax above behind the :class:`~kingsolve.solver.Solver`
    interface (``value(deal, side)``, ``card_values(deal, side)``, score-sheet
    points with ``seat_base``): any command's solver for small positions (a few
    cards a hand; ``table --reference``), far too slow for whole deals."""

    def value(self, deal, side: int, guess=None, deadline=None) -> int:
        # (no time limit: the positions it can solve take moments)
        return value(deal.rules, deal.position, side) + deal.rules.seat_base * count(side)

    def card_values(self, deal, side: int) -> dict:
        base = deal.rules.seat_base * count(side)
        return {c: v + base for c, v in card_values(deal.rules, deal.position, side).items()}


# ------------------------------------------------------------------ each for himself --
#
# max^n (Luckhardt & Irani): every seat plays for its own points.  The value of a
# position is the vector of every seat's points from it to the end; the seat to
# move picks, among its legal cards, one whose vector gives it the most points.
# When several cards give it the same most points but different vectors, it is
# indifferent and a tie-break rule decides:
#
# - ``neutral``: the lowest card in the card order (suits ♠ ♥ ♦ ♣, within a suit
#   from the two up), whatever it does to the others;
# - ``pessimistic``: the card that leaves the most any other seat takes from
#   here lowest (the indifferent seat holds down whoever would come out best of
#   the others from this position on); among those, the lowest card as in
#   ``neutral``.
#
# Both rules depend only on the vectors and on the order of the cards, which an
# order-preserving renaming of the live cards of a suit keeps: the search core
# may therefore treat equivalent cards (touching among the live cards, same
# hand, same points and restrictions) as one, and store positions with their
# live cards renamed.

TIE_BREAKS = ("neutral", "pessimistic")


def each_choose(tie_break: str, seat: int, options) -> tuple:
    """The card the seat to move plays by the each-for-himself rule: ``options``
    are (card, vector) pairs for its legal cards.  Returns (index into
    ``options``, tie) where ``tie`` says the seat was indifferent between
    cards whose vectors differ (the rule, not its own points, decided what the
    others get)."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie-break {tie_break!r} is not one of {', '.join(TIE_BREAKS)}")
    best = max(v[seat] for _, v in options)
    tied = [i for i, (_, v) in enumerate(options) if v[seat] == best]
    tie = len({tuple(options[i][1]) for i in tied}) > 1
    if tie_break == "pessimistic":
        def others_top(i):
            v = options[i][1]
            return max(x for k, x in enumerate(v) if k != seat)
        low = min(others_top(i) for i in tied)
        tied = [i for i in tied if others_top(i) == low]
    return min(tied, key=lambda i: options[i][0]), tie


def each_children(rules: DealRules, pos: Position, tie_break: str = "neutral", _search=None) -> list:
    """[(card, vector)] for every legal card of the seat to move, in card order:
    the points every seat takes from ``pos`` to the end after that card, every
    seat playing for itself from then on."""
    search = _search or _each_search(rules, tie_break)
    out = []
    for c in cards_of(legal_mask(rules, pos)):
        step = play(rules, pos, c)
        v = list(search(step.position))
        if step.winner is not None:
            v[step.winner] += step.points
        out.append((c, tuple(v)))
    return out


def _each_search(rules: DealRules, tie_break: str):
    @lru_cache(maxsize=None)
    def search(p: Position) -> tuple:
        if p.finished:
            return (0,) * rules.n_seats
        options = each_children(rules, p, tie_break, search)
        return options[each_choose(tie_break, p.to_move, options)[0]][1]
    return search


def each_value(rules: DealRules, pos: Position, tie_break: str = "neutral") -> tuple:
    """Every seat's points from ``pos`` to the end when each plays for itself
    (tricks only, as :func:`value`: no ``rules.seat_base``)."""
    return _each_search(rules, tie_break)(pos)


def each_line(rules: DealRules, pos: Position, tie_break: str = "neutral") -> tuple:
    """(vector, line, ties): the each-for-himself vector, the equilibrium play
    to the end, and the indices into the line of the plays that were ties
    which changed what the others take (see :func:`each_choose`)."""
    search = _each_search(rules, tie_break)
    line, ties = [], []
    p = pos
    while not p.finished:
        options = each_children(rules, p, tie_break, search)
        i, tie = each_choose(tie_break, p.to_move, options)
        if tie:
            ties.append(len(line))
        line.append(options[i][0])
        p = play(rules, p, options[i][0]).position
    return search(pos), line, ties
