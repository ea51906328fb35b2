"""The solver facade: layouts and contracts in, double-dummy values out.

This is the only module that talks to the Cython core (``kingsolve._core``),
with :mod:`kingsolve.each` for the each-for-himself model.
Everything is validated here, at the Python boundary, before it reaches C.

A value is the signed points a side (one seat or any coalition of seats)
takes from the position on, with the side's best play against the best play
of all the other seats together (docs/cli.md).  Seats are 0-based here;
the CLI and reports show them 1-based.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import _core
from .cards import bit, card_symbol, count
from .engine import Position, check_play, check_position, legal_mask, play
from .errors import IllegalPlayError, InvalidLayoutError, SearchInterrupted, SearchTimedOut
from .layout import Layout
from .variants import Contract, DealRules

DEFAULT_TT_LOG2 = 20
DEFAULT_MAX_TT_LOG2 = 22
SHORT_DEAL = _core.SHORT_HAND_TRICKS
"""The most tricks of a short deal — the core's own threshold (its table
chains and duck solvers), read from it so that it lives in one place."""


def long_deal(hand_size: int) -> bool:
    """Whether deals of ``hand_size`` cards a hand are long (13-card king52):
    a bigger table that may grow, one sample a unit of work in ``bid``, the
    cost warning of ``stats``."""
    return hand_size > SHORT_DEAL


def default_tt_log2(hand_size: int, lanes: int = 1) -> int:
    """The table size that suits a deal: 2^16 for a short deal (up to
    :data:`SHORT_DEAL` cards a hand; about 9 MB; 2^14, 2^15 and 2^17 were
    measured slower or no faster on whole ru4 and ua3 tables), 2^20 for a
    long one, 13-card hands (about 147 MB: long searches need the room).  A
    table solved on ``lanes`` > 1 threads gives each its own Solver for a
    share of the seats: 2^15 there for short hands (faster on whole ru4 and
    ua3 tables, 2^14 slower on ru4: benchmarks/README.md), and for long ones
    no more than the lane's share of the growth (:func:`default_max_tt_log2`)."""
    if long_deal(hand_size):
        return min(DEFAULT_TT_LOG2, default_max_tt_log2(hand_size, lanes))
    return 15 if lanes > 1 else 16


def default_max_tt_log2(hand_size: int, lanes: int = 1) -> int | None:
    """How far a table of :func:`default_tt_log2` may grow when a long search
    fills it: for 13-card hands, where the penalty contracts' searches run to
    hundreds of millions of positions, to 2^22 entries with twice the index by
    exact position (about 700 MB at most, and a quarter more for each lone
    seat's duck table) — one budget for all the ``lanes`` of a command, so
    each of them grows to its share: a power of two less for each doubling
    of the lanes (2^21 each for two lanes); None (never) for shorter hands,
    whose searches do not fill 2^16."""
    if not long_deal(hand_size):
        return None
    return DEFAULT_MAX_TT_LOG2 - (max(1, lanes) - 1).bit_length()


def solver_for(hand_size: int, tt_log2: int | None = None, lanes: int = 1) -> "Solver":
    """A Solver for deals of ``hand_size`` cards a hand, one of ``lanes``
    running at once: of ``tt_log2`` if given (a fixed size, as ``--tt-size``
    asks), else of the default size, growing as :func:`default_max_tt_log2`
    allows."""
    if tt_log2:
        return Solver(tt_log2)
    return Solver(default_tt_log2(hand_size, lanes), default_max_tt_log2(hand_size, lanes))


def abort_searches(stop: bool = True) -> None:
    """Make every search running in this process (in any thread) stop within
    milliseconds and raise KeyboardInterrupt, until called again with
    ``stop=False``.  Ctrl-C already stops a search in the main thread (the
    search polls for it); this is for the worker threads, which never see
    the signal: the main thread calls it when it is interrupted.  A solver
    stopped so stays valid: its table keeps only what was proved before."""
    _core.abort_searches(bool(stop))


