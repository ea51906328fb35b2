"""Exhaustive check behind the later-tricks bound (ext/search.pxi, later_tricks).

The bound says: without trumps, a team of one or two seats on lead cannot take
every one of the t tricks left when phi (over the suits whose top card it
holds, its longest holding in the suit) is below t.  Its proof is an induction
that goes through except where a seat X of the other team holds nothing but
top cards of other suits, one card each (so t <= 3).  This script checks every
such ending of 2 and 3 tricks: 3 and 4 seats, every team holding the leader
(seat 0), every seat X outside it, X holding the tops of the first t suits (no
trumps: the suits are alike), the other cards in every rank order of every
suit.  Whether the team takes all t tricks is asked of the core one lead at a
time (from the positions after the lead, where the bound is not used; below
them it is used on fewer tricks, already checked).

Expected: no case where the bound would be wrong for teams of one or two
seats; teams of three seats (against one) do take every trick in some of
them, which is why the bound leaves them out.

    python benchmarks/check_later_tricks.py          # about two minutes
"""
from __future__ import annotations

import itertools
import time
from collections import Counter

from kingsolve._core import Search


def layouts(counts: dict[int, int]):
    """Every way to lay out the cards of the seats (counts: seat -> cards) into
    four suits, each suit an ordered list of owners, strongest first."""
    letters = [o for o, c in counts.items() for _ in range(c)]
    total = len(letters)
    for perm in sorted(set(itertools.permutations(letters))):
        for cuts in itertools.combinations_with_replacement(range(total + 1), 3):
            b = (0,) + cuts + (total,)
            yield tuple(perm[b[i]:b[i + 1]] for i in range(4))


def team_takes_all(s: Search, hands, n, team, t) -> bool:
    lead = hands[0]
    for c in range(64):
        if (lead >> c) & 1:
            h = list(hands)
            h[0] &= ~(1 << c)
            s.clear()
            if s.reaches(h, 0, [c], 13 - t, team, t):
                return True
    return False


def check(n: int, t: int) -> Counter:
    s = Search(12)
    s.configure(n, -1, False, [0] * 64, [1] * 13, 0, 0)
    wrong = Counter()
    for team in range(1, (1 << n) - 1):
        if not team & 1:
            continue
        members = [o for o in range(n) if (team >> o) & 1]
        for x in range(n):
            if (team >> x) & 1:
                continue
            for lay in layouts({o: t for o in range(n) if o != x}):
                seqs = [([x] if su < t else []) + list(lay[su]) for su in range(4)]
                hands = [0] * n
                phi = 0
                for su, seq in enumerate(seqs):
                    for i, o in enumerate(seq):
                        hands[o] |= 1 << (su * 16 + 12 - i)
                    if seq and (team >> seq[0]) & 1:
                        phi += max(seq.count(a) for a in members)
                if phi < t and team_takes_all(s, hands, n, team, t):
                    wrong[len(members)] += 1
    return wrong


def main() -> None:
    for n in (3, 4):
        for t in (2, 3):
            t0 = time.perf_counter()
            wrong = check(n, t)
            print(f"{n} seats, {t} tricks: endings where the team takes all although phi < t, "
                  f"by team size: {dict(wrong) or 'none'} ({time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
