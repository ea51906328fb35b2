"""Bidding by simulation: the decisions of a sold game, each at the moment the
game asks it — which game the seller names, whether he accepts an offer, how
many tricks a buyer offers, which ``king52`` auction bid to make.

The method is the bridge player's: deal the cards a seat cannot see many times,
consistently with what it knows, solve every deal double dummy for every choice
it could make, and read the distribution.

The decisions (docs/rules.md; sources 000 (Ukrainian) and 002 (Slovak); the reading of
the rules is written out in ``docs/bid.md``):

``seller`` (хваленки / хвалёнки, "praised" trump games of ``ru4``, ``ua3``,
           ``ru3``) — the first hand.  With his first three cards: which game
           to name (each suit or misère, мизер / мізер) by his expected tricks.
           With the whole hand and the game he named: accept an offer of N
           tricks (взятки / хабарі), play the named game, or write two tricks
           to every player; and the least offer worth accepting.
``buyer``  another seat buys the game by offering N tricks; he names the trump
           (or misère), leads, and hands N of his tricks to the seller.  Not
           buying, he defends the seller's game, the seller leading.  Most worth
           offering: the largest N with E[buyer's tricks] − N ≥ E[his tricks as
           defender] — against the game the seller named, or, not told it, one
           answer per game the seller could have named.
``bidder`` ``king52`` auction (торги, dražba): a bid +N (positive deal) or −N
           (negative deal) for the dealer's right, settled by
           :mod:`kingsolve.settlement` under the variant's ``auction-pay``.

The model: every count is double dummy, and a seat is counted alone against the
other seats together — for a defender a lower bound on his tricks (his partners
in defence in fact share his interest only in part).

Randomness is reproducible: the deals are :mod:`kingsolve.knowledge`'s
uniform samples of what the seat knows, sample ``i`` drawn from
``SeedSequence(seed, spawn_key=(i,))``, so it is the same whatever the way
the work is split: the result never depends on ``jobs`` (or a Dask cluster),
and the first ``n`` samples of a run are the same for every ``--samples`` ≥
``n``.  Work is handed out in small units (one sample for 13-card hands)
generated as they are needed: memory does not grow with the number of
samples asked for.

Seats are 0-based in this module (seat 1 of the score sheet is 0).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .cards import SUIT_LETTERS, count
from .engine import Position
from .errors import InvalidLayoutError, InvalidRulesError, KingsolveError
from .knowledge import TALON, observe
from .settlement import AUCTION_PAY, auction_transfer
from .variants import Contract, Variant
from .seeds import fresh_seed
from .workers import TimeLimitReached, run_samples

BOOTSTRAP = 200
"""Resamples of the finished samples behind the stability of an integer answer."""

MODEL = ("double dummy; each seat counted alone against the others together "
         "(for a defender, a lower bound on his tricks)")

ROLES = ("buyer", "seller", "bidder")

KING52_BIDS = ("+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8")
"""The ``king52`` auction bids, lowest first (002: −1 outranks +1..+3, −2
outranks +4..+6, +7 and +8 outrank −2; +8 is the top bid, an ultimatum)."""


# --------------------------------------------------------------------------- choices

@dataclass(frozen=True)
class Choice:
    """One game a seat could name: a trump game (``S H D C``, ``NT`` in king52),
    misère (``misere``: ranks inverted, no trump) or a king52 negative deal
    (``minus-S`` … ``minus-NT``: 325 − 75 a trick)."""
    name: str
    contract: str      # "trump", "misere" or "minus"
    trump: int | None  # 0..3, or None for no trump

    def make(self, variant: Variant) -> Contract:
        return variant.contract(self.contract, self.trump)


def _trump_name(t):
    return "NT" if t is None else SUIT_LETTERS[t]


def choices_for(variant: Variant) -> tuple[Choice, ...]:
    """Every game a seat may name in ``variant``: each trump suit; no trump where
    the variant allows it (king52); misère with no trump (хваленки); and in
    king52 the negative deal with each trump or none."""
    out = []
    if "trump" in variant.contracts:
        out += [Choice(_trump_name(t), "trump", t) for t in variant.trump_choices("trump")]
    if "misere" in variant.contracts:
        out.append(Choice("misere", "misere", None))
    if "minus" in variant.contracts:
        out += [Choice(f"minus-{_trump_name(t)}", "minus", t) for t in (0, 1, 2, 3, None)]
    if not out:
        raise InvalidRulesError(f"{variant.id} has no trump games to bid for")
    return tuple(out)


def parse_choice(text: str, variant: Variant) -> Choice:
    """A choice by name, as in :func:`choices_for` (``S``, ``♥``, ``misere``, ``NT``, ``minus-H``, ``-H``),
    or spelt as a contract everywhere else is (``trump:S``, ``minus:H``, ``misere``)."""
    from .variants import parse_trump, split_contract
    t = str(text).strip()
    game, trump_text = split_contract(t)
    if game in ("trump", "minus") and trump_text:
        t = trump_text if game == "trump" else f"minus-{trump_text}"
    elif game == "misere" and trump_text in (None, "NT"):
        t = "misere"
    low = t.lower()
    options = choices_for(variant)
    if low in ("misere", "misère", "мизер", "мізер"):
        name = "misere"
    else:
        minus = low.startswith("minus-") or low.startswith("-")
        body = t.split("-", 1)[1] if minus else t
        try:
            trump = parse_trump(body)
        except InvalidRulesError:
            trump = "?"
        name = ("minus-" if minus else "") + (_trump_name(trump) if trump != "?" else body)
    for c in options:
        if c.name.lower() == name.lower():
            return c
    raise InvalidRulesError(f"{variant.id} has no game {text!r} to name (choose from {', '.join(c.name for c in options)})")


def tricks_from_value(contract: Contract, value: int) -> int:
    """The trick count behind a double-dummy value of a game in which every trick
    is worth the same (trump, misère, minus): exact, or an error."""
    if any(contract.card_points) or contract.last_two or not contract.per_trick:
        raise InvalidRulesError(f"{contract!r} does not score by the trick")
    t, rest = divmod(value - contract.seat_base, contract.per_trick)
    if rest:
        raise KingsolveError(f"{contract!r}: value {value} is not a whole number of tricks")
    return t


def points_of_tricks(contract: Contract, tricks):
    """Score-sheet points of taking ``tricks`` (a number or an array) in a by-the-trick game."""
    return contract.seat_base + contract.per_trick * tricks


# --------------------------------------------------------------------------- knowledge and sampling

@dataclass(frozen=True)
class Knowledge:
    """What the seat knows when it decides: :func:`kingsolve.knowledge.observe`
    before any play (``dealt``) — the known cards of every seat (its own hand
    among them), the known cards of a hidden talon (``ru3 talon=hidden``);
    everything else of the deck is dealt at random to the free places, by
    ``dealt``'s sampler."""
    variant: Variant
    seat: int
    dealt: object = field(repr=False)    # kingsolve.knowledge.Knowledge

    @property
    def n_seats(self) -> int:
        return self.variant.n_seats

    @property
    def known(self) -> tuple:
        """Per seat, mask of cards known to be in that hand."""
        return self.dealt.known[:self.n_seats]

    @property
    def talon_known(self) -> int:
        """Cards known to lie in the hidden talon."""
        return self.dealt.known[self.n_seats] if self.dealt.holders > self.n_seats else 0

    @property
    def unseen(self) -> int:
        return self.dealt.unknown

    @property
    def free(self) -> tuple:
        """Free places per seat, then in the hidden talon."""
        n = self.n_seats
        return tuple(self.dealt.need[:n]) + (self.dealt.need[n] if self.dealt.holders > n else 0,)


