"""Verify annotated deals (``kingsolve verify``): inference, replay, claims, marks.

A card book prints a deal as a talon, a line per trick and prose.  For one
KDN record (:mod:`kingsolve.kdn`) this module answers what a reader wants to
know (перевірка розіграшу):

* **Inference** — lost suits (a bare rank), unreadable and garbled cards are
  filled in by a constraint search over the play: each card exists once, in
  the variant's deck and not in its talon (прикуп); a seat that did not follow
  suit is void in it from then on; the contract's lead rules (no heart lead
  while holding another suit in no-hearts) and forced discards hold.  Each
  consistent assignment is a *reading*.  The hands are then reconstructed:
  the cards never seen (a record that stops early) are dealt over the seats in
  every way consistent with those constraints — each is a *layout*.
  The book's claim, when given, is an optional further constraint: if it rules
  out some readings, the others are kept and the report says so.
* **Replay** — each reading is replayed by the reference engine
  (:func:`kingsolve.engine.replay`, whose ``check_play`` is the authority on
  legality) and scored; a bought trump game settles the buyer's debt of N
  tricks to the seller (хваленка, куплена за N хабарів).
* **Claims** — a finished record's score is compared with the claim; for an
  unfinished one the claim must hold, double-dummy, in every layout: each
  claimed seat's value (that seat against the others, from where the record
  stops) plus what it already took must equal the claim.  When the readings
  allow more deals than the limit (``--claim-layouts``), a uniform random
  sample of them is checked (:mod:`kingsolve.knowledge`, seeded and
  reported) and the share where the claim holds is given with its standard
  error.  A layout where it fails is shown.
* **Holdings** — the cards a seat held in every deal (and the cards it may
  have held) are exact: from the constraints of the play, or from every deal
  agreeing with the claims when every deal was checked; never from a sample.
* **Marks** — every play gets the double-dummy value, for the seat that
  played, of the card played against its best card (position before the
  play, side = that seat), over every deal of the reading shown or a
  uniform sample of them.  ``?`` marks a play that loses points, ``??`` one
  that loses the most it could: its value is the worst of all its legal cards
  (and some card was better).

Seats are 0-based inside, 1-based in reports.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .cards import (
    SUIT_MASKS, SUIT_SYMBOLS, SUITS, bit, card, card_symbol, cards_of, count, parse_cards, rank_of, suit_of,
)
from .engine import Position, replay, trick_value, trick_winner
from .errors import IllegalPlayError, InvalidCardError, InvalidRulesError, KingsolveError, ParseError
from .kdn import BARE, CARD, UNKNOWN, Record
from .knowledge import Knowledge, can_deal, from_constraints, rng_for, uniform_below
from .seeds import fresh_seed
from .reporting.text import plural
from .layout import Layout, parse_seat
from .solver import Deal, solver_for
from .variants import GAME_CONTRACTS, get_variant, parse_contract

DEFAULT_MAX_COMPLETIONS = 20
MAX_READINGS = 20_000       # the search stops counting here
MAX_CLAIM_LAYOUTS = 100_000  # deals checked against the claims by default, 12 cards or fewer at the cut
MAX_COUNTED = 2_000         # readings whose deals are counted
MAX_NODES = 300_000         # the inference search stops (truncated) after this many plays tried
DEFAULT_ANALYSIS_LAYOUTS = 12


# ---------------------------------------------------------------- set-up

@dataclass(frozen=True)
class Bought:
    """A bought trump game: ``buyer`` took it from ``seller`` for ``tricks``
    (купив гру за N хабарів) and hands that many tricks over after play."""
    buyer: int
    seller: int
    tricks: int


@dataclass
class Setup:
    """The rules a record is played under."""
    variant: object
    contract: object
    rules: object           # DealRules of the whole deal
    leader: int
    bought: Bought | None
    notes: list = field(default_factory=list)   # findings about the tags (e.g. a misprinted talon)
    size: int = 0                               # tricks in the deal (fewer for an end-position [Layout])
    deck: int = 0                               # the cards in play
    hidden: int = 0                             # cards dealt face down, unknown (a hidden talon)
    trick_rules: tuple | None = None            # (DealRules counting tricks, sign), made on first use


def _tag_error(rec: Record, name: str, message: str, token=None) -> ParseError:
    line, col = rec.tag_lines.get(name, (rec.line, None))
    return ParseError(message, file=rec.source, line=line, col=col, token=token)


def parse_bought(text: str, n_seats: int) -> Bought:
    """``"3 from 1 for 2"``: seat 3 bought the game from seat 1 for 2 tricks."""
    import re
    m = re.match(r"^\s*(\S+)\s+from\s+(\S+)\s+for\s+(\d+)\s*(?:tricks?)?\s*$", text, re.I)
    if not m:
        raise ValueError(f"[Bought {text!r}]: write \"BUYER from SELLER for N\"")
    buyer, seller = parse_seat(m.group(1), n_seats), parse_seat(m.group(2), n_seats)
    if buyer == seller:
        raise ValueError(f"[Bought {text!r}]: the buyer and the seller are the same seat")
    return Bought(buyer, seller, int(m.group(3)))


def setup_record(rec: Record, variant=None) -> Setup:
    """Variant, contract, leader and debt of a record; ParseError (exit 2) when
    a tag needed to play the deal is missing or cannot be read."""
    notes = []
    if variant is None:
        vid = rec.tags.get("Variant", "").strip()
        if not vid:
            raise _tag_error(rec, "Variant", "the record has no [Variant] tag (give --variant)")
        opts = rec.tags.get("Options", "").split()
        try:
            variant = get_variant(vid, opts)
        except KingsolveError as err:
            raise _tag_error(rec, "Variant", f"[Variant {vid!r}]: {err}", vid) from err
    name = rec.tags.get("Contract", "").strip()
    if not name:
        raise _tag_error(rec, "Contract", "the record has no [Contract] tag")
    trump_text = rec.tags.get("Trump")
    try:
        contract = parse_contract(variant, name, trump_text)
    except KingsolveError as err:
        raise _tag_error(rec, "Contract", f"[Contract {name!r}]: {err}", name) from err
    n = variant.n_seats
    bought = None
    if "Bought" in rec.tags:
        try:
            bought = parse_bought(rec.tags["Bought"], n)
        except (ValueError, KingsolveError) as err:
            raise _tag_error(rec, "Bought", str(err), rec.tags["Bought"]) from err
        if contract.name not in GAME_CONTRACTS:
            notes.append(f"[Bought] in a {contract.name} deal: only trump games are bought; the debt is still settled")
    try:
        if "Leader" in rec.tags:
            leader = parse_seat(rec.tags["Leader"], n)
        elif bought is not None:
            leader = bought.buyer
            notes.append(f"no [Leader]: the buyer, seat {leader + 1}, leads")
        elif rec.layout is not None:
            leader = rec.layout.first
        else:
            leader = 0
            notes.append("no [Leader]: seat 1 leads")
    except KingsolveError as err:
        raise _tag_error(rec, "Leader", f"[Leader]: {err}", rec.tags.get("Leader")) from err
    if "Talon" in rec.tags:
        notes.extend(_talon_notes(rec, variant))
    # A [Layout] of fewer cards is an end position: its tricks are the deal's last ones.
    size = rec.layout.hand_size if rec.layout is not None else variant.hand_size
    deck = rec.layout.cards if rec.layout is not None else variant.deck
    if rec.layout is not None and size < variant.hand_size:
        notes.append(f"the [Layout] holds {plural(size, 'card')} a hand: an end position, the last {plural(size, 'trick')} of the deal")
    hidden = variant.hidden_talon if rec.layout is None else 0
    return Setup(variant, contract, contract.deal_rules(size), leader, bought, notes, size=size, deck=deck,
                 hidden=hidden)


def _talon_notes(rec: Record, variant) -> list:
    text = rec.tags["Talon"]
    try:
        printed = 0
        for c in parse_cards(text):
            printed |= bit(c)
    except InvalidCardError as err:
        return [f"[Talon {text!r}] cannot be read ({err}); the talon of {variant.id} is used"]
    if printed == variant.talon:
        return []
    shown = " ".join(card_symbol(c) for c in cards_of(variant.talon)) or "none"
    out = [f"[Talon {text!r}] is not the talon of {variant.id} ({shown}); the variant's talon is used"]
    for tr_no, tok_no, tok in _iter_tokens(rec):
        if tok.kind == CARD and printed & bit(tok.card) and not variant.talon & bit(tok.card):
            out.append(f"{card_symbol(tok.card)} of the printed talon is played in trick {tr_no}: the printed talon is a slip")
    return out


def _iter_tokens(rec: Record):
    for k, tr in enumerate(rec.tricks, 1):
        for j, tok in enumerate(tr.tokens):
            yield k, j, tok


# ---------------------------------------------------------------- inference

@dataclass
class Slot:
    """One card of the play as printed: its trick (0-based), its place in the
    trick, the token and the cards it can be."""
    index: int
    trick: int
    order: int
    token: object
    candidates: int

    @property
    def ambiguous(self) -> bool:
        return self.token.kind != CARD


@dataclass
class Reading:
    """One consistent assignment of every printed card, with what follows
    from it: who held which card, who is void where, the score so far."""
    cards: tuple                 # one card per slot
    played: tuple                # per seat, the mask of cards it played
    forbidden: tuple             # per seat, cards it cannot hold at the cut
    reasons: tuple               # per seat, [(mask, why)]
    unseen: int                  # cards never seen in the play
    need: tuple                  # per seat, how many unseen cards it holds
    position: Position           # where the record stops (hands = cards still to play, seen ones only)
    points: tuple                # per seat, points taken in the printed tricks
    tricks: tuple                # per seat, tricks taken
    winners: tuple               # winner of each completed trick
    _knowledge: Knowledge | None = None

    @property
    def knowledge(self) -> Knowledge:
        """Where the unseen cards may lie (:mod:`kingsolve.knowledge`): its deals
        are the unseen cards' shares, one a seat (and the hidden talon's)."""
        if self._knowledge is None:
            self._knowledge = from_constraints(len(self.played), self.unseen, self.need, self.forbidden,
                                               self.reasons)
        return self._knowledge

    @property
    def n_layouts(self) -> int:
        """How many ways the unseen cards can be dealt (exact)."""
        return self.knowledge.count


@dataclass
class Failure:
    """Why no reading exists: the deepest play the search could not get past
    (``undecided``: the search gave up before finding one or ruling all out)."""
    slot: int
    trick: int      # 1-based
    seat: int       # 1-based (0: unknown)
    text: str       # the token as printed
    reason: str
    undecided: bool = False


def _deal_reason(reasons, c):
    for mask, why in reasons:
        if mask & bit(c):
            return why
    return None


def build_slots(rec: Record, setup: Setup) -> tuple[list, list]:
    """The card slots of the play and the findings about its shape (ParseError
    for a trick with too many cards or too many tricks)."""
    n = setup.variant.n_seats
    deck = setup.deck
    slots, notes = [], []
    tricks = rec.tricks
    # A trailing play line with no card (prose only) is where the record stops.
    while tricks and not tricks[-1].tokens:
        tricks = tricks[:-1]
    if len(tricks) > setup.size:
        tr = tricks[setup.size]
        raise ParseError(f"trick {tr.number}: the deal has {setup.size} tricks",
                         file=rec.source, line=tr.line, col=tr.col, token=str(tr.number))
    for t, tr in enumerate(tricks):
        if len(tr.tokens) > n:
            tok = tr.tokens[n]
            raise ParseError(f"trick {tr.number} has {len(tr.tokens)} cards for {n} seats", file=rec.source,
                             line=tok.line, col=tok.col, token=tok.text)
        tokens = list(tr.tokens)
        if len(tokens) < n and t < len(tricks) - 1:
            notes.append(f"trick {tr.number} prints {len(tokens)} of {n} cards: the missing ones are read as unknown")
            from .kdn import PlayToken
            tokens += [PlayToken(UNKNOWN, "", tr.line, tr.col) for _ in range(n - len(tokens))]
        for j, tok in enumerate(tokens):
            if tok.kind == CARD:
                cands = bit(tok.card) & deck
            elif tok.kind == BARE:
                cands = sum(bit(card(s, tok.rank)) for s in SUITS) & deck
            else:
                cands = deck
            slots.append(Slot(len(slots), t, j, tok, cands))
    # Each card exists once: an unsure slot cannot be a card printed elsewhere.
    printed = 0
    for sl in slots:
        if sl.token.kind == CARD:
            printed |= bit(sl.token.card)
    for sl in slots:
        if sl.ambiguous:
            sl.candidates &= ~printed
    complete = len(slots) == n * setup.size
    if not complete and not rec.unfinished:
        notes.append("the record stops before the last trick without '*': read as unfinished")
    return slots, notes


def _suit_name(s):
    return SUIT_SYMBOLS[s]


def _why_unfillable(tok, v, how: str) -> str:
    """Why no card can fill a printed slot: a card of the talon, a card outside
    the deck, or (``how``) no card that "reads" as the token / is still "left"."""
    if tok.kind == CARD and v.talon & bit(tok.card):
        return f"{card_symbol(tok.card)} is in the talon of {v.id}"
    if tok.kind == CARD:
        return f"{card_symbol(tok.card)} is not in the deck of {v.id}"
    if how == "reads":
        return f"no card of {v.id}'s deck reads {tok.text!r}"
    return f"no card of {v.id}'s deck left for {tok.text!r} (each card is printed once)"


def infer(setup: Setup, slots: list, layout: Layout | None = None, limit: int = MAX_READINGS):
    """Every reading of the play consistent with the rules, the deck and
    ``layout`` (if the record gives one): ``(readings, truncated, failure)``."""
    v, rules = setup.variant, setup.rules
    n, deck, size = v.n_seats, setup.deck, setup.size
    readings: list = []
    deepest = [-1, None]
    state = {"truncated": False, "nodes": 0}
    base_forbid = [0] * n
    base_reasons = [[] for _ in range(n)]
    if layout is not None:
        for s in range(n):
            base_forbid[s] = deck & ~layout.hands[s]
            base_reasons[s].append((base_forbid[s], f"not in seat {s + 1}'s hand of the [Layout]"))

    def fail(i, seat, reason):
        """Keep the deepest failure; ``reason`` may be a callable (made only if kept)."""
        if i > deepest[0] or deepest[1] is None:
            sl = slots[i] if i < len(slots) else None
            deepest[0] = i
            deepest[1] = Failure(i, (sl.trick + 1) if sl else 0, seat + 1, sl.token.text if sl else "",
                                 reason() if callable(reason) else reason)

    def dealable(used, forbid, played):
        """The cards not yet printed can still make up every hand (a necessary condition)."""
        need = tuple(size - count(played[s]) for s in range(n)) + ((setup.hidden,) if setup.hidden else ())
        return can_deal(deck & ~used, need, list(forbid) + ([0] if setup.hidden else []))

    cards = [None] * len(slots)

    def search(i, used, forbid, reasons, played, leader, trick, tidx, points, tricks, winners):
        state["nodes"] += 1
        if len(readings) >= limit or state["nodes"] > MAX_NODES:
            state["truncated"] = True
            return
        if i == len(slots):
            unseen = deck & ~used
            need = tuple(size - count(played[s]) for s in range(n))
            if setup.hidden:   # cards dealt face down: a talon "seat" that may hold anything
                need += (setup.hidden,)
                forbid = list(forbid) + [0]
                reasons = list(reasons) + [()]
            if not can_deal(unseen, need, forbid):
                fail(i, leader, "the cards never seen cannot be dealt to the seats consistently with the play")
                return
            held = tuple(0 for _ in range(n))
            readings.append(Reading(tuple(cards), tuple(played), tuple(forbid), tuple(tuple(r) for r in reasons),
                                    unseen, need, Position(held, leader, tuple(trick), tidx), tuple(points),
                                    tuple(tricks), tuple(winners)))
            return
        sl = slots[i]
        k = len(trick)
        seat = (leader + k) % n
        cands = sl.candidates
        if not cands:
            fail(i, seat, _why_unfillable(sl.token, v, "reads"))
            return
        for c in cards_of(cands):
            if used & bit(c):
                fail(i, seat, lambda: f"{card_symbol(c)} was already played")
                continue
            if forbid[seat] & bit(c):
                fail(i, seat, lambda: f"seat {seat + 1} cannot hold {card_symbol(c)}: {_deal_reason(reasons[seat], c)}")
                continue
            if count(played[seat]) >= size:
                fail(i, seat, f"seat {seat + 1} has no cards left")
                continue
            new_f, new_r = None, None
            if k == 0:
                if rules.lead_restricted & bit(c) and count(rules.lead_restricted & deck) > 1:
                    new_f = deck & ~rules.lead_restricted
                    new_r = f"led {card_symbol(c)} at trick {tidx + 1}, so held only {_restricted_name(rules)} then"
                elif rules.lead_restricted & bit(c):
                    new_f = deck & ~rules.lead_restricted
                    new_r = f"led {card_symbol(c)} at trick {tidx + 1}, allowed only as the last card"
            else:
                led = suit_of(trick[0])
                if suit_of(c) != led:
                    new_f = SUIT_MASKS[led] & deck
                    new_r = f"showed out of {_suit_name(led)} at trick {tidx + 1}"
                    if rules.discard_forced and not rules.discard_forced & bit(c):
                        extra = rules.discard_forced & deck
                        what = ("the " + card_symbol(extra.bit_length() - 1)) if count(extra) == 1 else "a trump"
                        new_f |= extra
                        new_r += f" and did not play {what}"
            # Later plays are checked against the new constraint as they come.
            f2, r2 = forbid, reasons
            if new_f:
                f2 = list(forbid)
                f2[seat] |= new_f
                r2 = list(reasons)
                r2[seat] = reasons[seat] + [(new_f, new_r)]
            p2 = list(played)
            p2[seat] |= bit(c)
            cards[i] = c
            t2 = trick + [c]
            if new_f and not dealable(used | bit(c), f2, p2):
                fail(i, seat, lambda: f"after {card_symbol(c)} the cards left cannot make up the hands "
                                      f"(seat {seat + 1} {new_r})")
                continue
            if len(t2) == n:
                w = trick_winner(rules, leader, t2)
                pts = list(points)
                pts[w] += trick_value(rules, t2, tidx)
                trs = list(tricks)
                trs[w] += 1
                search(i + 1, used | bit(c), f2, r2, p2, w, [], tidx + 1, pts, trs, winners + [w])
            else:
                search(i + 1, used | bit(c), f2, r2, p2, leader, t2, tidx, points, tricks, winners)
            if state["truncated"]:
                return
        cards[i] = None

    empty = next((sl for sl in slots if not sl.candidates), None)
    if empty is not None:   # a slot no card can fill: no need to search (its seat is unknown here)
        why = _why_unfillable(empty.token, v, "left")
        seats, _ = _seats_before(setup, slots, empty.index)
        return [], False, Failure(empty.index, empty.trick + 1, seats, empty.token.text, why)
    search(0, 0, base_forbid, base_reasons, [0] * n, setup.leader, [], 0, [0] * n, [0] * n, [])
    failure = None
    if not readings:
        if state["truncated"]:
            failure = Failure(-1, 0, 0, "", f"the search gave up after {MAX_NODES} plays tried without finding a "
                                            "legal reading (too many unsure cards): undecided")
            failure.undecided = True
        else:
            failure = deepest[1]
    return readings, state["truncated"], failure


def _seats_before(setup: Setup, slots: list, index: int):
    """The 1-based seat of slot ``index`` if the tricks before it are printed
    with known cards (else 0), and the winners so far."""
    n = setup.variant.n_seats
    leader, winners = setup.leader, []
    trick = []
    for sl in slots[:index - slots[index].order]:
        if sl.token.kind != CARD:
            return 0, winners
        trick.append(sl.token.card)
        if len(trick) == n:
            leader = trick_winner(setup.rules, leader, trick)
            winners.append(leader)
            trick = []
    return (leader + slots[index].order) % n + 1, winners


def _restricted_name(rules) -> str:
    m = rules.lead_restricted
    if m == SUIT_MASKS[1] & m and count(m) > 1:
        return "hearts"
    return "restricted cards"


def full_layout(reading: Reading, extra: tuple) -> Layout:
    """The deal as dealt: what each seat played plus its share of the unseen."""
    return Layout(tuple(p | e for p, e in zip(reading.played, extra)), 0)


def cut_position(reading: Reading, extra: tuple) -> Position:
    """The position where the record stops, with the unseen cards dealt as ``extra``."""
    p = reading.position
    hands = tuple(extra[s] for s in range(len(reading.played)))
    return Position(hands, p.leader, p.trick, p.trick_index)


# ---------------------------------------------------------------- claims

@dataclass
class ClaimTarget:
    """A claim made exact: its seats (0-based) and values, its unit, the first
    trick it speaks of (0-based), and whether the debt of a bought game is in it."""
    claim: object
    unit: str                 # "tricks" or "points"
    seats: dict               # 0-based seat -> claimed value (as written)
    start: int                # 0-based first trick counted
    settled: bool             # the whole deal: a bought game's debt is included


def claim_target(setup: Setup, claim) -> ClaimTarget:
    """The claim's seats and values, its unit decided: as written (``tricks`` /
    ``points``), else points if any value is negative or the values add up to
    the deal's total, tricks if they add up to the number of tricks, or the
    contract is a penalty one (its points are never positive); else points."""
    n = setup.variant.n_seats
    seats = {}
    for who, val in claim.values:
        s = parse_seat(who, n)
        if s in seats:
            raise InvalidRulesError(f"claim {claim.text!r} names seat {s + 1} twice")
        seats[s] = val
    size = setup.size
    if claim.start > size:
        raise InvalidRulesError(f"claim {claim.text!r}: a deal of {setup.variant.id} has {size} tricks")
    c = setup.contract
    unit = claim.unit
    if unit is None:
        vals = list(seats.values())
        full = len(seats) == n
        left = size - claim.start + 1
        if any(x < 0 for x in vals):
            unit = "points"
        elif full and sum(vals) == left and c.total != left:
            unit = "tricks"
        elif full and sum(vals) == c.total:
            unit = "points"
        elif c.total < 0:
            unit = "tricks"
        else:
            unit = "points"
    return ClaimTarget(claim, unit, seats, claim.start - 1, claim.start == 1)


def printed_result(setup: Setup, cards, start: int = 0):
    """Points and tricks per seat in the completed printed tricks from ``start`` (0-based)."""
    n, rules = setup.variant.n_seats, setup.rules
    pts, trs = [0] * n, [0] * n
    leader = setup.leader
    for t in range(len(cards) // n):
        trick = list(cards[t * n:(t + 1) * n])
        w = trick_winner(rules, leader, trick)
        if t >= start:
            pts[w] += trick_value(rules, trick, t)
            trs[w] += 1
        leader = w
    return pts, trs


def settle(setup: Setup, points, tricks):
    """Points and tricks per seat after a sold game is settled (the хваленки
    debt, куплена за N хабарів, or a king52 auction: kingsolve.settlement)."""
    from .settlement import settle_sold_game
    return settle_sold_game(setup.contract, setup.bought, points, tricks)


def _trick_rules(setup: Setup):
    """Rules counting tricks for a seat playing its contract's way: fewest
    tricks in a penalty deal (−1 a trick), most otherwise (+1 a trick)."""
    if setup.trick_rules is None:
        from dataclasses import replace
        sign = -1 if setup.contract.total < 0 else 1
        r = setup.rules
        setup.trick_rules = (replace(r, card_points=(0,) * len(r.card_points), trick_points=(sign,) * r.n_tricks,
                                     seat_base=0), sign)
    return setup.trick_rules


def claim_values(setup: Setup, r: "Reading", target: ClaimTarget, extra: tuple, solvers: "Solvers",
                 cache: dict | None = None, stop_on_mismatch: bool = False) -> dict:
    """Each claimed seat's result in one layout: the printed tricks from the
    claim's first trick, plus the double-dummy value of the rest (that seat
    against the others, from where the record stops), plus the debt.

    ``cache`` (one dict per layout) shares the solves between claims;
    ``stop_on_mismatch`` stops at the first seat that disagrees with the claim."""
    if cache is None:
        cache = {}
    pts, trs = solvers.printed(setup, r, target)
    pos = cut_position(r, extra)
    out = {}
    for s, want in target.seats.items():
        key = (target.unit, s)
        if key in cache:
            rest = cache[key]
        elif pos.finished:
            rest = 0
        elif target.unit == "points":
            rest = cache[key] = solvers.main.value(_deal(setup, pos), 1 << s)
        else:
            rules, sign = _trick_rules(setup)
            rest = cache[key] = sign * solvers.tricks.value(Deal(setup.contract, pos, rules), 1 << s)
        out[s] = (pts[s] if target.unit == "points" else trs[s]) + rest
        if stop_on_mismatch and out[s] != want:
            break
    return out


# ---------------------------------------------------------------- solver access

class Solvers:
    """What one verification solves with: the solver of the record's scoring
    (``main``), a second one for counting tricks (``tricks``: each keeps its
    own table), both sized by :func:`kingsolve.solver.solver_for`; and the
    printed part of each reading's score, worked out once per reading and claim."""

    def __init__(self, hand_size: int, main=None):
        self.hand_size = hand_size
        self.main = main if main is not None else solver_for(hand_size)
        self._tricks = None
        self._printed: dict = {}    # (reading index in this verification, start, settled) -> (points, tricks)

    @property
    def tricks(self):
        if self._tricks is None:
            self._tricks = solver_for(self.hand_size)
        return self._tricks

    def printed(self, setup: Setup, r: "Reading", target: ClaimTarget):
        key = (id(r), target.start, target.settled)
        got = self._printed.get(key)
        if got is None or got[0] is not r:
            pts, trs = printed_result(setup, r.cards, target.start)
            if target.settled:
                pts, trs = settle(setup, pts, trs)
            got = self._printed[key] = (r, pts, trs)
        return got[1], got[2]


