"""Bidding by simulation: how many tricks to offer for a trump game, which trump
to name, whether to sell, and which ``king52`` auction bid to make.

The method is the bridge player's: deal the cards a seat cannot see many times,
consistently with what it knows, solve every deal double dummy for every choice
it could make, and read the distribution.

Three questions (docs/rules.md, sources 000 and 002; the reading of the rules is
written out in ``docs/bid.md``):

``buyer``  (хваленки / хвалёнки, "praised" trump games of ``ru4``, ``ua3``,
           ``ru3``) — a seat may buy the game from the seller (the first hand,
           who named the trump) by offering N tricks (взятки / хабарі).  The
           buyer names the trump (or misère, мизер / мізер) and leads; after
           play he hands N of his tricks to the seller.  Not buying, he defends
           the seller's game, the seller leading.  Most worth offering: the
           largest N with  E[buyer's tricks] − N ≥ E[his tricks as defender].
``seller`` the first hand names the trump from his first three cards (or with
           the full hand), then may accept an offer of N, play his own game,
           or write two tricks to every player without play.
``bidder`` ``king52`` auction (торги, dražba): a bid +N promises N tricks in a
           positive deal (+25 a trick; the shortfall is paid to the dealer),
           −N a negative deal (325 − 75 a trick) in which the bidder also takes
           the penalty of up to N of the dealer's tricks.

Randomness is reproducible: the samples are generated in fixed blocks of
:data:`CHUNK` deals, block ``k`` from ``SeedSequence(seed, spawn_key=(k,))``,
so the result never depends on ``jobs`` and the first ``n`` samples of a run
are the same for every ``--samples`` ≥ ``n``.

Seats are 0-based in this module (seat 1 of the score sheet is 0).
"""
from __future__ import annotations

import concurrent.futures as cf
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .cards import SUIT_LETTERS, bit, card_symbol, cards_of, count
from .engine import Position
from .errors import InvalidLayoutError, InvalidRulesError, KingsolveError
from .variants import Contract, Variant
from .seeds import fresh_seed
from .workers import StoppablePool

CHUNK = 20
"""Samples per random block.  Part of the definition of a seed's samples:
never change it (a changed block size changes every published result)."""

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
    """A choice by name, as in :func:`choices_for` (``S``, ``♥``, ``misere``, ``NT``, ``minus-H``, ``-H``)."""
    from .variants import parse_trump
    t = str(text).strip()
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
    """What the seat knows when it decides: the known cards of every seat (its own
    hand among them), the known cards of a hidden talon (``ru3 talon=hidden``).
    Everything else of the deck is dealt at random to the free places."""
    variant: Variant
    seat: int
    known: tuple          # per seat, mask of cards known to be in that hand
    talon_known: int = 0  # cards known to lie in the hidden talon

    @property
    def n_seats(self) -> int:
        return self.variant.n_seats

    @property
    def unseen(self) -> int:
        m = self.variant.deck & ~self.talon_known
        for h in self.known:
            m &= ~h
        return m

    @property
    def free(self) -> tuple:
        """Free places per seat, then in the hidden talon."""
        hs = self.variant.hand_size
        return tuple(hs - count(h) for h in self.known) + (self.variant.hidden_talon - count(self.talon_known),)