@dataclass(frozen=True)
class Deal:
    """A contract and a position to solve: the hands, the leader of the current
    trick, the cards already on the table in it, and the deal's scoring."""
    contract: Contract
    position: Position
    rules: DealRules

    @classmethod
    def from_layout(cls, contract: Contract, layout: Layout, leader: int = 0, trick=()) -> "Deal":
        """The deal from ``layout`` with ``leader`` (0-based) to lead, or — with
        ``trick`` — with those cards already played by the leader and the seats
        after him (each such seat holds one card fewer in ``layout``)."""
        variant = contract.variant
        trick = tuple(trick)
        layout.check(variant, equal=not trick)
        n = variant.n_seats
        if not 0 <= leader < n:
            raise InvalidLayoutError(f"leader {leader + 1} is not a seat of {n}")
        for c in trick:
            if not variant.deck & bit(c):
                raise InvalidLayoutError(f"{card_symbol(c)} on the table is not in the deck of {variant.id}")
        n_tricks = count(layout.hands[leader]) + (1 if trick else 0)
        rules = contract.deal_rules(n_tricks)
        # Replay the table cards from the hands they came from, so that a
        # forbidden lead or a revoke on the table is caught like any other play.
        hands = list(layout.hands)
        for k, c in enumerate(trick):
            hands[(leader + k) % n] |= bit(c)
        pos = Position(tuple(hands), leader)
        check_position(rules, pos)
        for c in trick:
            check_play(rules, pos, c)
            pos = play(rules, pos, c).position
        return cls(contract, pos, rules)

    def after(self, card: int) -> tuple["Deal", int | None, int]:
        """The deal after ``card`` is played: (deal, trick winner or None, its points)."""
        check_play(self.rules, self.position, card)
        step = play(self.rules, self.position, card)
        return Deal(self.contract, step.position, self.rules), step.winner, step.points

    @property
    def legal(self) -> int:
        return legal_mask(self.rules, self.position)


class Solver:
    """A double-dummy solver holding one native search with its transposition
    table, so that related questions (every card, every seat, every step of a
    played deal) reuse what was learnt.  Not shared between threads: make one
    per thread."""

    def __init__(self, tt_log2: int | None = None, max_tt_log2: int | None = None):
        """A table of 2^``tt_log2`` entries whose parts double whenever a search
        fills them, up to a table of 2^``max_tt_log2`` entries with twice the
        index by exact position (default: never grows).  With neither given:
        2^20 growing up to 2^22 (:func:`default_max_tt_log2`)."""
        if tt_log2 is None:
            tt_log2 = DEFAULT_TT_LOG2
            if max_tt_log2 is None:
                max_tt_log2 = DEFAULT_MAX_TT_LOG2
        if not 10 <= int(tt_log2) <= 28:
            raise ValueError(f"table size 2^{tt_log2} entries is out of range (2^10 .. 2^28)")
        if max_tt_log2 is not None and not int(tt_log2) <= int(max_tt_log2) <= 28:
            raise ValueError(f"largest table size 2^{max_tt_log2} entries is out of range "
                             f"(2^{tt_log2} .. 2^28)")
        self._search = _core.Search(int(tt_log2), None if max_tt_log2 is None else int(max_tt_log2))
        self._config = None
        self._base_now = 0

    def _setup(self, rules: DealRules):
        key = (rules.n_seats, rules.trump, rules.inverted, rules.card_points, rules.trick_points,
               rules.lead_restricted, rules.discard_forced)
        if key != self._config:
            self._search.configure(*key)
            self._config = key

    def _args(self, deal: Deal, side: int):
        n = deal.rules.n_seats
        if not 0 < side < (1 << n):
            raise InvalidLayoutError(f"side {side:#x} is not a set of seats of {n}")
        self._setup(deal.rules)
        p = deal.position
        return (list(p.hands), p.leader, list(p.trick), p.trick_index, side)

    def _base(self, deal: Deal, side: int) -> int:
        return deal.rules.seat_base * count(side)

    def value(self, deal: Deal, side: int, guess: int | None = None, deadline: float | None = None) -> int:
        """Points ``side`` (bitmask of 0-based seats) takes from here with best play.

        ``guess`` (optional, same units as the value) is where the search starts
        narrowing: a close guess saves work, and any guess gives the same value.

        Stopped (Ctrl-C, :func:`abort_searches`), it raises
        :class:`~kingsolve.errors.SearchInterrupted` with the interval the
        search had proven the value to lie in; stopped by ``deadline`` (a
        ``time.monotonic()`` time), :class:`~kingsolve.errors.SearchTimedOut`
        with the same interval."""
        if deal.position.finished:
            return self._base(deal, side)
        base = self._base(deal, side)
        if guess is not None:
            guess = min(max(int(guess) - base, -(1 << 30)), 1 << 30)
        args = self._args(deal, side)
        self._base_now = base
        try:
            with self._deadline(deadline):
                return self._search.value(*args, guess) + base
        except (KeyboardInterrupt, TimeoutError) as err:
            proven = self._search.proven
            seats = _seats(side, deal.rules.n_seats)
            kind = SearchTimedOut if isinstance(err, TimeoutError) else SearchInterrupted
            if proven is None:
                raise kind(side=seats) from err
            raise kind(proven[0] + base, proven[1] + base, side=seats) from err

    @contextmanager
    def _deadline(self, deadline: float | None):
        # the native search stops at `deadline` (see Search.deadline) within this block
        self._search.deadline = deadline or 0.0
        try:
            yield
        finally:
            self._search.deadline = 0.0

    def reaches(self, deal: Deal, side: int, target: int, deadline: float | None = None) -> bool:
        """Can ``side`` take at least ``target`` points from here with best play?
        One zero-window search: cheaper than :meth:`value` when only the
        question is asked (the buyer's "can I make six tricks?"); stopped by
        ``deadline``: TimeoutError."""
        target = int(target)
        if deal.position.finished:
            return self._base(deal, side) >= target
        base = self._base(deal, side)
        if not -(1 << 30) < target - base < (1 << 30):
            return target - base < 0
        with self._deadline(deadline):
            return self._search.reaches(*self._args(deal, side), target - base)

    def card_values(self, deal: Deal, side: int, deadline: float | None = None) -> dict:
        """{card: value for ``side``} for every legal card of the seat to move
        (stopped by ``deadline``: TimeoutError)."""
        if deal.position.finished:
            return {}
        base = self._base(deal, side)
        with self._deadline(deadline):
            return {c: v + base for c, v in self._search.card_values(*self._args(deal, side))}

    def line(self, deal: Deal, side: int, deadline: float | None = None) -> list:
        """An optimal line of play from here to the end (cards in order of play;
        stopped by ``deadline``: TimeoutError)."""
        if deal.position.finished:
            return []
        with self._deadline(deadline):
            return list(self._search.line(*self._args(deal, side)))

    @property
    def stats(self) -> dict:
        """Search counters since the Solver was made: nodes (cards played in the
        search), trick_nodes (positions at a trick's start reached: what DDS
        reports as its nodes), table probes and hits."""
        s = self._search
        return {"nodes": s.nodes, "trick_nodes": s.trick_nodes, "tt_probes": s.tt_probes, "tt_hits": s.tt_hits}

    @property
    def proving(self) -> tuple[int, int] | None:
        """(low, high): what the :meth:`value` running now on this Solver (in
        another thread) has proven of the value so far; None when none runs
        or it has proven nothing yet.  For a progress display."""
        p = self._search.proving
        return None if p is None else (p[0] + self._base_now, p[1] + self._base_now)

    @property
    def table_log2(self) -> int:
        """The table's size now, 2^table_log2 entries (it may have grown)."""
        return self._search.table_log2


