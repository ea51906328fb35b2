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


def seat_values(solver, contract: Contract, layout: Layout, leader: int) -> tuple:
    """The value of each seat alone against the rest (0-based order)."""
    from .solver import Deal
    deal = Deal.from_layout(contract, layout, leader)
    return tuple(solver.value(deal, 1 << k) for k in range(contract.variant.n_seats))


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
    for contract in (all_contracts(variant) if contracts is None else contracts):
        table.rows.append(TableRow(contract, seat_values(solver, contract, layout, lead)))
        if progress is not None:
            progress()
    return table


class ReferenceSolver:
    """The pure-Python minimax (:mod:`kingsolve.reference`) behind the Solver
    interface (``value(deal, side)``, ``card_values(deal, side)``): the oracle
    for small positions (a few cards a hand), far too slow for whole deals."""

    def value(self, deal, side: int) -> int:
        from . import reference
        return reference.value(deal.rules, deal.position, side) + deal.rules.seat_base * count(side)

    def card_values(self, deal, side: int) -> dict:
        from . import reference
        base = deal.rules.seat_base * count(side)
        return {c: v + base for c, v in reference.card_values(deal.rules, deal.position, side).items()}
