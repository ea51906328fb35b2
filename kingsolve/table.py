"""The whole picture of one layout: every contract of a variant (and every
trump of its trump games) × every seat, for one leader (`kingsolve table`).

Each value is what that seat alone takes from the layout on, in signed
score-sheet points, with its best play against the best play of all the
other seats together (INTERFACE.md).  One :class:`~kingsolve.solver.Solver`
answers every row, so its transposition table is reused across the grid.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import count
from .errors import InvalidRulesError
from .layout import Layout
from .variants import GAME_CONTRACTS, Contract, Variant, parse_trump


def trump_label(contract: Contract) -> str | None:
    """``S H D C NT`` for the trump games (trump, misère, minus, tricks), else None."""
    return contract.trump_letter if contract.name in GAME_CONTRACTS else None


def contract_label(contract: Contract) -> str:
    """``no-hearts``, ``trump:H``, ``misere:NT`` — a contract and its trump on one token."""
    t = trump_label(contract)
    return contract.name if t is None else f"{contract.name}:{t}"


def all_contracts(variant: Variant) -> list[Contract]:
    """Every contract of ``variant`` in its rules order, a trump game once per trump choice."""
    return [variant.contract(name, trump)
            for name in variant.contracts for trump in variant.trump_choices(name)]


def parse_contracts(variant: Variant, text: str | None) -> list[Contract]:
    """A comma-separated list of contracts (``no-king,erajlash,trump:H,misere``);
    a trump game named without a trump stands for every trump it may have.
    None or empty: every contract of the variant."""
    if not text or not str(text).strip():
        return all_contracts(variant)
    out, seen = [], set()
    for token in str(text).replace(" ", ",").split(","):
        token = token.strip()
        if not token:
            continue
        name, _, trump = token.partition(":")
        if name not in variant.contracts:
            raise InvalidRulesError(
                f"--contracts: {variant.id} has no contract {name!r} (it has: {', '.join(variant.contracts)})")
        if trump:
            picked = [variant.contract(name, parse_trump(trump))]
        else:
            picked = [variant.contract(name, t) for t in variant.trump_choices(name)]
        for c in picked:
            key = (c.name, c.trump)
            if key not in seen:
                seen.add(key)
                out.append(c)
    if not out:
        raise InvalidRulesError(f"--contracts {text!r} names no contract")
    return out


@dataclass(frozen=True)
class TableRow:
    """One contract: the value of every seat (0-based order) for the leader."""
    contract: Contract
    values: tuple


@dataclass
class Table:
    """The grid for one layout and leader (0-based)."""
    variant: Variant
    layout: Layout
    leader: int
    rows: list = field(default_factory=list)

    @property
    def n_tricks(self) -> int:
        return count(self.layout.hands[self.leader])


def seat_values(solver, contract: Contract, layout: Layout, leader: int, guesses=None) -> tuple:
    """The value of each seat alone against the rest (0-based order).
    ``guesses``: a first guess per seat for the search (speed only), or None."""
    from .solver import Deal
    deal = Deal.from_layout(contract, layout, leader)
    n = contract.variant.n_seats
    if guesses is None:
        return tuple(solver.value(deal, 1 << k) for k in range(n))
    return tuple(solver.value(deal, 1 << k, guesses[k]) for k in range(n))


def _points(rules) -> tuple:
    return tuple(rules.card_points) + tuple(rules.trick_points)


def guesses_from_parts(rules, solved) -> tuple | None:
    """A first guess per seat for a contract whose points are the sum of the
    points of contracts already solved on the same layout (erajlash: all the
    penalties at once; its positive mirror likewise): the sum of their values.
    ``solved`` holds (rules, values) pairs.  The parts are the solved contracts
    of the same rank order whose every nonzero point has the sign of this
    contract's point there; at least two of them must add up to exactly this
    contract's points (leaving one out if need be), otherwise None."""
    target = _points(rules)
    parts = []
    for r, values in solved:
        pts = _points(r)
        if r.inverted != rules.inverted or len(pts) != len(target) or not any(pts):
            continue
        if all(p == 0 or (p > 0) == (q > 0) and q != 0 for p, q in zip(pts, target)):
            parts.append((r, pts, values))
    n = len(solved[0][1]) if solved else 0
    for skip in [None] + list(range(len(parts))):
        use = [x for i, x in enumerate(parts) if i != skip]
        if len(use) < 2:
            continue
        if tuple(map(sum, zip(*(pts for _, pts, _ in use)))) == target:
            return tuple(sum(v[k] - r.seat_base for r, _, v in use) + rules.seat_base for k in range(n))
    return None


def make_table(layout: Layout, variant: Variant, *, leader: int | None = None, contracts=None,
               solver=None, progress=None) -> Table:
    """Solve ``layout`` for every contract in ``contracts`` (default: all of the
    variant's, every trump) and every seat, ``leader`` (0-based, default the
    layout's first seat) on lead.  ``progress`` is called once per row."""
    if solver is None:
        from .solver import Solver, default_tt_log2
        solver = Solver(default_tt_log2(layout.hand_size))
    layout.check(variant)
    lead = layout.first if leader is None else leader
    table = Table(variant, layout, lead)
    from .solver import Deal
    solved = []
    for contract in (all_contracts(variant) if contracts is None else contracts):
        rules = Deal.from_layout(contract, layout, lead).rules
        values = seat_values(solver, contract, layout, lead, guesses_from_parts(rules, solved))
        solved.append((rules, values))
        table.rows.append(TableRow(contract, values))
        if progress is not None:
            progress()
    return table


class ReferenceSolver:
    """The pure-Python minimax (:mod:`kingsolve.reference`) behind the Solver
    interface (``value(deal, side)``, ``card_values(deal, side)``): the oracle
    for small positions (a few cards a hand), far too slow for whole deals."""

    def value(self, deal, side: int, guess=None) -> int:
        from . import reference
        return reference.value(deal.rules, deal.position, side) + deal.rules.seat_base * count(side)

    def card_values(self, deal, side: int) -> dict:
        from . import reference
        base = deal.rules.seat_base * count(side)
        return {c: v + base for c, v in reference.card_values(deal.rules, deal.position, side).items()}
