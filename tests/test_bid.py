"""Tests of kingsolve.bid: sampling consistent with what a seat knows, the
double-dummy counts per game, the buyer / seller / king52 bidder analysis, and
reproducibility (by seed, for any number of worker processes).

Real solves use ``ru4`` (8-card hands, a few milliseconds a deal) and small
sample counts; the arithmetic of the decisions is tested on hand-made counts."""
import numpy as np
import pytest

from kingsolve import bid as B
from kingsolve import workers as W
from kingsolve.cards import SUIT_MASKS, cards_of, count, parse_card
from kingsolve.errors import InvalidLayoutError, InvalidRulesError, KingsolveError
from kingsolve.layout import Layout, parse_hand
from kingsolve.solver import solve
from kingsolve.variants import get_variant

RU4 = get_variant("ru4")
UA3 = get_variant("ua3")
KING52 = get_variant("king52")
ALL_SPADES_RU4 = parse_hand("♠AKQJ1098 7")      # every trump of a spade game
LOW_NO_HEARTS_RU4 = parse_hand("♠78 ♦789 ♣789")  # no hearts, nothing above a nine


# ----------------------------------------------------------------- games

def test_choices_per_variant():
    assert [c.name for c in B.choices_for(RU4)] == ["S", "H", "D", "C", "misere"]
    assert [c.name for c in B.choices_for(UA3)] == ["S", "H", "D", "C", "misere"]
    assert [c.name for c in B.choices_for(KING52)] == [
        "S", "H", "D", "C", "NT", "minus-S", "minus-H", "minus-D", "minus-C", "minus-NT"]


def test_parse_choice():
    assert B.parse_choice("♥", UA3).name == "H"
    assert B.parse_choice("мизер", UA3).name == "misere"
    assert B.parse_choice("-h", KING52).name == "minus-H"
    assert B.parse_choice("NT", KING52) == B.Choice("NT", "trump", None)
    with pytest.raises(InvalidRulesError, match="no game 'NT'"):
        B.parse_choice("NT", UA3)   # хваленки: no trump only as misère
    with pytest.raises(InvalidRulesError, match="no game 'misere'"):
        B.parse_choice("misere", KING52)


def test_tricks_from_value_is_exact():
    assert B.tricks_from_value(UA3.contract("trump", "H"), 18) == 6
    assert B.tricks_from_value(UA3.contract("misere"), 3) == 1
    minus = KING52.contract("minus", None)
    assert B.tricks_from_value(minus, 325 - 75 * 4) == 4
    assert list(B.points_of_tricks(minus, np.array([0, 13]))) == [325, 325 - 975]
    with pytest.raises(KingsolveError, match="not a whole number of tricks"):
        B.tricks_from_value(UA3.contract("trump", "H"), 17)
    with pytest.raises(InvalidRulesError, match="does not score by the trick"):
        B.tricks_from_value(UA3.contract("no-hearts"), -4)


# ----------------------------------------------------------------- knowledge and sampling

def test_hand_outside_the_deck_is_rejected():
    with pytest.raises(InvalidLayoutError, match="♠A is in the talon of ua3"):
        B.make_knowledge(UA3, 1, parse_hand("♠AKQ ♥AQJ10 ♦AJ7"))
    with pytest.raises(InvalidLayoutError, match="♠6 is not in the deck of ru4"):
        B.make_knowledge(RU4, 1, parse_hand("♠6 ♥AQJ10 ♦AJ7"))


def test_wrong_hand_sizes():
    with pytest.raises(InvalidLayoutError, match="has 7 cards; ru4 deals 8"):
        B.make_knowledge(RU4, 1, parse_hand("♠AKQJ1098"))
    with pytest.raises(InvalidLayoutError, match="has 5 cards; give 3 or 8"):
        B.make_knowledge(RU4, 0, parse_hand("♠AKQJ10"), full_hand=False, partial_sizes=(3,))
    assert B.make_knowledge(RU4, 0, parse_hand("♠AKQ"), full_hand=False, partial_sizes=(3,)).free == (5, 8, 8, 8, 0)