def _deal(setup: Setup, pos: Position) -> Deal:
    """A position to solve under the record's contract (the whole deal's rules,
    so that trick ``pos.trick_index`` is scored as that trick of the deal)."""
    return Deal(setup.contract, pos, setup.rules)


# ---------------------------------------------------------------- the report

@dataclass
class PlayMark:
    """The double-dummy verdict on one play, for the seat that played it."""
    index: int
    trick: int           # 1-based
    seat: int            # 1-based
    card: int
    value: int           # the value of the card played (seat's points from that position on)
    best: int            # the value of its best card
    worst: int           # the value of its worst legal card
    best_cards: tuple    # the cards reaching ``best``
    loss: int            # best - value (the least over the layouts analysed)
    loss_max: int = 0    # the most over the layouts analysed
    layouts: int = 1     # layouts analysed
    mark: str = ""       # "", "?" or "??"
    single: "SingleDummy | None" = None   # the verdict from what the player could see (--single-dummy)


@dataclass
class SingleDummy:
    """The single-dummy verdict on one play: what its player could see then
    (his hand, the talon, the tricks so far), the unseen cards dealt at
    random (:func:`kingsolve.advise.play_advice`), each legal card's mean
    points over those deals."""
    value: float          # the mean of the card played
    best: float           # the highest mean
    best_cards: tuple     # the cards with the highest mean (over several deals: those the card played lost to)
    loss: float           # best - value
    loss_se: float        # its standard error (paired over the same deals)
    p_played_better: float  # the chance the card played is really at least as good as the best
    samples: int            # deals of the unseen cards, for each deal below
    mark: str = ""        # "?" when the card played is worse with 95% confidence
    deals: int = 1        # the deals whose hand the player held (several when the record does not fix it)