@dataclass(frozen=True)
class Interval:
    """A value known only to lie in [low, high]: what a search stopped by its
    time limit had proven."""
    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low:+d}..{self.high:+d}"


def bounds_of(x) -> tuple[int, int]:
    """(low, high) of a value: an exact int twice, an :class:`Interval`'s ends."""
    return (x.low, x.high) if isinstance(x, Interval) else (x, x)


def deadline_after(time_limit: float | None) -> float | None:
    """The ``time.monotonic()`` time ``time_limit`` seconds from now (None: no limit)."""
    return time.monotonic() + time_limit if time_limit else None


def timed_value(solver, deal: Deal, side: int, guess=None, deadline: float | None = None):
    """``solver.value`` stopped at ``deadline`` (:func:`deadline_after`; None:
    never): the exact value, or, when time runs out, the :class:`Interval` the
    search had proven (an exact value when the interval had closed)."""
    if not deadline:
        return solver.value(deal, side, guess)
    try:
        return solver.value(deal, side, guess, deadline=deadline)
    except SearchTimedOut as err:
        if err.low is None:            # (the driver sets its quick bounds before any probe)
            raise
        return err.low if err.low == err.high else Interval(err.low, err.high)


@dataclass
class SideResult:
    """One side's result: ``value`` (None when a time limit left it an
    interval), ``low`` and ``high`` (the value twice when exact), the card
    values and line asked for (None when not asked, or when the time limit
    ran out first: ``timed_out``)."""
    side: tuple          # 0-based seats
    value: int | None
    cards: dict | None = None   # card -> value
    line: list | None = None
    low: int | None = None
    high: int | None = None
    timed_out: bool = False

    def __post_init__(self):
        if self.value is not None:
            self.low = self.high = self.value

    @property
    def exact(self) -> bool:
        return self.value is not None


@dataclass
class SolveResult:
    deal: Deal
    layout: Layout
    results: list = field(default_factory=list)