def test_known_card_twice_and_too_many_known():
    with pytest.raises(InvalidLayoutError, match="♠A is given twice"):
        B.make_knowledge(RU4, 1, ALL_SPADES_RU4, [(2, parse_hand("♠A ♥7"))])
    with pytest.raises(InvalidLayoutError, match="♥K is given twice"):
        B.make_knowledge(RU4, 1, ALL_SPADES_RU4, [(2, parse_hand("♥K")), (3, parse_hand("♥K"))])
    with pytest.raises(InvalidLayoutError, match="seat 3 would hold 9 known cards; it holds 8"):
        B.make_knowledge(RU4, 1, ALL_SPADES_RU4, [(2, parse_hand("♥AKQJ10987 ♦A"))])
    with pytest.raises(InvalidLayoutError, match="the seat's own hand"):
        B.make_knowledge(RU4, 1, ALL_SPADES_RU4, [(1, parse_hand("♥A"))])
    with pytest.raises(InvalidLayoutError, match="no hidden talon"):
        B.make_knowledge(UA3, 1, parse_hand("♠KQ ♥AQJ10 ♦AJ7 ♣10"), [("talon", parse_hand("♥7"))])


def _check_block(knowledge, deals):
    v = knowledge.variant
    for row in deals:
        hands = [int(h) for h in row]
        union = 0
        for k, h in enumerate(hands):
            assert count(h) == v.hand_size
            assert h & knowledge.known[k] == knowledge.known[k]
            assert not union & h
            union |= h
        assert union & ~v.deck == 0
        assert count(v.deck & ~union) == v.hidden_talon
        assert not union & knowledge.talon_known


@pytest.mark.parametrize("vid,options,seat,hand,known", [
    ("ru4", (), 1, "♠AKQJ1098 7", [(3, "♥A ♦7")]),
    ("ua3", (), 2, "♠KQ ♥AQJ10 ♦AJ7 ♣10", [(0, "♣K")]),
    ("ru3", ("talon=hidden",), 0, "♠AK ♥AQJ10 ♦AJ7 ♣10", [("talon", "♦8")]),
    ("king52", (), 1, "♠AKQJ ♥AKQ ♦432 ♣432", [(0, "♣A"), (2, "♦A ♦K")]),
])
def test_samples_are_consistent_deals(vid, options, seat, hand, known):
    v = get_variant(vid, options)
    k = B.make_knowledge(v, seat, parse_hand(hand), [(w, parse_hand(c)) for w, c in known])
    deals = B.sample_range(k, seed=7, start=60, stop=80)
    assert deals.shape == (20, v.n_seats) and deals.dtype == np.uint64
    _check_block(k, deals)


def test_ru3_hidden_talon_leaves_two_unknown_cards_out():
    v = get_variant("ru3", ["talon=hidden"])
    assert v.hidden_talon == 2 and count(v.deck) == 32
    k = B.make_knowledge(v, 0, parse_hand("♠AK ♥AQJ10 ♦AJ7 ♣10"))
    out = set()
    for row in B.sample_range(k, seed=1, start=0, stop=20):
        held = 0
        for h in row:
            held |= int(h)
        out.add(v.deck & ~held)
    assert all(count(m) == 2 for m in out) and len(out) > 1


def test_sampling_is_reproducible_and_samples_independent():
    k = B.make_knowledge(RU4, 1, ALL_SPADES_RU4)
    a = B.sample_range(k, seed=5, start=0, stop=20)
    assert np.array_equal(a, B.sample_range(k, seed=5, start=0, stop=20))
    assert np.array_equal(a[:7], B.sample_range(k, seed=5, start=0, stop=7))
    assert not np.array_equal(a, B.sample_range(k, seed=5, start=20, stop=40))
    assert not np.array_equal(a, B.sample_range(k, seed=6, start=0, stop=20))
    assert len({tuple(row) for row in a}) == 20


def test_sampling_is_uniform_over_the_free_places():
    # ♥A is unseen; seats 1, 3 and 4 (0, 2, 3) each get it a third of the time.
    k = B.make_knowledge(RU4, 1, ALL_SPADES_RU4)
    ha = 1 << parse_card("HA")
    hits = np.zeros(4)
    n = 0
    for block in range(60):
        deals = B.sample_range(k, seed=11, start=20 * block, stop=20 * (block + 1))
        hits += [(deals[:, s] & np.uint64(ha) != 0).sum() for s in range(4)]
        n += len(deals)
    assert hits[1] == 0
    sd = np.sqrt(n * (1 / 3) * (2 / 3))
    for s in (0, 2, 3):
        assert abs(hits[s] - n / 3) < 5 * sd