@dataclass
class ClaimCheck:
    """One claim against the deals of the readings kept: every deal, or a
    uniform random sample of them (``sampled``) when there are more than the
    limit — ``deals`` is how many there are in all."""
    target: ClaimTarget
    layouts: int = 0          # layouts checked
    holding: int = 0          # layouts where it holds
    example_fail: dict | None = None   # {"layout": Layout, "values": {seat1: value}}
    example_hold: dict | None = None
    values: dict | None = None          # {seat1: value} when the same in every layout (a finished record)
    truncated: bool = False             # not every deal was checked (sampled, or interrupted)
    sampled: bool = False               # the deals checked are a uniform random sample
    deals: int = 0                      # deals the record allows (of the readings examined)

    @property
    def status(self) -> str:
        """``holds`` in every layout; ``possible`` in some (it does not follow
        from the printed play alone); ``fails`` in none; ``undecided`` when it
        held in none of those checked but not every layout was checked."""
        if self.layouts and self.holding == self.layouts and not self.truncated:
            return "holds"
        if self.holding:
            return "possible"
        return "undecided" if self.truncated else "fails"

    @property
    def share(self) -> float | None:
        """The share of the deals where the claim holds (of those checked)."""
        return self.holding / self.layouts if self.layouts else None

    @property
    def se(self) -> float | None:
        """The standard error of :attr:`share` when the deals are a sample (0 when every deal was checked)."""
        if not self.layouts:
            return None
        if not self.sampled:
            return 0.0
        p = self.share
        return math.sqrt(p * (1 - p) / self.layouts)


