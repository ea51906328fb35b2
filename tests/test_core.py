"""The native search core ``kingsolve._core`` against a tiny minimax oracle.

The oracle below works on the same raw arrays as the core (card bit indices,
hand masks, card_points, trick_points, lead_restricted, discard_forced) and
is written for clarity only: plain minimax, no pruning, memoised.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from strategies import examples, rngs

from kingsolve._core import Search
from kingsolve.cards import parse_card

SUIT = [0x1FFF << (16 * s) for s in range(4)]


def bits(mask: int) -> list[int]:
    return [i for i in range(64) if (mask >> i) & 1]


class Rules:
    """The contract as data, as passed to Search.configure."""

    def __init__(self, n, trump=-1, inverted=False, card_points=None, trick_points=None,
                 lead_restricted=0, discard_forced=0):
        self.n = n
        self.trump = trump
        self.inverted = inverted
        self.card_points = list(card_points or [0] * 64)
        self.trick_points = list(trick_points if trick_points is not None else [1] * 13)
        self.lead_restricted = lead_restricted
        self.discard_forced = discard_forced

    def args(self):
        return (self.n, self.trump, self.inverted, self.card_points, self.trick_points,
                self.lead_restricted, self.discard_forced)

    def strength(self, c):
        r = (c & 15) + 2
        return 16 - r if self.inverted else r

    def legal(self, hand, trick):
        if not trick:
            m = hand & ~self.lead_restricted
            return m or hand
        m = hand & SUIT[trick[0] >> 4]
        if m:
            return m
        return (hand & self.discard_forced) or hand

    def winner(self, trick):
        """Index (from the leader) of the card winning a complete trick."""
        if self.trump >= 0 and any(c >> 4 == self.trump for c in trick):
            cands = [i for i, c in enumerate(trick) if c >> 4 == self.trump]
        else:
            cands = [i for i, c in enumerate(trick) if c >> 4 == trick[0] >> 4]
        return max(cands, key=lambda i: self.strength(trick[i]))

    def trick_score(self, trick, k):
        return sum(self.card_points[c] for c in trick) + self.trick_points[k]


def oracle(rules: Rules, hands, leader, trick, trick_index, side):
    """Exact value for the side by plain minimax; returns (value, {card: value})."""
    n = rules.n

    @lru_cache(maxsize=None)
    def val(hands, leader, trick, k):
        seat = (leader + len(trick)) % n
        if hands[seat] == 0:
            return 0
        vals = [child(hands, leader, trick, k, c) for c in bits(rules.legal(hands[seat], trick))]
        return max(vals) if (side >> seat) & 1 else min(vals)

    def child(hands, leader, trick, k, c):
        seat = (leader + len(trick)) % n
        hs = list(hands)
        hs[seat] &= ~(1 << c)
        t = trick + (c,)
        if len(t) < n:
            return val(tuple(hs), leader, t, k)
        w = (leader + rules.winner(t)) % n
        gain = rules.trick_score(t, k) if (side >> w) & 1 else 0
        return gain + val(tuple(hs), w, (), k + 1)

    hands = tuple(hands)
    trick = tuple(trick)
    seat = (leader + len(trick)) % n
    v = val(hands, leader, trick, trick_index)
    cv = {c: child(hands, leader, trick, trick_index, c) for c in bits(rules.legal(hands[seat], trick))}
    return v, cv


def replay(rules: Rules, hands, leader, trick, trick_index, side, line):
    """Check that `line` is a legal play sequence to the end and return the side's points."""
    n = rules.n
    hands = list(hands)
    trick = list(trick)
    k = trick_index
    total = 0
    for c in line:
        seat = (leader + len(trick)) % n
        assert (rules.legal(hands[seat], trick) >> c) & 1, f"illegal card {c} in line"
        hands[seat] &= ~(1 << c)
        trick.append(c)
        if len(trick) == n:
            w = (leader + rules.winner(trick)) % n
            if (side >> w) & 1:
                total += rules.trick_score(trick, k)
            leader, trick, k = w, [], k + 1
    assert not any(hands) and not trick, "line stops before the end"
    return total


def random_position(rnd: random.Random, n, per_hand, deck_ranks=range(2, 15), played=None):
    """Deal per_hand cards to each seat from the deck; then play `played` random legal-looking
    cards into the current trick (taken from the seats after the leader)."""
    deck = [s * 16 + r - 2 for s in range(4) for r in deck_ranks]
    rnd.shuffle(deck)
    hands = [0] * n
    for i in range(n):
        for c in deck[i * per_hand:(i + 1) * per_hand]:
            hands[i] |= 1 << c
    leader = rnd.randrange(n)
    trick = []
    for j in range(played or 0):
        seat = (leader + j) % n
        c = rnd.choice(bits(hands[seat]))
        hands[seat] &= ~(1 << c)
        trick.append(c)
    return hands, leader, trick


def random_rules(rnd: random.Random, n, tricks, sparse=True):
    if rnd.random() < 0.25:
        # a pure trick game (bridge-like): quick-trick bounds apply
        return Rules(n, trump=rnd.choice([-1, 0, 1, 2, 3]), inverted=rnd.random() < 0.2,
                     trick_points=[rnd.choice([1, 1, 1, 0, 2]) for _ in range(tricks)],
                     discard_forced=SUIT[rnd.randrange(4)] if rnd.random() < 0.2 else 0)
    cp = [0] * 64
    for c in range(64):
        if (c & 15) < 13 and rnd.random() < (0.3 if sparse else 0.8):
            cp[c] = rnd.randint(-5, 5)
    tp = [rnd.choice([0, 0, 1, -1, 2, -3]) for _ in range(tricks)]
    lr = 0
    df = 0
    if rnd.random() < 0.3:
        lr = SUIT[rnd.randrange(4)]
    elif rnd.random() < 0.2:
        lr = 1 << rnd.choice([c for c in range(64) if (c & 15) < 13])
    if rnd.random() < 0.2:
        df = 1 << rnd.choice([c for c in range(64) if (c & 15) < 13])
    elif rnd.random() < 0.15:
        df = SUIT[rnd.randrange(4)]
    return Rules(n, trump=rnd.choice([-1, -1, 0, 1, 2, 3]), inverted=rnd.random() < 0.25,
                 card_points=cp, trick_points=tp, lead_restricted=lr, discard_forced=df)


def check_position(search: Search, rules: Rules, hands, leader, trick, ti, side):
    v, cv = oracle(rules, hands, leader, trick, ti, side)
    assert search.value(hands, leader, trick, ti, side) == v
    got = search.card_values(hands, leader, trick, ti, side)
    assert dict(got) == cv
    assert [c for c, _ in got] == sorted(cv)
    line = search.line(hands, leader, trick, ti, side)
    assert replay(rules, hands, leader, trick, ti, side, line) == v


@examples(300)
@given(rnd=rngs(), n=st.sampled_from([3, 4]), per_hand=st.integers(1, 4),
       played=st.integers(0, 3), extra=st.integers(0, 3), side_kind=st.integers(0, 2),
       tt_log2=st.sampled_from([4, 8, 12]))
def test_random_positions_match_oracle(rnd, n, per_hand, played, extra, side_kind, tt_log2):
    played = min(played, n - 1)
    if per_hand == 1:
        played = min(played, n - 1)
    hands, leader, trick = random_position(rnd, n, per_hand, played=played)
    tricks = per_hand + extra
    ti = rnd.randint(0, min(extra, 13 - per_hand))
    rules = random_rules(rnd, n, min(13, max(tricks, ti + per_hand)))
    if side_kind == 0:
        side = 1 << rnd.randrange(n)
    elif side_kind == 1:
        a, b = rnd.sample(range(n), 2)
        side = (1 << a) | (1 << b)
    else:
        side = rnd.randrange(1, 1 << n)
    s = Search(tt_log2)
    s.configure(*rules.args())
    check_position(s, rules, hands, leader, trick, ti, side)


def test_warm_table_across_sides_and_queries():
    """One Search reused across many positions, sides and contracts stays exact."""
    rnd = random.Random(7)
    s = Search(10)
    for it in range(60):
        n = rnd.choice([3, 4])
        rules = random_rules(rnd, n, 13, sparse=rnd.random() < 0.5)
        s.configure(*rules.args())
        hands, leader, trick = random_position(rnd, n, rnd.randint(2, 4), played=rnd.randint(0, n - 1))
        for side in rnd.sample(range(1, 1 << n), 3):
            v, cv = oracle(rules, hands, leader, trick, 0, side)
            assert s.value(hands, leader, trick, 0, side) == v
            assert dict(s.card_values(hands, leader, trick, 0, side)) == cv


def solve_random_positions(s, seed, trick_index, after_each=lambda: None):
    """25 random contracts of 3 or 4 seats, a 4-card position each, two sides
    each: ``s``'s values and card values are the oracle's; returns the table's
    size (table_log2) after each contract."""
    rnd = random.Random(seed)
    sizes = []
    for it in range(25):
        n = rnd.choice([3, 4])
        rules = random_rules(rnd, n, 13, sparse=rnd.random() < 0.5)
        s.configure(*rules.args())
        hands, leader, trick = random_position(rnd, n, 4, played=rnd.randint(0, n - 1))
        for side in rnd.sample(range(1, 1 << n), 2):
            v, cv = oracle(rules, hands, leader, trick, trick_index, side)
            assert s.value(hands, leader, trick, trick_index, side) == v
            assert dict(s.card_values(hands, leader, trick, trick_index, side)) == cv
            after_each()
        sizes.append(s.table_log2)
    return sizes


@pytest.mark.parametrize("trick_index", [0, 9])
def test_table_that_runs_out_of_room_frees_small_subtrees_and_stays_exact(trick_index):
    """A table of 2**4 entries runs out of room within one search: it frees the
    signatures of the smallest subtrees (their chunks go back to the free list,
    their entries by exact position are retired) and goes on, exact.  Trick 9 of
    a 13-trick deal uses the index by exact position as well (long deals)."""
    s = Search(4)
    assert set(solve_random_positions(s, 11 + trick_index, trick_index)) == {4}
    assert s.tt_swept > 0
    assert s.tt_swept == s.tt_full   # every time, something was small enough to free


