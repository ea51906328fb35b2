"""The later-tricks bound of the search core (ext/search.pxi, later_tricks),
checked on the endings its proof leaves open (this was
benchmarks/check_later_tricks.py).

The bound says: without trumps, a team of one or two seats on lead cannot take
every one of the t tricks left when phi (over the suits whose top card it
holds, its longest holding in the suit) is below t.  Its proof is an induction
that goes through except where a seat X of the other team holds nothing but
top cards of other suits, one card each (so t <= 3).  The endings checked: 3
and 4 seats, every team holding the leader (seat 0), every seat X outside it,
X holding the tops of the first t suits (no trumps: the suits are alike), the
other cards in every rank order of every suit.  Whether the team takes all t
tricks is asked of the core one lead at a time (from the positions after the
lead, where the bound is not used; below them it is used on fewer tricks,
already checked).  Teams of three seats (against one) do take every trick in
some of them, which is why the bound leaves them out.

Every ending of 2 tricks, and of 3 tricks with 3 seats, is checked here; the
4-seat 3-trick endings (about two minutes for all) are drawn by Hypothesis.
``python tests/test_later_tricks.py`` checks all of them.
"""
from __future__ import annotations

import itertools
import time
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import examples

from kingsolve._core import Search


def layouts(counts: dict[int, int]):
    """Every way to lay out the cards of the seats (counts: seat -> cards) into
    four suits, each suit an ordered list of owners, strongest first."""
    letters = [o for o, c in counts.items() for _ in range(c)]
    total = len(letters)
    for perm in sorted(set(itertools.permutations(letters))):
        for cuts in itertools.combinations_with_replacement(range(total + 1), 3):
            yield split(perm, cuts)


def split(perm, cuts):
    b = (0,) + tuple(cuts) + (len(perm),)
    return tuple(perm[b[i]:b[i + 1]] for i in range(4))


def search_for(n: int) -> Search:
    s = Search(12)
    s.configure(n, -1, False, [0] * 64, [1] * 13, 0, 0)
    return s


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


def bound_is_wrong(s: Search, n: int, t: int, team: int, x: int, lay) -> bool:
    """Does ``team`` take all t tricks of the ending ``lay`` (X = seat ``x``
    holding the tops of the first t suits) although phi < t?"""
    members = [o for o in range(n) if (team >> o) & 1]
    seqs = [([x] if su < t else []) + list(lay[su]) for su in range(4)]
    hands = [0] * n
    phi = 0
    for su, seq in enumerate(seqs):
        for i, o in enumerate(seq):
            hands[o] |= 1 << (su * 16 + 12 - i)
        if seq and (team >> seq[0]) & 1:
            phi += max(seq.count(a) for a in members)
    return phi < t and team_takes_all(s, hands, n, team, t)


def teams_and_x(n: int):
    for team in range(1, (1 << n) - 1):
        if team & 1:
            for x in range(n):
                if not (team >> x) & 1:
                    yield team, x


def check(n: int, t: int) -> Counter:
    """Endings where the bound would be wrong, by the size of the team."""
    s = search_for(n)
    wrong = Counter()
    for team, x in teams_and_x(n):
        for lay in layouts({o: t for o in range(n) if o != x}):
            if bound_is_wrong(s, n, t, team, x, lay):
                wrong[bin(team).count("1")] += 1
    return wrong


@pytest.mark.parametrize("n,t", [(3, 2), (3, 3), (4, 2)])
def test_every_ending_where_the_proof_needs_checking(n, t):
    wrong = check(n, t)
    assert not {size: k for size, k in wrong.items() if size <= 2}, wrong


SEARCH4 = search_for(4)


@examples(150)
@given(st.sampled_from([(team, x) for team, x in teams_and_x(4) if bin(team).count("1") <= 2]),
       st.permutations([0, 0, 0, 1, 1, 1, 2, 2, 2]),
       st.lists(st.integers(0, 9), min_size=3, max_size=3).map(sorted))
def test_four_seat_three_trick_endings(team_x, perm, cuts):
    team, x = team_x
    owners = [o for o in range(4) if o != x]      # the three seats other than X
    lay = split(tuple(owners[k] for k in perm), cuts)
    assert not bound_is_wrong(SEARCH4, 4, 3, team, x, lay)


def main() -> None:
    for n in (3, 4):
        for t in (2, 3):
            t0 = time.perf_counter()
            wrong = check(n, t)
            print(f"{n} seats, {t} tricks: endings where the team takes all although phi < t, "
                  f"by team size: {dict(wrong) or 'none'} ({time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