@dataclass
class RecordReport:
    rec: Record
    setup: Setup
    notes: list = field(default_factory=list)
    slots: list = field(default_factory=list)
    readings: list = field(default_factory=list)       # readings consistent with the play
    kept: list = field(default_factory=list)           # those kept (the claims rule the others out)
    truncated: bool = False
    failure: Failure | None = None
    illegal: IllegalPlayError | None = None
    claims: list = field(default_factory=list)         # ClaimCheck per [Claim]
    matching: list = field(default_factory=list)       # [(reading, extra)] where every claim holds
    n_matching: int = 0
    marks: list = field(default_factory=list)
    analysed_layouts: int = 0
    marks_of: int = 0                                  # deals of the reading the marks are over
    marks_sampled: bool = False                        # the marks' deals are a uniform random sample
    marks_from_claims: bool = False                    # ... of the reading's deals agreeing with the claims
    layouts_total: int = 0                             # layouts of the kept readings
    reading: Reading | None = None                     # the reading shown (unique, or the first)
    layout: Layout | None = None                       # the deal, when a single layout is consistent
    score: dict | None = None                          # finished: points/tricks after the debt
    raw_score: dict | None = None                      # before the debt
    certain: list = field(default_factory=list)        # per seat: cards it surely held (every deal kept)
    possible: list = field(default_factory=list)       # per seat: cards it may have held besides
    certain_from: str = "play"                         # "claims": over every deal agreeing with the claims
    weights: dict = field(default_factory=dict)        # id(reading) -> the deals it stands for
    proof: bool = False                                # a claim must hold in every possible deal
    seed: int | None = None                            # the seed of the samples (when any deal set is sampled)
    claim_limit: int = 0                               # deals checked against the claims at most
    claim_deals: int = 0                               # deals the readings allow, all told
    claims_sampled: bool = False
    claims_checked: int = 0                            # deals checked against the claims
    interrupted: bool = False                          # Ctrl-C: the claims were checked on the deals finished
    single_samples: int = 0                            # deals a play of the single-dummy marks (0: none)
    single_deals: int = 0                              # deals whose hands they are over (1: the deal is known)
    marks_deals: list = field(default_factory=list)    # the deals (unseen cards' shares) the marks are over

    @property
    def sampled(self) -> bool:
        return self.claims_sampled or self.marks_sampled

    @property
    def undecided(self) -> bool:
        """No legal reading was found, but the search gave up before ruling every one out."""
        return self.failure is not None and self.failure.undecided

    @property
    def legal(self) -> bool:
        return (self.failure is None or self.failure.undecided) and self.illegal is None

    @property
    def claims_ok(self) -> bool:
        bad = ("fails", "possible", "undecided") if self.proof else ("fails",)
        return all(c.status not in bad for c in self.claims)

    @property
    def ok(self) -> bool:
        return self.legal and self.claims_ok and not (self.proof and self.undecided)

    @property
    def finished(self) -> bool:
        r = self.reading
        return r is not None and r.unseen == 0 and not r.position.trick \
            and r.position.trick_index == self.setup.size