@pytest.mark.parametrize("trick_index", [0, 9])
def test_table_that_may_grow_doubles_when_full_and_stays_exact(trick_index):
    """A table of 2**4 entries allowed to grow to 2**9 doubles its slots and
    chunks whenever the chunks run out or signatures are being evicted
    (tt_grow): every signature moves to the bucket its hash picks in the larger
    table.  Values stay the oracle's throughout, and it grows instead of
    freeing entries (test_solver checks the entries by exact position, which
    only longer searches make)."""
    s = Search(4, 9)
    sizes = solve_random_positions(s, 23 + trick_index, trick_index, after_each=s.check_table)
    assert sizes == sorted(sizes) and sizes[-1] >= 8
    assert s.tt_grown == sizes[-1] - 4 and s.tt_full == 0
    assert (s.tt_log2, s.max_tt_log2) == (4, 9)


def test_table_of_a_fixed_size_never_grows():
    """Without max_tt_log2 the table keeps its size: when full it frees
    entries (tt_sweep) instead."""
    rnd = random.Random(5)
    s = Search(4)
    for it in range(10):
        rules = random_rules(rnd, 4, 13)
        s.configure(*rules.args())
        hands, leader, trick = random_position(rnd, 4, 4)
        s.value(hands, leader, trick, 9, 1)
    assert (s.table_log2, s.exact_log2, s.tt_grown) == (4, 4, 0) and s.tt_full > 0
    with pytest.raises(ValueError, match="max_tt_log2"):
        Search(12, 11)

def random_lengths(rnd: random.Random, n, per_hand):
    """lens[seat][suit]: how many cards of each suit each of n seats holds
    (never more than a suit's 13 cards in all: Hypothesis draws a suit again
    and again where a seeded shuffle almost never did)."""
    lens = []
    total = [0] * 4
    for _ in range(n):
        row = [0] * 4
        for _ in range(per_hand):
            su = rnd.choice([su for su in range(4) if total[su] < 13])
            row[su] += 1
            total[su] += 1
        lens.append(row)
    return lens


def same_lengths_positions(rnd: random.Random, n, lens, count, ranks):
    """`count` positions in which seat i holds lens[i][suit] cards of each suit,
    with the ranks and their owners drawn afresh every time."""
    out = []
    for _ in range(count):
        hands = [0] * n
        for su in range(4):
            owners = [i for i in range(n) for _ in range(lens[i][su])]
            rnd.shuffle(owners)
            for r, o in zip(rnd.sample(ranks, len(owners)), owners):
                hands[o] |= 1 << (su * 16 + r - 2)
        out.append(hands)
    return out


@examples(40)
@given(rnd=rngs())
def test_partition_entries_hold_for_every_position_they_cover(rnd):
    """The table's entries cover whole sets of positions (partition search): same
    leader, trick and suit lengths, same owners of the cards whose ranks mattered.
    Positions of one shape, differing in ranks and owners, are solved one after
    another on one warm table, so every entry is tried on many positions it covers
    (and many it must not); each value and card value must stay exact.  This is
    the test that caught a representative card standing for a weaker card of its
    group without passing its rank on."""
    n = rnd.choice([3, 4])
    per_hand = rnd.randint(2, 4 if n == 4 else 5)
    if rnd.random() < 0.4:
        rules = Rules(n, trump=rnd.choice([-1, 0, 1, 2, 3]), inverted=rnd.random() < 0.3)
    else:
        rules = random_rules(rnd, n, 13, sparse=rnd.random() < 0.5)
    lens = random_lengths(rnd, n, per_hand)
    ranks = list(range(2, 15)) if rnd.random() < 0.5 else [2, 3, 9, 10, 11, 12, 13, 14]
    if max(sum(lens[i][su] for i in range(n)) for su in range(4)) > len(ranks):
        ranks = list(range(2, 15))
    s = Search(rnd.choice([8, 12, 16]))
    s.configure(*rules.args())
    side = rnd.randrange(1, 1 << n)
    leader = rnd.randrange(n)
    ti = rnd.randint(0, 13 - per_hand)
    for hands in same_lengths_positions(rnd, n, lens, 10, ranks):
        v, cv = oracle(rules, hands, leader, [], ti, side)
        assert s.value(hands, leader, [], ti, side) == v
        assert dict(s.card_values(hands, leader, [], ti, side)) == cv


@examples(40)
@given(rnd=rngs())
# runs (random.Random of these seeds) that failed when the lone seat's "need
# not win this trick" bound named no cards (loses_this_trick's rel): 4 of the
# first 1,500 seeds did
@example(rnd=random.Random(26))
@example(rnd=random.Random(400))
@example(rnd=random.Random(990))
def test_partition_entries_for_a_lone_seat_in_a_penalty_game(rnd):
    """The same, for what King asks most: one seat alone against the rest in a
    penalty contract (every trick, or every heart, costs), where the sure-ducker
    bound cuts whole subtrees and must name the cards it rests on."""
    n = rnd.choice([3, 4])
    per_hand = rnd.randint(2, 4)
    k = rnd.random()
    if k < 0.4:
        rules = Rules(n, trump=rnd.choice([-1, -1, 0]), inverted=rnd.random() < 0.2,
                      trick_points=[-1] * 13)
    elif k < 0.7:
        cp = [0] * 64
        for c in range(16, 16 + 13):
            cp[c] = -1
        rules = Rules(n, card_points=cp, trick_points=[0] * 13, lead_restricted=SUIT[1])
    else:
        # everything costs (erajlash), with a card that must be discarded when void;
        # two suits mix cards of different points, so the duck solver is used
        cp = [0] * 64
        for c in range(16, 16 + 13):
            cp[c] = -1
        cp[16 + 11] = -8
        cp[10] = -3
        rules = Rules(n, card_points=cp, trick_points=[-1] * 13, lead_restricted=SUIT[1],
                      discard_forced=1 << (16 + 11))
    lens = random_lengths(rnd, n, per_hand)
    s = Search(12)
    s.configure(*rules.args())
    seat = rnd.randrange(n)
    leader = rnd.randrange(n)
    ti = rnd.randint(0, 13 - per_hand)
    for hands in same_lengths_positions(rnd, n, lens, 12, list(range(2, 15))):
        v, cv = oracle(rules, hands, leader, [], ti, 1 << seat)
        assert s.value(hands, leader, [], ti, 1 << seat) == v
        assert dict(s.card_values(hands, leader, [], ti, 1 << seat)) == cv


def test_a_lone_seat_that_can_afford_a_trick_more_is_settled_by_its_duck_solver():
    """Erajlash: tricks and cards both cost.  A lone seat that its duck solver
    shows can hold itself to w more tricks loses at most the w worst trick
    penalties and each seat's w worst cards; where that settles a test the
    search stops there (duck_graded).  On 4-card positions late in a deal the
    bound must settle some tests, and every value and card value must still be
    the oracle's."""
    cp = [0] * 64
    for c in range(16, 16 + 13):
        cp[c] = -1                     # every heart costs 1
    cp[16 + 11] = -8                   # the king of hearts 8
    cp[10] = cp[32 + 10] = -3          # two queens 3
    tp = [-1] * 13
    tp[11] = tp[12] = -4               # and the last two tricks 4 each
    rules = Rules(4, card_points=cp, trick_points=tp, lead_restricted=SUIT[1])
    s = Search(12)
    s.configure(*rules.args())
    s.reset_stats()
    for k in range(24):
        rnd = random.Random(k)
        hands = same_lengths_positions(rnd, 4, random_lengths(rnd, 4, 4), 1, list(range(2, 15)))[0]
        seat, leader = rnd.randrange(4), rnd.randrange(4)
        v, cv = oracle(rules, hands, leader, [], 9, 1 << seat)
        assert s.value(hands, leader, [], 9, 1 << seat) == v
        assert dict(s.card_values(hands, leader, [], 9, 1 << seat)) == cv
    assert s.graded_cuts > 0


def _mixed_penalties(rnd: random.Random) -> list:
    """Card points of a penalty contract with at least two suits that mix
    cards of different points (so that the duck solver is used): a few
    penalty ranks in every suit, like the boys or the girls."""
    cp = [0] * 64
    ranks = rnd.sample(range(13), rnd.randint(1, 3))
    for su in range(4):
        for r in ranks:
            cp[su * 16 + r] = -rnd.randint(1, 4)
    return cp


@examples(40)
@given(rnd=rngs())
def test_duck_tables_kept_across_contracts_and_seats(rnd):
    """Each lone seat's duck table (can it keep from winning any more trick?)
    is kept across contracts whose duck rules are the same (seats, trump, rank
    order, tricks, lead and discard restrictions), whatever their points, and
    emptied when one of those rules changes.  One Search answers a run of such
    contracts, lone seats in any order, exactly as the oracle does.  From
    trick 9 of 13 on (a long deal), what the duck solver finds is also stored
    in the main table."""
    n = rnd.choice([3, 4])
    per_hand = rnd.randint(2, 4)
    ti = rnd.choice([0, 9])
    s = Search(10)
    restrictions = [(0, 0), (SUIT[1], 0), (SUIT[1], 1 << (16 + 11)), (0, SUIT[rnd.randrange(4)])]
    lr, df = rnd.choice(restrictions)
    hands, leader, trick = random_position(rnd, n, per_hand, played=0)
    for it in range(6):
        # mostly the same layout under the next contract, as in a table
        if rnd.random() < 0.4:
            lr, df = rnd.choice(restrictions)
        if rnd.random() < 0.2:
            hands, leader, trick = random_position(rnd, n, per_hand, played=0)
        rules = Rules(n, card_points=_mixed_penalties(rnd), trick_points=[rnd.choice([0, -1])] * 13,
                      lead_restricted=lr, discard_forced=df)
        s.configure(*rules.args())
        for seat in rnd.sample(range(n), n):
            v, _ = oracle(rules, hands, leader, trick, ti, 1 << seat)
            assert s.value(hands, leader, trick, ti, 1 << seat) == v


