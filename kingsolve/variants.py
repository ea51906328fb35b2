"""The rules of every variant and contract as data (docs/rules.md).

A :class:`Variant` is a table and a deck (``ru4``, ``ua3``, ``ru3``, ``king52``)
with its options.  A :class:`Contract` is one deal type on that table — penalty
deals (не брать …), their positive mirrors (брать …), trump games (хваленки),
misère, ``king52``'s ``minus`` and the raw ``tricks`` count — reduced to plain
data: a trump (or none), a rank order, points per card, points per trick
index, and lead/discard restrictions.  :meth:`Contract.deal_rules` binds it to
a deal length and gives exactly the arrays the search core takes.

Nothing here branches on a contract at play time: every rule is a number or a
mask in :class:`DealRules`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import (
    ACE, CLUBS, DIAMONDS, HEARTS, JACK, KING, QUEEN, SEVEN, SPADES, SUIT_LETTERS, SUIT_MASKS, SUITS, TWO,
    bit, card, card_str, cards_of, count, deck_mask, parse_cards, ranks_mask,
)
from .errors import InvalidCardError, InvalidRulesError

KING_OF_HEARTS = card(HEARTS, KING)
"""The "King" itself (кинг / кінг): the king of hearts."""

ALL_JACKS = ranks_mask(SPADES, [JACK]) | ranks_mask(HEARTS, [JACK]) | ranks_mask(DIAMONDS, [JACK]) | ranks_mask(CLUBS, [JACK])
ALL_QUEENS = ALL_JACKS << 1
ALL_KINGS = ALL_JACKS << 2

PENALTY_CONTRACTS = ("no-tricks", "no-hearts", "no-boys", "no-girls", "no-kings-jacks", "no-last-two", "no-king", "erajlash")
MIRROR_CONTRACTS = ("plus-tricks", "plus-hearts", "plus-boys", "plus-girls", "plus-last-two", "plus-king", "plus-erajlash")
GAME_CONTRACTS = ("trump", "misere", "minus", "tricks")

CONTRACT_DESCRIPTIONS = MappingProxyType({
    "no-tricks": "each trick taken is penalised (не брать взяток / не брати хабарів)",
    "no-hearts": "each heart taken is penalised (не брать червей / не брати черв'яків)",
    "no-boys": "each jack taken is penalised (не брать мальчиков / хлопчиків)",
    "no-girls": "each queen taken is penalised (не брать девочек / дівчаток)",
    "no-kings-jacks": "each king and jack taken is penalised (king52)",
    "no-last-two": "each of the last two tricks is penalised (не брать 2 последние)",
    "no-king": "the King of hearts is penalised (не брать кинга / кінга)",
    "erajlash": "all penalties at once (ералаш / єралаш, 'negative all')",
    "plus-tricks": "each trick taken scores (брать взятки)",
    "plus-hearts": "each heart taken scores (брать червей)",
    "plus-boys": "each jack taken scores (брать мальчиков)",
    "plus-girls": "each queen taken scores (брать девочек)",
    "plus-last-two": "each of the last two tricks scores",
    "plus-king": "the King of hearts scores (брать кинга)",
    "plus-erajlash": "all of the above score (позитивный ералаш)",
    "trump": "a trump game: every trick scores (хваленка; king52 positive auction deal)",
    "misere": "ranks inverted, the ace lowest; every trick scores (мизер)",
    "minus": "king52 negative auction deal: 325 to each player less 75 a trick",
    "tricks": "+1 a trick: the raw trick count, for analysis and bridge checks",
})


@dataclass(frozen=True)
class Prices:
    """Points (positive magnitudes) per unit in the penalty deals of a variant."""
    trick: int       # no tricks: per trick
    heart: int       # no hearts: per heart card
    boy: int | None  # no boys: per jack (None: the variant has no such deal)
    girl: int        # no girls: per queen
    last_two: int    # no last two: per each of the last two tricks
    king: int        # no King: the King of hearts
    kings_jacks: int | None  # king52 only: per king and jack
    game_trick: int  # trump games / misère: per trick


@dataclass(frozen=True)
class Options:
    """Variant options (docs/rules.md: where sources differ, an option, never a silent choice).

    Written on the command line as ``-o key=value`` (or ``-o key`` for on)."""
    boys: str = "jacks"                 # boys=jacks|jacks-kings (ru4): мальчики = валеты, or валеты и короли at 2 each
    must_trump: bool = False            # must-trump: a player void in the led suit must trump (preference tables)
    forced_king: bool = True            # forced-king: in no-King the K♥ must be discarded at the first chance
    erajlash_forced_king: bool = False  # erajlash-forced-king: the same in erajlash
    king_lead: str = "hearts"           # king-lead=hearts|king: no-King lead ban: no heart while holding another suit, or no K♥ unless last card
    king_points: int | None = None      # king-points=20|24 (ua3): the King written as 24 so the game balances
    talon: str | None = None            # talon=CARDS|hidden: the cards out of play (ua3: SA CA; ru3: S7 C7 or two hidden cards)
    auction_pay: str | None = None      # auction-pay=shortfall|bid (king52): what the winner of an auction pays the dealer


OPTION_HELP = MappingProxyType({
    "boys": "jacks | jacks-kings — who the boys (мальчики) are; jacks-kings is 2 points each (ru4 only)",
    "must-trump": "on | off — a player void in the led suit must trump (off)",
    "forced-king": "on | off — no-King: the K♥ must be discarded at the first chance (on; king52 off)",
    "erajlash-forced-king": "on | off — the same forced discard in erajlash (off)",
    "king-lead": "hearts | king — no-King lead ban: no heart lead while holding another suit, or the K♥ not led unless it is the last card (hearts; king52 king)",
    "king-points": "20 | 24 — ua3: the King is written as 24 so the game balances (24)",
    "talon": "CARDS | hidden — the cards out of play: ua3 'SA CA'; ru3 'S7 C7' (black sevens removed) or 'hidden' (32 cards, two dealt face down)",
    "auction-pay": "shortfall | bid — king52: a +N bid costs the winner only the tricks he falls short of N, "
                   "or the whole bid, 25 x N, like a debt (shortfall)",
})


@dataclass(frozen=True)
class Variant:
    """A table: number of seats, deck, talon, prices and options."""
    id: str
    n_seats: int
    low_rank: int
    prices: Prices
    options: Options
    description: str
    contracts: tuple[str, ...]

    @property
    def full_deck(self) -> int:
        """Every card of the physical pack (32 or 52 cards)."""
        return deck_mask(self.low_rank)

    @property
    def talon(self) -> int:
        """The known cards out of play (прикуп): 0 when the talon is hidden or absent."""
        t = self.options.talon
        if t is None or t == "hidden":
            return 0
        return _talon_mask(t)

    @property
    def hidden_talon(self) -> int:
        """How many cards lie face down, unknown, out of play."""
        return 2 if self.options.talon == "hidden" else 0

    @property
    def deck(self) -> int:
        """The cards that can be in the players' hands."""
        return self.full_deck & ~self.talon

    @property
    def hand_size(self) -> int:
        return (count(self.deck) - self.hidden_talon) // self.n_seats

    def contract(self, name: str, trump: int | None | str = "default") -> "Contract":
        return make_contract(self, name, trump)

    def trump_choices(self, name: str) -> tuple[int | None, ...]:
        """The trumps a contract may be played with (None = no trump)."""
        if name == "trump":
            return (SPADES, HEARTS, DIAMONDS, CLUBS) + ((None,) if self.id == "king52" else ())
        if name in ("misere", "minus", "tricks"):
            return (None, SPADES, HEARTS, DIAMONDS, CLUBS)
        return (None,)