def make_knowledge(variant: Variant, seat: int, hand: int, known=(), *, full_hand: bool = True,
                   partial_sizes=()) -> Knowledge:
    """Check and gather what ``seat`` knows.  ``hand`` is its own cards (its whole
    hand unless ``full_hand`` is False: then any of ``partial_sizes`` cards);
    ``known`` pairs (seat or ``"talon"``, mask) of other cards it has seen.
    Raises a one-line :class:`InvalidLayoutError` naming the card or the seat
    (:func:`kingsolve.knowledge.observe`'s checks)."""
    hs = variant.hand_size
    size = count(hand)
    if not full_hand and size != hs and size not in partial_sizes:
        allowed = " or ".join(str(k) for k in sorted(set(partial_sizes) | {hs}))
        raise InvalidLayoutError(f"the hand of seat {seat + 1} has {size} cards; give {allowed}")
    # before any play the deal's size is all observe asks of the rules: any contract's will do
    rules = variant.contract(variant.contracts[0]).deal_rules()
    seen = observe(variant, rules, seat=seat, hand=hand, known=[(TALON if w == "talon" else w, m) for w, m in known],
                   partial=not full_hand)
    return Knowledge(variant, seat, seen.knowledge)


def sample_range(knowledge: Knowledge, seed: int, start: int, stop: int) -> np.ndarray:
    """Samples ``start`` … ``stop − 1`` of a run: an array (stop − start, n_seats)
    of uint64 hand masks, each consistent with ``knowledge`` and uniformly
    distributed given it.  Sample ``i`` is drawn on its own
    (:meth:`kingsolve.knowledge.Knowledge.sample`, ``SeedSequence(seed,
    spawn_key=(i,))``): the same deals however a run is split into ranges."""
    return knowledge.dealt.samples(seed, start, stop)[:, :knowledge.n_seats]


