"""kingsolve.variants against RULES.md: decks, contracts, prices, totals, options,
lead and discard rules — and every contract of every variant played out over
random deals, whose points must add up to RULES.md's total column.

The expected numbers below are typed from RULES.md (§2 the decks, §3 the
penalty table, §4 the positive deals, INTERFACE.md the trump-game prices), not
computed from the code under test.
"""
import random

import pytest
from hypothesis import given, strategies as st

from kingsolve.cards import (
    ACE, CLUBS, HEARTS, JACK, KING, QUEEN, SEVEN, SPADES, SUIT_MASKS, bit, card, card_str, cards_of, count,
    rank_of, suit_of,
)
from kingsolve.engine import Position
from kingsolve.errors import InvalidCardError, InvalidRulesError, KingsolveError
from kingsolve.variants import VARIANT_IDS, get_variant, parse_trump

from strategies import VARIANT_CONFIGS, all_contracts, config_id, examples, random_hands, random_playout

S, H, D, C = SPADES, HEARTS, 2, CLUBS
K_HEARTS = card(HEARTS, KING)

# ---------------------------------------------------------------------------
# RULES.md §3, typed: points per unit (magnitudes) and the "total" column.
PRICES = {
    #          trick heart boy girl last-two King   kings&jacks
    "ru4":    dict(trick=2, heart=2, boy=4, girl=4, last_two=8, king=16, kings_jacks=None),
    "ua3":    dict(trick=2, heart=2, boy=5, girl=5, last_two=10, king=24, kings_jacks=None),  # King 20 "written as 24"
    "ru3":    dict(trick=4, heart=5, boy=10, girl=10, last_two=20, king=40, kings_jacks=None),
    "king52": dict(trick=20, heart=20, boy=None, girl=50, last_two=90, king=160, kings_jacks=30),
}
PENALTY_TOTALS = {
    "ru4": {"no-tricks": 16, "no-hearts": 16, "no-boys": 16, "no-girls": 16, "no-last-two": 16, "no-king": 16,
            "erajlash": 96},
    "ua3": {"no-tricks": 20, "no-hearts": 16, "no-boys": 20, "no-girls": 20, "no-last-two": 20, "no-king": 24,
            "erajlash": 120},
    "ru3": {"no-tricks": 40, "no-hearts": 40, "no-boys": 40, "no-girls": 40, "no-last-two": 40, "no-king": 40,
            "erajlash": 240},
    "king52": {"no-tricks": 260, "no-hearts": 260, "no-girls": 200, "no-kings-jacks": 240, "no-last-two": 180,
               "no-king": 160},
}
# §2: tricks in a deal (cards each).  §4 / INTERFACE.md: +3 a trick in the
# trump games and misère of ru4/ua3/ru3 (+24 a deal in ru4, 120 over ua3's four
# deals), +25 a trick in king52 (325), king52 minus 325 in all.
TRICKS = {"ru4": 8, "ua3": 10, "ru3": 10, "king52": 13}
GAME_TRICK = {"ru4": 3, "ua3": 3, "ru3": 3, "king52": 25}


def rules_total(vid, options, name):
    """The RULES.md total of contract ``name`` (signed, as on the score sheet)."""
    if name in ("trump", "misere"):
        return GAME_TRICK[vid] * TRICKS[vid]
    if name == "minus":
        return 325
    if name == "tricks":
        return TRICKS[vid]
    sign = 1 if name.startswith("plus-") else -1
    base = name if sign < 0 else "erajlash" if name == "plus-erajlash" else "no-" + name[5:]
    total = PENALTY_TOTALS[vid][base]
    if vid == "ua3" and "king-points=20" in options and base in ("no-king", "erajlash"):
        total -= 4  # the King counted as the 20 it is, not the 24 it is written as
    return sign * total


def rules_card_points(vid, options, name, c):
    """Points (signed) to whoever takes card ``c`` in contract ``name`` (RULES.md §3)."""
    p = dict(PRICES[vid])
    if vid == "ua3" and "king-points=20" in options:
        p["king"] = 20
    sign = 1 if name.startswith("plus-") else -1
    base = name[5:] if sign > 0 else name[3:] if name.startswith("no-") else name
    is_heart, r = suit_of(c) == HEARTS, rank_of(c)
    jacks_kings = "boys=jacks-kings" in options

    def boys():
        if jacks_kings:
            return 2 if r in (JACK, KING) else 0  # "jack and king two points each" (000, ru4)
        return p["boy"] if r == JACK else 0

    pts = 0
    if base == "hearts" and is_heart:
        pts = p["heart"]
    elif base == "boys":
        pts = boys()
    elif base == "girls" and r == QUEEN:
        pts = p["girl"]
    elif base == "kings-jacks" and r in (KING, JACK):
        pts = p["kings_jacks"]
    elif base == "king" and c == K_HEARTS:
        pts = p["king"]
    elif base == "erajlash":  # all of the above at once, same prices
        pts = (p["heart"] if is_heart else 0) + boys() + (p["girl"] if r == QUEEN else 0) \
            + (p["king"] if c == K_HEARTS else 0)
    return sign * pts