# ----------------------------------------------------------------- double-dummy counts

def test_all_trumps_make_every_trick_in_every_sample():
    a = B.analyse(RU4, ALL_SPADES_RU4, seat=1, samples=20, seed=3, games=["S", "H"])
    assert list(a.tricks["own:S"]) == [8] * 20
    assert a.choices.loc["S", "P>=8"] == 1.0 and a.choices.loc["S", "points"] == 24.0
    # defending the seller's spade game with every trump: still every trick
    assert list(a.tricks["defend:S"]) == [8] * 20
    assert a.choices.loc["S", "max_offer"] == 0
    assert a.summary["recommended"] == "S"


def test_a_hand_without_trumps_or_high_cards_makes_few():
    a = B.analyse(RU4, LOW_NO_HEARTS_RU4, seat=1, samples=20, seed=3, games=["H"], seller_trump="H")
    x = a.tricks["own:H"]
    assert x.mean() < 1 and x.max() <= 2
    assert a.choices.loc["H", "P>=3"] == 0.0


def test_counts_agree_with_solving_the_sampled_layout():
    k = B.make_knowledge(RU4, 1, parse_hand("♠AK7 ♥AQ ♦K98"))
    choices = B.choices_for(RU4)
    plan = B.Plan(k, tuple(B.Task(f"own:{c.name}", c, 1, 1) for c in choices)
                  + (B.Task("defend:misere", choices[-1], 0, 1),))
    counts = B.solve_range(plan, seed=2, start=0, stop=2)
    deals = B.sample_range(k, seed=2, start=0, stop=2)
    for i in range(2):
        lay = Layout(tuple(int(h) for h in deals[i]), 0)
        for j, c in enumerate(choices):
            v = solve(lay, c.make(RU4), leader=1, sides=[1 << 1]).results[0].value
            assert counts[i, j] * 3 == v
        v = solve(lay, RU4.contract("misere"), leader=0, sides=[1 << 1]).results[0].value
        assert counts[i, -1] * 3 == v


def test_same_seed_same_result_and_prefix_property():
    a = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), samples=25, seed=9, games=["S", "D"], seller_trump="S")
    b = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), samples=25, seed=9, games=["S", "D"], seller_trump="S")
    c = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), samples=45, seed=9, games=["S", "D"], seller_trump="S")
    for key in a.tricks:
        assert np.array_equal(a.tricks[key], b.tricks[key])
        assert np.array_equal(a.tricks[key], c.tricks[key][:25])
    assert a.choices.equals(b.choices)


def test_jobs_do_not_change_the_result():
    kw = dict(samples=45, seed=4, games=["S", "H", "misere"])
    one = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), jobs=1, **kw)
    two = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), jobs=2, **kw)
    for key in one.tricks:
        assert np.array_equal(one.tricks[key], two.tricks[key])
    assert one.choices.equals(two.choices) and one.summary == two.summary


def test_interrupt_keeps_the_finished_blocks():
    k = B.make_knowledge(RU4, 1, ALL_SPADES_RU4)
    plan = B.Plan(k, (B.Task("own:S", B.choices_for(RU4)[0], 1, 1),))

    def stop_after_first(n):
        raise KeyboardInterrupt

    run = B.run_plan(plan, samples=60, seed=1, progress=stop_after_first)
    unit = W.range_size(RU4.hand_size, 60, 1)
    assert run.interrupted and run.samples == unit == 15 and run.requested == 60
    assert list(run.tricks["own:S"]) == [8] * unit


def test_seller_with_three_cards():
    a = B.analyse(RU4, parse_hand("♠AKQ"), role="seller", samples=20, seed=2, games=["S", "H"])
    assert a.seat == 0 and a.role == "seller"
    assert a.knowledge.free == (5, 8, 8, 8, 0)
    s = a.tricks["own:S"]
    assert s.min() >= 3   # ♠AKQ are the three top trumps and the seller leads
    assert a.stage == "name" and a.summary["name"] == "S" and "decision" not in a.summary


