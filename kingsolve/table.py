"""The whole picture of one layout: every contract of a variant (and every
trump of its trump games) × every seat, for one leader (`kingsolve table`).

Each value is what that seat alone takes from the layout on, in signed
score-sheet points, with its best play against the best play of all the
other seats together (docs/cli.md).  One :class:`~kingsolve.solver.Solver`
answers every row, so its transposition table is reused across the grid.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .cards import count
from .errors import InvalidRulesError, SearchInterrupted
from .layout import Layout
from .variants import GAME_CONTRACTS, Contract, Variant, parse_trump, split_contract


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
        name, trump = split_contract(token)
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


def seat_values(solver, contract: Contract, layout: Layout, leader: int, guesses=None,
                time_limit: float | None = None, progress=None) -> tuple:
    """The value of each seat alone against the rest (0-based order).
    ``guesses``: a first guess per seat for the search (speed only), or None.
    ``time_limit``: seconds for each seat, after which its value is the
    :class:`~kingsolve.solver.Interval` proven; ``progress(1)`` is called
    after each seat."""
    from .solver import Deal, deadline_after, timed_value
    deal = Deal.from_layout(contract, layout, leader)
    out = []
    for k in range(contract.variant.n_seats):
        out.append(timed_value(solver, deal, 1 << k, None if guesses is None else guesses[k],
                               deadline_after(time_limit)))
        if progress is not None:
            progress(1)
    return tuple(out)


def _points(rules) -> tuple:
    return tuple(rules.card_points) + tuple(rules.trick_points)


def find_parts(rules, earlier) -> list[int] | None:
    """Indices into ``earlier`` (the rules of contracts solved before) of the
    contracts whose points add up to this contract's (erajlash: all the
    penalties at once; its positive mirror likewise), or None.  A part has the
    same rank order and every nonzero point of the sign of this contract's
    point there; at least two parts must add up to exactly this contract's
    points (one candidate may be left out)."""
    return _parts_of(_signed(rules), [_signed(r) for r in earlier])


def _signed(rules) -> tuple:
    # a contract's points, its rank order, and where they are positive and
    # negative (bit k for the k-th point)
    pts = _points(rules)
    pos = neg = 0
    for k, p in enumerate(pts):
        if p > 0:
            pos |= 1 << k
        elif p < 0:
            neg |= 1 << k
    return pts, rules.inverted, pos, neg


def _parts_of(target, earlier) -> list[int] | None:
    # find_parts on _signed tuples: a candidate's positive points lie where
    # the target's are positive, its negative ones where the target's are
    # negative
    t_pts, t_inv, t_pos, t_neg = target
    cand = []
    for i, (pts, inv, pos, neg) in enumerate(earlier):
        if inv != t_inv or len(pts) != len(t_pts) or not (pos | neg):
            continue
        if pos & ~t_pos == 0 and neg & ~t_neg == 0:
            cand.append((i, pts))
    for skip in [None] + list(range(len(cand))):
        use = [x for k, x in enumerate(cand) if k != skip]
        if len(use) >= 2 and tuple(map(sum, zip(*(pts for _, pts in use)))) == t_pts:
            return [i for i, _ in use]
    return None


def _normal_form(rules) -> tuple[tuple, int]:
    """The game ``rules`` describe with every point divided by the greatest
    common divisor of all its points, and that divisor (positive)."""
    g = math.gcd(*_points(rules)) or 1
    return ((rules.n_seats, rules.trump, rules.inverted, tuple(p // g for p in rules.card_points),
             tuple(p // g for p in rules.trick_points), rules.lead_restricted, rules.discard_forced), g)


def find_same(rules, earlier) -> int | None:
    """Index into ``earlier`` (the rules of contracts solved before) of a
    contract that is the same game as this one up to a positive factor on
    every point, or None.  Its values then give this contract's without a
    search (:func:`rescale`): ``tricks:S`` (+1 a trick) is ``trump:S`` (+3 a
    trick) at a third of the points, ``tricks:NT`` is ``plus-tricks`` at half.
    A negative factor is no such game: who maximises would change."""
    key, _ = _normal_form(rules)
    return next((i for i, r in enumerate(earlier) if _normal_form(r)[0] == key), None)


def row_links(rules) -> tuple[list, list]:
    """For the rules of a table's rows in order: each row's parts among the
    rows before it (:func:`find_parts`) and the earlier row that is the same
    game (:func:`find_same`), each point list and normal form worked out once
    (the pairwise calls cost a ru4 table three times as long: benchmarks/README.md)."""
    signed = [_signed(r) for r in rules]
    forms = [_normal_form(r)[0] for r in rules]
    parts = [_parts_of(signed[i], signed[:i]) for i in range(len(rules))]
    first = {}
    same = []
    for i, f in enumerate(forms):
        same.append(first.get(f))
        first.setdefault(f, i)
    return parts, same


def rescale(rules_from, values, rules_to) -> tuple:
    """The values of lone seats under ``rules_to`` from their ``values`` under
    ``rules_from``, the same game at another scale (:func:`find_same`): the
    points a seat takes scale by the ratio of the two divisors (exactly: they
    are a sum of points of ``rules_from``, each a multiple of its divisor),
    its start (``seat_base``) stays; an :class:`~kingsolve.solver.Interval`
    (a time limit's) scales its ends."""
    from .solver import Interval
    _, g_from = _normal_form(rules_from)
    _, g_to = _normal_form(rules_to)

    def one(v):
        return (v - rules_from.seat_base) // g_from * g_to + rules_to.seat_base

    return tuple(Interval(one(v.low), one(v.high)) if isinstance(v, Interval) else one(v) for v in values)


def guess_from_parts(rules, parts) -> tuple:
    """A first guess per seat: the sum of the parts' values (the middle of
    an interval a time limit left).  ``parts`` holds the (rules, values) of
    each part (see :func:`find_parts`)."""
    from .solver import bounds_of
    n = len(parts[0][1])
    return tuple(sum(sum(bounds_of(v[k])) // 2 - r.seat_base for r, v in parts) + rules.seat_base
                 for k in range(n))


def guesses_from_parts(rules, solved) -> tuple | None:
    """A first guess per seat from the contracts already solved on the same
    layout, ``solved`` holding (rules, values) pairs; None when this contract's
    points are no sum of theirs (:func:`find_parts`)."""
    idx = find_parts(rules, [r for r, _ in solved])
    return None if idx is None else guess_from_parts(rules, [solved[i] for i in idx])


def make_table(layout: Layout, variant: Variant, *, leader: int | None = None, contracts=None,
               solver=None, progress=None, jobs: int = 1, tt_log2: int | None = None,
               time_limit: float | None = None) -> Table:
    """Solve ``layout`` for every contract in ``contracts`` (default: all of the
    variant's, every trump) and every seat, ``leader`` (0-based, default the
    layout's first seat) on lead.  ``progress(k)`` is called as ``k`` more
    cells (row × seat) are finished, from the calling thread.
    ``time_limit``: seconds for each cell; a cell whose value is not proven
    by then holds the :class:`~kingsolve.solver.Interval` proven.

    ``jobs`` > 1 solves that many (contract, seat) cells at once in threads,
    each with its own Solver (the native search runs without the GIL); the
    rows are the same whatever ``jobs``.  ``solver`` (one solver for every
    cell) and ``jobs`` > 1 exclude each other; ``tt_log2`` sizes the solvers
    made here (default: :func:`~kingsolve.solver.solver_for`'s, growing in long searches).

    Stopped (Ctrl-C, :func:`~kingsolve.solver.abort_searches`), it raises
    :class:`~kingsolve.errors.SearchInterrupted` whose ``finished`` is the
    table of the rows finished before."""
    from .solver import Deal, solver_for
    layout.check(variant)
    lead = layout.first if leader is None else leader
    table = Table(variant, layout, lead)
    chosen = list(all_contracts(variant) if contracts is None else contracts)
    rules = [Deal.from_layout(c, layout, lead).rules for c in chosen]
    parts, same = row_links(rules)
    if jobs > 1 and solver is not None:
        raise ValueError("make_table: give a solver or jobs > 1, not both")
    if jobs <= 1:
        solver = solver if solver is not None else solver_for(layout.hand_size, tt_log2)
        values = []
        try:
            for i, contract in enumerate(chosen):
                if same[i] is not None:
                    values.append(rescale(rules[same[i]], values[same[i]], rules[i]))
                    if progress is not None:
                        progress(variant.n_seats)
                else:
                    guesses = None if parts[i] is None else guess_from_parts(
                        rules[i], [(rules[k], values[k]) for k in parts[i]])
                    values.append(seat_values(solver, contract, layout, lead, guesses, time_limit, progress))
                table.rows.append(TableRow(contract, values[i]))
        except KeyboardInterrupt as err:
            raise _interrupted(err, table) from err
        return table
    try:
        return _make_table_threads(table, chosen, rules, parts, same, lead,
                                   lambda: solver_for(layout.hand_size, tt_log2, jobs), jobs, progress,
                                   time_limit)
    except KeyboardInterrupt as err:
        raise _interrupted(err, table) from err


def _interrupted(err: KeyboardInterrupt, table: Table) -> SearchInterrupted:
    # Ctrl-C: the rows finished go with the exception (what a stopped value
    # search had proven too, in one thread)
    if isinstance(err, SearchInterrupted):
        return SearchInterrupted(err.low, err.high, side=err.side, finished=table)
    return SearchInterrupted(finished=table)


def _make_table_threads(table, chosen, rules, parts, same, lead, new_solver, jobs, progress,
                        time_limit=None) -> Table:
    # Every (row, seat) cell is a task on `jobs` lanes (kingsolve.lanes),
    # except in a row that is an earlier row's game at another scale (same):
    # it is filled from that row when its turn comes to be reported (a later
    # row may take it as a part: on two-card hands no-last-two is no-tricks,
    # a part of erajlash).  A cell of a row with parts waits for the parts'
    # cells of its seat (its guess); once it may run it goes before the
    # other cells (those rows, erajlash, are the longest: started last they
    # would run alone at the end).  Rows are reported in order, as each
    # completes.  Lane k keeps to the seats s with s % jobs == k while it has
    # one ready (_next_cell): a seat's tables (its main-table entries and its
    # duck solver's, see Search._set_duck) stay warm across its rows, as in
    # one Solver; a lane with none of its own ready takes another seat's cell
    # rather than wait.
    from .lanes import run_in_lanes
    from .solver import Deal, deadline_after, timed_value
    n = table.variant.n_seats

    def cell_of(t):
        return divmod(t, n)

    def ready(t, results):
        i, seat = cell_of(t)
        return parts[i] is None or all(results[k * n + seat] is not None for k in parts[i])

    def pick(ready_tasks, lane):
        i, seat = _next_cell([cell_of(t) for t in ready_tasks], lane, jobs, parts)
        return i * n + seat

    def work(solver, t, results):
        i, seat = cell_of(t)
        guess = None if parts[i] is None else guess_from_parts(
            rules[i], [(rules[k], (results[k * n + seat],)) for k in parts[i]])[0]
        return timed_value(solver, Deal.from_layout(chosen[i], table.layout, lead), 1 << seat, guess,
                           deadline_after(time_limit))

    def filled(i, seat):
        j = same[i]
        return lambda results: rescale(rules[j], (results[j * n + seat],), rules[i])[0]

    cells = [None] * (len(chosen) * n)

    def on_result(t, v):
        # a row is reported as its last cell is
        cells[t] = v
        i, seat = cell_of(t)
        if seat == n - 1:
            table.rows.append(TableRow(chosen[i], tuple(cells[i * n:t + 1])))

    fill = {i * n + seat: filled(i, seat) for i in range(len(chosen)) if same[i] is not None for seat in range(n)}
    run_in_lanes(len(chosen) * n, work, [None] * jobs, ready=ready, pick=pick, fill=fill,
                 on_result=on_result, on_progress=progress, new_solver=new_solver)
    return table


def _next_cell(ready, lane, jobs, parts):
    """The cell lane `lane` (of `jobs`) solves next among the `ready` (row,
    seat) cells, in table order, or None: first its own seats' (seat % jobs ==
    lane), whose tables it keeps warm, then any other; within each, a row with
    parts (erajlash: the longest cells) before the rest."""
    if not ready:
        return None
    return min(ready, key=lambda c: (c[1] % jobs != lane, parts[c[0]] is None))

