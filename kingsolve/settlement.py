"""Settling a sold game: what the buyer of a хваленка (хвалёнка, a "praised"
trump game) or the winner of a ``king52`` auction (dražba) owes the seat he
bought it from.  One place for ``bid`` (what a bid is worth), ``score
--from-kdn`` and ``verify`` (the score of a played record).

Хваленки (source 000 (Ukrainian)): the buyer hands N of his tricks to the seller
"у вигляді боргу" (as a debt) — N tricks and their points move, whatever he
made (000's third example: the buyer takes 6 tricks, pays 2, ends with 4).

``king52`` auctions (source 002 (Slovak)), following the variant option
``auction-pay``:

* **+N** (a positive deal, 25 a trick).  002 first says the winner "must pay
  the dealer according to the conditions of the bid" (musí zaplatiť súperovi
  podľa podmienok predloženej ponuky), then: "if the winner did not take the
  required number of tricks, he must hand over part of his points; the missing
  sum is deducted from his total and added to the dealer's" (chýbajúca suma sa
  odpočíta z celkového počtu bodov a pripočíta sa k bodom súpera).
  ``auction-pay=shortfall`` (the default) reads the second sentence as the
  rule: 25 × max(0, N − tricks) moves from the winner to the dealer, and a bid
  made costs nothing.  ``auction-pay=bid`` reads the first as a price: 25 × N
  moves whatever he made (his net is 25 × (tricks − N), like the хваленки debt).
* **−N** (a negative deal, 325 − 75 a trick): "the winner gets the points for as
  many of the dealer's tricks as he offered; the winner's points decrease, the
  dealer's do not (unless the dealer took more tricks than were offered; then
  the points for those extra tricks are deducted from his)" (víťaz dražby získa
  body za toľko súperových štychov, koľko ich ponúkol …).  75 × min(N, dealer's
  tricks) moves from the winner to the dealer, under both readings (002 names
  no price here).

Seats are 0-based.  The functions take plain numbers or numpy arrays (one
value per sample) alike.
"""
from __future__ import annotations

import numpy as np

from .errors import InvalidRulesError

AUCTION_PAY = ("shortfall", "bid")


def auction_transfer(contract, offer: int, winner_tricks, dealer_tricks=None, pay: str | None = None):
    """Points the winner of a ``king52`` auction hands to the dealer (súper)
    after playing ``contract`` (``trump``: a +``offer`` bid; ``minus``: a
    −``offer`` bid) — see the module docstring.  ``pay`` is the
    ``auction-pay`` reading (default: the variant's option).  Numbers or
    arrays; the result is never negative."""
    pay = pay or contract.variant.options.auction_pay or "shortfall"
    if pay not in AUCTION_PAY:
        raise InvalidRulesError(f"auction-pay={pay!r}: expected shortfall or bid")
    n = int(offer)
    if contract.name == "trump":
        if pay == "bid":
            return contract.per_trick * n + np.zeros_like(np.asarray(winner_tricks))
        return contract.per_trick * np.maximum(0, n - np.asarray(winner_tricks))
    if contract.name == "minus":
        if dealer_tricks is None:
            raise InvalidRulesError("a negative auction deal is settled with the dealer's tricks")
        return -contract.per_trick * np.minimum(n, np.asarray(dealer_tricks))   # per_trick is −75
    raise InvalidRulesError(f"a king52 auction is for a trump or a minus deal, not {contract.name}")


def settle_sold_game(contract, bought, points, tricks):
    """Points and tricks per seat after a sold game is settled: ``bought``
    (buyer, seller, tricks N; None: nothing was sold) in ``contract``.  In
    ``king52`` the auction (only points move, :func:`auction_transfer`); in
    every other variant the хваленки debt (N tricks and their points move
    from the buyer to the seller)."""
    points, tricks = list(points), list(tricks)
    if bought is None:
        return points, tricks
    b = bought
    if contract.variant.id == "king52":
        moved = int(auction_transfer(contract, b.tricks, tricks[b.buyer], tricks[b.seller]))
        points[b.buyer] -= moved
        points[b.seller] += moved
        return points, tricks
    per = contract.per_trick
    tricks[b.buyer] -= b.tricks
    tricks[b.seller] += b.tricks
    points[b.buyer] -= b.tricks * per
    points[b.seller] += b.tricks * per
    return points, tricks