def test_role_and_seat_errors():
    with pytest.raises(InvalidRulesError, match="bidder role is king52"):
        B.analyse(RU4, ALL_SPADES_RU4, role="bidder", samples=1)
    with pytest.raises(InvalidRulesError, match="use --role bidder"):
        B.analyse(KING52, parse_hand("♠AKQJ ♥AKQ ♦432 ♣432"), role="buyer", samples=1)
    with pytest.raises(InvalidLayoutError, match="seat 1 is the seller"):
        B.analyse(RU4, ALL_SPADES_RU4, seat=0, samples=1)
    with pytest.raises(InvalidRulesError, match="seller's question"):
        B.analyse(RU4, ALL_SPADES_RU4, offer=2, samples=1)


# ----------------------------------------------------------------- decisions on hand-made counts

def _run(tricks, n):
    return B.RunResult({k: np.array(v, dtype=np.int64) for k, v in tricks.items()}, n, n, seed=0)


def _analysis(variant, role, tricks, *, seller_choice=None, offer=None, games=None, stage=None):
    choices = tuple(c for c in B.choices_for(variant) if games is None or c.name in games)
    n = len(next(iter(tricks.values())))
    seat, seller = (0, 0) if role == "seller" else (1, 0)
    return B._analyse_run(variant, role, seat, seller, 1 if role == "seller" else None, 0, None, choices,
                          seller_choice, offer, _run(tricks, n), stage=stage)


def test_break_even_offer_is_exact():
    # buying H: 6, 6, 7, 5 tricks (mean 6); defending C: 4, 4, 4, 4 → exactly 2 more: offer 2
    t = {"own:H": [6, 6, 7, 5], "own:S": [1, 1, 1, 1], "defend:C": [4, 4, 4, 4], "defend:S": [4, 4, 4, 3]}
    a = _analysis(UA3, "buyer", t, seller_choice=B.parse_choice("C", UA3), games=["S", "H"])
    assert a.summary["recommended"] == "H"
    assert a.summary["max_offer"] == 2 and a.summary["seller_trump"] == "C"   # C is not among the games bought
    assert a.summary["points_after_max_offer"] == 12.0   # 3 × (6 − 2) = 3 × defending 4
    t["defend:C"] = [4, 4, 4, 5]   # a quarter trick more defending: 2 no longer pays
    a = _analysis(UA3, "buyer", t, seller_choice=B.parse_choice("C", UA3), games=["S", "H"])
    assert a.summary["max_offer"] == 1


def test_offer_per_sellers_game_without_it():
    # Not told the seller's game, the buyer gets one answer per game he could have named -- never the
    # single most cautious one (issue 33: that was usually the buyer's own best suit, "do not buy").
    t = {"own:S": [0, 0], "own:H": [6, 6], "defend:S": [2, 2], "defend:H": [5, 5]}
    a = _analysis(UA3, "buyer", t, games=["S", "H"])
    assert a.summary["offers"] == {"S": 4, "H": 1}
    assert "max_offer" not in a.summary and a.summary["seller_trump"] is None
    assert a.choices.loc["S", "max_offer"] == 4 and a.choices.loc["H", "max_offer"] == 1


def test_offer_uncertainty():
    # buy 6 6 7 5, defend 4 4 4 4: offer 2; buying at 2 is at least as good in 3 of 4 samples
    buy, defend = np.array([6, 6, 7, 5]), np.array([4, 4, 4, 4])
    o = B.offer_uncertainty(buy, defend, 10, seed=1)
    assert o["max_offer"] == 2 and o["gain"] == 2.0 and o["p_not_worse"] == 0.75
    assert abs(o["gain_se"] - np.std([2, 2, 3, 1], ddof=1) / 2) < 1e-12
    boot = o["offer_bootstrap"]
    assert set(boot) <= {1, 2, 3} and abs(sum(boot.values()) - 1) < 1e-12
    assert o["offer_bootstrap"] == B.offer_uncertainty(buy, defend, 10, seed=1)["offer_bootstrap"]
    same = np.array([5] * 8)
    assert B.offer_uncertainty(same, same - 3, 10, seed=2)["offer_bootstrap"] == {3: 1.0}


