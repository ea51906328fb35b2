"""Inference: every reading of a record's play (перевірка розіграшу).

A card the book printed badly — a bare rank whose suit was lost, an
unreadable or garbled card — is filled in by a constraint search over the
play: each card exists once, in the deck and not in the talon (прикуп); a
seat that did not follow suit is void in it from then on; the contract's lead
rules and forced discards hold.  Each consistent assignment is a
:class:`Reading`; the cards never seen (a record that stops early) are then
dealt over the seats in every way those constraints allow
(:attr:`Reading.knowledge`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import SUIT_MASKS, SUIT_SYMBOLS, SUITS, bit, card, card_symbol, cards_of, count, suit_of
from ..engine import Position, trick_value, trick_winner
from ..errors import ParseError
from ..kdn import BARE, CARD, UNKNOWN, PlayToken, Record
from ..knowledge import Knowledge, can_deal, from_constraints
from ..layout import Layout
from ..records import Setup

MAX_READINGS = 20_000       # the search stops counting here
MAX_NODES = 300_000         # the inference search stops (truncated) after this many plays tried


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