@examples(60)
@given(rnd=rngs())
def test_duck_game_is_answered_by_the_duck_solver(rnd):
    """A short deal's contract that is the duck game at some scale (every
    trick costs the same, no card counts: no-tricks), or the trick game (every
    trick is worth the same: plus-tricks, a lone seat's trump game), is solved
    for a lone seat by that seat's duck (or trick) solver, so that its table
    is warm for the tests of the contracts after it; the main table is not
    touched.  Value, card values, an optimal line and zero-window tests, from
    mid-trick positions too, are the oracle's; and so are the values of a
    contract of the same sign with the same duck rules asked after it, whose
    duck (or trick) tests meet the warm table."""
    n = rnd.choice([3, 4])
    per_hand = rnd.randint(1, 4)
    tricks = rnd.choice([8, 10])
    ti = rnd.randint(0, tricks - per_hand)
    lr, df = rnd.choice([(0, 0), (SUIT[1], 0), (SUIT[1], 1 << (16 + 11)), (0, SUIT[rnd.randrange(4)])])
    hands, leader, trick = random_position(rnd, n, per_hand,
                                           played=0 if per_hand == 1 else rnd.randint(0, n - 1))
    scale = rnd.choice([1, 2, 75])
    sign = rnd.choice([-1, 1])
    duck_game = Rules(n, trump=rnd.choice([-1, -1, 0]), inverted=rnd.random() < 0.2,
                      trick_points=[sign * scale] * tricks, lead_restricted=lr, discard_forced=df)
    s = Search(10)
    s.configure(*duck_game.args())
    seats = rnd.sample(range(n), n)
    for seat in seats:
        side = 1 << seat
        v, cv = oracle(duck_game, hands, leader, trick, ti, side)
        assert s.value(hands, leader, trick, ti, side) == v
        assert dict(s.card_values(hands, leader, trick, ti, side)) == cv
        line = s.line(hands, leader, trick, ti, side)
        assert replay(duck_game, hands, leader, trick, ti, side, line) == v
        assert s.reaches(hands, leader, trick, ti, side, v) is True
        assert s.reaches(hands, leader, trick, ti, side, v + 1) is False
        assert s.reaches(hands, leader, trick, ti, side, v - scale + 1) is True
    assert s.tt_probes == 0
    # then a contract of the same sign with the same duck rules (mixed suits:
    # duck tests, or trick tests; or no card and the last two tricks costing:
    # duck tests)
    if sign < 0 and rnd.random() < 0.4:
        rules = Rules(n, trump=duck_game.trump, inverted=duck_game.inverted,
                      trick_points=[0] * (tricks - 2) + [-4, -4], lead_restricted=lr, discard_forced=df)
    else:
        rules = Rules(n, trump=duck_game.trump, inverted=duck_game.inverted,
                      card_points=[-sign * x for x in _mixed_penalties(rnd)],
                      trick_points=[rnd.choice([0, sign])] * tricks, lead_restricted=lr, discard_forced=df)
    s.configure(*rules.args())
    for seat in seats:
        v, cv = oracle(rules, hands, leader, trick, ti, 1 << seat)
        assert s.value(hands, leader, trick, ti, 1 << seat) == v
        assert dict(s.card_values(hands, leader, trick, ti, 1 << seat)) == cv


def test_last_two_tricks_ask_the_duck_solver_in_short_deals():
    """Where no card counts and only the last two tricks cost (no-last-two), a
    short deal's lone seat asks its duck solver whether it can keep from
    winning any trick more (warm from no-tricks, solved before it with the same
    duck rules); a long deal's does not.  Every value is the oracle's."""
    for tricks, asked in ((8, True), (13, False)):
        duck_game = Rules(4, trick_points=[-2] * tricks)
        last_two = Rules(4, trick_points=[0] * (tricks - 2) + [-8, -8])
        s = Search(10)
        for k in range(10):
            rnd = random.Random(k)
            hands, leader, trick = random_position(rnd, 4, 4)
            for rules in (duck_game, last_two):
                s.configure(*rules.args())
                for seat in range(4):
                    v, _ = oracle(rules, hands, leader, trick, tricks - 4, 1 << seat)
                    assert s.value(hands, leader, trick, tricks - 4, 1 << seat) == v
        (failed, _), (succeeded, _) = s.duck_stats
        assert (failed + succeeded > 0) is asked


@pytest.mark.parametrize("n", [3, 4])
def test_duck_table_of_a_fixed_size_table_grows_to_its_size(n):
    """A table of a fixed size (short deals) gives each lone seat a duck table
    4 times smaller, which may grow up to the table's own size when a run of
    queries fills it (advise keeps one solver for hundreds of sampled deals,
    where the duck solver answers no-tricks): here 2**4 growing to 2**6 over
    40 positions of no-tricks for one seat, every value and card value the
    oracle's; the main table is never touched and keeps its size."""
    rnd = random.Random(31 + n)
    rules = Rules(n, trick_points=[-1] * 8)
    s = Search(6)
    s.configure(*rules.args())
    for _ in range(40):
        hands, leader, trick = random_position(rnd, n, 4, played=rnd.randint(0, n - 1))
        v, cv = oracle(rules, hands, leader, trick, 4, 1)
        assert s.value(hands, leader, trick, 4, 1) == v
        assert dict(s.card_values(hands, leader, trick, 4, 1)) == cv
        s.check_table()
    assert 4 < s.duck_tables_log2[0] <= 6 and s.duck_tables_log2[1:] == (0, 0, 0)
    assert (s.table_log2, s.tt_probes) == (6, 0)


def test_duck_game_of_a_long_deal_keeps_the_main_table():
    """In a 13-card deal the duck game is searched as any contract (the duck
    solver's smaller table made king52's no-tricks dearer): the main table is
    probed."""
    rules = Rules(4, trick_points=[-2] * 13)
    s = Search(10)
    s.configure(*rules.args())
    for k in range(10):
        rnd = random.Random(k)
        hands, leader, trick = random_position(rnd, 4, 4)
        for seat in range(4):
            v, _ = oracle(rules, hands, leader, trick, 9, 1 << seat)
            assert s.value(hands, leader, trick, 9, 1 << seat) == v
    assert s.tt_probes > 0


@examples(60)
@given(rnd=rngs())
def test_trick_solver_of_a_lone_seat_in_a_positive_game(rnd):
    """In a positive game where every trick is worth points and some cards too
    (plus-erajlash), a lone seat that needs just one more trick asks its trick
    solver (every trick worth 1) whether it can win one; if it cannot, it takes
    nothing more.  So does a lone seat where only cards are worth points and
    some suits mix cards of different points (plus-boys, plus-girls), for the
    second answer.  Values and card values over a run of positions of one
    shape (the partition entries) are the oracle's."""
    check_trick_solver_run(rnd)


def test_trick_solver_is_asked():
    """The same over forty fixed runs: the trick solver was asked, and both
    answers came (it can win another trick, it cannot)."""
    asked = [0, 0]
    for seed in range(40):
        (failed, _), (succeeded, _) = check_trick_solver_run(random.Random(seed))
        asked[0] += failed
        asked[1] += succeeded
    assert asked[0] > 0 and asked[1] > 0


def check_trick_solver_run(rnd: random.Random):
    """One run of test_trick_solver_of_a_lone_seat_in_a_positive_game; returns
    the duck (here trick) solver's statistics."""
    n = rnd.choice([3, 4])
    per_hand = rnd.randint(2, 4)
    tricks = rnd.choice([8, 13])
    ti = rnd.randint(0, tricks - per_hand)
    if rnd.random() < 0.5:
        cp = [0] * 64
        for c in range(64):
            if (c & 15) < 13 and rnd.random() < 0.3:
                cp[c] = rnd.randint(1, 4)
        tp = [rnd.choice([1, 2]) for _ in range(tricks)]
    else:
        cp = [-x for x in _mixed_penalties(rnd)]
        tp = [0] * tricks
    lr, df = rnd.choice([(0, 0), (SUIT[1], 0), (0, SUIT[rnd.randrange(4)])])
    rules = Rules(n, trump=rnd.choice([-1, -1, 0]), inverted=rnd.random() < 0.2,
                  card_points=cp, trick_points=tp, lead_restricted=lr, discard_forced=df)
    s = Search(10)
    s.configure(*rules.args())
    s.reset_stats()
    seat = rnd.randrange(n)
    leader = rnd.randrange(n)
    for hands in same_lengths_positions(rnd, n, random_lengths(rnd, n, per_hand), 8, list(range(2, 15))):
        v, cv = oracle(rules, hands, leader, [], ti, 1 << seat)
        assert s.value(hands, leader, [], ti, 1 << seat) == v
        assert dict(s.card_values(hands, leader, [], ti, 1 << seat)) == cv
    return s.duck_stats


def settled_before_search(rules, hands, leader, trick_index, side, target, reached):
    """A zero-window test of the position (at a trick's start) answers
    `reached` without a single node: a bound settled it."""
    s = Search(12)
    s.configure(*rules.args())
    assert s.reaches(hands, leader, [], trick_index, side, target) is reached
    assert s.nodes == 0


def test_lone_seat_on_lead_cannot_always_duck_with_its_weakest_card():
    """Seat 0 alone, every trick costs, ace low: its hearts A 6 3 lie below
    seat 1's 7 4 2 rank for rank, so following it could always duck; but it is on
    lead, and after it leads the ace seat 1 wins with the 2 and leads the 7, which
    its 6 and 3 both beat.  A ducking bound that let the lead pass as one more
    round of the suit found 0 here."""
    rules = Rules(3, inverted=True, trick_points=[-1] * 13)
    hands = [mask(card(H, 3), card(H, 6), card(H, 14)),
             mask(card(H, 2), card(H, 4), card(H, 7)),
             mask(card(S, 3), card(S, 8), card(S, 12))]
    s = Search(12)
    s.configure(*rules.args())
    v, cv = oracle(rules, hands, 0, [], 0, 1)
    assert v == -1
    assert s.value(hands, 0, [], 0, 1) == v
    assert dict(s.card_values(hands, 0, [], 0, 1)) == cv


