"""A plain minimax reference solver: obviously correct, slow, the oracle that
every change to the Cython core is tested against (small positions only)."""
from __future__ import annotations

from functools import lru_cache

from .cards import cards_of
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
