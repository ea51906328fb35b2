"""kingsolve.knowledge: what a seat knows, exact counts, exact marginals and
uniform sampling — checked against brute-force enumeration of every dealing
on cases small enough to list, and against the engine's replay."""
import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy.stats import chisquare

from kingsolve.cards import bit, cards_of, count, parse_card
from kingsolve.engine import Position, legal_mask, play, replay
from kingsolve.errors import IllegalPlayError, InvalidLayoutError
from kingsolve.knowledge import TALON, Knowledge, from_constraints, observe, uniform_below
from kingsolve.layout import parse_hand
from kingsolve.variants import get_variant

from strategies import VARIANT_CONFIGS, all_contracts, examples, random_hands


def c(text):
    return parse_card(text)


def mask(text):
    return sum(bit(c(t)) for t in text.split())


def brute_force(k: Knowledge):
    """Every assignment of the unknown cards to the holders, kept when each
    holder gets its count and only cards it may have."""
    cards = list(cards_of(k.unknown))
    out = []
    for owners in itertools.product(range(k.holders), repeat=len(cards)):
        hands = list(k.known)
        ok = True
        for x, h in zip(cards, owners):
            if not k.allowed[h] >> x & 1:
                ok = False
                break
            hands[h] |= bit(x)
        if ok and all(count(hands[h]) - count(k.known[h]) == k.need[h] for h in range(k.holders)):
            out.append(tuple(hands))
    return out


@st.composite
def small_knowledge(draw):
    holders = draw(st.integers(2, 4))
    n_cards = draw(st.integers(0, 7))
    unknown = sum(bit(x) for x in range(n_cards))
    cuts = sorted(draw(st.lists(st.integers(0, n_cards), min_size=holders - 1, max_size=holders - 1)))
    need = tuple(b - a for a, b in zip([0] + cuts, cuts + [n_cards]))
    forbidden = tuple(draw(st.integers(0, (1 << n_cards) - 1)) if n_cards else 0 for _ in range(holders))
    known = tuple(bit(40 + h) if draw(st.booleans()) else 0 for h in range(holders))
    return from_constraints(holders, unknown, need, forbidden, known=known)


@examples(200)
@given(small_knowledge())
def test_count_deals_and_marginals_equal_brute_force(k):
    every = brute_force(k)
    assert k.count == len(every)
    listed = list(k.deals())
    assert len(listed) == len(set(listed)) == len(every) and set(listed) == set(every)
    for h in range(k.holders):
        for x in cards_of(k.unknown | k.known[h]):
            want = Fraction(sum(1 for d in every if d[h] >> x & 1), len(every)) if every else Fraction(0)
            assert k.chance(h, x) == want
    if every:
        assert k.certain() == tuple(
            (k.known[h] | k.unknown) & ~0 & min_and(d[h] for d in every) for h in range(k.holders))
        assert k.possible() == tuple(_or(d[h] for d in every) for h in range(k.holders))


def min_and(masks):
    out = -1
    for m in masks:
        out &= m
    return out


def _or(masks):
    out = 0
    for m in masks:
        out |= m
    return out


@examples(60)
@given(small_knowledge(), st.integers(0, 2 ** 32 - 1))
def test_every_sample_is_consistent(k, seed):
    if not k.count:
        with pytest.raises(ValueError):
            k.sample(seed, 0)
        return
    every = set(brute_force(k))
    for i in range(20):
        assert k.sample(seed, i) in every


@pytest.mark.parametrize("need,forbidden", [
    ((2, 2, 3), (0b0000011, 0b1100000, 0)),        # three holders, two cards barred from each of two
    ((1, 3, 2, 0), (0b000001, 0b000110, 0b110000, 0)),
    ((3, 3), (0b000111, 0)),                       # one way only
])
def test_samples_are_uniform_and_reach_every_deal(need, forbidden):
    n_cards = sum(need)
    k = from_constraints(len(need), (1 << n_cards) - 1, need, forbidden)
    every = brute_force(k)
    assert k.count == len(every) >= 1
    draws = 60 * len(every)
    seen = Counter(k.sample(123, i) for i in range(draws))
    assert set(seen) == set(every)           # every consistent deal reached, no other
    if len(every) > 1:
        p = chisquare([seen[d] for d in every]).pvalue
        assert p > 1e-4, p