def agrees_with_oracle(rules, hands, leader, trick_index, side, trick=()):
    """The native value and card values of a position (by default at a trick's
    start, else with `trick` on the table) equal the oracle's; returns the
    oracle's (value, card values)."""
    trick = list(trick)
    s = Search(12)
    s.configure(*rules.args())
    v, cv = oracle(rules, hands, leader, trick, trick_index, side)
    assert s.value(hands, leader, trick, trick_index, side) == v
    assert dict(s.card_values(hands, leader, trick, trick_index, side)) == cv
    return v, cv


def test_must_trump_partner_takes_the_lead_from_the_casher():
    """Quick tricks with must-trump (a void follower holding a trump must play
    one): a partner void in the suit being cashed is forced to ruff the winner and
    takes the lead, so the casher's other top cards no longer count.  Found by the
    partition fuzz; the value of leading S3 was 1 where the oracle says 0."""
    rules = Rules(4, trump=D, trick_points=[1, 0, 2, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1],
                  discard_forced=SUIT[D])
    hands = [mask(card(H, 5), card(D, 11), card(C, 8), card(C, 11)),
             mask(card(S, 5), card(S, 13), card(H, 12), card(H, 13)),
             mask(card(S, 10), card(H, 3), card(H, 6), card(C, 14)),
             mask(card(S, 3), card(H, 8), card(D, 6), card(C, 3))]
    _, cv = agrees_with_oracle(rules, hands, 3, 9, 0b1010)
    assert cv[card(S, 3)] == 0


def test_all_trump_partner_takes_the_lead_from_the_casher():
    """The same without must-trump: a partner void in the suit being cashed whose
    hand is all trumps must ruff its partner's winner and takes the lead, here
    straight into the opponents' ace of trumps.  With the first two tricks worth
    1 and the last two 0, cashing S A K Q makes only 1 (quick tricks claimed 2)."""
    rules = Rules(4, trump=H, trick_points=[0] * 9 + [1, 1, 0, 0])
    hands = [mask(card(S, 14), card(S, 13), card(S, 12), card(D, 3)),
             mask(card(S, 11), card(S, 10), card(S, 9), card(H, 14)),
             mask(card(H, 2), card(H, 3), card(H, 4), card(H, 5)),
             mask(card(S, 8), card(S, 7), card(D, 2), card(D, 4))]
    v, _ = agrees_with_oracle(rules, hands, 0, 9, 0b0101)
    assert v == 1


def test_quick_tricks_partner_discards_its_low_cards_while_the_leader_cashes():
    """No trumps, W (seat 3) on lead: W cashes C J 10 (S follows once), then
    crosses with S6 to E, who cashes S10, HA and DK.  E has no card outside the
    suits it cashes, so while W cashes E must discard H6 and D7, its cards below
    the opponents' top card in suits where only its top card counts: that keeps
    all five tricks for E-W.  The value for N-S is 0 (the oracle's), and quick
    tricks now see it before any search (before, 254 nodes)."""
    rules = Rules(4, trick_points=[1] * 13)
    hands = [mask(card(H, 11), card(H, 8), card(H, 7), card(D, 12), card(D, 9)),
             mask(card(S, 10), card(H, 14), card(H, 6), card(D, 13), card(D, 7)),
             mask(card(H, 13), card(H, 10), card(H, 9), card(D, 5), card(C, 9)),
             mask(card(C, 11), card(C, 10), card(C, 8), card(S, 6), card(H, 2))]
    v, _ = agrees_with_oracle(rules, hands, 3, 8, 0b0101)
    assert v == 0
    s = Search(12)
    s.configure(*rules.args())
    assert not s.reaches(hands, 3, [], 8, 0b0101, 1)
    assert s.nodes == 0 and s.trick_nodes == 0


def test_quick_tricks_see_a_singleton_honour_fall():
    """No trumps, N (seat 0) on lead with S A Q over E's singleton S K (and W's
    S J 3): the king falls under the ace, so the queen wins the second round.
    Quick tricks count both rounds (an opponent holding fewer than i cards of
    the suit is void in round i) and settle "N-S take 2" before any search;
    the value is the oracle's."""
    rules = Rules(4, trick_points=[1] * 13)
    hands = [mask(card(S, 14), card(S, 12), card(H, 2)),
             mask(card(S, 13), card(H, 14), card(H, 13)),
             mask(card(D, 2), card(D, 3), card(D, 4)),
             mask(card(S, 11), card(S, 3), card(H, 12))]
    v, _ = agrees_with_oracle(rules, hands, 0, 10, 0b0101)
    assert v == 2
    settled_before_search(rules, hands, 0, 10, 0b0101, 2, True)


def test_quick_tricks_count_where_the_cards_only_add_points():
    """Plus-erajlash: every trick and some cards score, nothing costs.  Seat 0,
    alone and on lead with S A K H3, surely takes two tricks by cashing the
    spades, whatever the point cards (D2 is worth 3) do: at least 2 points;
    and seat 1 alone then takes at most all the points but those two tricks'.
    Both are settled before any search (the cards only add to what the sure
    tricks bring one team and take from the other); the values are the
    oracle's."""
    cp = [0] * 64
    cp[card(D, 2)] = 3
    cp[card(H, 6)] = 1
    rules = Rules(4, card_points=cp, trick_points=[1] * 13)
    hands = hands_of("SA SK H3", "S2 S3 H4", "S4 D2 H5", "S5 S6 H6")
    v, _ = agrees_with_oracle(rules, hands, 0, 10, 0b0001)
    assert v >= 2
    settled_before_search(rules, hands, 0, 10, 0b0001, 2, True)
    v1, _ = agrees_with_oracle(rules, hands, 0, 10, 0b0010)
    assert v1 <= 3 + 4 - 2
    settled_before_search(rules, hands, 0, 10, 0b0010, 3 + 4 - 2 + 1, False)


@examples(150)
@given(rnd=rngs(), n=st.sampled_from([3, 4]), per_hand=st.integers(2, 4),
       played=st.integers(0, 2), side_kind=st.integers(0, 2))
def test_positive_point_games_match_oracle(rnd, n, per_hand, played, side_kind):
    """Contracts where tricks and cards only add points (the positive mirrors,
    plus-erajlash, trump games with card points): the trick bounds apply and
    the values must stay the oracle's, for any side, in mid-trick too."""
    cp = [0] * 64
    for c in range(64):
        if (c & 15) < 13 and rnd.random() < 0.3:
            cp[c] = rnd.randint(1, 5)
    rules = Rules(n, trump=rnd.choice([-1, -1, 0, 1]), inverted=rnd.random() < 0.2, card_points=cp,
                  trick_points=[rnd.choice([0, 1, 1, 2]) for _ in range(13)],
                  lead_restricted=SUIT[1] if rnd.random() < 0.2 else 0,
                  discard_forced=1 << card(H, 13) if rnd.random() < 0.2 else 0)
    hands, leader, trick = random_position(rnd, n, per_hand, played=min(played, n - 1))
    side = [1 << rnd.randrange(n), 0b0101 if n == 4 else 0b011, rnd.randrange(1, 1 << n)][side_kind]
    s = Search(10)
    s.configure(*rules.args())
    check_position(s, rules, hands, leader, trick, rnd.randint(0, 13 - per_hand - 1), side)


def test_lone_seat_that_need_not_win_this_trick_settled_before_search():
    """Every trick costs 1 (no-tricks).  A lone seat that can make sure it
    does not win the trick about to start escapes at least that trick's cost,
    and the test "takes at most all tricks but one" is settled before any
    search (neither seat could duck every trick: H A and H K over H 2, H 3 A
    over H 2 4).
    On lead: seat 0 leads S 2, and seat 1 must follow with S 5 or S 6.
    Not on lead: seat 0 leads a spade (seat 1 follows with S 2 under S 9)
    or a diamond (seat 1 is void and discards).  The values are the oracle's."""
    rules = Rules(4, trick_points=[-1] * 13)
    lone_seat_settled(rules, hands_of("S2 HA HK", "S5 S6 H2", "D2 D3 D4", "C2 C3 C4"),
                      hands_of("S9 D9 DT", "S2 H3 HA", "C2 C3 C4", "H2 H4 C5"), -2)


def lone_seat_settled(rules, on_lead, behind, target):
    """Seat 0 on lead; the lone seat is seat 0 in `on_lead` and seat 1 in
    `behind`: its value is the oracle's, at least `target`, and "reaches
    target" is settled before any search, 3 cards a hand."""
    for seat, hands in ((0, on_lead), (1, behind)):
        v, _ = agrees_with_oracle(rules, hands, 0, 10, 1 << seat)
        assert v >= target
        settled_before_search(rules, hands, 0, 10, 1 << seat, target, True)


def test_lone_seat_that_need_not_win_this_trick_escapes_its_own_penalty_card():
    """Queens cost 4, tricks nothing (no-girls).  A lone seat that can lose
    the trick about to start playing its queen to it, under a sure winner or as
    a discard, escapes that queen, and "takes at most all queens but one" is
    settled before any search (neither seat could duck every trick: H A over
    H 2 and H Q).
    On lead: seat 0 leads S Q (not S 3), which seat 1's S A S K beat.  Not on lead: seat
    0 leads a spade (seat 1 plays S Q under seat 2's S A S K) or a club (seat
    1, void, discards D Q).  The values are the oracle's."""
    points = [0] * 64
    for su in range(4):
        points[card(su, 12)] = -4
    rules = Rules(4, card_points=points, trick_points=[0] * 13)
    lone_seat_settled(rules, hands_of("S3 SQ HA", "SA SK D2", "HQ H2 D3", "DQ C2 C3"),
                      hands_of("S2 C2 C3", "SQ DQ HA", "SA SK H2", "C4 C5 HQ"), -8)