def make_knowledge(variant: Variant, seat: int, hand: int, known=(), *, full_hand: bool = True,
                   partial_sizes=()) -> Knowledge:
    """Check and gather what ``seat`` knows.  ``hand`` is its own cards (its whole
    hand unless ``full_hand`` is False: then any of ``partial_sizes`` cards);
    ``known`` pairs (seat or ``"talon"``, mask) of other cards it has seen.
    Raises a one-line :class:`InvalidLayoutError` naming the card or the seat."""
    n, hs = variant.n_seats, variant.hand_size
    if not 0 <= seat < n:
        raise InvalidLayoutError(f"seat {seat + 1} is not one of 1..{n}")
    _check_in_deck(variant, hand, f"the hand of seat {seat + 1}")
    size = count(hand)
    if full_hand and size != hs:
        raise InvalidLayoutError(f"the hand of seat {seat + 1} has {size} cards; {variant.id} deals {hs}")
    if not full_hand and size != hs and size not in partial_sizes:
        allowed = " or ".join(str(k) for k in sorted(set(partial_sizes) | {hs}))
        raise InvalidLayoutError(f"the hand of seat {seat + 1} has {size} cards; give {allowed}")
    per_seat = [0] * n
    per_seat[seat] = hand
    talon = 0
    seen = hand
    for who, mask in known:
        where = "the hidden talon" if who == "talon" else f"seat {who + 1}"
        if who == "talon":
            if not variant.hidden_talon:
                raise InvalidLayoutError(f"{variant.id} has no hidden talon (the talon is known: it is out of the deck)")
        elif not 0 <= who < n:
            raise InvalidLayoutError(f"known cards for seat {who + 1}: not one of 1..{n}")
        elif who == seat:
            raise InvalidLayoutError(f"known cards for seat {who + 1}: that is the seat's own hand (give them in --hand)")
        _check_in_deck(variant, mask, f"the known cards of {where}")
        dup = seen & mask
        if dup:
            raise InvalidLayoutError(f"{card_symbol(dup.bit_length() - 1)} is given twice (again for {where})")
        seen |= mask
        if who == "talon":
            talon |= mask
        else:
            per_seat[who] |= mask
    for k, h in enumerate(per_seat):
        if count(h) > hs:
            raise InvalidLayoutError(f"seat {k + 1} would hold {count(h)} known cards; a hand holds {hs}")
    if count(talon) > variant.hidden_talon:
        raise InvalidLayoutError(f"{count(talon)} known talon cards; the talon holds {variant.hidden_talon}")
    return Knowledge(variant, seat, tuple(per_seat), talon)


def _check_in_deck(variant: Variant, mask: int, where: str) -> None:
    outside = mask & ~variant.deck
    if outside:
        c = outside.bit_length() - 1
        why = "is in the talon" if variant.talon & bit(c) else "is not in the deck"
        raise InvalidLayoutError(f"{where}: {card_symbol(c)} {why} of {variant.id}")