# --------------------------------------------------------------------------- the solving plan

@dataclass(frozen=True)
class Task:
    """One double-dummy count per sample: ``side``'s tricks under ``choice`` with
    ``leader`` on lead.  With ``pick_from`` (indices of earlier tasks, parallel
    to ``pick_choices``), the choice is made per sample: the one whose task
    gave the most tricks (the buyer naming his best game).  With ``cap``, a
    side that avoids tricks (a negative deal) is counted only up to ``cap``
    tricks: min(tricks, cap), from at most ``cap`` zero-window searches instead
    of the exact count (a −N bid needs the dealer's tricks up to N only)."""
    key: str
    choice: Choice | None
    leader: int
    side: int
    pick_from: tuple = ()
    pick_choices: tuple = ()
    cap: int | None = None


@dataclass(frozen=True)
class Plan:
    """What to count on every sample; ``tt_log2`` a fixed table size
    (``--tt-size``), or None for the size ``solve`` uses
    (:func:`kingsolve.solver.solver_for`)."""
    knowledge: Knowledge
    tasks: tuple
    tt_log2: int | None = None

    def solver(self, lanes: int = 1):
        """A Solver of the plan's size, one of ``lanes`` processes solving at
        once (they share the memory budget, :func:`kingsolve.solver.solver_for`)."""
        from .solver import solver_for
        return solver_for(self.knowledge.variant.hand_size, self.tt_log2, lanes)


def capped_tricks(solver, contract: Contract, deal, side: int, cap: int, deadline: float | None = None) -> int:
    """min(tricks, ``cap``) of ``side`` (one seat) playing to avoid tricks in
    ``deal`` (a by-the-trick game with a negative price): "can he hold his
    tricks to k?" asked for k = cap − 1, cap − 2, … until the answer is no."""
    if contract.per_trick >= 0:
        raise InvalidRulesError(f"{contract!r}: only a side avoiding tricks is counted up to a cap")
    for k in range(cap - 1, -1, -1):
        if not solver.reaches(deal, 1 << side, int(points_of_tricks(contract, k)), deadline):
            return k + 1
    return 0


def solve_range(plan: Plan, seed: int, start: int, stop: int, solver=None, lanes: int = 1,
                deadline: float | None = None) -> np.ndarray:
    """Tricks (stop − start, n_tasks) of samples ``start`` … ``stop − 1``: every
    task on every sampled deal, with ``solver`` (default: a new one of the
    plan's size, one of ``lanes`` processes at once); a search still running
    at ``deadline`` (``time.monotonic()``) stops with TimeoutError."""
    from .solver import Deal
    variant = plan.knowledge.variant
    deals = sample_range(plan.knowledge, seed, start, stop)
    size = len(deals)
    hands = [tuple(int(h) for h in row) for row in deals]
    solver = solver if solver is not None else plan.solver(lanes)
    out = np.zeros((size, len(plan.tasks)), dtype=np.int16)
    contracts = {}

    def count_one(choice, task, h):
        if choice not in contracts:
            c = choice.make(variant)
            contracts[choice] = (c, c.deal_rules())
        c, rules = contracts[choice]
        d = Deal(c, Position(h, task.leader), rules)
        if task.cap is not None:
            return capped_tricks(solver, c, d, task.side, task.cap, deadline)
        return tricks_from_value(c, solver.value(d, 1 << task.side, deadline=deadline))

    for j, task in enumerate(plan.tasks):
        if task.pick_from:
            # group samples by the picked choice so the core keeps one configuration at a time
            picks = np.argmax(out[:, list(task.pick_from)], axis=1)
            for i in np.argsort(picks, kind="stable"):
                out[i, j] = count_one(task.pick_choices[picks[i]], task, hands[i])
        else:
            for i in range(size):
                out[i, j] = count_one(task.choice, task, hands[i])
    return out


