"""Solver access: the solvers one verification uses, and the position to solve."""
from __future__ import annotations

from ..engine import Position
from ..records import Setup
from ..solver import Deal, solver_for


class Solvers:
    """What one verification solves with: the solver of the record's scoring
    (``main``), a second one for counting tricks (``tricks``: each keeps its
    own table), both sized by :func:`kingsolve.solver.solver_for`; and a
    store for the printed part of each reading's score, worked out once per
    reading and claim (:func:`kingsolve.verify.claims.printed_part`)."""

    def __init__(self, hand_size: int, main=None):
        self.hand_size = hand_size
        self.main = main if main is not None else solver_for(hand_size)
        self._tricks = None
        self.printed: dict = {}    # (id(reading), start, settled) -> (reading, points, tricks)

    @property
    def tricks(self):
        if self._tricks is None:
            self._tricks = solver_for(self.hand_size)
        return self._tricks


def deal_at(setup: Setup, pos: Position) -> Deal:
    """A position to solve under the record's contract (the whole deal's rules,
    so that trick ``pos.trick_index`` is scored as that trick of the deal)."""
    return Deal(setup.contract, pos, setup.rules)
