"""Advice from what a player can see (порада): which card to play, and, in the
long ("ordered", замовний) King of source 000 (Ukrainian), which deal type to
order with the hand held.

The method is the bridge player's simulation, built as a composition:

    knowledge (:func:`kingsolve.knowledge.observe`: the seat's hand, the talon,
    the cards played and what each play revealed)
      → sampler (uniform deals consistent with it, sample ``i`` from its own
        seeded stream, so the result never depends on ``jobs``)
      → solver (every sampled deal solved double dummy: the value of each
        legal card, or of each deal type, for the seat alone against the rest)
      → report (:mod:`kingsolve.reporting.advise`).

Its known blind spot: every sampled deal is solved as if all the cards were
visible, so a card's value assumes the rest of the hand will be played as if
the unseen cards were known (bridge players call it "strategy fusion"); it
overrates plays that keep options open for a guess that the player could not
actually get right, and cannot value plays that gather information.

Seats are 0-based here; reports show them 1-based.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .cards import card_str, card_symbol, cards_of, count, rank_of, suit_of
from .engine import Position, hands_from_play, legal_mask
from .errors import InvalidLayoutError, InvalidRulesError, KingsolveError
from .knowledge import Observation, observe
from .seeds import fresh_seed
from .solver import Deal, long_deal, solver_for
from .variants import MIRROR_CONTRACTS, PENALTY_CONTRACTS, Contract, Variant
from .workers import SampleRun, TimeLimitReached, run_samples

BLIND_SPOT = ("each sampled deal is solved double dummy, as if the unseen cards were visible: a card's value "
              "assumes the rest will be played knowing where every card is, so plays that keep a guess open "
              "look better than they are, and plays that find out where cards are get no credit")


# --------------------------------------------------------------------------- what is asked

@dataclass(frozen=True)
class Question:
    """One double-dummy question asked of every sampled deal: the values of
    every card in ``cards`` (a play decision), or the value of the whole deal
    under ``contract`` (an order decision), for ``seat`` alone against the rest."""
    contract: Contract
    leader: int
    trick: tuple
    trick_index: int
    seat: int
    cards: tuple = ()       # the legal cards to value; () = the deal's value only


@dataclass(frozen=True)
class Plan:
    """Sampling and solving, as data a worker process can take: the knowledge,
    the seed, and the questions (one column of the result for each card of a
    play question, one for each order question)."""
    observation: Observation
    seed: int
    questions: tuple
    hand_size: int

    @property
    def width(self) -> int:
        return sum(len(q.cards) or 1 for q in self.questions)


_SOLVERS = threading.local()


def _solver(hand_size: int, lanes: int = 1):
    # one solver per worker thread (a Dask worker runs tasks in several), kept
    # warm across tasks.  The worker processes of a 13-card run share the
    # memory budget of one solver (solver_for's lanes); a short deal's worker
    # keeps the one-process table, as its tables never grow
    cache = getattr(_SOLVERS, "by_size", None)
    if cache is None:
        cache = _SOLVERS.by_size = {}
    lanes = lanes if long_deal(hand_size) else 1
    s = cache.get((hand_size, lanes))
    if s is None:
        s = cache[(hand_size, lanes)] = solver_for(hand_size, lanes=lanes)
    return s


def drop_solvers() -> None:
    """Forget this thread's solvers and their warm tables: the next run starts
    cold, as in a fresh process (worker processes are forked from this one, so
    they would inherit them too).  For benchmarks timing repeated runs."""
    _SOLVERS.__dict__.pop("by_size", None)


RANGE = 10
"""Samples in a unit of work of short hands, at most (each worker keeps its
solver warm across units, so small units cost nothing; what Ctrl-C stops
while running is lost)."""


def solve_samples(plan: Plan, start: int, stop: int, lanes: int = 1, deadline: float | None = None) -> np.ndarray:
    """The values (stop − start, width) of samples ``start``..``stop − 1`` (a
    search still running at ``deadline``, a ``time.monotonic()`` time, stops
    with TimeoutError)."""
    know = plan.observation.knowledge
    n = know.n_seats
    solver = _solver(plan.hand_size, lanes)
    out = np.zeros((stop - start, plan.width), dtype=np.int64)
    rules = {}
    for j, i in enumerate(range(start, stop)):
        deal = know.sample(plan.seed, i)
        hands = tuple(int(h) for h in deal[:n])
        col = 0
        for q in plan.questions:
            r = rules.get(q.contract)
            if r is None:
                r = rules[q.contract] = q.contract.deal_rules(plan.hand_size)
            d = Deal(q.contract, Position(hands, q.leader, q.trick, q.trick_index), r)
            if q.cards:
                vals = solver.card_values(d, 1 << q.seat, deadline)
                for c in q.cards:
                    out[j, col] = vals[c]
                    col += 1
            else:
                out[j, col] = solver.value(d, 1 << q.seat, deadline=deadline)
                col += 1
    return out


def run_plan(plan: Plan, samples: int, jobs: int = 1, progress=None, scheduler: str | None = None,
             time_limit: float | None = None) -> SampleRun:
    """Solve ``samples`` sampled deals (:func:`kingsolve.workers.run_samples`),
    in ``jobs`` worker processes (or on a Dask cluster at ``scheduler``),
    ``progress(k)`` as they finish.  Ctrl-C or ``time_limit`` seconds stops
    the run and keeps the first samples finished (``interrupted``,
    ``time_limit_reached``); the ranges are issued lazily, so memory does not
    grow with ``samples``.  Nothing finished: KeyboardInterrupt, or
    :class:`~kingsolve.workers.TimeLimitReached` after the time limit."""
    if samples < 1:
        raise KingsolveError(f"samples must be at least 1, not {samples}")
    run = run_samples(samples, plan.width, plan.hand_size, local=lambda a, b, deadline: solve_samples(
                          plan, a, b, deadline=deadline),
                      fn=solve_samples, args=lambda a, b, lanes: (plan, a, b, lanes), jobs=jobs,
                      scheduler=scheduler, progress=progress, time_limit=time_limit, most=RANGE)
    if not len(run.values):
        if run.time_limit_reached:
            raise TimeLimitReached(f"no deal finished within the time limit ({time_limit:g} s)")
        raise KeyboardInterrupt("interrupted before the first samples were finished")
    return run


def _card_order(c: int):
    return (suit_of(c), -rank_of(c))


def standard_error(x: np.ndarray) -> float:
    """The standard error of the mean of ``x`` (sample deviation over √n); NaN
    under two values, which show no spread."""
    n = len(x)
    return float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")


def paired_p_better(a: np.ndarray, b: np.ndarray) -> float:
    """The probability that option ``b`` is really better than ``a`` on average,
    from their paired values over the same n deals: the tail of Student's t
    with n − 1 degrees of freedom beyond mean / se of the differences a − b
    (a paired t-test's one-sided p-value; over a few deals, as a run stopped by
    ``--time-limit`` leaves, far wider than the normal tail: three deals with
    the margin three standard errors wide leave a 5% chance, not 0.1%).
    NaN from one deal (no spread to judge by) or none; when every difference
    is the same, 0 or 1 by its sign, and 0.5 when they are all 0."""
    d = (a - b).astype(float)
    n = len(d)
    if n < 2:
        return float("nan")
    mean = float(d.mean())
    se = standard_error(d)
    if se == 0.0:
        return 0.5 if mean == 0 else (0.0 if mean > 0 else 1.0)
    from scipy.special import stdtr    # Student's t distribution function (scipy.stats' own)
    return float(stdtr(n - 1, -mean / se))


def option_table(values: np.ndarray, names: list) -> pd.DataFrame:
    """Per option (column of ``values``): mean ± standard error, how often it
    is best in a sample (ties count for each), the mean loss against each
    sample's best option, and the distribution's quartiles."""
    n = len(values)
    best = values.max(axis=1) if n else np.zeros(0)
    rows = []
    for j, name in enumerate(names):
        x = values[:, j]
        rows.append({
            "option": name,
            "mean": float(x.mean()) if n else float("nan"),
            "se": standard_error(x),
            "p_best": float((x == best).mean()) if n else float("nan"),
            "mean_loss": float((best - x).mean()) if n else float("nan"),
            "min": int(x.min()) if n else None, "median": float(np.median(x)) if n else float("nan"),
            "max": int(x.max()) if n else None,
        })
    df = pd.DataFrame(rows).set_index("option")
    return df


def _rank(df: pd.DataFrame, values: np.ndarray) -> tuple[pd.DataFrame, dict]:
    # best first: by mean, then by how often best; the recommendation and its certainty
    order = sorted(range(len(df)), key=lambda j: (-df["mean"].iloc[j], -df["p_best"].iloc[j], j))
    df = df.iloc[order].copy()
    df.insert(0, "rank", range(1, len(df) + 1))
    summary = {"recommended": df.index[0]}
    # options worth the same as the recommended one in every sampled deal
    # (touching cards, mostly) are named with it; the runner-up is the best
    # option that differs from it somewhere
    best = values[:, order[0]]
    same = [k for k in range(1, len(order)) if np.array_equal(values[:, order[k]], best)]
    summary["equal"] = [df.index[k] for k in same]
    rest = [k for k in range(1, len(order)) if k not in same]
    if rest:
        k = rest[0]
        a, b = best, values[:, order[k]]
        d = a - b
        summary.update({
            "second": df.index[k],
            "margin": float(d.mean()) if len(d) else float("nan"),
            "margin_se": standard_error(d),
            "p_second_better": paired_p_better(a, b),
        })
    return df, summary


# --------------------------------------------------------------------------- play advice

@dataclass
class Advice:
    """An answer: ``table`` (a DataFrame, one row per option, best first),
    ``summary`` (the recommendation, the runner-up, the probability the
    runner-up is better), the raw ``values`` (samples × options, in the order
    of ``options``), and what it was computed from."""
    kind: str                  # "play" or "order"
    variant: Variant
    seat: int
    hand: int
    seed: int
    samples: int
    requested: int
    interrupted: bool          # by Ctrl-C: the samples are the first finished
    options: list              # card ints (play) or contract names (order)
    table: pd.DataFrame
    summary: dict
    values: np.ndarray = field(repr=False)
    contract: Contract | None = None
    observation: Observation | None = None
    deals: int = 0             # consistent deals (exact count)
    leader: int = 0
    taken: int = 0             # points the seat already took (play advice)
    blind_spot: str = BLIND_SPOT
    time_limit_reached: bool = False   # stopped by its time limit: the samples are the first finished


def _check_samples(samples: int, seed):
    if samples < 1:
        raise InvalidRulesError(f"--samples {samples}: at least 1")
    if seed is not None and not 0 <= int(seed) < 2 ** 32:
        raise InvalidRulesError(f"--seed {seed}: 0 .. 2^32-1")


def play_advice(variant: Variant, contract: Contract, seat: int, hand: int, *, leader: int = 0, played=(),
                known=(), samples: int = 500, seed: int | None = None, jobs: int = 1, progress=None,
                scheduler: str | None = None, time_limit: float | None = None) -> Advice:
    """Which card ``seat`` should play: ``hand`` is its whole hand at the start
    of the deal, ``played`` every card played so far (from ``leader``'s first
    lead), ``known`` (seat or "talon", mask) pairs of other cards it saw.
    It must be ``seat``'s turn after ``played``.  ``time_limit``: seconds for
    the whole run, after which the samples finished are the answer.  Seats
    0-based."""
    _check_samples(samples, seed)
    seed = fresh_seed() if seed is None else int(seed)
    rules = contract.deal_rules()
    obs = observe(variant, rules, seat=seat, hand=hand, leader=leader, plays=list(played), known=known)
    if obs.trick_index >= rules.n_tricks:
        raise InvalidLayoutError("the deal is over: every card has been played")
    if obs.to_move != seat:
        raise InvalidLayoutError(f"after the cards played it is seat {obs.to_move + 1}'s turn, not seat {seat + 1}'s")
    own = obs.knowledge.known[seat]
    hands = [0] * variant.n_seats
    hands[seat] = own
    legal = sorted(cards_of(legal_mask(rules, Position(tuple(hands), obs.leader, obs.trick, obs.trick_index))),
                   key=_card_order)
    q = Question(contract, obs.leader, obs.trick, obs.trick_index, seat, tuple(legal))
    plan = Plan(obs, seed, (q,), rules.n_tricks)
    run = run_plan(plan, samples, jobs, progress, scheduler, time_limit)
    table, summary = _rank(option_table(run.values, [card_str(c) for c in legal]), run.values)
    table.insert(1, "card", [card_symbol(c) for c in (_parse_code(x) for x in table.index)])
    return Advice("play", variant, seat, hand, seed, len(run.values), samples, run.interrupted, legal, table, summary,
                  run.values, contract, obs, obs.knowledge.count, obs.leader, obs.points[seat],
                  time_limit_reached=run.time_limit_reached)


def _parse_code(code: str) -> int:
    from .cards import parse_card
    return parse_card(code)


# --------------------------------------------------------------------------- order advice

ORDER_TYPES = PENALTY_CONTRACTS + MIRROR_CONTRACTS
"""The deal types of the long King (the seven penalty deals and their positive mirrors)."""


def order_types(variant: Variant) -> tuple:
    """The deal types a seat may order in ``variant``: the 14 of ru4, ua3 and ru3;
    none in king52, which has no mirror stage and no long King."""
    if not set(MIRROR_CONTRACTS) <= set(variant.contracts):
        return ()
    return tuple(t for t in ORDER_TYPES if t in variant.contracts)


def order_advice(variant: Variant, seat: int, hand: int, *, left=None, known=(), samples: int = 200,
                 seed: int | None = None, jobs: int = 1, progress=None, scheduler: str | None = None,
                 time_limit: float | None = None) -> Advice:
    """Which deal type ``seat`` should order in the long King (source 000
    (Ukrainian): the seat who orders the deal leads it): for every type in
    ``left`` (default: all 14), the points its ``hand`` is expected to take
    with that contract, the seat alone against the rest (``time_limit`` as
    :func:`play_advice`'s).  Seats 0-based."""
    _check_samples(samples, seed)
    types = order_types(variant)
    if not types:
        raise InvalidRulesError(f"{variant.id} has no ordered (long) King: its deal types are not the 14 of source 000")
    if left:
        bad = [t for t in left if t not in types]
        if bad:
            raise InvalidRulesError(f"--left: {bad[0]!r} is not a deal type one may order in {variant.id} "
                                    f"(choose from {', '.join(types)})")
        types = tuple(t for t in types if t in set(left))
    seed = fresh_seed() if seed is None else int(seed)
    contracts = [variant.contract(t) for t in types]
    rules = contracts[0].deal_rules()
    obs = observe(variant, rules, seat=seat, hand=hand, leader=seat, known=known)
    qs = tuple(Question(c, seat, (), 0, seat) for c in contracts)
    plan = Plan(obs, seed, qs, rules.n_tricks)
    run = run_plan(plan, samples, jobs, progress, scheduler, time_limit)
    table, summary = _rank(option_table(run.values, list(types)), run.values)
    totals = {t: c.total for t, c in zip(types, contracts)}
    table.insert(1, "deal_total", [totals[t] for t in table.index])
    return Advice("order", variant, seat, hand, seed, len(run.values), samples, run.interrupted, list(types), table,
                  summary, run.values, None, obs, obs.knowledge.count, seat, 0,
                  time_limit_reached=run.time_limit_reached)


# --------------------------------------------------------------------------- records

def parse_at(text: str, n_seats: int) -> tuple[int, int]:
    """``TRICK[.CARD]`` (1-based) → (trick index, place in the trick), both 0-based."""
    t, _, k = str(text).strip().partition(".")
    try:
        trick = int(t)
        place = int(k) if k else 1
    except ValueError:
        raise InvalidRulesError(f"--at {text!r}: write TRICK or TRICK.CARD, e.g. 4 or 4.2") from None
    if trick < 1 or not 1 <= place <= n_seats:
        raise InvalidRulesError(f"--at {text!r}: trick 1 or later, card 1..{n_seats}")
    return trick - 1, place - 1


def record_point(rec, at: str, variant: Variant | None = None) -> dict:
    """The decision at ``at`` in a KDN record: variant, contract, leader, the
    cards played before it, the seat to move, and its hand (from the
    record's [Layout], or from the play when the record shows every card of
    that seat).  One-line errors for a point past the end, an unsure card."""
    from .kdn import CARD
    from .records import setup_record
    setup = setup_record(rec, variant)
    v, n = setup.variant, setup.variant.n_seats
    trick, place = parse_at(at, n)
    if setup.end_position:
        raise InvalidRulesError("the record's [Layout] is an end position: advise needs the whole deal")
    tokens = [tok for tr in rec.tricks for tok in tr.tokens]
    stop = trick * n + place
    if trick >= setup.size:
        raise InvalidRulesError(f"--at {at}: a deal of {v.id} has {setup.size} tricks")
    if stop > len(tokens):
        raise InvalidRulesError(f"--at {at}: past the end of the record (it stops after {len(tokens)} cards: "
                                f"trick {len(tokens) // n + 1}, card {len(tokens) % n + 1} is the next)")
    if all(tok.kind == CARD for tok in tokens):
        cards = [tok.card for tok in tokens]
    elif all(tok.kind == CARD for tok in tokens[:stop]) and rec.layout is None:
        cards = [tok.card for tok in tokens[:stop]]     # the unsure cards come later: not needed
    else:
        # lost suits and unreadable cards: verify's inference, when it reads them one way only
        from .verify import build_slots, infer
        slots, _ = build_slots(rec, setup)
        readings, truncated, failure = infer(setup, slots, rec.layout)
        if failure is not None and not readings:
            raise InvalidRulesError(f"the record's play is not legal: trick {failure.trick}, {failure.text!r}: "
                                    f"{failure.reason}")
        if len(readings) != 1 or truncated:
            raise InvalidRulesError(f"the record's unsure cards can be read {len(readings)}{'+' if truncated else ''} "
                                    f"ways; advise needs every card known (see kingsolve verify)")
        cards = list(readings[0].cards)
    if rec.layout is not None:
        hands = rec.layout.hands
    elif len(cards) == n * setup.size:     # a finished record: each hand is what its seat played
        hands = hands_from_play(setup.rules, setup.leader, setup.variant.n_seats, cards)
    else:
        hands = None
    before = cards[:stop]
    # an onlooker's view of the plays before the point: checks them and says who is to move
    seen = observe(v, setup.rules, seat=None, leader=setup.leader, plays=before)
    return {"setup": setup, "played": before, "hands": hands, "seat": seen.to_move}




def advise_record(rec, at: str, *, variant: Variant | None = None, hand: int | None = None, known=(),
                  **kw) -> Advice:
    """:func:`play_advice` for the seat to move at ``at`` (``TRICK[.CARD]``) of a
    KDN record; ``hand`` overrides the hand the record gives (needed when the
    record shows neither a [Layout] nor every card of that seat)."""
    point = record_point(rec, at, variant)
    setup = point["setup"]
    seat = point["seat"]
    if hand is None:
        if point["hands"] is None:
            raise InvalidRulesError(f"the record shows neither a [Layout] nor every card of seat {seat + 1}: "
                                    f"give its hand with --hand")
        hand = point["hands"][seat]
    if count(hand) != setup.size:
        raise InvalidLayoutError(f"the hand of seat {seat + 1} has {count(hand)} cards; {setup.variant.id} deals "
                                 f"{setup.size}")
    return play_advice(setup.variant, setup.contract, seat, hand, leader=setup.leader, played=point["played"],
                       known=known, **kw)


# --------------------------------------------------------------------------- the Python API

def play_table(variant: Variant, contract: Contract, seat: int, hand: int, **kw) -> pd.DataFrame:
    """:func:`play_advice`'s table: one row per legal card (its ASCII code as
    the index), best first — rank, card, mean, se, p_best, mean_loss, min,
    median, max (points for the seat from the position on)."""
    return play_advice(variant, contract, seat, hand, **kw).table


def order_table(variant: Variant, seat: int, hand: int, **kw) -> pd.DataFrame:
    """:func:`order_advice`'s table: one row per deal type, best first."""
    return order_advice(variant, seat, hand, **kw).table