@dataclass
class RunResult:
    """The raw counts of a run: ``tricks[key]`` an int array over the finished
    samples — always the first ``samples`` of the run, so that ``--samples``
    equal to it reproduces them."""
    tricks: dict
    samples: int          # finished samples
    requested: int
    seed: int
    interrupted: bool = False
    time_limit_reached: bool = False


def run_plan(plan: Plan, samples: int, seed: int, jobs: int = 1, progress=None, scheduler=None,
             time_limit: float | None = None) -> RunResult:
    """Solve ``samples`` deals (:func:`kingsolve.workers.run_samples`: ranges
    of one sample for 13-card hands, a few a worker else), in ``jobs``
    processes or on the Dask cluster at ``scheduler``; each range of a worker
    makes its own Solver, the single process one Solver for the run.
    ``progress(n)`` is called as deals finish.  Ctrl-C or ``time_limit``
    seconds stops the run cleanly: the first samples finished without a gap
    are returned, ``interrupted`` or ``time_limit_reached`` set."""
    if samples < 1:
        raise KingsolveError(f"samples must be at least 1, not {samples}")
    if seed < 0:
        raise KingsolveError(f"seed must be a non-negative integer, not {seed}")
    solver = []

    def local(start, stop, deadline):
        if not solver:
            solver.append(plan.solver())
        return solve_range(plan, seed, start, stop, solver[0], deadline=deadline)

    run = run_samples(samples, len(plan.tasks), plan.knowledge.variant.hand_size, local=local, fn=solve_range,
                      args=lambda start, stop, lanes: (plan, seed, start, stop, None, lanes), jobs=jobs,
                      scheduler=scheduler, progress=progress, time_limit=time_limit)
    keys = [t.key for t in plan.tasks]
    return RunResult({k: run.values[:, j] for j, k in enumerate(keys)}, len(run.values), samples, seed,
                     run.interrupted, run.time_limit_reached)


# --------------------------------------------------------------------------- analysis

@dataclass
class BidAnalysis:
    """The answer: ``choices`` (a DataFrame, one row per game the seat could
    name), ``bids`` (king52: one row per auction bid; else None), ``summary``
    (the decisions and their uncertainty), and the raw counts."""
    variant: Variant
    role: str
    seat: int
    seller: int
    hand: int
    knowledge: Knowledge
    seed: int
    samples: int
    requested: int
    interrupted: bool
    choices: pd.DataFrame
    bids: pd.DataFrame | None
    summary: dict
    tricks: dict = field(repr=False, default_factory=dict)
    seller_choice: Choice | None = None
    offer: int | None = None
    buyer: int | None = None
    time_limit_reached: bool = False   # stopped by its time limit (the samples are the first finished)

    @property
    def stage(self) -> str | None:
        """The seller's moment: ``name`` (three cards seen) or ``decide`` (the whole hand)."""
        return self.summary.get("stage")


def _stats(x: np.ndarray):
    n = len(x)
    mean = float(x.mean()) if n else float("nan")
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return mean, se


