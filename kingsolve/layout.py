"""Layouts: the hands of every seat, on one line (docs/cli.md).

``FIRST:HAND HAND HAND [HAND]`` — hands clockwise from seat FIRST, each in PBN
order ``♠.♥.♦.♣`` with dots; or the same hands with suit markers instead of
dots (``♠J8 ♥1087 ♦J87 ♣Q7``), hands separated by ``/`` or ``|``.  Ranks
``AKQJT98765432`` and ``10``, or Cyrillic ``Т К Д В`` (Т is the ace, туз), in
either case.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cards import (
    RANK_LETTERS, RANK_TOKENS, ace_hint, SUIT_MARKERS, SUITS, SUIT_SYMBOLS, TEN, bit, card, card_symbol, cards_of, clean, count, rank_of,
    suit_cards, suit_of, SUIT_SHIFT,
)
from .errors import InvalidLayoutError

SEAT_NAMES = {
    "I": 1, "II": 2, "III": 3, "IV": 4,
    "N": 1, "E": 2, "S": 3, "W": 4,
}


def parse_seat(text, n_seats: int) -> int:
    """A seat as written by a user (``1``..``N``, ``I II III IV``, ``N E S W``) → 0-based."""
    # Upper case; the Cyrillic І of Ukrainian texts (ІІ, ІІІ) reads as the Roman I.
    t = str(text).strip().upper().replace("\u0406", "I")
    if t.isdigit():
        s = int(t)
    elif t in SEAT_NAMES and (t not in "NESW" or n_seats == 4):
        s = SEAT_NAMES[t]
    else:
        raise InvalidLayoutError(f"unknown seat {text!r} (1..{n_seats}" + (", N E S W" if n_seats == 4 else "") + ")")
    if not 1 <= s <= n_seats:
        raise InvalidLayoutError(f"seat {text!r} is not one of 1..{n_seats}")
    return s - 1


def parse_side(text, n_seats: int) -> int:
    """``1,3`` or ``N,S`` → a bitmask of 0-based seats."""
    mask = 0
    for part in re.split(r"[,\s+]+", str(text).strip()):
        if part:
            mask |= 1 << parse_seat(part, n_seats)
    if not mask:
        raise InvalidLayoutError(f"empty side {text!r}")
    return mask


_RANK_RE = re.compile(r"10|[AKQJTakqjt2-9ТКДВткдв]")
_MARKER_CHARS = "".join(SUIT_MARKERS)


def _ranks(text: str, suit: int, where: str) -> int:
    mask, pos = 0, 0
    text = text.strip()
    if text in ("-", "—", "–"):
        return 0
    while pos < len(text):
        m = _RANK_RE.match(text, pos)
        if not m:
            raise InvalidLayoutError(f"{where}: unknown rank {text[pos]!r} in {text!r}")
        tok = m.group(0)
        c = card(suit, RANK_TOKENS[tok])
        if mask & bit(c):
            raise InvalidLayoutError(f"{where}: {card_symbol(c)} written twice{ace_hint(c, text)}")
        mask |= bit(c)
        pos = m.end()
    return mask


def parse_hand(text: str, where: str = "hand") -> int:
    """One hand, dotted PBN (``KQ.AT.-.987``) or with suit markers (``♠KQ ♥AT ♣987``)."""
    t = clean(text).strip()
    if "." in t:
        parts = t.split(".")
        if len(parts) != 4:
            raise InvalidLayoutError(f"{where}: {text!r} has {len(parts)} suits, a dotted hand has 4 (♠.♥.♦.♣)")
        mask = 0
        for s, part in zip(SUITS, parts):
            mask |= _ranks(part.replace(" ", ""), s, where)
        return mask
    mask, suit, buf = 0, None, ""
    # Lowercase т is the clubs marker where a marker can stand (at the start
    # of the hand or of a word, e.g. "♠кт т97"); after a rank it is the ace.
    t = re.sub(r"(?<=\S)т", "\x01", t).replace(" ", "")
    for ch in t + "\0":
        if ch == "\x01":
            buf += "т"
        elif ch in SUIT_MARKERS or ch == "\0":
            if suit is None and buf:
                raise InvalidLayoutError(f"{where}: ranks {buf!r} before any suit marker in {text!r}")
            if suit is not None:
                got = _ranks(buf, suit, where)
                if mask & got:  # the same suit may be given twice, but not the same card
                    c = (mask & got).bit_length() - 1
                    raise InvalidLayoutError(f"{where}: {card_symbol(c)} written twice in {text!r}{ace_hint(c, text)}")
                mask |= got
            if ch != "\0":
                suit, buf = SUIT_MARKERS[ch], ""
        else:
            buf += ch
    if not t:
        return 0
    return mask


def format_hand(mask: int, symbols: bool = False) -> str:
    """Dotted PBN (``AKT.-.987.2``→ ``AKT..987.2``), or with suit symbols."""
    parts = []
    for s in SUITS:
        ranks = sorted((rank_of(c) for c in cards_of(suit_cards(mask, s))), reverse=True)
        txt = "".join(("10" if symbols and r == TEN else RANK_LETTERS[r - 2]) for r in ranks)
        parts.append(SUIT_SYMBOLS[s] + (txt or "—") if symbols else txt)
    return " ".join(parts) if symbols else ".".join(parts)


@dataclass(frozen=True)
class Layout:
    """The hands of every seat; ``hands[k]`` is the mask of seat ``k`` (0-based).
    ``first`` is the seat written first (and, unless told otherwise, the leader)."""
    hands: tuple
    first: int = 0
    source: str = field(default="", compare=False, repr=False)   # as the user wrote it (for error hints)

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    @property
    def cards(self) -> int:
        m = 0
        for h in self.hands:
            m |= h
        return m

    @property
    def hand_size(self) -> int:
        return max(count(h) for h in self.hands)

    @classmethod
    def from_str(cls, text: str) -> "Layout":
        src = clean(text).strip()
        first, body = 0, src
        # FIRST: a seat number, I..IV or N E S W (any case); anything else
        # before the colon is reported as an unknown seat by parse_seat.
        m = re.match(r"^\s*([^\s:./|]+)\s*:", src)
        if m:
            first_token, body = m.group(1), src[m.end():]
        else:
            first_token = None
        if re.search(r"[/|]", body):
            chunks = [c for c in re.split(r"[/|]", body)]
            for k, chunk in enumerate(chunks):
                if not chunk.strip():
                    raise InvalidLayoutError(
                        f"layout {text!r}: hand {k + 1} is empty (nothing between the separators '/' or '|')")
        else:
            chunks = body.split()
            if not all("." in c for c in chunks):
                raise InvalidLayoutError(
                    f"cannot read layout {text!r}: write FIRST:HAND HAND HAND [HAND] with dotted hands, or hands with suit markers separated by '/'")
        if len(chunks) not in (3, 4):
            raise InvalidLayoutError(f"layout {text!r} has {len(chunks)} hand{'' if len(chunks) == 1 else 's'}; "
                                     f"3 or 4 expected")
        n = len(chunks)
        if first_token is not None:
            first = parse_seat(first_token, n)
        hands = [0] * n
        seen = 0
        for k, chunk in enumerate(chunks):
            seat = (first + k) % n
            h = parse_hand(chunk, where=f"layout hand of seat {seat + 1}")
            dup = seen & h
            if dup:
                c = dup.bit_length() - 1
                other = next(s for s in range(n) if hands[s] & bit(c))
                raise InvalidLayoutError(
                    f"layout {text!r}: {card_symbol(c)} is dealt twice (seats {other + 1} and {seat + 1})"
                    f"{ace_hint(c, text)}")
            seen |= h
            hands[seat] = h
        return cls(tuple(hands), first, text)

    def __str__(self) -> str:
        n = self.n_seats
        return f"{self.first + 1}:" + " ".join(format_hand(self.hands[(self.first + k) % n]) for k in range(n))

    def __repr__(self) -> str:
        return f"Layout.from_str({str(self)!r})"

    def symbols(self) -> str:
        return " / ".join(format_hand(h, symbols=True) for h in self.hands)

    def check(self, variant, *, equal: bool = True) -> None:
        """Raise InvalidLayoutError unless the hands fit ``variant``: seat count,
        cards in its deck (not the talon), equal hand sizes, at most a full hand."""
        if self.n_seats != variant.n_seats:
            raise InvalidLayoutError(f"{self.n_seats} hands, but {variant.id} has {variant.n_seats} seats")
        outside = self.cards & ~variant.deck
        if outside:
            c = outside.bit_length() - 1
            where = "is in the talon" if variant.talon & bit(c) else "is not in the deck"
            seat = next(k for k, h in enumerate(self.hands) if h & bit(c))
            raise InvalidLayoutError(
                f"{card_symbol(c)} {where} of {variant.id} (held by seat {seat + 1}){ace_hint(c, self.source)}")
        sizes = [count(h) for h in self.hands]
        if equal and len(set(sizes)) != 1:
            raise InvalidLayoutError(
                "hands of unequal size: " + ", ".join(f"seat {k + 1} {s}" for k, s in enumerate(sizes)))
        if max(sizes) > variant.hand_size:
            raise InvalidLayoutError(f"a hand of {max(sizes)} cards; {variant.id} deals {variant.hand_size}")
        if max(sizes) == 0:
            raise InvalidLayoutError("every hand is empty")