def variant_of(config):
    vid, options = config
    return get_variant(vid, options)


CASES = [(config, c.name, c.trump_letter) for config in VARIANT_CONFIGS for c in all_contracts(variant_of(config))]
CASE_IDS = [f"{config_id(cfg)}-{name}-{t}" for cfg, name, t in CASES]


# ---------------------------------------------------------------------------
# Decks and tables (RULES.md §2)

@pytest.mark.parametrize("vid, seats, cards, each, talon", [
    ("ru4", 4, 32, 8, ""),
    ("ua3", 3, 30, 10, "SA CA"),     # the two black aces lie aside
    ("ru3", 3, 30, 10, "S7 C7"),     # the two black sevens removed
    ("king52", 4, 52, 13, ""),
])
def test_tables(vid, seats, cards, each, talon):
    v = get_variant(vid)
    assert v.n_seats == seats and count(v.deck) == cards and v.hand_size == each
    assert " ".join(card_str(c) for c in cards_of(v.talon)) == talon
    assert v.hidden_talon == 0
    low = 2 if vid == "king52" else 7
    assert min(rank_of(c) for c in cards_of(v.full_deck)) == low and count(v.full_deck) in (32, 52)


def test_ru3_hidden_talon_and_other_talons():
    v = get_variant("ru3", ["talon=hidden"])  # all 32 cards, two dealt face down
    assert count(v.deck) == 32 and v.talon == 0 and v.hidden_talon == 2 and v.hand_size == 10
    v = get_variant("ru3", ["talon=♥7 ♦7"])
    assert v.talon == bit(card(HEARTS, 7)) | bit(card(2, 7)) and count(v.deck) == 30
    assert v.options.talon == "H7 D7"  # canonical
    v = get_variant("ua3", {"talon": "S7,C7"})  # the ua3 talon may be set otherwise
    assert v.deck & bit(card(SPADES, ACE)) and not v.deck & bit(card(SPADES, SEVEN))


def test_contract_lists_follow_the_rules_table():
    # RULES.md §3: "—" means the variant has no such deal.
    for vid in ("ru4", "ua3", "ru3"):
        cs = get_variant(vid).contracts
        assert set(PENALTY_TOTALS[vid]) <= set(cs)
        assert {"plus-tricks", "plus-hearts", "plus-boys", "plus-girls", "plus-last-two", "plus-king",
                "plus-erajlash", "trump", "misere", "tricks"} <= set(cs)
        assert "no-kings-jacks" not in cs and "minus" not in cs
    cs = get_variant("king52").contracts
    assert set(PENALTY_TOTALS["king52"]) <= set(cs) and {"trump", "minus", "tricks"} <= set(cs)
    assert "no-boys" not in cs and "erajlash" not in cs and "plus-erajlash" not in cs and "misere" not in cs


def test_trump_choices():
    # хваленки: any suit (not "no trump"); king52's dealer may pick no trump too.
    assert get_variant("ru4").trump_choices("trump") == (S, H, D, C)
    assert set(get_variant("king52").trump_choices("trump")) == {None, S, H, D, C}
    assert set(get_variant("ua3").trump_choices("misere")) == {None, S, H, D, C}
    assert set(get_variant("king52").trump_choices("minus")) == {None, S, H, D, C}
    assert get_variant("ru4").trump_choices("no-hearts") == (None,)


@pytest.mark.parametrize("text, want", [("S", S), ("h", H), ("♦", D), ("♣️", C), ("т", C), ("NT", None),
                                        ("nt", None), ("-", None), ("БК", None), (None, None), (2, 2)])
def test_parse_trump(text, want):
    assert parse_trump(text) == want


def test_parse_trump_rejects():
    with pytest.raises(InvalidRulesError, match="unknown trump 'X'"):
        parse_trump("X")


# ---------------------------------------------------------------------------
# Prices and totals

@pytest.mark.parametrize("config, name, trump", CASES, ids=CASE_IDS)
def test_total_and_card_points_match_rules(config, name, trump):
    vid, options = config
    v = variant_of(config)
    contract = v.contract(name, trump)
    assert contract.total == rules_total(vid, options, name)
    for c in cards_of(v.deck):
        assert contract.card_points[c] == rules_card_points(vid, options, name, c), card_str(c)
    # trick points: the deal's per-trick and last-two prices
    p = PRICES[vid]
    base = name[5:] if name.startswith("plus-") else name[3:] if name.startswith("no-") else name
    sign = 1 if name.startswith("plus-") else -1
    want_per_trick = {"tricks": sign * p["trick"], "erajlash": sign * p["trick"]}.get(base, 0)
    if name in ("trump", "misere"):
        want_per_trick = GAME_TRICK[vid]
    elif name == "minus":
        want_per_trick = -75
    elif name == "tricks":
        want_per_trick = 1
    want_last_two = sign * p["last_two"] if base in ("last-two", "erajlash") else 0
    assert (contract.per_trick, contract.last_two) == (want_per_trick, want_last_two)
    assert contract.seat_base == (325 if name == "minus" else 0)