def _talon_mask(text: str) -> int:
    try:
        cards = parse_cards(text)
    except InvalidCardError as err:
        raise InvalidRulesError(f"option talon={text!r}: {err}") from err
    m = 0
    for c in cards:
        m |= bit(c)
    return m


VARIANT_IDS = ("ru4", "ua3", "ru3", "king52")
_COMMON = PENALTY_CONTRACTS[:4] + PENALTY_CONTRACTS[5:]


def _variant_base(vid: str):
    if vid == "ru4":
        return dict(n_seats=4, low_rank=SEVEN, description="4 players, 32 cards (7..A), 8 each",
                    prices=Prices(2, 2, 4, 4, 8, 16, None, 3),
                    contracts=tuple(c for c in _COMMON if c != "no-kings-jacks") + MIRROR_CONTRACTS + ("trump", "misere", "tricks"))
    if vid == "ua3":
        return dict(n_seats=3, low_rank=SEVEN, description="3 players, 32 cards less the black aces (the talon), 10 each",
                    prices=Prices(2, 2, 5, 5, 10, 20, None, 3),
                    contracts=tuple(c for c in _COMMON if c != "no-kings-jacks") + MIRROR_CONTRACTS + ("trump", "misere", "tricks"))
    if vid == "ru3":
        return dict(n_seats=3, low_rank=SEVEN, description="3 players, 32 cards less the black sevens (or two cards face down), 10 each",
                    prices=Prices(4, 5, 10, 10, 20, 40, None, 3),
                    contracts=tuple(c for c in _COMMON if c != "no-kings-jacks") + MIRROR_CONTRACTS + ("trump", "misere", "tricks"))
    if vid == "king52":
        return dict(n_seats=4, low_rank=TWO, description="4 players, 52 cards, 13 each (Portuguese/Brazilian King, Rifki, Jeu du Roi)",
                    prices=Prices(20, 20, None, 50, 90, 160, 30, 25),
                    contracts=("no-tricks", "no-hearts", "no-girls", "no-kings-jacks", "no-last-two", "no-king", "trump", "minus", "tricks"))
    raise InvalidRulesError(f"unknown variant {vid!r} (choose from {', '.join(VARIANT_IDS)})")


