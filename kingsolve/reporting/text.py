"""Words and lines every text report shares: counts with their plural, and
a trick as a player reads it (who leads, the cards, who wins)."""
from __future__ import annotations

_PLURALS = {"deal": "deals", "sample": "samples", "trick": "tricks", "layout": "layouts", "reading": "readings",
            "row": "rows", "record": "records", "card": "cards", "seat": "seats", "game": "games"}


def plural(n: int, word: str) -> str:
    """``1 deal``, ``2 deals``, ``0 deals``."""
    return f"{n} {word if n == 1 else _PLURALS.get(word, word + 's')}"


def trick_line(number: int, leader: int, cards, winner: int | None = None) -> str:
    """`` 3. seat 2 leads: ♠J  ♠K  ♠9   seat 3 wins`` (seats 1-based; ``cards``
    as shown, leader first; no winner for a trick not finished)."""
    win = f"   seat {winner} wins" if winner is not None else ""
    return f"{number:>2}. seat {leader} leads: {'  '.join(cards)}{win}"