def test_counts_beyond_64_bits_are_exact_and_drawn_from():
    # king52, one seat's 13 cards known: 39!/(13!)^3 deals of the rest, about 8.4e16 — and with
    # a hidden 4-holder split of 52 unknown cards, far beyond 2^64
    k = from_constraints(4, (1 << 52) - 1, (13, 13, 13, 13), (0, 0, 0, 0))
    from math import factorial
    assert k.count == factorial(52) // factorial(13) ** 4 > 2 ** 64
    d = k.sample(1, 0)
    assert sum(count(h) for h in d) == 52 and _or(d) == (1 << 52) - 1
    rng = np.random.default_rng(0)
    big = 3 * 2 ** 70 + 1
    assert all(0 <= uniform_below(rng, big) < big for _ in range(50))


def test_samples_do_not_depend_on_who_draws_them():
    k = from_constraints(3, (1 << 12) - 1, (4, 4, 4), (0b1111, 0, 0))
    a = k.samples(9, 0, 30)
    b = np.concatenate([k.samples(9, 0, 10), k.samples(9, 10, 30)])
    assert np.array_equal(a, b)
    assert not np.array_equal(a, k.samples(10, 0, 30))
    assert not np.array_equal(a, k.samples(9, 0, 30, stream=(1,)))


# ----------------------------------------------------------------- what plays reveal

RU4 = get_variant("ru4")


def test_a_seat_that_shows_out_is_void():
    con = RU4.contract("no-tricks")
    hand = parse_hand("♠AKQJ ♥AKQJ")
    # seat 1 (0) leads ♠A; seat 2 discards ♦7: void in spades
    ob = observe(RU4, con.deal_rules(), seat=0, hand=hand, plays=[c("SA"), c("D7")])
    k = ob.knowledge
    assert k.allowed[1] & mask("ST S9 S8 S7") == 0
    assert k.certain()[1] == 0 and k.chance(2, c("ST")) == Fraction(1, 2)
    assert ob.to_move == 2 and ob.trick == (c("SA"), c("D7"))
    assert k.need == (0, 7, 8, 8) and count(k.unknown) == 23


def test_forced_king_not_discarded_means_no_king():
    con = RU4.contract("no-king")
    hand = parse_hand("♠AKQJ ♦AKQJ")
    ob = observe(RU4, con.deal_rules(), seat=0, hand=hand, plays=[c("SA"), c("C7")])
    assert not ob.knowledge.allowed[1] >> c("HK") & 1
    assert "did not play the ♥K" in ob.knowledge.why_not(1, c("HK"))


def test_a_heart_led_under_the_ban_means_only_hearts():
    con = RU4.contract("no-hearts")
    hand = parse_hand("♠AKQJ ♦AKQJ")
    # seat 1 wins trick 1 (♠A); suppose seat 2 had led instead: seat 2 leads ♥7 at trick 1
    ob = observe(RU4, con.deal_rules(), seat=0, hand=hand, leader=1, plays=[c("H7")])
    k = ob.knowledge
    # seat 2 held eight hearts, all of them: its seven left are certain, and seats 3 and 4
    # share the other sixteen unseen cards in C(16, 8) ways
    assert k.certain()[1] == mask("H8 H9 HT HJ HQ HK HA") and k.count == 12870


def test_plays_the_seat_cannot_have_made_are_one_line_errors():
    con = RU4.contract("no-tricks")
    hand = parse_hand("♠AKQJ ♥AKQJ")
    rules = con.deal_rules()
    with pytest.raises(IllegalPlayError, match=r"trick 1, seat 2: ♠K cannot be seat 2's: it is seat 1's"):
        observe(RU4, rules, seat=0, hand=hand, plays=[c("SA"), c("SK")])
    with pytest.raises(IllegalPlayError, match=r"trick 2, seat 2: ♠8 cannot be seat 2's: showed out of ♠ at trick 1"):
        observe(RU4, rules, seat=0, hand=hand, plays=[c("SA"), c("D7"), c("D8"), c("D9"), c("SQ"), c("S8")])
    with pytest.raises(IllegalPlayError, match=r"revoke"):          # the seat's own plays: the engine's rules
        observe(RU4, rules, seat=0, hand=hand, leader=3, plays=[c("S7"), c("HA")])
    with pytest.raises(InvalidLayoutError, match=r"has 7 cards; ru4 deals 8"):
        observe(RU4, rules, seat=0, hand=parse_hand("♠AKQJ ♥AKQ"))
    with pytest.raises(InvalidLayoutError, match=r"♠A is given twice"):
        observe(RU4, rules, seat=0, hand=hand, known=[(1, mask("SA"))])