@pytest.mark.parametrize("trick_index, hands_behind, hands_on_lead", [
    # two tricks: S 2 3 8 against S 4 and S 6 7
    (10, ("S6 S7 H2", "S2 S3 S8", "D2 D3 D4", "S4 H3 H4"),
     ("S2 S3 S8", "S6 S7 H2", "D2 D3 D4", "S4 H3 H4")),
    # three tricks: S 2 3 4 9 against S 5 and S 6 7 8
    (9, ("S6 S7 S8 H2", "S2 S3 S4 S9", "D2 D3 D4 D5", "S5 H3 H4 H5"),
     ("S2 S3 S4 S9", "S6 S7 S8 H2", "D2 D3 D4 D5", "S5 H3 H4 H5")),
], ids=["two-tricks", "three-tricks"])
def test_lone_seat_that_need_not_win_the_next_tricks_settled_before_search(
        trick_index, hands_behind, hands_on_lead):
    """Every trick costs 1.  Seat x holds S 2 3 8 against S 4 (one seat) and
    S 6 7 (another): the ballot of a seat ducking every round fails (S 8 is
    above the third weakest of the others' spades), but x plays S 2 and then
    S 3 under S 6 7 (or discards) and wins neither of the next two tricks, so
    "takes at most one of the three" is settled before any search, on lead
    (x leads S 2) or behind the leader.  The same over three tricks: x holds
    S 2 3 4 9 against S 5 and S 6 7 8 (three cards all above x's third
    weakest), and "takes at most one of the four" is settled (S 9 is above
    S 8).  The values are the oracle's."""
    rules = Rules(4, trick_points=[-1] * 13)
    for side, hands in ((0b0010, hands_of(*hands_behind)), (0b0001, hands_of(*hands_on_lead))):
        v, _ = agrees_with_oracle(rules, hands, 0, trick_index, side)
        assert v >= -1
        settled_before_search(rules, hands, 0, trick_index, side, -1, True)


def test_trick_nodes_count_the_positions_at_a_trick_start():
    """trick_nodes (DDS's node count) is the number of tricks completed in the
    search: at most the nodes, and reset with the other statistics.  (Spades
    are trumps: without them the later-tricks bound settles this position
    before any search.)"""
    rules = Rules(4, trump=S, trick_points=[1] * 13)
    hands = [mask(card(S, 14), card(H, 5), card(D, 9)),
             mask(card(S, 13), card(H, 6), card(D, 10)),
             mask(card(S, 2), card(H, 14), card(D, 2)),
             mask(card(S, 3), card(H, 2), card(D, 14))]
    s = Search(12)
    s.configure(*rules.args())
    s.value(hands, 0, [], 10, 0b0101)
    assert 0 < s.trick_nodes <= s.nodes
    s.reset_stats()
    assert s.trick_nodes == 0 and s.nodes == 0


def test_a_representative_card_passes_its_rank_to_its_group():
    """The case the partition test found: seat 2 (last to play) holds D10 D13 over
    seat 1's D6.  D10 and D13 are one move; D13 is searched and wins by rank.  A
    table entry that kept only D13's owner would then also claim the position in
    which seat 2 holds D5 D10, where D5 can duck under D6."""
    cp = [0] * 64
    cp[card(S, 9)] = -2
    rules = Rules(3, trump=H, card_points=cp, trick_points=[1] * 13)
    side = 0b110
    s = Search(12)
    s.configure(*rules.args())
    first = [mask(card(D, 10), card(D, 13)), mask(card(H, 10), card(D, 6)), mask(card(S, 9), card(H, 13))]
    second = [mask(card(D, 5), card(D, 10)), mask(card(H, 10), card(D, 6)), mask(card(S, 9), card(H, 13))]
    for hands in (first, second):
        v, cv = oracle(rules, hands, 1, [], 6, side)
        assert s.value(hands, 1, [], 6, side) == v
        assert dict(s.card_values(hands, 1, [], 6, side)) == cv
    assert oracle(rules, first, 1, [], 6, side)[0] == 1
    assert oracle(rules, second, 1, [], 6, side)[0] == 0


def test_played_deal_step_by_step():
    """Follow a line card by card; each intermediate position keeps the value."""
    rnd = random.Random(11)
    for _ in range(10):
        n = 4
        rules = random_rules(rnd, n, 4)
        s = Search(12)
        s.configure(*rules.args())
        hands, leader, trick = random_position(rnd, n, 4, deck_ranks=range(7, 15))
        side = 0b0101
        v, _ = oracle(rules, hands, leader, trick, 0, side)
        line = s.line(hands, leader, trick, 0, side)
        hs, ld, tr, k, got = list(hands), leader, [], 0, 0
        for c in line:
            assert s.value(hs, ld, tr, k, side) + got == v
            seat = (ld + len(tr)) % n
            hs[seat] &= ~(1 << c)
            tr.append(c)
            if len(tr) == n:
                w = (ld + rules.winner(tr)) % n
                if (side >> w) & 1:
                    got += rules.trick_score(tr, k)
                ld, tr, k = w, [], k + 1
        assert got == v


# ----------------------------------------------------------- hand-checked --

S, H, D, C = 0, 1, 2, 3


def card(suit, rank):
    return suit * 16 + rank - 2