def test_seller_decision():
    # the named game H 4 tricks = 12 points; write-two = 6; offer 3 + defending 2 = 15 points: accept
    H = B.parse_choice("H", RU4)
    t = {"own:H": [4, 4], "buyer:S": [5, 1], "buyer:H": [3, 6], "defend:bought": [2, 2]}
    a = _analysis(RU4, "seller", t, offer=3, games=["S", "H"], seller_choice=H, stage="decide")
    assert a.summary["decision"] == "accept" and a.summary["named"] == "H"
    assert a.summary["accept_points"] == 15.0 and a.summary["p_accept_not_worse"] == 1.0
    assert a.summary["min_offer"] == 2          # 3 × (2 + 2) = 12 ≥ 12
    assert a.summary["buyer_games"] == {"S": 1, "H": 1}
    assert list(a.choices.index) == ["H"]       # only the game he named is played
    a = _analysis(RU4, "seller", dict(t, **{"own:H": [6, 6]}), offer=3, games=["S", "H"], seller_choice=H,
                  stage="decide")
    assert a.summary["decision"] == "play" and a.summary["min_offer"] == 4
    # no offer yet: play or write two, and the least offer worth accepting
    a = _analysis(RU4, "seller", dict(t, **{"own:H": [1, 1]}), games=["S", "H"], seller_choice=H, stage="decide")
    assert a.summary["decision"] == "write-two" and a.summary["min_offer"] == 0
    assert a.summary["min_offer_bootstrap"] == {0: 1.0}


def test_king52_settlements():
    pos, neg = B.parse_choice("H", KING52), B.parse_choice("minus-NT", KING52)
    own = np.array([5, 9])
    assert list(B.bid_settlement(KING52, "+7", pos, own)) == [125 - 50, 225]
    dealer = np.array([0, 3])
    assert list(B.bid_settlement(KING52, "-2", neg, np.array([1, 2]), dealer)) == [250, 175 - 150]
    with pytest.raises(InvalidRulesError):
        B.bid_settlement(KING52, "+1", neg, own, dealer)


def test_king52_highest_bid_worth_making():
    # H: 8 tricks every time (200); defending the dealer's S: 4 tricks (100).
    # +N costs nothing up to +8 (8 tricks made): every plus bid is worth it, +8 the highest.
    t = {"own:S": [7, 7], "own:H": [8, 8], "own:minus-NT": [2, 2], "dealer:minus-NT": [3, 3], "defend:S": [4, 4]}
    a = _analysis(KING52, "bidder", t, seller_choice=B.parse_choice("S", KING52), games=["S", "H", "minus-NT"])
    assert a.summary["baseline_points"] == 100.0
    assert a.bids.loc["+8", "settlement"] == 200.0 and bool(a.bids.loc["+8", "worth"])
    # −1: 325 − 150 − 75 = 100 = baseline: worth (break-even); −2: 25, not worth
    assert a.bids.loc["-1", "settlement"] == 100.0 and bool(a.bids.loc["-1", "worth"])
    assert a.bids.loc["-2", "settlement"] == 25.0 and not a.bids.loc["-2", "worth"]
    assert a.summary["best_bid"] == "+8" and a.summary["best_bid_choice"] == "H"
    assert list(a.bids.index) == list(B.KING52_BIDS)
    # auction-pay=bid (the bid a price): +N costs 25 N made or not, so +4 (200 - 100 = 100) is the highest
    assert a.summary["auction_pay"] == "shortfall" and a.summary["best_bid_other_reading"] == "+4"
    b = _analysis(get_variant("king52", ["auction-pay=bid"]), "bidder", t,
                  seller_choice=B.parse_choice("S", KING52), games=["S", "H", "minus-NT"])
    assert b.summary["best_bid"] == "+4" and b.summary["best_bid_other_reading"] == "+8"
    assert b.bids.loc["+8", "settlement"] == 0.0
    # not told the dealer's game: the highest bid against each game he could have named
    # (defending minus-NT with 1 trick is worth 250: no bid reaches it)
    c = _analysis(KING52, "bidder", dict(t, **{"defend:H": [2, 2], "defend:minus-NT": [1, 1]}),
                  games=["S", "H", "minus-NT"])
    assert c.summary["best_bids"] == {"S": "+8", "H": "+8", "minus-NT": None}
    assert c.summary["best_bids_other_reading"] == {"S": "+4", "H": "+6", "minus-NT": None}
    assert "worth" not in c.bids.columns


def test_bid_table_is_a_dataframe_and_progress_counts_every_sample():
    import pandas as pd
    seen = []
    df = B.bid_table(RU4, ALL_SPADES_RU4, samples=45, seed=1, games=["S", "misere"], progress=seen.append)
    assert isinstance(df, pd.DataFrame)
    assert list(df.index) == ["S", "misere"]
    assert list(df.columns[:6]) == ["contract", "trump", "mean", "se", "points", "P>=1"]
    assert seen == [12, 12, 12, 9]   # units of ceil(45 / 4) samples on one process