def bootstrap(seed: int, m: int, answer, rounds: int = BOOTSTRAP) -> dict:
    """How stable an answer computed from ``m`` samples is: ``answer(idx)`` on
    ``rounds`` resamples (with replacement) of the sample indices; the share
    of each answer, most frequent first.  The resamples come from the run's
    seed (a stream apart from the deals'), so the same run gives the same
    shares."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1 << 32, 1)))
    counts = Counter(answer(rng.integers(0, m, m)) for _ in range(rounds))
    return {k: c / rounds for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))}


def _choice_rows(variant, choices, tricks, prefix, n_tricks):
    rows = []
    for ch in choices:
        x = tricks[f"{prefix}:{ch.name}"]
        c = ch.make(variant)
        mean, se = _stats(x)
        row = {"choice": ch.name, "contract": ch.contract, "trump": _trump_name(ch.trump),
               "mean": mean, "se": se, "points": float(points_of_tricks(c, x).mean()) if len(x) else float("nan")}
        for k in range(1, n_tricks + 1):
            row[f"P>={k}"] = float((x >= k).mean()) if len(x) else float("nan")
        rows.append(row)
    return rows


def max_offer(buy: np.ndarray, defend: np.ndarray, n_tricks: int) -> int:
    """The most tricks worth offering: the largest N with Σ(buy − N) ≥ Σ defend
    over the samples, in exact integers (a break-even counts as worth it)."""
    m = len(buy)
    return int(max(0, min(n_tricks, int((buy - defend).sum()) // m)))


def offer_uncertainty(buy, defend, n_tricks, seed) -> dict:
    """The most tricks worth offering against one seller's game and how sure it
    is: the gain of buying (tricks as buyer − as defender) ± its standard
    error, the share of samples in which buying at that offer does at least as
    well as not buying, and the offers a bootstrap over the samples gives."""
    d = buy - defend
    n = max_offer(buy, defend, n_tricks)
    gain, gain_se = _stats(d)
    return {"max_offer": n, "gain": gain, "gain_se": gain_se, "p_not_worse": float((d >= n).mean()),
            "offer_bootstrap": bootstrap(seed, len(d), lambda idx: max_offer(buy[idx], defend[idx], n_tricks))}


def analyse(variant: Variant, hand: int, *, seat: int | None = None, role: str | None = None,
            seller: int | None = None, buyer: int | None = None, known=(), offer: int | None = None,
            seller_trump: str | None = None, games=None, samples: int = 1000, seed: int | None = None,
            jobs: int = 1, progress=None, tt_log2: int | None = None, scheduler=None,
            time_limit: float | None = None) -> BidAnalysis:
    """Simulate and analyse a bidding decision (see the module docstring).

    ``hand`` is the seat's cards (a mask; a seller's three first cards or his
    whole hand); ``seller`` the first hand (the king52 dealer; default seat 0,
    or ``seat`` itself in the seller role); ``known`` (seat or "talon", mask)
    pairs of other known cards; ``seller_trump`` the game the seller named (the
    seller with his whole hand: required; buyer, bidder: the game defended when
    not buying — not given, one answer per game he could have named);
    ``offer`` the tricks offered to the seller by ``buyer``; ``games`` the
    names of the games to consider (default: every game of the variant — each
    costs a double-dummy solve per sample); ``tt_log2`` a fixed table size
    (default: :func:`kingsolve.solver.solver_for`'s); ``scheduler`` a Dask
    scheduler's address (instead of ``jobs`` local processes); ``time_limit``
    seconds for the whole run, after which it keeps the samples finished
    (:class:`~kingsolve.workers.TimeLimitReached` if there are none).  Seats
    0-based."""
    n = variant.n_seats
    role = role or ("bidder" if variant.id == "king52" else "buyer")
    if role not in ROLES:
        raise InvalidRulesError(f"unknown role {role!r} (choose from {', '.join(ROLES)})")
    if (role == "bidder") != (variant.id == "king52"):
        raise InvalidRulesError(
            "the bidder role is king52's auction" if role == "bidder" else
            "king52 has an auction, not хваленки: use --role bidder")
    if seller is None:  # the first hand; a seller who gives only --seat is that seat
        seller = seat if role == "seller" and seat is not None else 0
    if not 0 <= seller < n:
        raise InvalidLayoutError(f"seller seat {seller + 1} is not one of 1..{n}")
    if seat is None:
        seat = seller if role == "seller" else (seller + 1) % n
    if not 0 <= seat < n:
        raise InvalidLayoutError(f"seat {seat + 1} is not one of 1..{n}")
    if role == "seller" and seat != seller:
        raise InvalidLayoutError(f"seat {seat + 1} is not the seller (seat {seller + 1}): the seller role is the seller's")
    if role != "seller" and seat == seller:
        raise InvalidLayoutError(
            f"seat {seat + 1} is the {'dealer' if role == 'bidder' else 'seller'}; the {role} is another seat")
    if offer is not None and role != "seller":
        raise InvalidRulesError("--offer is the seller's question (--role seller)")
    if offer is not None and not 0 <= offer <= variant.hand_size:
        raise InvalidRulesError(f"an offer of {offer} tricks: a hand takes 0..{variant.hand_size}")
    if buyer is not None and role != "seller":
        raise InvalidRulesError("--buyer names who made the seller's offer (--role seller)")
    seller_choice = parse_choice(seller_trump, variant) if seller_trump is not None else None
    stage = None
    if role == "seller":
        stage = "decide" if count(hand) == variant.hand_size else "name"
        if stage == "name" and offer is not None:
            raise InvalidRulesError("--offer with a three-card hand: offers come after the deal is completed "
                                    "(give the whole hand and --seller-trump)")
        if stage == "name" and seller_choice is not None:
            raise InvalidRulesError("--seller-trump with a three-card hand: with three cards the question is "
                                    "which game to name (give the whole hand to decide on an offer)")
        if stage == "decide" and seller_choice is None:
            raise InvalidRulesError("--role seller with the whole hand: give --seller-trump, the game named after "
                                    "three cards (with only those three cards, the answer is which game to name)")
        buyer = (seller + 1) % n if buyer is None else buyer
        if not 0 <= buyer < n or buyer == seller:
            raise InvalidLayoutError(f"buyer seat {buyer + 1}: another seat than the seller's, 1..{n}")
    if seed is None:
        seed = fresh_seed()
    knowledge = make_knowledge(variant, seat, hand, known, full_hand=(role != "seller"), partial_sizes=(3,))
    choices = choices_for(variant)
    if games:
        picked = [parse_choice(g, variant) for g in games]
        choices = tuple(c for c in choices if c in picked)

    tasks = []
    if role in ("buyer", "bidder"):
        tasks += [Task(f"own:{c.name}", c, seat, seat) for c in choices]
        if role == "bidder":
            cap = max(int(b[1:]) for b in KING52_BIDS if b[0] == "-")
            tasks += [Task(f"dealer:{c.name}", c, seat, seller, cap=cap) for c in choices if c.contract == "minus"]
        defended = [seller_choice] if seller_choice else list(choices)
        tasks += [Task(f"defend:{c.name}", c, seller, seat) for c in defended]
    elif stage == "name":
        tasks += [Task(f"own:{c.name}", c, seller, seller) for c in choices]
    else:
        tasks.append(Task(f"own:{seller_choice.name}", seller_choice, seller, seller))
        first = len(tasks)
        tasks += [Task(f"buyer:{c.name}", c, buyer, buyer) for c in choices]
        tasks.append(Task("defend:bought", None, buyer, seller,
                          pick_from=tuple(range(first, first + len(choices))), pick_choices=choices))
    plan = Plan(knowledge, tuple(tasks), tt_log2)
    run = run_plan(plan, samples, seed, jobs, progress, scheduler, time_limit)
    if run.samples == 0:
        if run.time_limit_reached:
            raise TimeLimitReached(f"no deal finished within the time limit ({time_limit:g} s)")
        raise KeyboardInterrupt("interrupted before the first samples were finished")
    return _analyse_run(variant, role, seat, seller, buyer, hand, knowledge, choices, seller_choice, offer, run,
                        stage=stage)


def _analyse_run(variant, role, seat, seller, buyer, hand, knowledge, choices, seller_choice, offer, run,
                 stage=None):
    t = run.tricks
    n_tricks = variant.hand_size
    m = run.samples
    own_choices = choices if stage != "decide" else (seller_choice,)
    table = pd.DataFrame(_choice_rows(variant, own_choices, t, "own", n_tricks)).set_index("choice")
    summary = {"model": MODEL}
    bids = None
    game_trick = variant.prices.game_trick

    def points(c, key=None):
        return points_of_tricks(c.make(variant), t[key or f"own:{c.name}"])

    def best_of(cands, idx=None):
        pick = (lambda x: x) if idx is None else (lambda x: x[idx])
        return max(cands, key=lambda c: int(pick(points(c)).sum()))   # the first of equals, in game order

    if role != "seller" or stage == "name":
        cands = [c for c in choices if role == "bidder" or c.contract != "minus"]
        best = best_of(cands)
        summary["recommended"] = best.name
        summary["recommended_mean"] = float(t[f"own:{best.name}"].mean())
        summary["recommended_points"] = float(points(best).mean())
        summary["recommended_bootstrap"] = bootstrap(run.seed, m, lambda idx: best_of(cands, idx).name)

    if role in ("buyer", "bidder"):
        for c in choices:
            key = f"defend:{c.name}"
            if key in t:
                table.loc[c.name, "defend_mean"], table.loc[c.name, "defend_se"] = _stats(t[key])
                table.loc[c.name, "defend_points"] = float(points(c, key).mean())
    if role == "buyer":
        buy = t[f"own:{best.name}"]
        defended = [seller_choice] if seller_choice else list(choices)
        offers = {c.name: offer_uncertainty(buy, t[f"defend:{c.name}"], n_tricks, run.seed) for c in defended}
        for name, o in offers.items():
            if name in table.index:
                table.loc[name, "max_offer"] = o["max_offer"]
                table.loc[name, "gain_mean"], table.loc[name, "gain_se"] = o["gain"], o["gain_se"]
                table.loc[name, "p_not_worse"] = o["p_not_worse"]
        summary["seller_trump"] = seller_choice.name if seller_choice else None
        if seller_choice is not None:
            o = offers[seller_choice.name]
            summary.update(o)
            summary["defend_mean"], summary["defend_se"] = _stats(t[f"defend:{seller_choice.name}"])
            summary["points_after_max_offer"] = game_trick * (summary["recommended_mean"] - o["max_offer"])
        else:
            summary["offers"] = {name: o["max_offer"] for name, o in offers.items()}
            summary["offers_p_not_worse"] = {name: o["p_not_worse"] for name, o in offers.items()}
            summary["offers_bootstrap"] = {name: o["offer_bootstrap"] for name, o in offers.items()}
    elif role == "seller" and stage == "name":
        summary["stage"] = "name"
        summary["name"] = summary["recommended"]
    elif role == "seller":
        summary["stage"] = "decide"
        named = seller_choice
        play = points(named)
        write_two = 2 * game_trick
        d = t["defend:bought"]
        picked = np.argmax(np.stack([t[f"buyer:{c.name}"] for c in choices], axis=1), axis=1)
        summary.update({
            "named": named.name, "buyer": buyer, "play_points": float(play.mean()), "play_se": _stats(play)[1],
            "write_two_points": float(write_two),
            "defend_mean": _stats(d)[0], "defend_se": _stats(d)[1],
            "buyer_games": {c.name: int((picked == k).sum()) for k, c in enumerate(choices)},
        })

        def least_offer(idx):
            # smallest N with game_trick·Σ(N + d) ≥ max(Σ play, Σ write-two), exact integers
            k = len(idx)
            refuse = max(int(play[idx].sum()), write_two * k)
            need = refuse - game_trick * int(d[idx].sum())
            n_min = -(-need // (game_trick * k)) if need > 0 else 0
            return int(n_min) if n_min <= n_tricks else None

        all_idx = np.arange(m)
        summary["min_offer"] = least_offer(all_idx)
        summary["min_offer_bootstrap"] = bootstrap(run.seed, m, least_offer)
        refuse_key = "play" if int(play.sum()) >= write_two * m else "write-two"
        alternatives = {"play": int(play.sum()), "write-two": write_two * m}
        if offer is not None:
            accept = game_trick * (offer + d)
            alternatives["accept"] = int(accept.sum())
            summary["offer"] = offer
            summary["accept_points"] = float(accept.mean())
            summary["accept_se"] = _stats(accept)[1]
            refuse = play if refuse_key == "play" else np.full(m, write_two)
            summary["p_accept_not_worse"] = float((accept >= refuse).mean())
        order = ["accept", "play", "write-two"]
        summary["decision"] = max(order, key=lambda k: (alternatives.get(k, -10**18), -order.index(k)))
    else:
        for c in choices:
            key = f"dealer:{c.name}"
            if key in t:
                table.loc[c.name, "dealer_p1"] = float((t[key] >= 1).mean())
                table.loc[c.name, "dealer_p2"] = float((t[key] >= 2).mean())
        bids, bsum = _king52_bids(variant, choices, t, seller_choice, run.seed)
        summary.update(bsum)

    return BidAnalysis(variant=variant, role=role, seat=seat, seller=seller, hand=hand, knowledge=knowledge,
                       seed=run.seed, samples=m, requested=run.requested, interrupted=run.interrupted,
                       time_limit_reached=run.time_limit_reached,
                       choices=table, bids=bids, summary=summary, tricks=t, seller_choice=seller_choice,
                       offer=offer, buyer=buyer)


def bid_settlement(variant: Variant, bid: str, choice: Choice, own, dealer=None, pay: str | None = None):
    """The bidder's points on the score sheet, per sample, after winning the
    king52 auction with ``bid`` (``+N`` / ``−N``) and playing ``choice``: his
    points for his tricks less what he hands the dealer
    (:func:`kingsolve.settlement.auction_transfer`, under ``pay`` or the
    variant's ``auction-pay``).  ``dealer``: the dealer's tricks (negative
    deals; counts capped at N do as well)."""
    sign = bid[0]
    c = choice.make(variant)
    if (sign == "+") != (choice.contract == "trump"):
        raise InvalidRulesError(f"bid {bid} is a {'positive' if sign == '+' else 'negative'} deal, not {choice.name}")
    return points_of_tricks(c, own) - auction_transfer(c, int(bid[1:]), own, dealer, pay)


def _best_bid(variant, choices, t, base, pay, idx=None):
    """(highest bid worth making or None, {bid: (game, settlement array)}) under ``pay``:
    for each bid the game of its sign with the most points, worth it when its
    settlement's sum is at least the baseline's (``base``, or None: no baseline)."""
    sel = (lambda x: x) if idx is None else (lambda x: x[idx])
    best, per_bid = None, {}
    for bid in KING52_BIDS:
        cands = [c for c in choices if (c.contract == "trump") == (bid[0] == "+")]
        if not cands:  # --games left out every game of this sign
            continue
        settle = {c.name: sel(bid_settlement(variant, bid, c, t[f"own:{c.name}"], t.get(f"dealer:{c.name}"), pay))
                  for c in cands}
        name = max(settle, key=lambda k: int(settle[k].sum()))
        per_bid[bid] = (name, settle[name])
        if base is not None and int(settle[name].sum()) >= int(sel(base).sum()):
            best = bid
    return best, per_bid


def _king52_bids(variant, choices, t, seller_choice, seed):
    pay = variant.options.auction_pay or "shortfall"
    other = next(p for p in AUCTION_PAY if p != pay)

    def baseline(c):
        return points_of_tricks(c.make(variant), t[f"defend:{c.name}"])

    base = baseline(seller_choice) if seller_choice is not None else None
    best, per_bid = _best_bid(variant, choices, t, base, pay)
    rows = []
    for bid, (name, s) in per_bid.items():
        mean, se = _stats(s)
        row = {"bid": bid, "choice": name, "settlement": mean, "settlement_se": se}
        if base is not None:
            gain = s - base
            row.update({"gain": float(gain.mean()), "gain_se": _stats(gain)[1],
                        "p_not_worse": float((gain >= 0).mean()), "worth": int(s.sum()) >= int(base.sum())})
        rows.append(row)
    cols = ["bid", "choice", "settlement", "settlement_se"] + (
        ["gain", "gain_se", "p_not_worse", "worth"] if base is not None else [])
    table = pd.DataFrame(rows, columns=cols).set_index("bid")
    summary = {"seller_trump": seller_choice.name if seller_choice else None, "auction_pay": pay}
    if seller_choice is not None:
        summary.update({
            "baseline_game": seller_choice.name, "baseline_points": float(base.mean()),
            "best_bid": best,
            "best_bid_choice": per_bid[best][0] if best else None,
            "best_bid_settlement": float(per_bid[best][1].mean()) if best else None,
            "best_bid_p_not_worse": float(table.loc[best, "p_not_worse"]) if best else None,
            "best_bid_bootstrap": bootstrap(seed, len(base), lambda idx: _best_bid(
                variant, choices, t, base, pay, idx)[0] or "pass"),
            "other_reading": other,
            "best_bid_other_reading": _best_bid(variant, choices, t, base, other)[0],
        })
    else:
        defended = [c for c in choices if f"defend:{c.name}" in t]
        summary["best_bids"] = {c.name: _best_bid(variant, choices, t, baseline(c), pay)[0] for c in defended}
        summary["other_reading"] = other
        summary["best_bids_other_reading"] = {c.name: _best_bid(variant, choices, t, baseline(c), other)[0]
                                              for c in defended}
    return table, summary


def bid_table(variant, hand, **kwargs) -> pd.DataFrame:
    """The per-choice table of :func:`analyse` (a pandas DataFrame indexed by choice)."""
    return analyse(variant, hand, **kwargs).choices