def mask(*cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# Second-hand quick tricks: 3-card endings where W (seat 3) has led C2 and N
# (seat 0) plays second.  Each case: trumps, the four hands N E S W (W's after
# its lead), the tricks N-S surely take from here (what the bound claims before
# any search), and a variant of the hands where the bound must not claim it.
_C2 = card(C, 2)


def hands_of(*texts):
    """Hands from text, one string a seat: \"CA SA SK\"."""
    return [mask(*(parse_card(t) for t in text.split())) for text in texts]


SECOND_HAND_CASES = [
    # N wins with CA (the top club) and cashes SA SK; in the variant E holds CA.
    pytest.param(-1, hands_of("CA SA SK", "C3 S2 H5", "D2 D3 D4", "S3 H6"), 3,
                 hands_of("C4 SA SK", "CA S2 H5", "D2 D3 D4", "S3 H6"), id="top-card-then-own-tricks"),
    # N wins with CA, crosses with D2 to S's DA and S cashes DK: only crossing
    # to the partner makes three (N's own cards win nothing more).
    pytest.param(-1, hands_of("CA D2 H2", "C3 S2 S3", "DA DK C4", "H3 S4"), 3, None, id="top-card-then-crossing"),
    # N follows low; S, last to play, wins with CA and cashes HA HK.
    pytest.param(-1, hands_of("C3 S2 S3", "C4 D2 D3", "CA HA HK", "H2 D4"), 3, None,
                 id="partner-behind-holds-the-top-card"),
    # The same with N void in clubs: whatever N discards, S's top cards stay.
    pytest.param(-1, hands_of("S2 S3 D5", "C3 D2 D3", "CA HA HK", "H2 D4"), 3, None, id="void-second-partner-behind"),
    # Hearts trumps: every seat still follows clubs, so nobody ruffs N's CA;
    # then SA only (E and W hold trumps and one spade each: SK would be
    # ruffed).  Variant: E void in clubs with a trump may ruff the ace.
    pytest.param(H, hands_of("CA SA SK", "C3 H2 S2", "C4 D2 D3", "S3 H3"), 2,
                 hands_of("CA SA SK", "D4 H2 S2", "C4 D2 D3", "S3 H3"), id="trumps-top-card-no-ruff"),
    # Hearts trumps: S wins with CA (everyone follows) and cashes the top
    # trumps.  Variant: E void in clubs with a trump.
    pytest.param(H, hands_of("C3 S2 S3", "C4 H2 D3", "CA HA HK", "H3 D4"), 3,
                 hands_of("C3 S2 S3", "D2 H2 D3", "CA HA HK", "H3 D4"), id="trumps-partner-behind"),
    # Hearts trumps: N, void in clubs, ruffs with H2; E and S follow, so nobody
    # overruffs; N cashes SA SK (the opponents hold no trump).  Variant: E void
    # in clubs with H3 may overruff.
    pytest.param(H, hands_of("H2 SA SK", "C3 D2 D3", "C4 D4 D5", "S2 D6"), 3,
                 hands_of("H2 SA SK", "H3 D2 D3", "C4 D4 D5", "S2 D6"), id="trumps-ruff-then-cash"),
]


@pytest.mark.parametrize("trump, hands, ns_tricks, unclaimed", SECOND_HAND_CASES)
def test_second_hand_quick_tricks(trump, hands, ns_tricks, unclaimed):
    """The values (and every card's value) agree with the oracle's for both
    partnerships, the oracle gives N-S the tricks the case states, and the
    second-hand bound settles "N-S take that many" before any search; in the
    variant it claims nothing there (the search decides) and the values still
    agree."""
    rules = Rules(4, trump=trump, trick_points=[1] * 13)
    for h in [hands] + ([unclaimed] if unclaimed else []):
        for side in (0b0101, 0b1010):
            agrees_with_oracle(rules, h, 3, 10, side, [_C2])
    assert oracle(rules, hands, 3, [_C2], 10, 0b0101)[0] == ns_tricks
    s = Search(12)
    s.configure(*rules.args())
    assert s.reaches(hands, 3, [_C2], 10, 0b0101, ns_tricks)
    assert s.nodes == 0
    if unclaimed:
        v = oracle(rules, unclaimed, 3, [_C2], 10, 0b0101)[0]
        s.clear()
        s.reset_stats()
        assert s.reaches(unclaimed, 3, [_C2], 10, 0b0101, v) and s.nodes > 0


def test_cards_below_what_the_result_rested_on_are_searched_once():
    """N has led the SA; E (void) holds H9 and H5 with W's H7 between them, so
    they are two move classes.  After H5 the result (N-S take both tricks)
    rests on no heart at all, so H9 would only trade places with H5: it is not
    searched (one trick completed instead of two).  The value is the oracle's."""
    rules = Rules(4, trick_points=[1] * 13)
    hands = [mask(card(S, 13)),
             mask(card(H, 9), card(H, 5)),
             mask(card(S, 3), card(S, 2)),
             mask(card(S, 12), card(H, 7))]
    v, _ = agrees_with_oracle(rules, hands, 0, 11, 0b0101, trick=[card(S, 14)])
    assert v == 2
    s = Search(12)
    s.configure(*rules.args())
    assert s.reaches(hands, 0, [card(S, 14)], 11, 0b0101, 2)
    assert s.trick_nodes == 1


def test_later_tricks_the_team_on_lead_cannot_take_every_trick():
    """No trumps, N on lead needing all three tricks: N-S top only spades, one
    round (N's SA), so they must lose a trick (E keeps HA and DA, W the clubs).
    The bound settles "N-S take 3" before any search; the value is the oracle's."""
    rules = Rules(4, trick_points=[1] * 13)
    hands = [mask(card(S, 14), card(H, 13), card(D, 2)),
             mask(card(H, 14), card(D, 14), card(S, 2)),
             mask(card(C, 2), card(C, 3), card(C, 4)),
             mask(card(C, 13), card(C, 12), card(S, 3))]
    v, _ = agrees_with_oracle(rules, hands, 0, 10, 0b0101)
    assert v < 3
    settled_before_search(rules, hands, 0, 10, 0b0101, 3, False)
    # the same for the other side: E-W, not on lead, take at least one trick
    settled_before_search(rules, hands, 0, 10, 0b1010, 1, True)


def test_later_tricks_not_for_a_team_of_three():
    """Three seats (N, E, W) against S, N on lead, all three tricks wanted:
    they top only clubs, two rounds, yet they take all three.  S holds SA, HA
    and DA; N leads CQ, E plays CT, S must part with an ace, and W, playing
    after S, wins with CA or lets CQ win so that the seat holding the king of
    the suit S gave up leads next.  (The exhaustive check behind the later-
    tricks bound finds this for teams of three only; the bound leaves them out.)"""
    rules = Rules(4, trick_points=[1] * 13)
    hands = [mask(card(H, 13), card(C, 12), card(C, 11)),
             mask(card(D, 13), card(C, 13), card(C, 10)),
             mask(card(S, 14), card(H, 14), card(D, 14)),
             mask(card(S, 13), card(C, 14), card(C, 9))]
    v, _ = agrees_with_oracle(rules, hands, 0, 10, 0b1011)
    assert v == 3


# Three-card endings (spades trumps, N on lead, N-S the side) that a bound
# settles before any search: (what the bound sees, hands N E S W, the
# oracle's value, the target tested, whether it is reached).
SETTLED_TRUMP_ENDINGS = [
    # Cashed at once, N's hearts would count one round (E ruffs the second);
    # after SA has drawn E's last trump they count two: N-S take all three.
    ("quick tricks draw trumps first",
     [[(S, 14), (H, 14), (H, 13)], [(S, 2), (H, 12), (D, 2)],
      [(D, 3), (D, 4), (D, 5)], [(C, 14), (C, 13), (C, 12)]], 3, 3, True),
    # E (next after N's SA) keeps SK while the ace is in play and wins a
    # trick with it (it ruffs a heart or diamond lead): N-S cannot take all.
    ("second trump behind the top trump wins a trick",
     [[(S, 14), (H, 14), (D, 14)], [(S, 13), (S, 2), (C, 2)],
      [(S, 3), (H, 2), (D, 2)], [(C, 14), (C, 13), (C, 12)]], 2, 3, False),
    # N leads D6: E follows, S (void in diamonds) ruffs with S2, and W, void
    # too, holds no trump to overruff: N-S surely win a trick.
    ("partner ruffs a side-suit lead",
     [[(D, 6), (H, 6), (S, 7)], [(C, 4), (D, 8), (S, 14)],
      [(C, 11), (H, 4), (S, 2)], [(C, 5), (C, 14), (H, 5)]], 2, 1, True),
    # W holds SK SQ under N's SA: it plays them to different tricks, so the
    # ace takes at most one, and the other (or the first, if the ace is not
    # in its trick) wins: N-S cannot take all three.
    ("second and third trumps in one hand under the top trump",
     [[(S, 14), (H, 14), (D, 14)], [(H, 2), (D, 2), (C, 3)],
      [(S, 2), (H, 3), (D, 3)], [(S, 13), (S, 12), (C, 2)]], 2, 3, False),
    # The same split over two hands: W holds SK S2, E holds SQ.  The first
    # time E-W must play a trump they play one of the two honours (and S2
    # with it if W has to follow too): the ace takes it at most, and the
    # other honour is then the top trump.  N-S cannot take all three.
    ("second and third trumps in two hands holding three trumps",
     [[(S, 14), (H, 14), (D, 14)], [(S, 12), (H, 2), (D, 2)],
      [(H, 3), (D, 3), (C, 3)], [(S, 13), (S, 2), (C, 2)]], 2, 3, False),
    # N-S hold every trump: N's two make two tricks, and S, void in hearts,
    # ruffs N's H2 in a third trick that holds no trump of N's.
    ("a ruff beside the longest trump holding",
     [[(S, 14), (S, 13), (H, 2)], [(H, 14), (H, 13), (H, 12)],
      [(S, 3), (D, 2), (D, 3)], [(C, 14), (C, 13), (C, 12)]], 3, 3, True),
    # N holds SK SQ S5 under E's SA (E's other trump, S3, is below them all):
    # the ace beats one of N's trumps at most, and the other two win their
    # tricks (a trump trick goes to its strongest trump).  N-S take two.
    ("trumps that only one outside trump beats",
     [[(S, 13), (S, 12), (S, 5)], [(S, 14), (S, 3), (H, 2)],
      [(H, 3), (D, 2), (D, 3)], [(C, 14), (C, 13), (C, 12)]], 2, 2, True),
]


# Three-card endings of a penalty game with trumps (spades; every trick costs
# one; N alone against the others, on lead) that the trump count settles
# before any search: (what, hands N E S W, the oracle's value, target, reached).
SETTLED_PENALTY_TRUMP_ENDINGS = [
    # N's SA SK beat every other trump, and E's SQ S3 can beat N's S2 only:
    # N takes two tricks at least.
    ("the lone seat's top trumps take tricks it does not want",
     [[(S, 14), (S, 13), (S, 2)], [(S, 12), (S, 3), (H, 2)],
      [(H, 3), (D, 2), (D, 3)], [(C, 14), (C, 13), (C, 12)]], -2, -1, False),
    # E's SA SK SQ are above N's S2: E takes all three tricks, N none.
    ("the others' trumps take every trick",
     [[(S, 2), (H, 3), (H, 4)], [(S, 14), (S, 13), (S, 12)],
      [(H, 5), (D, 2), (D, 3)], [(C, 14), (C, 13), (C, 12)]], 0, 0, True),
]


@pytest.mark.parametrize(
    "points, side, what, holdings, value, target, reached",
    [(1, 0b0101, *case) for case in SETTLED_TRUMP_ENDINGS]
    + [(-1, 0b0001, *case) for case in SETTLED_PENALTY_TRUMP_ENDINGS],
    ids=[case[0] for case in SETTLED_TRUMP_ENDINGS + SETTLED_PENALTY_TRUMP_ENDINGS])
def test_trump_endings_settled_before_any_search(points, side, what, holdings, value, target,
                                                 reached):
    """Spades trumps, N on lead, every trick worth `points`: the value is the
    oracle's, and a bound settles the test against `target` before any search."""
    rules = Rules(4, trump=S, trick_points=[points] * 13)
    hands = [mask(*(card(su, r) for su, r in hand)) for hand in holdings]
    v, _ = agrees_with_oracle(rules, hands, 0, 10, side)
    assert v == value
    settled_before_search(rules, hands, 0, 10, side, target, reached)


CROSSING_ENDINGS = [
    # N: SK S4, S: SA S8 S7 S6; E and W two spades each.  N cashes SK, then
    # leads S4 to the ace, and S's S8 S7 are good: N-S take all four.
    ("short hand on lead",
     [[(S, 13), (S, 4), (D, 2), (D, 3)], [(S, 12), (S, 11), (H, 14), (H, 13)],
      [(S, 14), (S, 8), (S, 7), (S, 6)], [(S, 10), (S, 9), (H, 12), (H, 11)]]),
    # The same with N and S swapped: N leads S6 to the king, S returns S4 to
    # the ace, and N's S8 S7 are good.
    ("long hand on lead",
     [[(S, 14), (S, 8), (S, 7), (S, 6)], [(S, 12), (S, 11), (H, 14), (H, 13)],
      [(S, 13), (S, 4), (D, 2), (D, 3)], [(S, 10), (S, 9), (H, 12), (H, 11)]]),
]


@pytest.mark.parametrize("what, holdings", CROSSING_ENDINGS,
                         ids=[case[0] for case in CROSSING_ENDINGS])
def test_top_cards_split_between_partners_settled_before_any_search(what, holdings):
    """The two top spades split between N and S, the short hand holding two
    cards, the opponents at most two: crossing twice, N-S take max(lengths)
    tricks in a row (quick tricks, DDS's "second best at partner")."""
    rules = Rules(4, trick_points=[1] * 13)
    hands = [mask(*(card(su, r) for su, r in hand)) for hand in holdings]
    v, _ = agrees_with_oracle(rules, hands, 0, 9, 0b0101)
    assert v == 4
    settled_before_search(rules, hands, 0, 9, 0b0101, 4, True)


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_holding_only_top_cards_takes_every_trick(n, seat):
    """No tricks with the hearts costing too (an erajlash-like contract): the
    seat holding SA SK HA, the strongest cards of their suits, wins all three
    tricks: on lead (seat 0), whatever it leads; or (seat 1) when the leader
    holds only spades and hearts, which it must follow and win, and then it
    leads.  It takes every heart, and the value is known before any search (the
    quick tricks do not apply: cards score)."""
    cp = [0] * 64
    for r in range(2, 15):
        cp[card(H, r)] = -1
    rules = Rules(n, card_points=cp, trick_points=[-2] * 13)
    tops = [(S, 14), (S, 13), (H, 14)]
    leader = [(S, 2), (H, 3), (H, 4)]
    rest = [[(H, 2), (D, 3), (C, 2)], [(S, 3), (C, 3), (C, 4)]]
    holdings = ([tops, leader] if seat == 0 else [leader, tops]) + rest
    holdings = holdings[:n]
    hands = [mask(*(card(su, r) for su, r in hand)) for hand in holdings]
    v, _ = agrees_with_oracle(rules, hands, 0, 10, 1 << seat)
    assert v == -6 - sum(1 for h in holdings for su, _ in h if su == H)
    settled_before_search(rules, hands, 0, 10, 1 << seat, v + 1, False)
    settled_before_search(rules, hands, 0, 10, 1 << seat, v, True)


@pytest.mark.parametrize("lone_seat_is_side", [True, False])
def test_the_leader_makes_a_seat_holding_only_top_cards_take_every_trick(lone_seat_is_side):
    """No tricks, every trick costs 2: seat 1 holds SA SK HA and no diamond,
    seat 0 leads holding S2 D2 D3.  Leading S2 makes seat 1 win it and then
    every trick (its cards beat all the others'), the best the other seats can
    do against it: seat 1 takes -6, the others (as one side) 0, known before
    any search.  A diamond lead would let seat 1 discard, so this rests on the
    leader's choice, which the sign of the points left makes the best one."""
    rules = Rules(4, trick_points=[-2] * 13)
    holdings = [[(S, 2), (D, 2), (D, 3)], [(S, 14), (S, 13), (H, 14)],
                [(H, 2), (D, 4), (C, 2)], [(S, 3), (C, 3), (C, 4)]]
    hands = [mask(*(card(su, r) for su, r in hand)) for hand in holdings]
    side = 0b0010 if lone_seat_is_side else 0b1101
    v, _ = agrees_with_oracle(rules, hands, 0, 10, side)
    assert v == (-6 if lone_seat_is_side else 0)
    settled_before_search(rules, hands, 0, 10, side, v + 1, False)
    settled_before_search(rules, hands, 0, 10, side, v, True)


def test_second_trump_behind_the_top_trump_but_on_lead():
    """The same seats, but the holder of the second trump (N: SK S2, nothing
    else) is on lead, with the top trump (W: SA S3) playing last: whatever N
    leads, W's ace ends up over the king, and N-S take nothing.  The bound must
    not claim a trick for them (it did before the holder on lead was ruled out)."""
    rules = Rules(4, trump=S, trick_points=[1] * 13)
    hands = [mask(card(S, 13), card(S, 2)),
             mask(card(H, 14), card(H, 13)),
             mask(card(H, 2), card(H, 3)),
             mask(card(S, 14), card(S, 3))]
    v, _ = agrees_with_oracle(rules, hands, 0, 11, 0b0101)
    assert v == 0


@examples(150)
@given(rnd=rngs(), n=st.sampled_from([3, 4]), k=st.integers(2, 4),
       must_trump=st.booleans())
def test_endings_with_the_second_and_third_trumps_split_under_the_top_one(rnd, n, k, must_trump):
    """The endings the two-hand case of the third-best-trump bound rests on:
    the top trump with one team, the second and third with two seats of the
    other holding three trumps or more between them, any team, any leader,
    trumps discard-forced or not.  That team always wins a trick (the oracle),
    and the core's values are the oracle's."""
    team = rnd.randrange(1, (1 << n) - 1)
    xs = [o for o in range(n) if (team >> o) & 1]
    if len(xs) < 2:
        team = ((1 << n) - 1) & ~team
        xs = [o for o in range(n) if (team >> o) & 1]
    a, b = rnd.sample(xs, 2)
    c = rnd.choice([o for o in range(n) if not (team >> o) & 1])
    held = [[] for _ in range(n)]
    held[c].append(card(S, 14))
    held[a].append(card(S, 13))
    held[b].append(card(S, 12))
    held[rnd.choice([a, b])].append(card(S, rnd.randrange(2, 12)))
    rest = [card(su, r) for su in range(4) for r in range(2, 15)
            if not (su == S and r >= 12) and card(su, r) not in held[a] + held[b]]
    rnd.shuffle(rest)
    for o in range(n):
        while len(held[o]) < k:
            held[o].append(rest.pop())
    rules = Rules(n, trump=S, trick_points=[1] * 13, discard_forced=SUIT[S] if must_trump else 0)
    hands = [mask(*h) for h in held]
    leader = rnd.randrange(n)
    v, _ = agrees_with_oracle(rules, hands, leader, 13 - k, team)
    assert v >= 1


@examples(40)
@given(rnd=rngs(), n=st.sampled_from([3, 4]))
def test_partition_entries_in_trump_games_with_long_trumps(rnd, n):
    """A seat's trumps win every trick but those a stronger trump of the other
    team joins, in trick games and penalty games alike; the table keeps that
    count for every position in which the trumps from some card up have the
    same owners.  Positions with long trump
    holdings in both teams, one shape, ranks and owners drawn afresh, are
    solved on one warm table: each value and card value must be the oracle's.
    (It fails when the count's marked card is set too high: the first trump
    from the top at which the count above it is enough, ignoring the losses
    below.)"""
    per_hand = rnd.choice([3, 4]) if n == 4 else 4
    lens = [[0] * 4 for _ in range(n)]
    for o in range(n):
        lens[o][S] = rnd.randint(0, 3) if o > 1 else rnd.randint(2, 3)
        for _ in range(per_hand - lens[o][S]):
            lens[o][rnd.choice([su for su in (H, D, C) if sum(row[su] for row in lens) < 13])] += 1
    side = rnd.choice([0b0101, 0b0011, 0b0001, 0b0110]) & ((1 << n) - 1)
    # a trick game, a penalty game (minus: every trick costs), or a mix
    points = rnd.choice([[1] * 13, [-1] * 13, [rnd.choice([-3, -1, 0, 1, 2]) for _ in range(13)]])
    rules = Rules(n, trump=S, trick_points=points)
    s = Search(12)
    s.configure(*rules.args())
    leader = rnd.randrange(n)
    for hands in same_lengths_positions(rnd, n, lens, 8, list(range(2, 15))):
        v, cv = oracle(rules, hands, leader, [], 13 - per_hand, side)
        assert s.value(hands, leader, [], 13 - per_hand, side) == v
        assert dict(s.card_values(hands, leader, [], 13 - per_hand, side)) == cv


@examples(150)
@given(rnd=rngs(), n=st.sampled_from([3, 4]), t=st.integers(2, 4))
def test_endings_where_a_defender_holds_only_top_cards(rnd, n, t):
    """The endings the later-tricks bound is most delicate on (a seat of the
    other team holding nothing but top cards, the team on lead needing every
    trick, squeezes possible), any team: the core's values are the oracle's."""
    team = rnd.randrange(1, (1 << n) - 1) | 1
    if team == (1 << n) - 1:
        team = 1
    x = rnd.choice([o for o in range(n) if not (team >> o) & 1])
    k = min(t, 3)
    tops = rnd.sample(range(4), k)
    hands = [0] * n
    for su in tops:
        hands[x] |= 1 << card(su, 14)
    rest = [card(su, r) for su in range(4) for r in range(2, 14 if su in tops else 15)]
    rnd.shuffle(rest)
    spare = [c for c in rest if c >> 4 not in tops][:t - k]
    for c in spare:
        hands[x] |= 1 << c
        rest.remove(c)
    for o in range(n):
        if o != x:
            for c in rest[:t]:
                hands[o] |= 1 << c
            rest = rest[t:]
    rules = Rules(n, trick_points=[1] * 13)
    agrees_with_oracle(rules, hands, 0, 13 - t, team)
    agrees_with_oracle(rules, hands, 0, 13 - t, ((1 << n) - 1) & ~team)


def test_bridge_ending_finesse():
    # N: AQ of spades, S: 2 3 of spades; E holds K: a finesse onside.  NS to take tricks.
    n = 4
    hands = [mask(card(S, 14), card(S, 12)), mask(card(S, 13), card(S, 4)),
             mask(card(S, 2), card(S, 3)), mask(card(S, 5), card(S, 6))]
    s = Search(10)
    s.configure(n, -1, False, [0] * 64, [1] * 13, 0, 0)
    # South (seat 2) leads toward AQ, West (seat 3) plays ... K is with East (seat 1) behind AQ:
    assert s.value(hands, 2, [], 11, 0b0101) == 1
    # K with West (seat 3), in front of AQ: both tricks.
    hands2 = [hands[0], hands[3], hands[2], hands[1]]
    assert s.value(hands2, 2, [], 11, 0b0101) == 2


def test_no_hearts_forced_heart():
    # 3 seats, 1 card each, hearts cost -2, seat 0 leads a spade and seat 1 must
    # follow with its spade; seat 2 discards a heart onto the trick won by ...
    hands = [mask(card(S, 10)), mask(card(S, 12)), mask(card(H, 7))]
    cp = [0] * 64
    for r in range(2, 15):
        cp[card(H, r)] = -2
    s = Search(8)
    s.configure(3, -1, False, cp, [0] * 10, SUIT[H], 0)
    assert s.value(hands, 0, [], 9, 0b010) == -2  # seat 1 wins the Q and the heart
    assert s.value(hands, 0, [], 9, 0b001) == 0
    assert s.value(hands, 0, [], 9, 0b101) == 0


def test_no_king_forced_discard():
    # The K of hearts must be discarded by a void follower (discard_forced).
    kh = card(H, 13)
    cp = [0] * 64
    cp[kh] = -16
    hands = [mask(card(S, 7), card(S, 8)), mask(card(S, 14), card(D, 9)), mask(kh, card(C, 7))]
    s = Search(8)
    s.configure(3, -1, False, cp, [0] * 10, mask(kh), mask(kh))
    cv = dict(s.card_values(hands, 0, [], 8, 0b010))
    # Any spade lead: seat 1 wins with the ace (or ducks with... it holds only the ace in spades)
    # and seat 2, void in spades, must throw the K of hearts.
    assert cv == {card(S, 7): -16, card(S, 8): -16}


def test_misere_inverted_ranks():
    # Inverted: the 7 beats the ace.  2 seats cannot play: use 3 seats, one trick.
    hands = [mask(card(S, 14)), mask(card(S, 7)), mask(card(S, 10))]
    s = Search(8)
    s.configure(3, -1, True, [0] * 64, [1] * 8, 0, 0)
    assert s.value(hands, 0, [], 7, 0b010) == 1
    s.configure(3, -1, False, [0] * 64, [1] * 8, 0, 0)
    assert s.value(hands, 0, [], 7, 0b001) == 1


def test_trump_beats_led_suit():
    hands = [mask(card(S, 14)), mask(card(H, 2)), mask(card(S, 13)), mask(card(D, 14))]
    s = Search(8)
    s.configure(4, H, False, [0] * 64, [1] * 13, 0, 0)
    assert s.value(hands, 0, [], 12, 0b0010) == 1
    assert s.card_values(hands, 0, [], 12, 0b0101) == [(card(S, 14), 0)]


def test_mid_trick_and_empty_positions():
    s = Search(8)
    s.configure(4, -1, False, [0] * 64, [1] * 13, 0, 0)
    assert s.value([0, 0, 0, 0], 0, [], 13, 1) == 0
    assert s.line([0, 0, 0, 0], 0, [], 13, 1) == []
    hands = [0, mask(card(S, 3)), mask(card(S, 14)), mask(card(S, 2))]
    assert s.value(hands, 0, [card(S, 13)], 12, 0b0101) == 1
    assert s.line(hands, 0, [card(S, 13)], 12, 0b0101) == [card(S, 3), card(S, 14), card(S, 2)]


@pytest.mark.parametrize("call", [
    lambda s: s.value([1, 2, 4], 0, [], 0, 1),                       # 3 hands for 4 seats
    lambda s: s.value([1, 1, 2, 4], 0, [], 0, 1),                    # overlapping hands
    lambda s: s.value([1, 2, 4, 8], 4, [], 0, 1),                    # bad leader
    lambda s: s.value([1, 2, 4, 8], 0, [], 0, 0),                    # empty side
    lambda s: s.value([1, 2, 4, 8], 0, [], 0, 16),                   # side outside the seats
    lambda s: s.value([1, 2, 4, 8], 0, [], 13, 1),                   # trick index too big
    lambda s: s.value([1 << 13, 2, 4, 8], 0, [], 0, 1),              # not a card (rank 15)
    lambda s: s.value([1 << 64, 2, 4, 8], 0, [], 0, 1),              # beyond 64 bits
    lambda s: s.value([-1, 2, 4, 8], 0, [], 0, 1),                   # negative mask
    lambda s: s.value([3, 4, 8, 16], 0, [], 0, 1),                   # sizes differ
    lambda s: s.value([1, 4, 8, 16], 0, [0], 0, 1),                  # trick card in a hand
    lambda s: s.value([0, 4, 8, 16], 0, [64], 0, 1),                 # trick card out of range
    lambda s: s.value([0, 0, 0, 0], 0, [1, 2, 3, 5], 0, 1),          # trick too long
    lambda s: s.value([0, 0, 8, 0], 0, [1, 2], 0, 1),                # sizes vs trick
    lambda s: s.value([0, 4, 8, 16], 0, [0, 0], 0, 1),               # sizes vs trick
    lambda s: s.value([0, 0, 0, 0], 0, [1], 0, 1),                   # nobody can follow
    lambda s: s.value([0, 4, 8, 16], 0, [0], 13, 1),                 # trick index
    lambda s: s.value("abc", 0, [], 0, 1),                           # not masks
])
def test_bad_queries_raise_valueerror(call):
    s = Search(8)
    s.configure(4, -1, False, [0] * 64, [1] * 13, 0, 0)
    with pytest.raises(ValueError) as info:
        call(s)
    assert "\n" not in str(info.value)


def test_valid_mid_trick_queries():
    s = Search(8)
    s.configure(4, -1, False, [0] * 64, [1] * 13, 0, 0)
    assert s.value([0, 4, 8, 16], 0, [0], 12, 0b0101) == 0   # seat 3 wins with the 6
    assert s.value([0, 4, 8, 16], 0, [0], 12, 0b1000) == 1
    assert s.value([0, 0, 8, 16], 0, [1, 2], 12, 0b1010) == 1  # seat 3 wins with the 6

@pytest.mark.parametrize("bad", [
    lambda s: s.configure(2, -1, False, [0] * 64, [1] * 13, 0, 0),
    lambda s: s.configure(5, -1, False, [0] * 64, [1] * 13, 0, 0),
    lambda s: s.configure(4, 4, False, [0] * 64, [1] * 13, 0, 0),
    lambda s: s.configure(4, -2, False, [0] * 64, [1] * 13, 0, 0),
    lambda s: s.configure(4, -1, False, [0] * 63, [1] * 13, 0, 0),
    lambda s: s.configure(4, -1, False, [0] * 64, [1] * 14, 0, 0),
    lambda s: s.configure(4, -1, False, [0] * 64, [], 0, 0),
    lambda s: s.configure(4, -1, False, [0] * 64, [1] * 13, -1, 0),
    lambda s: s.configure(4, -1, False, [0] * 64, [1] * 13, 0, 1 << 64),
    lambda s: s.configure(4, -1, False, ["x"] * 64, [1] * 13, 0, 0),
    lambda s: s.configure(4, -1, False, [1 << 40] * 64, [1] * 13, 0, 0),
])
def test_bad_configure_raises_valueerror(bad):
    s = Search(8)
    with pytest.raises(ValueError) as info:
        bad(s)
    assert "\n" not in str(info.value)


def test_query_before_configure_raises():
    with pytest.raises(ValueError):
        Search(8).value([1, 2, 4, 8], 0, [], 0, 1)


def test_stats_counters():
    s = Search(10)
    s.configure(4, -1, False, [0] * 64, [1] * 13, 0, 0)
    rnd = random.Random(3)
    hands, leader, trick = random_position(rnd, 4, 5)
    s.reset_stats()
    s.value(hands, leader, trick, 0, 0b0101)
    assert s.nodes > 0 and s.tt_probes >= s.tt_hits >= 0
    s.reset_stats()
    assert (s.nodes, s.tt_hits, s.tt_probes) == (0, 0, 0)


def test_many_clears_wrap_the_table_generation():
    """clear() is O(1) through a generation counter; wrapping it must not revive old entries."""
    rnd = random.Random(5)
    s = Search(6)
    rules = random_rules(rnd, 4, 3)
    s.configure(*rules.args())
    positions = [random_position(rnd, 4, 3) for _ in range(4)]
    expected = [oracle(rules, h, l, t, 0, 0b0011)[0] for h, l, t in positions]
    for i in range(600):
        h, l, t = positions[i % 4]
        assert s.value(h, l, t, 0, 0b0011) == expected[i % 4]
        s.clear()


def test_threads_with_one_search_each():
    """Independent Search objects solve in parallel threads (the GIL is released)
    and agree with serial results."""
    import threading

    rnd = random.Random(9)
    jobs = []
    for _ in range(8):
        hands, leader, trick = random_position(rnd, 4, 7, deck_ranks=range(7, 15))
        jobs.append((hands, leader, rnd.choice([-1, 0, 1, 2, 3])))

    def solve(job):
        hands, leader, trump = job
        s = Search(14)
        s.configure(4, trump, False, [0] * 64, [1] * 7, 0, 0)
        return s.value(hands, leader, [], 0, 0b0101)

    serial = [solve(j) for j in jobs]
    results = [None] * len(jobs)

    def worker(i):
        results[i] = solve(jobs[i])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(jobs))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == serial


