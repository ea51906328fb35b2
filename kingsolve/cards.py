"""Cards, suits, ranks and hands as bitmasks.

A card is an ``int`` bit index: ``suit * 16 + (rank - 2)``, suits in PBN order
♠ ♥ ♦ ♣ (0..3), ranks 2..14 (14 = ace, Russian/Ukrainian "туз", written Т).
A hand or any set of cards is an ``int`` mask with one bit per card, so the
same representation serves the 32-card and the 52-card decks and goes straight
into the search core as a ``uint64``.
"""
from __future__ import annotations

import unicodedata

from .errors import InvalidCardError

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

RANK_LETTERS = "23456789TJQKA"  # index rank - 2
TWO, SEVEN, TEN, JACK, QUEEN, KING, ACE = 2, 7, 10, 11, 12, 13, 14
RANKS = tuple(range(2, 15))

SUIT_SHIFT = 16
SUIT_BITS = 0x1FFF  # 13 ranks of one suit, unshifted
SUIT_MASKS = tuple(SUIT_BITS << (SUIT_SHIFT * s) for s in SUITS)
ALL_CARDS = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]

# Suit markers accepted on input (docs/cli.md, Layouts and cards): symbols, outline
# symbols, Latin letters and the Russian/Ukrainian initials
# (пики/піки, червы/черви, бубны/бубни, трефы/трефи).
SUIT_MARKERS = {
    "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
    "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS,
    "S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS,
    "s": SPADES, "h": HEARTS, "d": DIAMONDS, "c": CLUBS,
    "п": SPADES, "ч": HEARTS, "б": DIAMONDS, "т": CLUBS,
    "П": SPADES, "Ч": HEARTS, "Б": DIAMONDS,
}
# Rank tokens: Latin (T is the ten) and Cyrillic (Т is the ace: туз; К король,
# Д дама, В валет), either case.  Capital Т is never a suit marker; lowercase
# т is both the ace and the clubs marker (трефы): which one is told by where it
# stands (see parse_card and layout.parse_hand).
RANK_TOKENS = {
    "A": ACE, "K": KING, "Q": QUEEN, "J": JACK, "T": TEN, "10": TEN,
    "a": ACE, "k": KING, "q": QUEEN, "j": JACK, "t": TEN,
    "Т": ACE, "К": KING, "Д": QUEEN, "В": JACK,
    "т": ACE, "к": KING, "д": QUEEN, "в": JACK,
    **{str(r): r for r in range(2, 10)},
}

CYRILLIC_ACE_HINT = "Т is the ace (туз); the ten is 10 or T"


def ace_hint(c: int, text: str) -> str:
    """``"; Т is the ace …"`` when card ``c`` is an ace or a ten and ``text``
    (what the user wrote) has a Cyrillic Т: the likely slip of writing Т for
    the ten.  Empty otherwise; appended to layout and hand errors."""
    if rank_of(c) in (ACE, TEN) and ("Т" in text or "т" in text):
        return "; " + CYRILLIC_ACE_HINT
    return ""


def clean(text: str) -> str:
    """Drop emoji variation selectors (U+FE0E/U+FE0F) and normalise to NFC."""
    return unicodedata.normalize("NFC", text).replace("\ufe0f", "").replace("\ufe0e", "")


def card(suit: int, rank: int) -> int:
    """The card index of ``rank`` (2..14) in ``suit`` (0..3)."""
    return suit * SUIT_SHIFT + rank - 2


def suit_of(c: int) -> int:
    return c >> 4


def rank_of(c: int) -> int:
    return (c & 15) + 2


def bit(c: int) -> int:
    return 1 << c


def cards_of(mask: int):
    """The cards of a mask, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def suit_cards(mask: int, suit: int) -> int:
    return mask & SUIT_MASKS[suit]


def ranks_mask(suit: int, ranks) -> int:
    m = 0
    for r in ranks:
        m |= 1 << card(suit, r)
    return m


def rank_letter(rank: int) -> str:
    return RANK_LETTERS[rank - 2]


def card_str(c: int) -> str:
    """Two ASCII characters, suit then rank, as in JSON: ``SA``, ``HT``, ``C2``."""
    return SUIT_LETTERS[suit_of(c)] + rank_letter(rank_of(c))


def card_symbol(c: int) -> str:
    """Suit symbol then rank, for people: ``♠A``, ``♥10``."""
    r = rank_of(c)
    return SUIT_SYMBOLS[suit_of(c)] + ("10" if r == TEN else rank_letter(r))


def mask_str(mask: int) -> str:
    """Cards of a mask as space-separated ASCII codes, high suits and ranks first."""
    return " ".join(card_str(c) for c in sorted(cards_of(mask), key=lambda c: (suit_of(c), -rank_of(c))))


def parse_suit(token: str) -> int:
    t = clean(token)
    if t in SUIT_MARKERS:
        return SUIT_MARKERS[t]
    raise InvalidCardError(f"unknown suit {token!r}")


def parse_rank(token: str) -> int:
    t = clean(token)
    if t in RANK_TOKENS:
        return RANK_TOKENS[t]
    raise InvalidCardError(f"unknown rank {token!r}")


def parse_card(token: str) -> int:
    """A card with its suit before or after the rank: ``SA``, ``♠A``, ``A♠``,
    ``♦10``, ``8♦``, ``♣Д``, ``Тч`` (Cyrillic Т = ace, ч = hearts)."""
    t = clean(token).strip()
    if len(t) >= 2:
        head, tail = t[0], t[1:]
        if head in SUIT_MARKERS and tail in RANK_TOKENS:
            # Capital Cyrillic Т is the ace, never a suit marker (clubs is "т").
            return card(SUIT_MARKERS[head], RANK_TOKENS[tail])
        head, tail = t[:-1], t[-1]
        if tail in SUIT_MARKERS and head in RANK_TOKENS:
            return card(SUIT_MARKERS[tail], RANK_TOKENS[head])
    raise InvalidCardError(f"not a card: {token!r}")


def parse_cards(text: str) -> list[int]:
    """Cards separated by spaces or commas."""
    return [parse_card(tok) for tok in clean(text).replace(",", " ").split()]


def deck_mask(low_rank: int, removed: int = 0) -> int:
    """Every card from ``low_rank`` to the ace in each suit, minus ``removed``."""
    m = 0
    for s in SUITS:
        m |= ranks_mask(s, range(low_rank, ACE + 1))
    return m & ~removed