_TRUE = {"on", "true", "yes", "1", ""}
_FALSE = {"off", "false", "no", "0"}


def parse_options(vid: str, items) -> Options:
    """Options from ``key=value`` strings (or a mapping), checked against the variant."""
    defaults = dict(
        forced_king=(vid != "king52"),
        king_lead="king" if vid == "king52" else "hearts",
        king_points=24 if vid == "ua3" else None,
        talon={"ua3": "SA CA", "ru3": "S7 C7"}.get(vid),
        auction_pay="shortfall" if vid == "king52" else None,
    )
    if isinstance(items, dict):
        pairs = list(items.items())
    else:
        pairs = []
        for item in items or ():
            key, _, value = str(item).partition("=")
            pairs.append((key.strip(), value.strip()))
    for key, value in pairs:
        value = str(value)
        name = key.replace("_", "-")
        if name in ("must-trump", "forced-king", "erajlash-forced-king"):
            v = value.lower()
            if v not in _TRUE | _FALSE:
                raise InvalidRulesError(f"option {name}={value!r}: expected on or off")
            defaults[name.replace("-", "_")] = v in _TRUE
        elif name == "boys":
            if value not in ("jacks", "jacks-kings"):
                raise InvalidRulesError(f"option boys={value!r}: expected jacks or jacks-kings")
            if value == "jacks-kings" and vid != "ru4":
                raise InvalidRulesError(f"option boys=jacks-kings is a ru4 option, not {vid}")
            defaults["boys"] = value
        elif name == "king-lead":
            if value not in ("hearts", "king"):
                raise InvalidRulesError(f"option king-lead={value!r}: expected hearts or king")
            defaults["king_lead"] = value
        elif name == "king-points":
            if vid != "ua3" or value not in ("20", "24"):
                raise InvalidRulesError(f"option king-points={value!r}: a ua3 option, 20 or 24")
            defaults["king_points"] = int(value)
        elif name == "talon":
            if vid not in ("ua3", "ru3"):
                raise InvalidRulesError(f"option talon: {vid} has no talon")
            if value == "hidden":
                if vid != "ru3":
                    raise InvalidRulesError("option talon=hidden is a ru3 option (ua3's talon is known)")
            else:
                mask = _talon_mask(value)
                if count(mask) != 2 or mask & ~deck_mask(SEVEN):
                    raise InvalidRulesError(f"option talon={value!r}: expected two cards of the 32-card pack")
                value = " ".join(card_str(c) for c in cards_of(mask))
            defaults["talon"] = value
        elif name == "auction-pay":
            if vid != "king52":
                raise InvalidRulesError(f"option auction-pay is a king52 option (the auctions), not {vid}")
            if value not in ("shortfall", "bid"):
                raise InvalidRulesError(f"option auction-pay={value!r}: expected shortfall or bid")
            defaults["auction_pay"] = value
        else:
            raise InvalidRulesError(f"unknown option {key!r} (options: {', '.join(OPTION_HELP)})")
    return Options(**defaults)


