"""The deals a verification checks: every deal a record allows, or a uniform
random sample of them (:mod:`kingsolve.knowledge`, seeded and reported)."""
from __future__ import annotations

from ..knowledge import rng_for, uniform_below

MAX_CLAIM_LAYOUTS = 100_000  # deals checked against the claims by default, 12 cards or fewer at the cut


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


def claim_deals(readings: list, weights: list, total: int, limit: int, seed: int):
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