def solve(layout: Layout, contract: Contract, *, leader: int = 0, trick=(), sides=None,
          cards: bool = False, line: bool = False, solver=None, jobs: int = 1,
          time_limit: float | None = None, on_start=None, on_result=None) -> SolveResult:
    """Solve ``layout`` under ``contract``: one result per seat (each against the
    rest) or per side in ``sides`` (bitmasks), with card values and a line on request.

    ``time_limit``: seconds for each side (its value, card values and line);
    a side whose value is not proven by then gets the interval proven
    (:class:`SideResult` ``low``, ``high``, value None).  ``on_result(res, r)``
    is called with the :class:`SolveResult` being filled and each
    :class:`SideResult` as soon as it and every side before it are known, in
    the order of ``sides``, from the calling thread; ``on_start(seats,
    solver)`` when a side's search starts on ``solver`` (see
    :attr:`Solver.proving`), from the thread that runs it.

    ``jobs`` > 1 solves that many sides at once, in threads (the native
    search runs without the GIL), each lane with its own Solver: ``solver``
    is then a list of them, one a lane (kept warm across calls), or None to
    make them here.  The results are the same, in the same order, whatever
    ``jobs``; a king52 penalty contract, seconds to minutes a seat, takes
    about half the time with two lanes on two cores.

    Stopped, it raises :class:`~kingsolve.errors.SearchInterrupted` whose
    ``finished`` holds the sides solved before it stopped (in lanes, every
    side that had finished) and whose ``also`` lists what was proven of the
    other sides stopped with it."""
    deal = Deal.from_layout(contract, layout, leader, trick)
    n = contract.variant.n_seats
    sides = list(sides) if sides else [1 << k for k in range(n)]
    out = SolveResult(deal, layout)
    if jobs > 1 or isinstance(solver, (list, tuple)):
        lanes = solver_lanes(layout.hand_size, jobs, solver)
        if len(lanes) > 1 and len(sides) > 1:
            return _solve_in_lanes(out, deal, sides, cards, line, lanes, time_limit, on_start, on_result)
        solver = lanes[0]
    solver = solver or solver_for(layout.hand_size)
    for i, side in enumerate(sides):
        if on_start is not None:
            on_start(_seats(side, n), solver)
        try:
            r = _side_result(solver, deal, side, cards, line, time_limit)
        except SearchInterrupted as err:
            err.finished = out
            raise
        out.results.append(r)
        if on_result is not None:
            on_result(out, r)
    return out


def solver_lanes(hand_size: int, jobs: int, solvers=None, tt_log2: int | None = None) -> list:
    """The Solvers of ``jobs`` lanes (:func:`solve`'s ``jobs``): ``solvers``
    if given (a list of ``jobs`` of them), else new ones of 2^``tt_log2``
    entries or the product's default size for lanes (:func:`solver_for`)."""
    if solvers is None:
        return [solver_for(hand_size, tt_log2, lanes=jobs) for _ in range(max(1, jobs))]
    if not isinstance(solvers, (list, tuple)):
        raise ValueError("solve: lanes take a list of solvers, one a lane")
    lanes = list(solvers)
    if not lanes or (jobs > 1 and len(lanes) != jobs):
        raise ValueError(f"solve: {jobs} lanes need {jobs} solvers, got {len(lanes)}")
    return lanes


def _seats(side: int, n: int) -> tuple:
    return tuple(k for k in range(n) if side >> k & 1)


def _side_result(solver: Solver, deal: Deal, side: int, cards: bool, line: bool,
                 time_limit: float | None = None) -> SideResult:
    # One side's value, and its card values and line if asked, from one
    # solver, all within time_limit seconds: when it runs out, the interval
    # proven (and no card values or line), or the value and what was finished.
    seats = _seats(side, deal.rules.n_seats)
    deadline = deadline_after(time_limit)
    r = None
    try:
        v = timed_value(solver, deal, side, deadline=deadline)
        if isinstance(v, Interval):
            return SideResult(seats, None, low=v.low, high=v.high, timed_out=True)
        r = SideResult(seats, v)
        if cards:
            r.cards = solver.card_values(deal, side, deadline)
        if line:
            r.line = solver.line(deal, side, deadline)
    except TimeoutError:
        r.timed_out = True             # the value is exact; the rest is left out
    except SearchInterrupted:
        raise
    except KeyboardInterrupt as err:
        # outside the value's search (the card values, the line)
        value = None if r is None else r.value
        raise SearchInterrupted(value, value, side=seats) from err
    return r


def _solve_in_lanes(out: SolveResult, deal: Deal, sides: list, cards: bool, line: bool,
                    lanes: list, time_limit=None, on_start=None, on_result=None) -> SolveResult:
    # A side a task on the lanes (kingsolve.lanes), taken in order as each
    # lane is free; the results go in the order of `sides`, to on_result as
    # soon as each and those before it are known.
    from .lanes import run_in_lanes
    n = deal.rules.n_seats

    def work(solver, i, results):
        if on_start is not None:
            on_start(_seats(sides[i], n), solver)
        return _side_result(solver, deal, sides[i], cards, line, time_limit)

    try:
        out.results = run_in_lanes(len(sides), work, lanes,
                                   on_result=None if on_result is None else lambda i, r: on_result(out, r))
    except SearchInterrupted as err:
        # what finished, and what was proven of each side a lane was solving
        out.results = [r for r in err.finished if r is not None]
        err.finished = out
        raise
    return out
