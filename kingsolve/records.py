"""A KDN record read as a deal: the rules it is played under, and the deal to solve.

Every command that takes KDN records reads them here: whether a record holds
a deal at all (:func:`holds_a_deal`), the rules of its tags
(:func:`setup_record`: variant, contract, leader, a bought game's debt, a
misprinted talon) and the deal to solve (:func:`record_deal`, ``kingsolve
solve -f FILE.kdn``).

The record's tags say what to solve — ``[Variant]`` (with ``[Options]``),
``[Contract]`` and ``[Trump]``, ``[Leader]`` (a bought game: the buyer) — and
its ``[Layout]`` the hands; options given on the command line take their
place.  A record without a ``[Layout]`` gets the deal ``kingsolve verify``
reconstructs from its play and claims, when that deal is the only one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .cards import bit, card_symbol, cards_of, parse_cards
from .errors import InvalidCardError, KingsolveError, ParseError
from .kdn import CARD, Record
from .layout import Layout, parse_seat
from .reporting.text import plural
from .variants import GAME_CONTRACTS, Contract, Variant, get_variant, parse_contract


@dataclass(frozen=True)
class RecordDeal:
    """What to solve for one record (``leader`` 0-based)."""
    variant: Variant
    contract: Contract
    layout: Layout
    leader: int


# ---------------------------------------------------------------- the rules a record is played under

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

    @property
    def end_position(self) -> bool:
        """The record's [Layout] holds fewer cards a hand than the variant deals:
        the deal's last tricks only, not the whole deal from its first lead."""
        return self.size != self.variant.hand_size


def _tag_error(rec: Record, name: str, message: str, token=None) -> ParseError:
    line, col = rec.tag_lines.get(name, (rec.line, None))
    return ParseError(message, file=rec.source, line=line, col=col, token=token)


def parse_bought(text: str, n_seats: int) -> Bought:
    """``"3 from 1 for 2"``: seat 3 bought the game from seat 1 for 2 tricks."""
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


# ---------------------------------------------------------------- the deal a record holds

def holds_a_deal(rec: Record) -> bool:
    """False for a block of comments only (no tag but [Play], no trick)."""
    return bool(rec.tricks) or any(k != "Play" for k in rec.tags)


def record_deal(rec: Record, variant: Variant | None = None, contract: str | None = None,
                trump: str | None = None, leader: str | None = None) -> RecordDeal:
    """The deal of ``rec`` to solve.  ``variant``, ``contract`` (as written:
    ``no-king``, ``trump:H``), ``trump`` and ``leader`` (a seat as written),
    when given, replace the record's tags.  ParseError (naming the record)
    when a needed tag is missing or the deal cannot be told from the record."""
    tags = dict(rec.tags)
    if contract is not None:
        tags["Contract"] = contract
        tags.pop("Trump", None)
        if trump is not None:
            tags["Trump"] = trump
    setup = setup_record(replace(rec, tags=tags), variant)
    v = setup.variant
    layout = rec.layout if rec.layout is not None else rebuild_layout(rec, v)
    lead = parse_seat(leader, v.n_seats) if leader is not None else setup.leader
    return RecordDeal(v, setup.contract, layout, lead)


def rebuild_layout(rec: Record, variant: Variant | None = None) -> Layout:
    """The deal as ``kingsolve verify`` reconstructs it from the record's play
    and claims; ParseError unless exactly one deal fits."""
    from .verify import verify_record
    if not rec.tricks:
        raise ParseError("the record has no [Layout] and no play to rebuild it from", file=rec.source,
                         line=rec.line)
    rep = verify_record(rec, variant, marks=False)
    if not rep.readings:
        f = rep.failure
        raise ParseError(f"the record has no [Layout], and its play cannot be read: trick {f.trick}, "
                         f"{f.text!r}: {f.reason}", file=rec.source, line=rec.line)
    if rep.illegal is not None:
        raise ParseError(f"the record has no [Layout], and its play is illegal: {rep.illegal}",
                         file=rec.source, line=rec.line)
    if rep.layout is None:
        fits = f"{plural(rep.layouts_total, 'deal')} fit its play"
        if rep.claims and rep.n_matching:
            fits += f" ({rep.n_matching} of those checked agree with its claims)"
        raise ParseError(f"the record has no [Layout] and {fits}: give the deal as [Layout] or LAYOUT "
                         f"(`kingsolve verify {rec.source}` shows what the play tells)",
                         file=rec.source, line=rec.line)
    return rep.layout