def get_variant(vid: str, options=()) -> Variant:
    """The variant ``vid`` (``ru4``, ``ua3``, ``ru3``, ``king52``) with ``options``."""
    if isinstance(vid, Variant):
        return vid
    base = _variant_base(vid)
    return Variant(id=vid, options=parse_options(vid, options), **base)


@dataclass(frozen=True)
class DealRules:
    """A contract bound to a deal of ``n_tricks`` tricks: the search core's input.

    Legal plays: the leader may lead any card, except that a card in
    ``lead_restricted`` may be led only when he holds nothing outside it; a
    follower must follow suit, and when void and holding a card of
    ``discard_forced`` must play one of those.  The winner of a trick (the
    highest trump, else the highest card of the led suit, by rank or by
    inverted rank) scores ``card_points`` of its cards plus
    ``trick_points[trick index]``."""
    n_seats: int
    trump: int          # 0..3, or -1 for no trump
    inverted: bool      # misère: ace lowest
    card_points: tuple  # 64 ints
    trick_points: tuple  # n_tricks ints
    lead_restricted: int
    discard_forced: int
    seat_base: int = 0  # points every seat starts the deal with (king52 minus: 325)

    @property
    def n_tricks(self) -> int:
        return len(self.trick_points)


@dataclass(frozen=True)
class Contract:
    """One deal type of a variant as data."""
    variant: Variant
    name: str
    trump: int | None
    inverted: bool
    card_points: tuple      # 64 ints, points to whoever takes the card
    per_trick: int          # points for every trick
    last_two: int           # extra points for each of the last two tricks
    seat_base: int
    lead_restricted: int
    discard_forced: int

    @property
    def trump_letter(self) -> str:
        return "NT" if self.trump is None else SUIT_LETTERS[self.trump]

    def trick_points(self, n_tricks: int) -> tuple:
        pts = [self.per_trick] * n_tricks
        for k in range(max(0, n_tricks - 2), n_tricks):
            pts[k] += self.last_two
        return tuple(pts)

    def deal_rules(self, n_tricks: int | None = None) -> DealRules:
        n = self.variant.hand_size if n_tricks is None else n_tricks
        return DealRules(
            n_seats=self.variant.n_seats, trump=-1 if self.trump is None else self.trump,
            inverted=self.inverted, card_points=self.card_points, trick_points=self.trick_points(n),
            lead_restricted=self.lead_restricted, discard_forced=self.discard_forced, seat_base=self.seat_base,
        )

    @property
    def total(self) -> int:
        """Points of a whole deal, summed over all players (the totals of docs/rules.md)."""
        n = self.variant.hand_size
        deck = self.variant.deck
        return (sum(self.card_points[c] for c in cards_of(deck)) + sum(self.trick_points(n))
                + self.seat_base * self.variant.n_seats)

    @property
    def description(self) -> str:
        return CONTRACT_DESCRIPTIONS[self.name]

    def __repr__(self):
        t = "" if self.name not in GAME_CONTRACTS else f", trump={self.trump_letter!r}"
        return f"Contract({self.variant.id!r}, {self.name!r}{t})"


def parse_trump(text) -> int | None:
    """``S H D C`` (or symbols) for a suit, ``NT`` / ``N`` / ``-`` for no trump."""
    if text is None or isinstance(text, int):
        return text
    t = str(text).strip().upper()
    if t in ("NT", "N", "-", "NONE", "БК"):
        return None
    from .cards import SUIT_MARKERS, clean
    tt = clean(str(text).strip())
    if tt in SUIT_MARKERS:
        return SUIT_MARKERS[tt]
    raise InvalidRulesError(f"unknown trump {text!r} (S, H, D, C or NT)")


def split_contract(text: str) -> tuple[str, str | None]:
    """``trump:H`` → (``trump``, ``H``); ``no-king`` → (``no-king``, None): the
    one spelling of a contract with its trump, in every command and in KDN."""
    name, sep, trump = str(text).strip().partition(":")
    return name.strip(), (trump.strip() or None) if sep else None