# ----------------------------------------------------------------- the source's bought game (000, third deal)

THIRD_DEAL = {"seat 1": "J8.T87.J87.Q7", "seat 3": "97.KQJ.AKT9.K"}   # 000: talon ♠A ♣A (ua3's)


def test_source_third_deal_seller_accepts_two():
    # 000: "Карта у замовника (перша рука) погана. Він оголосив козирем трефу ... не більше одного хабара.
    # ... була куплена третім гравцем за два хабарі."  With his named clubs he takes about half a trick;
    # 2 tricks and his defence beat playing clubs (and writing two each, 6 points): accept.
    a = B.analyse(UA3, parse_hand(THIRD_DEAL["seat 1"]), role="seller", seller_trump="C", offer=2, buyer=2,
                  samples=100, seed=20261203)
    assert a.stage == "decide" and a.summary["named"] == "C"
    assert a.summary["play_points"] < a.summary["write_two_points"] <= a.summary["accept_points"]
    assert a.summary["decision"] == "accept"
    assert a.summary["min_offer"] is not None and a.summary["min_offer"] <= 2


def test_source_third_deal_buyer_names_diamonds_and_offers_two():
    # 000: the third hand bought the clubs game for two tricks and named diamonds ("Козирем оголошено бубна").
    a = B.analyse(UA3, parse_hand(THIRD_DEAL["seat 3"]), seat=2, seller_trump="C", samples=100, seed=20261203)
    assert a.summary["recommended"] == "D"
    assert a.summary["max_offer"] >= 2
    assert 0 <= a.summary["p_not_worse"] <= 1 and abs(sum(a.summary["offer_bootstrap"].values()) - 1) < 1e-12


def test_three_top_trumps_name_their_suit():
    for hand, suit in (("♥AKQ", "H"), ("♣AKQ", "C")):
        a = B.analyse(RU4, parse_hand(hand), role="seller", samples=40, seed=5)
        assert a.summary["name"] == suit
        assert a.tricks[f"own:{suit}"].min() >= 3


def test_seller_moments_are_checked():
    with pytest.raises(InvalidRulesError, match="three-card hand: offers come after"):
        B.analyse(RU4, parse_hand("♠AKQ"), role="seller", offer=2, samples=1)
    with pytest.raises(InvalidRulesError, match="with three cards the question is which game to name"):
        B.analyse(RU4, parse_hand("♠AKQ"), role="seller", seller_trump="S", samples=1)
    with pytest.raises(InvalidRulesError, match="give --seller-trump"):
        B.analyse(RU4, ALL_SPADES_RU4, role="seller", offer=2, samples=1)
    with pytest.raises(InvalidRulesError, match="ua3 has no game 'NT'"):
        B.analyse(UA3, parse_hand(THIRD_DEAL["seat 1"]), role="seller", seller_trump="NT", samples=1)


# ----------------------------------------------------------------- the work: capped counts, units, laziness

def test_capped_tricks_are_the_exact_count_capped():
    from kingsolve.engine import Position
    from kingsolve.solver import Deal, solver_for
    c = RU4.contract("no-tricks")
    rules = c.deal_rules()
    k = B.make_knowledge(RU4, 1, parse_hand("♠AK7 ♥AQ ♦K98"))
    solver = solver_for(RU4.hand_size)
    for row in B.sample_range(k, seed=3, start=0, stop=8):
        hands = tuple(int(h) for h in row)
        for side in range(4):
            d = Deal(c, Position(hands, 1), rules)
            exact = B.tricks_from_value(c, solver.value(d, 1 << side))
            for cap in (1, 2, 3):
                assert B.capped_tricks(solver, c, d, side, cap) == min(exact, cap)
    with pytest.raises(InvalidRulesError, match="avoiding tricks"):
        B.capped_tricks(solver, RU4.contract("trump", "S"), d, 0, 2)


def test_ranges_are_the_rows_of_the_whole_run():
    k = B.make_knowledge(RU4, 1, ALL_SPADES_RU4)
    whole = B.sample_range(k, 4, 0, 60)
    for start, stop in ((0, 60), (7, 8), (15, 45), (39, 41)):
        assert np.array_equal(B.sample_range(k, 4, start, stop), whole[start:stop])
    # sample i is the one sampler's sample i of what the seat knows (kingsolve.knowledge)
    for i in (0, 33):
        assert tuple(int(h) for h in whole[i]) == k.dealt.sample(4, i)[:4]