@pytest.mark.parametrize("config, name, trump", CASES, ids=CASE_IDS)
def test_full_deals_add_up_to_the_total(config, name, trump):
    """Random legal play through whole deals: the points of every seat add up to
    RULES.md's total; in ru3 with a hidden talon they fall short by exactly the
    points on the two face-down cards."""
    vid, options = config
    v = variant_of(config)
    contract = v.contract(name, trump)
    rules = contract.deal_rules()
    assert rules.n_tricks == TRICKS[vid]
    total = rules_total(vid, options, name)
    rng = random.Random(f"{config_id(config)}-{name}-{trump}")
    for _ in range(8):
        hands = random_hands(v, rng)
        leader = rng.randrange(v.n_seats)
        out = random_playout(rules, Position(hands, leader), rng)
        assert sum(out.tricks) == TRICKS[vid] and len(out.winners) == TRICKS[vid]
        scored = sum(out.points) + rules.seat_base * v.n_seats
        if v.hidden_talon:
            held = 0
            for h in hands:
                held |= h
            talon = v.deck & ~held
            assert count(talon) == 2
            assert scored == total - sum(rules_card_points(vid, options, name, c) for c in cards_of(talon))
        else:
            assert scored == total


@examples(40)
@given(st.sampled_from(CASES), st.randoms(use_true_random=False), st.integers(0, 3))
def test_full_deals_add_up_hypothesis(case, rng, leader):
    config, name, trump = case
    vid, options = config
    v = variant_of(config)
    rules = v.contract(name, trump).deal_rules()
    hands = random_hands(v, rng)
    out = random_playout(rules, Position(hands, leader % v.n_seats), rng)
    talon = v.deck & ~(hands[0] | hands[1] | hands[2] | (hands[3] if v.n_seats == 4 else 0))
    lost = sum(rules_card_points(vid, options, name, c) for c in cards_of(talon)) if v.hidden_talon else 0
    assert sum(out.points) + rules.seat_base * v.n_seats == rules_total(vid, options, name) - lost


# ---------------------------------------------------------------------------
# "The last two" on short layouts, and deal_rules

@pytest.mark.parametrize("n, want", [
    (1, (-8,)),                   # one trick left: it is one of the last two
    (2, (-8, -8)),
    (3, (0, -8, -8)),
    (8, (0, 0, 0, 0, 0, 0, -8, -8)),
])
def test_last_two_trick_points_on_short_layouts(n, want):
    c = get_variant("ru4").contract("no-last-two")
    assert c.deal_rules(n).trick_points == want and c.deal_rules(n).n_tricks == n


def test_erajlash_trick_points_and_default_length():
    c = get_variant("ua3").contract("erajlash")
    assert c.deal_rules(3).trick_points == (-2, -12, -12)  # -2 a trick, -10 more for each of the last two
    assert c.deal_rules().n_tricks == 10
    c = get_variant("ru4").contract("plus-erajlash")
    assert c.deal_rules(2).trick_points == (10, 10)


def test_deal_rules_plain_data():
    c = get_variant("king52").contract("minus", "H")
    r = c.deal_rules(13)
    assert (r.n_seats, r.trump, r.inverted, r.seat_base) == (4, H, False, 325)
    assert set(r.trick_points) == {-75} and len(r.card_points) == 64
    r = get_variant("ru4").contract("misere").deal_rules()
    assert r.trump == -1 and r.inverted
    r = get_variant("ru4").contract("misere", "S").deal_rules()
    assert r.trump == S and r.inverted


# ---------------------------------------------------------------------------
# Lead and discard restrictions (RULES.md §3, "Defaults")

HEART_BAN = SUIT_MASKS[HEARTS]


@pytest.mark.parametrize("vid", ["ru4", "ua3", "ru3"])
def test_default_restrictions_32_card_variants(vid):
    v = get_variant(vid)
    for name in v.contracts:
        c = v.contract(name, v.trump_choices(name)[0])
        banned = name in ("no-hearts", "no-king", "erajlash", "plus-hearts", "plus-king", "plus-erajlash")
        assert c.lead_restricted == (HEART_BAN if banned else 0), name
        assert c.discard_forced == (bit(K_HEARTS) if name == "no-king" else 0), name