def test_ru3_hidden_talon_is_one_more_holder():
    v = get_variant("ru3", ["talon=hidden"])
    con = v.contract("no-tricks")
    hand = parse_hand("♠AK ♥AQJ10 ♦AJ7 ♣10")
    ob = observe(v, con.deal_rules(), seat=0, hand=hand, known=[(TALON, mask("D8"))])
    k = ob.knowledge
    assert k.holders == 4 and k.need == (0, 10, 10, 1) and k.certain()[3] == mask("D8")
    d = k.sample(3, 0)
    assert count(d[3]) == 2 and d[3] >> c("D8") & 1


@examples(40)
@given(config=st.sampled_from(VARIANT_CONFIGS), seed=st.integers(0, 10 ** 6))
def test_random_play_the_truth_is_consistent_and_every_sample_replays(config, seed):
    # A random deal and legal play, seen by one seat: the true deal is among the consistent
    # ones (its chance is positive), and every sampled deal replays the same play legally.
    rng = random.Random(seed)
    vid, options = config
    v = get_variant(vid, options)
    con = rng.choice(all_contracts(v))
    rules = con.deal_rules()
    hands = random_hands(v, rng)
    n = v.n_seats
    pos = Position(hands, 0)
    cards = []
    for _ in range(rng.randrange(0, n * v.hand_size - 1)):
        x = rng.choice(list(cards_of(legal_mask(rules, pos))))
        cards.append(x)
        pos = play(rules, pos, x).position
    seat = rng.randrange(n)
    ob = observe(v, rules, seat=seat, hand=hands[seat], plays=cards)
    k = ob.knowledge
    assert ob.position(pos.hands + ((0,) if k.holders > n else ())).to_move == pos.to_move
    now = pos.hands
    for h in range(n):
        assert now[h] & ~(k.known[h] | k.allowed[h]) == 0   # the truth is allowed
        assert k.need[h] == count(now[h] & k.unknown)
    for i in range(5):
        d = k.sample(seed, i)
        full = tuple(d[h] | ob.played[h] for h in range(n))
        replay(rules, Position(full, 0), cards)            # raises if a sample contradicts the play


def test_a_partial_hand_leaves_the_rest_of_it_to_deal():
    # a seller who has seen his first three cards (bid's seller role): 5 more of his are unseen
    con = RU4.contract("no-tricks")
    ob = observe(RU4, con.deal_rules(), seat=0, hand=mask("SA HA DA"), partial=True)
    k = ob.knowledge
    assert k.need == (5, 8, 8, 8) and k.known[0] == mask("SA HA DA")
    d = k.sample(1, 0)
    assert count(d[0]) == 8 and d[0] & mask("SA HA DA") == mask("SA HA DA")
    with pytest.raises(InvalidLayoutError, match="has 3 cards"):
        observe(RU4, con.deal_rules(), seat=0, hand=mask("SA HA DA"))


# ----------------------------------------------------------------- a whole random deal (stats, benchmarks)

@pytest.mark.parametrize("vid,options,hand_size", [
    ("ru4", (), None), ("ua3", (), 4), ("king52", (), None), ("ru3", ("talon=hidden",), None)])
def test_random_deal_is_one_permutation_of_the_deck(vid, options, hand_size):
    # A whole-deck deal is one group with a forced split: no draw for the split, so deal k of seed s is
    # the permutation of the deck that stats (and bench_table) always dealt: `--resume` of a file written
    # before the one sampler continues with the same deals, and the benchmarks time the same layouts.
    from kingsolve.knowledge import random_deal, rng_for, whole_deck
    v = get_variant(vid, options)
    hs = v.hand_size if hand_size is None else hand_size
    deck = list(cards_of(v.deck))
    for k in (0, 1, 17):
        order = rng_for(99, k).permutation(len(deck))
        want = [0] * v.n_seats
        for i, p in enumerate(order[:v.n_seats * hs]):
            want[i // hs] |= bit(deck[p])
        assert random_deal(v, 99, k, hand_size) == tuple(want)
    k = whole_deck(v, hand_size)
    assert k.holders == v.n_seats + (1 if count(v.deck) > v.n_seats * hs else 0)
    with pytest.raises(ValueError, match="deals 1.."):
        whole_deck(v, v.hand_size + 1)


def test_a_forced_split_draws_nothing_and_a_free_one_stays_uniform():
    # ♠A must go to holder 0 (the only one allowed it), so the first group's split is forced; the rest is free.
    k = from_constraints(2, mask("SA SK SQ"), (2, 1), (0, mask("SA")))
    seen = Counter(k.sample(3, i) for i in range(3000))
    assert set(seen) == {(mask("SA SK"), mask("SQ")), (mask("SA SQ"), mask("SK"))}
    assert chisquare(list(seen.values())).pvalue > 1e-4