def parse_contract(variant: Variant, text: str, trump=None) -> Contract:
    """A contract as written (``no-hearts``, ``trump:H``, ``misere``), with a
    trump given apart (``--trump``, ``[Trump]``) or in the name, not both
    differently.  A trump game without a trump takes its default (NT), except
    ``trump``, which needs one."""
    name, own = split_contract(text)
    if own is not None and trump is not None and parse_trump(own) != parse_trump(trump):
        raise InvalidRulesError(f"contract {text!r} and trump {trump!r} disagree: give the trump once")
    chosen = own if own is not None else trump
    return make_contract(variant, name, "default" if chosen is None else parse_trump(chosen))


def make_contract(variant: Variant, name: str, trump="default") -> Contract:
    if name not in variant.contracts:
        raise InvalidRulesError(f"{variant.id} has no contract {name!r} (it has: {', '.join(variant.contracts)})")
    p, o = variant.prices, variant.options
    choices = variant.trump_choices(name)
    if trump == "default":
        if name == "trump":
            raise InvalidRulesError("contract trump needs a trump: --trump " + "|".join(
                "NT" if t is None else SUIT_LETTERS[t] for t in choices))
        trump = None
    else:
        trump = parse_trump(trump)
    if trump not in choices:
        allowed = "|".join("NT" if t is None else SUIT_LETTERS[t] for t in choices)
        shown = "NT" if trump is None else SUIT_LETTERS[trump]
        raise InvalidRulesError(f"contract {name} in {variant.id} cannot be played with trump {shown} (allowed: {allowed})")

    sign = 1 if name.startswith("plus-") else -1
    base = name[5:] if name.startswith("plus-") else name[3:] if name.startswith("no-") else name
    pts = [0] * 64
    per_trick = last_two = seat_base = 0
    lead_restricted = discard_forced = 0
    hearts = SUIT_MASKS[HEARTS]
    king_price = o.king_points or p.king

    def add(mask, value):
        for c in cards_of(mask & variant.deck):
            pts[c] += value

    def boys_mask_and_price():
        if o.boys == "jacks-kings":
            return ALL_JACKS | ALL_KINGS, p.boy // 2
        return ALL_JACKS, p.boy

    heart_ban = hearts  # "no heart lead while holding another suit"
    king_ban = hearts if o.king_lead == "hearts" else bit(KING_OF_HEARTS)
    if name in ("no-tricks", "plus-tricks"):
        per_trick = sign * p.trick
    elif base == "hearts":
        add(hearts, sign * p.heart)
        lead_restricted = heart_ban
    elif base == "boys":
        m, price = boys_mask_and_price()
        add(m, sign * price)
    elif base == "girls":
        add(ALL_QUEENS, sign * p.girl)
    elif base == "kings-jacks":
        add(ALL_KINGS | ALL_JACKS, sign * p.kings_jacks)
    elif base == "last-two":
        last_two = sign * p.last_two
    elif base == "king":
        add(bit(KING_OF_HEARTS), sign * king_price)
        lead_restricted = king_ban
        if sign < 0 and o.forced_king:
            discard_forced = bit(KING_OF_HEARTS)
    elif base == "erajlash":
        per_trick = sign * p.trick
        add(hearts, sign * p.heart)
        m, price = boys_mask_and_price()
        add(m, sign * price)
        add(ALL_QUEENS, sign * p.girl)
        last_two = sign * p.last_two
        add(bit(KING_OF_HEARTS), sign * king_price)
        lead_restricted = heart_ban
        if sign < 0 and o.erajlash_forced_king:
            discard_forced = bit(KING_OF_HEARTS)
    elif name in ("trump", "misere"):
        per_trick = p.game_trick
    elif name == "minus":
        per_trick = -75
        seat_base = 325
    elif name == "tricks":
        per_trick = 1
    else:  # pragma: no cover - every name of variant.contracts is handled above
        raise InvalidRulesError(f"contract {name!r} is not modelled")
    if o.must_trump and trump is not None:
        discard_forced = SUIT_MASKS[trump]
    return Contract(variant=variant, name=name, trump=trump, inverted=(name == "misere"),
                    card_points=tuple(pts), per_trick=per_trick, last_two=last_two, seat_base=seat_base,
                    lead_restricted=lead_restricted, discard_forced=discard_forced)