CLAIM_STREAM, MARK_STREAM = 1, 2
"""The random streams of a verification's seed: the deals checked against the
claims, the deals the marks are over."""


def default_claim_layouts(cards_at_cut: int) -> int:
    """Deals checked against the claims when ``--claim-layouts`` is not given:
    :data:`MAX_CLAIM_LAYOUTS` when 12 cards or fewer are left at the cut, half
    as many for every 3 cards more (as the solves grow), never below 100."""
    cost = 2 ** max(0, (cards_at_cut - 12) // 3)
    return max(100, MAX_CLAIM_LAYOUTS // cost)


def _pick(weights: list, r: int) -> int:
    # the index whose cumulative weight range holds r (0 <= r < sum(weights))
    for k, w in enumerate(weights):
        if r < w:
            return k
        r -= w
    raise ValueError("pick beyond the total")  # pragma: no cover


def _claim_deals(readings: list, weights: list, total: int, limit: int, seed: int):
    """(reading index, extra) of the deals to check: every deal when there are
    at most ``limit``, else ``limit`` drawn uniformly from all of them (a
    reading with probability its share of the deals, then uniformly within it)."""
    if total <= limit:
        for k, r in enumerate(readings):
            if weights[k]:
                for extra in r.knowledge.deals():
                    yield k, extra
        return
    for i in range(limit):
        rng = rng_for(seed, CLAIM_STREAM, i)
        k = _pick(weights, uniform_below(rng, total))
        yield k, readings[k].knowledge.draw(rng)


def verify_record(rec: Record, variant=None, *, max_completions: int = DEFAULT_MAX_COMPLETIONS,
                  solver=None, analysis_layouts: int = DEFAULT_ANALYSIS_LAYOUTS, marks: bool = True,
                  claim_layouts: int | None = None, proof: bool = False, seed: int | None = None,
                  single_dummy: int = 0) -> RecordReport:
    """Verify one record (see the module docstring).  ParseError when the
    record cannot be played at all (a missing tag, too many cards, a bad claim).

    ``claim_layouts``: deals checked against the claims, over all readings
    (default :func:`default_claim_layouts`); when the record allows more, a
    uniform random sample of that many, drawn with ``seed`` (default: a fresh
    one, reported); the marks' deals likewise.  ``proof``: a claim that holds
    in only some of the possible deals counts as failed.  ``solver``: a
    :class:`~kingsolve.solver.Solver` to use (default: one of the size
    :func:`~kingsolve.solver.solver_for` gives).  Ctrl-C while the claims are
    checked keeps the deals finished (``interrupted``)."""
    setup = setup_record(rec, variant)
    rep = RecordReport(rec, setup, notes=list(setup.notes), proof=proof)
    rep.seed = fresh_seed() if seed is None else int(seed)
    if single_dummy and not marks:
        raise InvalidRulesError("single-dummy marks go with the double-dummy marks (drop --no-marks)")
    if claim_layouts is not None and claim_layouts < 1:
        raise InvalidRulesError(f"--claim-layouts {claim_layouts}: check at least one deal")
    slots, shape_notes = build_slots(rec, setup)
    rep.notes.extend(shape_notes)
    rep.slots = slots
    if rec.layout is not None:
        try:
            rec.layout.check(setup.variant)
        except KingsolveError as err:
            line, col = rec.tag_lines.get("Layout", (rec.line, None))
            raise ParseError(f"[Layout]: {err}", file=rec.source, line=line, col=col) from err
    targets = []
    for cl in rec.claims:
        try:
            targets.append(claim_target(setup, cl))
        except KingsolveError as err:
            raise ParseError(f"[Claim]: {err}", file=rec.source, line=cl.line or rec.line, col=cl.col or None,
                             token=cl.text) from err
    readings, truncated, failure = infer(setup, slots, rec.layout)
    rep.readings, rep.truncated, rep.failure = readings, truncated, failure
    if not readings:
        return rep
    solvers = Solvers(setup.size, solver)
    n = setup.variant.n_seats
    cut = readings[0].position.trick_index        # the trick the record stops in (0-based)
    for t in targets:
        if cut < setup.size and t.start > cut:
            cl = t.claim
            raise ParseError(f"[Claim {cl.text!r}]: the record stops in trick {cut + 1}; a claim about the "
                             f"tricks from {t.start + 1} on cannot be told apart from the tricks before it",
                             file=rec.source, line=cl.line or rec.line, col=cl.col or None, token=cl.text)

    # The deals each reading allows, counted exactly (the first MAX_COUNTED readings).
    weights = [r.n_layouts if k < MAX_COUNTED else 0 for k, r in enumerate(readings)]
    if len(readings) > MAX_COUNTED:
        rep.notes.append(f"deals counted for the first {MAX_COUNTED} of {len(readings)} readings; "
                         f"the others are set aside")
    total = sum(weights)
    at_cut = count(readings[0].unseen) + len(readings[0].position.trick)
    limit = claim_layouts if claim_layouts is not None else default_claim_layouts(at_cut)
    rep.claim_limit, rep.claim_deals = limit, total
    rep.claims_sampled = bool(targets) and total > limit

    # The claims, over every deal or a uniform sample of them.
    per = {}          # reading index -> [checks, matching extras, n_match, union, inter, deals seen]
    if targets:
        checked = 0
        try:
            for k, extra in _claim_deals(readings, weights, total, limit, rep.seed):
                r = readings[k]
                if k not in per:
                    per[k] = [[ClaimCheck(t) for t in targets], [], 0, [0] * n, [-1] * n]
                rc, match, n_match, union, inter = per[k]
                all_hold = True
                cache = {}
                for c in rc:
                    vals = claim_values(setup, r, c.target, extra, solvers, cache,
                                        stop_on_mismatch=c.example_fail is not None and checked > 0)
                    shown = {s + 1: v for s, v in vals.items()}
                    c.layouts += 1
                    if all(vals.get(s) == want for s, want in c.target.seats.items()):
                        c.holding += 1
                        if c.example_hold is None:
                            c.example_hold = {"layout": full_layout(r, extra), "values": shown}
                    else:
                        all_hold = False
                        if c.example_fail is None:
                            c.example_fail = {"layout": full_layout(r, extra), "values": shown}
                    if c.layouts == 1:
                        c.values = shown   # kept only when this is the one layout (see below)
                if all_hold:
                    per[k][2] += 1
                    match.append(extra)
                    for s in range(n):
                        union[s] |= r.played[s] | extra[s]
                        inter[s] &= r.played[s] | extra[s]
                checked += 1
        except KeyboardInterrupt:
            rep.interrupted = True
        rep.claims_checked = checked
        if rep.interrupted:
            rep.notes.append(f"interrupted: the claims were checked on the {plural(checked, 'deal')} finished")
    checks = [ClaimCheck(t, sampled=rep.claims_sampled, deals=total,
                         truncated=rep.claims_sampled or rep.interrupted) for t in targets]
    matched = {k for k, x in per.items() if x[2]}
    if targets and matched:
        kept_idx = sorted(matched)
        ruled = len(readings) - len(kept_idx)
        if ruled:
            rep.notes.append(f"the claims rule out {ruled} of {len(readings)} readings of the play" if not
                             (rep.claims_sampled or rep.interrupted) else
                             f"no deal of {ruled} of the {len(readings)} readings agreed with the claims in the "
                             f"deals checked: those readings are set aside")
    else:
        kept_idx = list(range(len(readings)))
    rep.kept = [readings[k] for k in kept_idx]
    rep.layouts_total = sum(weights[k] for k in kept_idx)
    # A sample's share is over every deal drawn (it estimates the share of all the deals);
    # every deal checked, the shares are over the readings kept.
    for k in (sorted(per) if rep.claims_sampled else kept_idx):
        if k not in per:
            continue
        rc, match, n_match, _, _ = per[k]
        for tot, c in zip(checks, rc):
            tot.layouts += c.layouts
            tot.holding += c.holding
            tot.example_fail = tot.example_fail or c.example_fail
            tot.example_hold = tot.example_hold or c.example_hold
            if tot.values is None:
                tot.values = c.values
        if k in kept_idx:
            rep.n_matching += n_match
            rep.matching.extend((readings[k], e) for e in match)
    for tot in checks:
        if tot.layouts != 1:
            tot.values = {}
    rep.claims = checks
    # Each reading weighs the deals it allows (those agreeing with the claims, when any
    # do); the reading shown is the heaviest: the likeliest if every deal is equally likely.
    use_match = bool(targets) and rep.n_matching > 0
    rep.weights = {id(readings[k]): (per[k][2] if use_match and k in per else 0 if use_match else weights[k])
                   for k in kept_idx}
    rep.reading = max(rep.kept, key=lambda r: rep.weights[id(r)])

    # What each seat held: over every deal agreeing with the claims when every deal was
    # checked and some agree; else over every deal the play allows, from the constraints
    # (exact: never from a sample).
    certain, possible = [-1] * n, [0] * n
    if use_match and not (rep.claims_sampled or rep.interrupted):
        rep.certain_from = "claims"
        for k in kept_idx:
            if k in per and per[k][2]:
                for s in range(n):
                    certain[s] &= per[k][4][s]
                    possible[s] |= per[k][3][s]
    else:
        for r in rep.kept:
            kc, kp = r.knowledge.certain(), r.knowledge.possible()
            for s in range(n):
                certain[s] &= r.played[s] | kc[s]
                possible[s] |= r.played[s] | kp[s]
    rep.certain = [certain[s] & setup.deck for s in range(n)]
    rep.possible = [possible[s] & ~rep.certain[s] for s in range(n)]

    # The deal shown: the only layout the play and the claims allow, else the first.
    if use_match:
        r0, extra0 = next((r, e) for r, e in rep.matching if r is rep.reading)
        if rep.n_matching == 1 and not any(c.truncated for c in checks):
            rep.layout = full_layout(r0, extra0)
    else:
        extra0 = next(rep.reading.knowledge.deals())
        if rep.layouts_total == 1:
            rep.layout = full_layout(rep.reading, extra0)
    shown_layout = full_layout(rep.reading, extra0)
    # Replay by the engine (the authority on legality) and score.
    try:
        rp = replay(setup.rules, Position(shown_layout.hands, setup.leader), list(rep.reading.cards))
    except IllegalPlayError as err:  # the inference missed a rule: report it, never hide it
        rep.illegal = err
        return rep
    rep.raw_score = {"points": list(rp.points), "tricks": list(rp.tricks)}
    pts, trs = settle(setup, rp.points, rp.tricks) if rep.finished else (list(rp.points), list(rp.tricks))
    rep.score = {"points": pts, "tricks": trs}
    if marks:
        # Marks are for the reading shown, over its deals (those agreeing with the claims, if any).
        pool = [e for r, e in rep.matching if r is rep.reading] if use_match else None
        marks_out = analyse_plays(setup, rep.reading, solvers.main, analysis_layouts, pool, rep.seed)
        rep.marks, rep.analysed_layouts, rep.marks_of, rep.marks_sampled, rep.marks_deals = marks_out
        rep.marks_from_claims = pool is not None
    if single_dummy:
        if setup.size != setup.variant.hand_size:
            rep.notes.append("single-dummy marks need the whole deal from its first trick (this [Layout] is an "
                             "end position)")
        else:
            if rep.layout is not None:
                deals = [rep.layout.hands]
            else:   # the player's hand is not known: over a few of the marks' deals, his hand from each
                deals = [full_layout(rep.reading, e).hands for e in rep.marks_deals[:SD_DEALS]]
            rep.single_samples, rep.single_deals = single_dummy, len(deals)
            single_dummy_marks(setup, rep.reading.cards, deals, rep.marks, single_dummy, rep.seed)
    return rep


SD_MARK_CONFIDENCE = 0.95
SD_DEALS = 3
"""Deals of an unfinished record (the first of the marks' deals) whose hands the
single-dummy marks are taken over, when the record does not fix the deal."""


def single_dummy_marks(setup: Setup, cards, deals: list, marks: list, samples: int, seed: int) -> None:
    """Fill each mark's :class:`SingleDummy` (``marks[i]`` is play ``i``): the
    seat's view before the play, holding its hand of each deal in ``deals``
    (the deal itself, or a few the record allows), ``samples`` deals of what
    it could not see, every legal card valued on each (the same seed for
    every play).  Over several deals, the values and the paired differences
    of all their samples are pooled (as many from each deal)."""
    from .advise import paired_p_better, play_advice
    v = setup.variant
    seats, _ = seats_of(setup, cards)
    for i, c in enumerate(cards):
        seat = seats[i]
        mine, top, bests, best_cards = [], [], [], []
        for hands in deals:
            a = play_advice(v, setup.contract, seat, hands[seat], leader=setup.leader, played=list(cards[:i]),
                            samples=samples, seed=seed)
            col = {x: j for j, x in enumerate(a.options)}
            means = a.values.mean(axis=0)
            best = float(means.max())
            these = [x for x in a.options if means[col[x]] == best]
            if c not in these:   # the cards it lost to
                best_cards += [x for x in these if x not in best_cards]
            bests.append(best)
            mine.append(a.values[:, col[c]])
            top.append(a.values[:, col[c if c in these else these[0]]])
        mine, top = np.concatenate(mine), np.concatenate(top)
        d = (top - mine).astype(float)
        se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0
        loss = float(d.mean())
        p = 1.0 if loss == 0 else paired_p_better(top, mine)
        sd = SingleDummy(float(mine.mean()), float(np.mean(bests)), tuple(best_cards) or (c,), loss, se, p, samples,
                         deals=len(deals))
        if sd.loss > 0 and p < 1 - SD_MARK_CONFIDENCE:
            sd.mark = "?"
        marks[i].single = sd


def analyse_plays(setup: Setup, reading: Reading, solver, max_layouts: int, pool=None, seed: int = 0):
    """Marks for every play of ``reading`` over up to ``max_layouts`` of its
    deals: all of them when there are no more, else a uniform random sample
    (stream :data:`MARK_STREAM` of ``seed``) — of ``pool`` (the deals
    agreeing with the claims) if given, else of every deal the reading allows.
    A play's loss is the least over the deals analysed, so a mark means it
    lost in every one; ``??`` when it was the worst card in each.  Returns
    (marks, deals analysed, deals they were drawn from, sampled, those deals)."""
    from .engine import play as play_card
    n = setup.variant.n_seats
    know = reading.knowledge
    of = len(pool) if pool is not None else know.count
    sampled = of > max_layouts
    if pool is not None:
        if sampled:
            pick = rng_for(seed, MARK_STREAM).choice(len(pool), size=max_layouts, replace=False)
            layouts = [pool[i] for i in sorted(int(i) for i in pick)]
        else:
            layouts = list(pool)
    elif sampled:
        layouts = [know.sample(seed, i, (MARK_STREAM,)) for i in range(max_layouts)]
    else:
        layouts = list(know.deals())
    runs = []
    for extra in layouts:
        pos = Position(full_layout(reading, extra).hands, setup.leader)
        marks = []
        for i, c in enumerate(reading.cards):
            seat = pos.to_move
            vals = solver.card_values(_deal(setup, pos), 1 << seat)
            v = vals[c]
            best, worst = max(vals.values()), min(vals.values())
            bc = tuple(x for x in sorted(vals, key=lambda x: (suit_of(x), -rank_of(x))) if vals[x] == best)
            marks.append(PlayMark(i, pos.trick_index + 1, seat + 1, c, v, best, worst, bc, best - v, best - v))
            pos = play_card(setup.rules, pos, c).position
        runs.append(marks)
    per_play = []
    for i in range(len(runs[0]) if runs else 0):
        alts = [run[i] for run in runs]
        m = min(alts, key=lambda x: x.loss)
        m.loss_max = max(x.loss for x in alts)
        m.layouts = len(alts)
        if m.loss > 0:
            m.mark = "??" if all(x.value == x.worst for x in alts) else "?"
        per_play.append(m)
    return per_play, len(layouts), of, sampled, layouts


def seats_of(setup: Setup, cards) -> tuple[list, list]:
    """The seat (0-based) of each printed card and the winner of each completed trick."""
    n = setup.variant.n_seats
    seats, winners = [], []
    leader = setup.leader
    for t in range(0, len(cards), n):
        trick = list(cards[t:t + n])
        seats.extend((leader + k) % n for k in range(len(trick)))
        if len(trick) == n:
            leader = trick_winner(setup.rules, leader, trick)
            winners.append(leader)
    return seats, winners


def slot_choices(rep: RecordReport) -> list:
    """For each ambiguous slot: {card: number of kept readings that read it so},
    the most frequent first (by the deals those readings stand for, then by count)."""
    out = []
    for sl in rep.slots:
        if not sl.ambiguous:
            continue
        tally, deals = {}, {}
        for r in rep.kept:
            x = r.cards[sl.index]
            tally[x] = tally.get(x, 0) + 1
            deals[x] = deals.get(x, 0) + rep.weights.get(id(r), 0)
        out.append((sl, dict(sorted(tally.items(), key=lambda kv: (-deals[kv[0]], -kv[1], kv[0])))))
    return out


def slot_deal_shares(rep: RecordReport, sl) -> dict:
    """{card: share of the deals (of the kept readings) in which ``sl`` is that card}."""
    deals = {}
    for r in rep.kept:
        x = r.cards[sl.index]
        deals[x] = deals.get(x, 0) + rep.weights.get(id(r), 0)
    total = sum(deals.values()) or 1
    return {x: w / total for x, w in deals.items()}