def test_the_product_build_leaves_the_order_oracle_out_and_says_so():
    # issue 32: the benchmark's memo is not consulted in the product's search
    from kingsolve import _core
    if _core.ORDER_ORACLE:
        pytest.skip("built with KINGSOLVE_ORDER_ORACLE=1")
    with pytest.raises(RuntimeError, match="KINGSOLVE_ORDER_ORACLE=1"):
        Search(16).order_oracle(16)
    Search(16).order_oracle(0)                # no memo asked for: nothing to refuse


def test_order_oracle_replays_the_refutations_and_never_changes_a_value():
    # Search.order_oracle (benchmarks/bench_ordering.py): a query answered
    # again on an emptied table, its cut-off cards tried first, gives the
    # same value in far fewer nodes (ua3 no-boys, every seat of ten-card
    # hands: 10,619 -> 1,910 -> 1,897 nodes for seat 1, 540 -> 233 for
    # seat 2, 1,398 -> 174 for seat 3)
    from kingsolve.layout import Layout
    from kingsolve.solver import Deal, Solver
    from kingsolve.variants import get_variant
    from kingsolve import _core
    if not _core.ORDER_ORACLE:
        pytest.skip("order_oracle is compiled in only with KINGSOLVE_ORDER_ORACLE=1")
    variant = get_variant("ua3")
    layout = Layout.from_str("1:Q7.K987.K7.KQ K.A.AJ8.JT987 JT98.QJT.QT9.")
    deal = Deal.from_layout(variant.contract("no-boys"), layout, 0)
    plain = Solver(16)
    with_memo = Solver(16)
    with_memo._search.order_oracle(16)
    for seat in range(3):
        want = plain.value(deal, 1 << seat)
        rounds = []
        for _ in range(3):
            with_memo._search.clear()
            n0 = with_memo._search.nodes
            assert with_memo.value(deal, 1 << seat) == want
            rounds.append(with_memo._search.nodes - n0)
        assert rounds[2] <= rounds[1] < rounds[0] / 2, rounds
        if seat == 0:
            first_seat_plain = rounds[0]
    with_memo._search.order_oracle(0)        # dropped: the plain order again
    with_memo._search.clear()
    n0 = with_memo._search.nodes
    assert with_memo.value(deal, 1) == plain.value(deal, 1)
    assert with_memo._search.nodes - n0 == first_seat_plain
    with pytest.raises(ValueError, match="out of range"):
        with_memo._search.order_oracle(40)