def block_rng(seed: int, block: int) -> np.random.Generator:
    """The independent random stream of block ``block`` of a run with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))


def sample_block(knowledge: Knowledge, seed: int, block: int, size: int = CHUNK) -> np.ndarray:
    """Deals of block ``block``: an array (size, n_seats) of uint64 hand masks,
    each consistent with ``knowledge`` and uniformly distributed given it.
    Always draws a full :data:`CHUNK` and keeps the first ``size``."""
    unseen = np.fromiter(cards_of(knowledge.unseen), dtype=np.uint64)
    free = knowledge.free
    if len(unseen) != sum(free):  # pragma: no cover - make_knowledge guarantees it
        raise KingsolveError(f"{len(unseen)} unseen cards for {sum(free)} free places")
    rng = block_rng(seed, block)
    deals = rng.permuted(np.broadcast_to(unseen, (CHUNK, len(unseen))), axis=1)[:size]
    bits = np.left_shift(np.uint64(1), deals)
    out = np.empty((size, knowledge.n_seats), dtype=np.uint64)
    start = 0
    for k in range(knowledge.n_seats):
        f = free[k]
        dealt = np.bitwise_or.reduce(bits[:, start:start + f], axis=1) if f else np.zeros(size, np.uint64)
        out[:, k] = dealt | np.uint64(knowledge.known[k])
        start += f
    return out


# --------------------------------------------------------------------------- the solving plan

@dataclass(frozen=True)
class Task:
    """One double-dummy count per sample: ``side``'s tricks under ``choice`` with
    ``leader`` on lead.  With ``pick_from`` (indices of earlier tasks, parallel
    to ``pick_choices``), the choice is made per sample: the one whose task
    gave the most tricks (the buyer naming his best game)."""
    key: str
    choice: Choice | None
    leader: int
    side: int
    pick_from: tuple = ()
    pick_choices: tuple = ()


@dataclass(frozen=True)
class Plan:
    knowledge: Knowledge
    tasks: tuple
    tt_log2: int = 16


_SOLVER = None


def _solver(tt_log2: int):
    global _SOLVER
    if _SOLVER is None or _SOLVER[0] != tt_log2:
        from .solver import Solver
        _SOLVER = (tt_log2, Solver(tt_log2))
    return _SOLVER[1]


def solve_block(plan: Plan, seed: int, block: int, size: int = CHUNK) -> np.ndarray:
    """Tricks (size, n_tasks) for block ``block``: every task on every sampled deal."""
    from .solver import Deal
    variant = plan.knowledge.variant
    deals = sample_block(plan.knowledge, seed, block, size)
    hands = [tuple(int(h) for h in row) for row in deals]
    solver = _solver(plan.tt_log2)
    out = np.zeros((size, len(plan.tasks)), dtype=np.int16)
    contracts = {}

    def deal_for(choice, leader, h):
        if choice not in contracts:
            c = choice.make(variant)
            contracts[choice] = (c, c.deal_rules())
        c, rules = contracts[choice]
        return c, Deal(c, Position(h, leader), rules)

    for j, task in enumerate(plan.tasks):
        if task.pick_from:
            # group samples by the picked choice so the core keeps one configuration at a time
            picks = np.argmax(out[:, list(task.pick_from)], axis=1)
            order = np.argsort(picks, kind="stable")
            for i in order:
                c, d = deal_for(task.pick_choices[picks[i]], task.leader, hands[i])
                out[i, j] = tricks_from_value(c, solver.value(d, 1 << task.side))
        else:
            for i in range(size):
                c, d = deal_for(task.choice, task.leader, hands[i])
                out[i, j] = tricks_from_value(c, solver.value(d, 1 << task.side))
    return out


def _worker(args):
    plan, seed, block, size = args
    return block, solve_block(plan, seed, block, size)


@dataclass
class RunResult:
    """The raw counts of a run: ``tricks[key]`` an int array over the finished samples."""
    tricks: dict
    samples: int          # finished samples
    requested: int
    seed: int
    interrupted: bool = False


def run_plan(plan: Plan, samples: int, seed: int, jobs: int = 1, progress=None) -> RunResult:
    """Solve ``samples`` deals in blocks, in ``jobs`` processes (each with its own
    Solver).  ``progress(n)`` is called as deals finish.  Ctrl-C stops the run
    cleanly: the blocks finished so far are returned, ``interrupted`` set."""
    if samples < 1:
        raise KingsolveError(f"samples must be at least 1, not {samples}")
    if seed < 0:
        raise KingsolveError(f"seed must be a non-negative integer, not {seed}")
    blocks = [(b, min(CHUNK, samples - b * CHUNK)) for b in range((samples + CHUNK - 1) // CHUNK)]
    done = {}
    interrupted = False
    try:
        if jobs <= 1:
            for b, size in blocks:
                done[b] = solve_block(plan, seed, b, size)
                if progress:
                    progress(size)
        else:
            pool = StoppablePool(jobs)
            try:
                futures = [pool.submit(_worker, (plan, seed, b, size)) for b, size in blocks]
                for fut in cf.as_completed(futures):
                    b, arr = fut.result()
                    done[b] = arr
                    if progress:
                        progress(len(arr))
            except KeyboardInterrupt:
                pool.stop()  # the workers' searches stop within milliseconds
                raise
            finally:
                pool.shutdown()
    except KeyboardInterrupt:
        interrupted = True
    keys = [t.key for t in plan.tasks]
    if done:
        arr = np.concatenate([done[b] for b in sorted(done)], axis=0).astype(np.int64)
    else:
        arr = np.zeros((0, len(keys)), dtype=np.int64)
    return RunResult({k: arr[:, j] for j, k in enumerate(keys)}, len(arr), samples, seed, interrupted)


# --------------------------------------------------------------------------- analysis

@dataclass
class BidAnalysis:
    """The answer: ``choices`` (a DataFrame, one row per game the seat could
    name), ``bids`` (king52: one row per auction bid; else None), ``summary``
    (the recommendation and the decisions), and the raw counts."""
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


def _stats(x: np.ndarray):
    n = len(x)
    mean = float(x.mean()) if n else float("nan")
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return mean, se


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


def analyse(variant: Variant, hand: int, *, seat: int | None = None, role: str | None = None,
            seller: int | None = None, buyer: int | None = None, known=(), offer: int | None = None,
            seller_trump: str | None = None, games=None, samples: int = 1000, seed: int | None = None,
            jobs: int = 1, progress=None, tt_log2: int = 16) -> BidAnalysis:
    """Simulate and analyse a bidding decision (see the module docstring).

    ``hand`` is the seat's cards (a mask); ``seller`` the first hand (the king52
    dealer; default seat 0, or ``seat`` itself in the seller role); ``known``
    (seat or "talon", mask) pairs of other known cards;
    ``seller_trump`` the game the seller named (buyer, bidder: the game defended
    when not buying; default: every game, and the most cautious offer);
    ``offer`` the tricks offered to the seller (seller role); ``games`` the
    names of the games to consider (default: every game of the variant — each
    costs a double-dummy solve per sample).  Seats 0-based."""
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
    if role == "seller":
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
    seller_choice = parse_choice(seller_trump, variant) if seller_trump is not None else None
    if seller_choice is not None and role == "seller":
        raise InvalidRulesError("--seller-trump is for the buyer and the bidder; the seller is told his best game")

    tasks = []
    if role in ("buyer", "bidder"):
        tasks += [Task(f"own:{c.name}", c, seat, seat) for c in choices]
        if role == "bidder":
            tasks += [Task(f"dealer:{c.name}", c, seat, seller) for c in choices if c.contract == "minus"]
        defended = [seller_choice] if seller_choice else list(choices)
        tasks += [Task(f"defend:{c.name}", c, seller, seat) for c in defended]
    else:
        tasks += [Task(f"own:{c.name}", c, seller, seller) for c in choices]
        if offer is not None:
            first = len(tasks)
            tasks += [Task(f"buyer:{c.name}", c, buyer, buyer) for c in choices]
            tasks.append(Task("defend:bought", None, buyer, seller,
                              pick_from=tuple(range(first, first + len(choices))), pick_choices=choices))
    plan = Plan(knowledge, tuple(tasks), tt_log2)
    run = run_plan(plan, samples, seed, jobs, progress)
    if run.samples == 0:
        raise KeyboardInterrupt("interrupted before the first block of samples was finished")
    return _analyse_run(variant, role, seat, seller, buyer, hand, knowledge, choices, seller_choice, offer, run)


def _analyse_run(variant, role, seat, seller, buyer, hand, knowledge, choices, seller_choice, offer, run):
    t = run.tricks
    n_tricks = variant.hand_size
    m = run.samples
    rows = _choice_rows(variant, choices, t, "own", n_tricks)
    table = pd.DataFrame(rows).set_index("choice")
    summary = {}
    bids = None
    game_trick = variant.prices.game_trick

    own_sum = {c.name: int(t[f"own:{c.name}"].sum()) for c in choices}
    pos_choices = [c for c in choices if c.contract != "minus"]
    best = max(pos_choices if role != "bidder" else choices,
               key=lambda c: float(points_of_tricks(c.make(variant), t[f"own:{c.name}"]).mean()))
    summary["recommended"] = best.name
    summary["recommended_mean"] = float(t[f"own:{best.name}"].mean())
    summary["recommended_points"] = float(points_of_tricks(best.make(variant), t[f"own:{best.name}"]).mean())

    defended = list(choices) + ([seller_choice] if seller_choice and seller_choice not in choices else [])
    if role in ("buyer", "bidder"):
        for c in choices:
            key = f"defend:{c.name}"
            if key in t:
                mean, se = _stats(t[key])
                table.loc[c.name, "defend_mean"] = mean
                table.loc[c.name, "defend_se"] = se
                table.loc[c.name, "defend_points"] = float(points_of_tricks(c.make(variant), t[key]).mean())
    if role == "buyer":
        buy = t[f"own:{best.name}"]
        offers = {}
        for c in defended:
            key = f"defend:{c.name}"
            if key in t:
                # largest N with sum(buy - N) >= sum(defend), in exact integers
                diff = int((buy - t[key]).sum())
                n_max = max(0, min(n_tricks, diff // m))
                offers[c.name] = n_max
                d = buy - t[key]
                if c in choices:
                    table.loc[c.name, "max_offer"] = n_max
                    table.loc[c.name, "gain_mean"] = float(d.mean())
                    table.loc[c.name, "gain_se"] = _stats(d)[1]
        if seller_choice is not None:
            summary["seller_trump"] = seller_choice.name
            summary["max_offer"] = offers[seller_choice.name]
            summary["defend_mean"], summary["defend_se"] = _stats(t[f"defend:{seller_choice.name}"])
        else:
            # the cautious limit: the seller's game the seat defends best
            worst = max(offers, key=lambda k: int(t[f"defend:{k}"].sum()))
            summary["seller_trump"] = None
            summary["max_offer"] = offers[worst]
            summary["max_offer_against"] = worst
        summary["points_after_max_offer"] = game_trick * (summary["recommended_mean"] - summary["max_offer"])
    elif role == "seller":
        summary["own_points"] = summary["recommended_points"]
        write_two = 2 * game_trick
        summary["write_two_points"] = float(write_two)
        alternatives = {"play": own_sum[best.name] * game_trick, "write-two": write_two * m}
        if offer is not None:
            d = t["defend:bought"]
            picked = np.argmax(np.stack([t[f"buyer:{c.name}"] for c in choices], axis=1), axis=1)
            summary["offer"] = offer
            summary["buyer"] = buyer
            summary["defend_mean"], summary["defend_se"] = _stats(d)
            summary["accept_points"] = float(game_trick * (offer + d.mean()))
            summary["buyer_games"] = {c.name: int((picked == k).sum()) for k, c in enumerate(choices)}
            alternatives["accept"] = game_trick * (offer * m + int(d.sum()))
            refuse = max(alternatives["play"], alternatives["write-two"])
            # smallest offer worth accepting: game_trick*(N*m + sum d) >= refuse
            need = refuse - game_trick * int(d.sum())
            n_min = -(-need // (game_trick * m)) if need > 0 else 0
            summary["min_offer"] = int(n_min) if n_min <= n_tricks else None
        order = ["accept", "play", "write-two"]
        summary["decision"] = max(order, key=lambda k: (alternatives.get(k, -10**18), -order.index(k)))
    else:
        for c in choices:
            key = f"dealer:{c.name}"
            if key in t:
                table.loc[c.name, "dealer_mean"], table.loc[c.name, "dealer_se"] = _stats(t[key])
        bids, bsum = _king52_bids(variant, choices, defended, t, seller_choice, m)
        summary.update(bsum)

    return BidAnalysis(variant=variant, role=role, seat=seat, seller=seller, hand=hand, knowledge=knowledge,
                       seed=run.seed, samples=m, requested=run.requested, interrupted=run.interrupted,
                       choices=table, bids=bids, summary=summary, tricks=t, seller_choice=seller_choice,
                       offer=offer, buyer=buyer)


def bid_settlement(variant: Variant, bid: str, choice: Choice, own, dealer=None):
    """The bidder's points on the score sheet, per sample, after winning the
    king52 auction with ``bid`` and playing ``choice`` (docs/bid.md):
    ``+N`` positive deal, 25 a trick, less 25 for each trick short of N;
    ``−N`` negative deal, 325 − 75 a trick, less 75 for each of the dealer's
    tricks up to N (their penalty moves from the dealer to the bidder)."""
    sign, n = bid[0], int(bid[1:])
    c = choice.make(variant)
    pts = points_of_tricks(c, own)
    if sign == "+":
        if choice.contract != "trump":
            raise InvalidRulesError(f"bid {bid} is a positive deal, not {choice.name}")
        return pts - c.per_trick * np.maximum(0, n - own)
    if choice.contract != "minus":
        raise InvalidRulesError(f"bid {bid} is a negative deal, not {choice.name}")
    return pts + c.per_trick * np.minimum(n, dealer)   # per_trick is −75


def _king52_bids(variant, choices, defended, t, seller_choice, m):
    rows = []
    if seller_choice is not None:
        base_choice = seller_choice
    else:
        # not told the dealer's game: compare with the one the bidder defends best (cautious)
        base_choice = max((c for c in defended if f"defend:{c.name}" in t),
                          key=lambda c: int(points_of_tricks(c.make(variant), t[f"defend:{c.name}"]).sum()))
    base = points_of_tricks(base_choice.make(variant), t[f"defend:{base_choice.name}"])
    base_sum = int(base.sum())
    best_bid = None
    for bid in KING52_BIDS:
        cands = [c for c in choices if (c.contract == "trump") == (bid[0] == "+")]
        if not cands:  # --games left out every game of this sign
            continue
        settle = {c.name: bid_settlement(variant, bid, c, t[f"own:{c.name}"], t.get(f"dealer:{c.name}"))
                  for c in cands}
        name = max(settle, key=lambda k: int(settle[k].sum()))
        s = settle[name]
        mean, se = _stats(s)
        worth = int(s.sum()) >= base_sum
        gain = s - base
        rows.append({"bid": bid, "choice": name, "settlement": mean, "settlement_se": se,
                     "gain": float(gain.mean()), "gain_se": _stats(gain)[1], "worth": worth})
        if worth:
            best_bid = bid
    table = pd.DataFrame(rows, columns=["bid", "choice", "settlement", "settlement_se", "gain", "gain_se", "worth"]).set_index("bid")
    summary = {"seller_trump": seller_choice.name if seller_choice else None,
               "baseline_game": base_choice.name, "baseline_points": float(base.mean()),
               "best_bid": best_bid,
               "best_bid_choice": table.loc[best_bid, "choice"] if best_bid else None,
               "best_bid_settlement": float(table.loc[best_bid, "settlement"]) if best_bid else None}
    return table, summary


def bid_table(variant, hand, **kwargs) -> pd.DataFrame:
    """The per-choice table of :func:`analyse` (a pandas DataFrame indexed by choice)."""
    return analyse(variant, hand, **kwargs).choices