def test_default_restrictions_king52():
    v = get_variant("king52")
    assert v.contract("no-hearts").lead_restricted == HEART_BAN
    c = v.contract("no-king")  # the K♥ may not be led unless last; no heart ban, no forced discard
    assert c.lead_restricted == bit(K_HEARTS) and c.discard_forced == 0
    for name in ("no-tricks", "no-girls", "no-kings-jacks", "no-last-two", "tricks"):
        c = v.contract(name)
        assert c.lead_restricted == 0 and c.discard_forced == 0, name


def test_options_change_restrictions():
    c = get_variant("ru4", ["king-lead=king"]).contract("no-king")
    assert c.lead_restricted == bit(K_HEARTS) and c.discard_forced == bit(K_HEARTS)
    assert get_variant("ru4", ["forced-king=off"]).contract("no-king").discard_forced == 0
    assert get_variant("ru4", ["erajlash-forced-king"]).contract("erajlash").discard_forced == bit(K_HEARTS)
    assert get_variant("ru4").contract("erajlash").discard_forced == 0
    c = get_variant("king52", ["forced-king=on", "king-lead=hearts"]).contract("no-king")
    assert c.lead_restricted == HEART_BAN and c.discard_forced == bit(K_HEARTS)
    # must-trump: a player void in the led suit must trump, in a trump game only
    mt = get_variant("ru4", ["must-trump"])
    assert mt.contract("trump", "D").discard_forced == SUIT_MASKS[2]
    assert mt.contract("misere", "C").discard_forced == SUIT_MASKS[C]
    assert mt.contract("misere").discard_forced == 0 and mt.contract("no-tricks").discard_forced == 0
    assert get_variant("ru4").contract("trump", "D").discard_forced == 0


def test_option_spellings():
    on = [get_variant("ru4", [o]).options.must_trump for o in ("must-trump", "must-trump=on", "must_trump=yes",
                                                              "must-trump=1", "must-trump=TRUE")]
    assert on == [True] * 5
    assert get_variant("ru4", {"must-trump": True}).options.must_trump is True
    assert get_variant("ru4", ["must-trump=off"]).options.must_trump is False
    assert get_variant("ua3").options.king_points == 24
    assert get_variant("ua3", ["king-points=20"]).contract("no-king").total == -20


# ---------------------------------------------------------------------------
# Bad variants, contracts and options: one line naming the token

@pytest.mark.parametrize("vid, options, needle", [
    ("ru5", (), "unknown variant 'ru5'"),
    ("ru4", ("colour=red",), "unknown option 'colour'"),
    ("ru4", ("boys=kings",), "boys='kings'"),
    ("ua3", ("boys=jacks-kings",), "jacks-kings is a ru4 option"),
    ("ru4", ("king-points=20",), "king-points='20'"),
    ("ua3", ("king-points=22",), "king-points='22'"),
    ("ua3", ("talon=hidden",), "talon=hidden is a ru3 option"),
    ("ru4", ("talon=SA CA",), "ru4 has no talon"),
    ("ua3", ("talon=SA",), "talon='SA'"),
    ("ua3", ("talon=S6 CA",), "talon='S6 CA'"),
    ("ua3", ("talon=SA XX",), "'XX'"),
    ("ru4", ("must-trump=maybe",), "must-trump='maybe'"),
    ("ru4", ("king-lead=queen",), "king-lead='queen'"),
])
def test_bad_variant_or_option(vid, options, needle):
    with pytest.raises(InvalidRulesError) as err:
        get_variant(vid, options)
    assert needle in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("vid, name, trump, needle", [
    ("ru4", "no-boyz", "default", "ru4 has no contract 'no-boyz'"),
    ("ru4", "minus", "default", "ru4 has no contract 'minus'"),
    ("ru4", "no-kings-jacks", "default", "no contract 'no-kings-jacks'"),
    ("king52", "no-boys", "default", "king52 has no contract 'no-boys'"),
    ("king52", "erajlash", "default", "king52 has no contract 'erajlash'"),
    ("ua3", "trump", "default", "needs a trump"),
    ("ua3", "trump", "NT", "cannot be played with trump NT"),
    ("ua3", "no-hearts", "S", "cannot be played with trump S"),
    ("ua3", "misere", "X", "unknown trump 'X'"),
])
def test_bad_contract(vid, name, trump, needle):
    with pytest.raises(InvalidRulesError) as err:
        get_variant(vid).contract(name, trump)
    assert needle in str(err.value) and "\n" not in str(err.value)
    assert isinstance(err.value, KingsolveError) and isinstance(err.value, ValueError)


def test_repr_names_the_contract():
    assert repr(get_variant("ru4").contract("no-hearts")) == "Contract('ru4', 'no-hearts')"
    assert repr(get_variant("ru4").contract("trump", "S")) == "Contract('ru4', 'trump', trump='S')"