def test_units_are_fine_for_13_card_hands():
    assert W.range_size(KING52.hand_size, 40, 2) == 1
    assert W.range_size(RU4.hand_size, 1000, 2) == W.MAX_RANGE and W.range_size(RU4.hand_size, 40, 2) == 5
    # with a time limit, what runs at the limit and is lost is small
    assert W.range_size(RU4.hand_size, 1000, 2, timed=True) == W.TIMED_RANGE


def test_solvers_follow_the_solve_policy():
    # issue 32: bid's solvers come from solver_for (the table solve uses), --tt-size fixes the size alike
    k52 = B.make_knowledge(KING52, 1, parse_hand("AKQJ.AKQ.432.432"))
    assert B.Plan(k52, ()).solver().table_log2 == 20
    assert B.Plan(B.make_knowledge(RU4, 1, ALL_SPADES_RU4), ()).solver().table_log2 == 16
    assert B.Plan(k52, (), tt_log2=12).solver().table_log2 == 12
    assert not hasattr(B, "_SOLVER")


@pytest.mark.parametrize("jobs", [1, 2])
def test_ten_billion_samples_do_not_grow_memory(jobs):
    # issue 29: a list of every block was built up front; the work is now generated as it is taken
    import tracemalloc
    k = B.make_knowledge(RU4, 1, ALL_SPADES_RU4)
    plan = B.Plan(k, (B.Task("own:S", B.choices_for(RU4)[0], 1, 1),))
    seen = []

    def stop_after_two(n):
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        run = B.run_plan(plan, samples=10 ** 10, seed=1, jobs=jobs, progress=stop_after_two)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert run.interrupted and run.requested == 10 ** 10
    # the two units that reached progress, and those out in the workers that finished as they were stopped
    assert 0 < run.samples <= (2 if jobs == 1 else 2 + 2 * jobs) * W.MAX_RANGE and list(run.tricks["own:S"]) == [8] * run.samples
    assert peak < 20 * 2 ** 20


def test_interrupted_pool_keeps_a_prefix_of_the_run():
    k = B.make_knowledge(RU4, 1, parse_hand("♠AK7 ♥AQ ♦K98"))
    choices = B.choices_for(RU4)[:2]
    plan = B.Plan(k, tuple(B.Task(f"own:{c.name}", c, 1, 1) for c in choices))
    full = B.run_plan(plan, samples=80, seed=6)
    calls = []

    def stop_after_three(n):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt

    part = B.run_plan(plan, samples=80, seed=6, jobs=2, progress=stop_after_three)
    assert part.interrupted and 0 < part.samples < 80
    for key in full.tricks:
        assert np.array_equal(part.tricks[key], full.tricks[key][:part.samples])


def test_dask_cluster_gives_the_local_counts():
    distributed = pytest.importorskip("distributed")
    kw = dict(samples=30, seed=4, games=["S", "misere"], seller_trump="S")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        remote = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), scheduler=cluster.scheduler_address, **kw)
    local = B.analyse(RU4, parse_hand("♠AK7 ♥AQ ♦K98"), **kw)
    for key in local.tricks:
        assert np.array_equal(remote.tricks[key], local.tricks[key])


def test_worker_processes_share_the_memory_budget(monkeypatch, in_process_pool):
    # issue 31 §4: with --jobs J each worker's Solver is one of J solving at once, so its table may grow
    # to its share only (solver_for's lanes), as table -j's threads do
    import kingsolve.solver as solver_mod
    import kingsolve.workers as workers_mod
    seen = []
    real = solver_mod.solver_for
    monkeypatch.setattr(solver_mod, "solver_for", lambda h, t=None, lanes=1: seen.append(lanes) or real(h, t, lanes))
    monkeypatch.setattr(workers_mod, "StoppablePool", in_process_pool)
    k = B.make_knowledge(RU4, 1, ALL_SPADES_RU4)
    plan = B.Plan(k, (B.Task("own:S", B.choices_for(RU4)[0], 1, 1),))
    B.run_plan(plan, samples=20, seed=1, jobs=2)
    assert seen and set(seen) == {2}
