"""kingsolve.advise: play and order advice by sampling what a seat cannot see
and solving each deal double dummy — known answers on constructed positions,
agreement with exhaustive enumeration on small ones, and results that do not
depend on --jobs."""
import json
import math
import random

import numpy as np
import pytest

from kingsolve import reference
from kingsolve.advise import (
    BLIND_SPOT, _solver, advise_record, drop_solvers, order_advice, order_table, order_types, paired_p_better, play_advice, play_table,
)
from kingsolve.cards import card_str, cards_of, parse_card
from kingsolve.engine import Position, legal_mask, play
from kingsolve.errors import IllegalPlayError, InvalidLayoutError, InvalidRulesError
from kingsolve.kdn import parse_kdn
from kingsolve.knowledge import observe
from kingsolve.layout import parse_hand
from kingsolve.variants import get_variant
from kingsolve.workers import range_size
from kingsolve.reporting.advise import chance_text, summary_lines, to_json, to_text

from strategies import random_hands

UA3 = get_variant("ua3")
RU4 = get_variant("ru4")


def c(text):
    return parse_card(text)


def test_the_cards_that_cannot_win_a_trick_are_never_the_advice():
    # ua3 plus-tricks (take tricks, 2 points each), seat 1 leads with every spade in play
    # (♠A is in the talon) and the three sevens.  A spade lead takes exactly the seven spade
    # tricks in every deal (14 points); the sevens can win nothing, and leading one lets the
    # others run a suit and squeeze spades out of the hand.
    hand = parse_hand("♠KQJ1098 7 ♥7 ♦7 ♣7")
    a = play_advice(UA3, UA3.contract("plus-tricks"), 0, hand, samples=40, seed=5)
    t = a.table
    spades = [card_str(x) for x in cards_of(hand) if x >> 4 == 0]
    assert t.index[0] in spades and a.summary["recommended"] in spades
    for s in spades:
        assert t.loc[s, "mean"] == 14 and t.loc[s, "p_best"] == 1 and t.loc[s, "mean_loss"] == 0
        assert t.loc[s, "min"] == t.loc[s, "max"] == 14
    for s in ("H7", "D7", "C7"):
        assert t.loc[s, "mean"] < 14 and t.loc[s, "mean_loss"] > 0
    # the other spades are worth the same in every deal: named with the advice, not as its runner-up
    assert sorted(a.summary["equal"] + [a.summary["recommended"]]) == sorted(spades)
    assert a.summary["second"] in ("H7", "D7", "C7") and a.summary["p_second_better"] < 0.5
    assert "the same in every sampled deal" in "\n".join(summary_lines(a))


def _late_position(seed):
    # a random ua3 deal played at random to trick 8 (three cards each left): few consistent deals
    rng = random.Random(seed)
    con = UA3.contract(rng.choice(["no-tricks", "no-hearts", "no-last-two", "erajlash", "plus-king"]))
    rules = con.deal_rules()
    hands = random_hands(UA3, rng)
    pos = Position(hands, 0)
    cards = []
    for _ in range(21 + rng.randrange(3)):
        x = rng.choice(list(cards_of(legal_mask(rules, pos))))
        cards.append(x)
        pos = play(rules, pos, x).position
    return con, hands, cards, pos


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_means_estimate_the_average_over_every_consistent_deal(seed):
    con, hands, cards, pos = _late_position(seed)
    seat = pos.to_move
    rules = con.deal_rules()
    ob = observe(UA3, rules, seat=seat, hand=hands[seat], plays=cards)
    deals = list(ob.knowledge.deals())
    assert len(deals) == ob.knowledge.count
    exact = {}
    for d in deals:
        p = ob.position(d)
        for x, v in reference.card_values(rules, p, 1 << seat).items():
            exact.setdefault(card_str(x), []).append(v)
    a = play_advice(UA3, con, seat, hands[seat], played=cards, samples=300, seed=seed)
    assert a.deals == len(deals)
    assert set(a.table.index) == set(exact)
    for code, vals in exact.items():
        r = a.table.loc[code]
        assert min(vals) <= r["min"] <= r["max"] <= max(vals)
        spread = max(r["se"], 1e-9) if not math.isnan(r["se"]) else 1e-9
        assert abs(r["mean"] - np.mean(vals)) <= 4 * spread + 1e-9, (code, r["mean"], np.mean(vals), r["se"])


def test_jobs_do_not_change_the_result():
    con, hands, cards, pos = _late_position(4)
    seat = pos.to_move
    one = play_advice(UA3, con, seat, hands[seat], played=cards, samples=45, seed=9)
    two = play_advice(UA3, con, seat, hands[seat], played=cards, samples=45, seed=9, jobs=2)
    assert np.array_equal(one.values, two.values) and one.table.equals(two.table)
    again = play_advice(UA3, con, seat, hands[seat], played=cards, samples=20, seed=9)
    assert np.array_equal(again.values, one.values[:20])   # the first samples are the same for any count


def test_drop_solvers_starts_the_next_run_cold():
    """A thread keeps its solver (and its warm table) from run to run;
    drop_solvers forgets it, so a benchmark's next run starts as a fresh
    process does, and gives the same values."""
    con, hands, cards, pos = _late_position(4)
    seat = pos.to_move
    one = play_advice(UA3, con, seat, hands[seat], played=cards, samples=10, seed=3)
    kept = _solver(UA3.hand_size)
    assert _solver(UA3.hand_size) is kept and kept.stats["nodes"] > 0
    drop_solvers()
    fresh = _solver(UA3.hand_size)
    assert fresh is not kept and fresh.stats["nodes"] == 0
    again = play_advice(UA3, con, seat, hands[seat], played=cards, samples=10, seed=3)
    assert np.array_equal(again.values, one.values)


def test_a_small_chance_is_not_printed_as_none():
    # 0.25% rounds to "0%", which reads as a certainty the sampling does not give
    assert chance_text(0.0025) == "under 1%"
    assert chance_text(0.9975) == "over 99%"
    assert chance_text(0.0) == "0%" and chance_text(1.0) == "100%"
    assert chance_text(0.0051) == "1%" and chance_text(0.42) == "42%"


def test_paired_probability():
    a = np.array([3, 3, 3, 3])
    assert paired_p_better(a, a) == 0.5
    assert paired_p_better(a, a - 1) == 0.0 and paired_p_better(a - 1, a) == 1.0
    # a paired t-test: over 6 deals, the tail of Student's t with 5 degrees of freedom
    x = np.array([2, 0, 1, 3, 0, 2])
    y = np.array([1, 1, 0, 2, 1, 1])
    d = x - y
    z = d.mean() / (d.std(ddof=1) / math.sqrt(len(d)))
    from scipy import stats
    assert paired_p_better(x, y) == pytest.approx(stats.t.sf(z, len(d) - 1))
    assert paired_p_better(y, x) == pytest.approx(stats.t.cdf(z, len(d) - 1))


def test_few_deals_give_an_honestly_wide_chance():
    # three deals, the margin three standard errors wide: t with 2 degrees of
    # freedom has the closed form P(T > t) = 1/2 - t / (2 sqrt(2 + t^2)), 4.8%;
    # the normal tail, 0.13%, would print "under 1%" for three deals
    r = math.sqrt(3)                        # differences mean √3, standard deviation 1
    a = np.array([r - 1, r, r + 1])
    d = a - 0
    t = d.mean() / (d.std(ddof=1) / math.sqrt(3))
    assert t == pytest.approx(3.0)
    p = paired_p_better(a, np.zeros(3))
    assert p == pytest.approx(0.5 - t / (2 * math.sqrt(2 + t * t)))
    assert chance_text(p) == "5%"
    # many deals: the normal tail
    rng = np.random.default_rng(7)
    big = rng.normal(0.04, 1.0, 4000)      # z about 1.4
    zb = big.mean() / (big.std(ddof=1) / math.sqrt(len(big)))
    assert paired_p_better(big, np.zeros(len(big))) == pytest.approx(0.5 * math.erfc(zb / math.sqrt(2)), rel=1e-2)


def test_one_deal_gives_no_chance():
    assert math.isnan(paired_p_better(np.array([2]), np.array([1])))
    assert math.isnan(paired_p_better(np.array([], dtype=int), np.array([], dtype=int)))
    v = get_variant("ru4")
    con = v.contract("no-tricks")
    a = play_advice(v, con, 0, parse_hand("♠AK7 ♥Q9 ♦J8 ♣7"), samples=1, seed=3)
    text = to_text(a)
    data = json.loads(to_json(a))
    assert "second" in a.summary            # the cards differ in this deal
    assert "one deal cannot tell how likely" in text and "really better:" not in text
    assert data["summary"]["p_second_better"] is None


def test_interrupt_keeps_the_finished_samples(monkeypatch):
    import kingsolve.advise as A
    real = A.solve_samples
    calls = {"n": 0}

    def stop_on_third(plan, start, stop, lanes=1, deadline=None):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(plan, start, stop, lanes, deadline)
    monkeypatch.setattr(A, "solve_samples", stop_on_third)
    con, hands, cards, pos = _late_position(5)
    seat = pos.to_move
    a = play_advice(UA3, con, seat, hands[seat], played=cards, samples=100, seed=1)
    assert a.interrupted and a.samples == 2 * range_size(UA3.hand_size, 100, 1, most=A.RANGE) and a.requested == 100
    # they are the first samples: the same seed and that many give the same values
    b = play_advice(UA3, con, seat, hands[seat], played=cards, samples=a.samples, seed=1)
    assert np.array_equal(a.values, b.values)


def test_order_advice_every_type_best_first():
    hand = parse_hand("♠AK7 ♥Q9 ♦J8 ♣7")
    a = order_advice(RU4, 0, hand, samples=4, seed=2, left=["no-king", "plus-tricks", "erajlash"])
    t = a.table
    assert t["mean"].is_monotonic_decreasing and list(t["rank"]) == [1, 2, 3]
    assert set(t.index) == {"no-king", "plus-tricks", "erajlash"}
    assert (t.loc["plus-tricks", "min"] >= 0) and (t.loc["erajlash", "max"] <= 0)
    assert len(order_types(RU4)) == 14 and order_types(get_variant("king52")) == ()
    df = order_table(RU4, 0, hand, samples=2, seed=2, left=["plus-king"])
    assert list(df.index) == ["plus-king"]
    with pytest.raises(InvalidRulesError, match="'trump' is not a deal type one may order"):
        order_advice(RU4, 0, hand, samples=2, left=["trump"])


def test_bad_input_is_one_line():
    hand = parse_hand("♠KQJ1098 7 ♥7 ♦7 ♣7")
    con = UA3.contract("no-tricks")
    with pytest.raises(InvalidLayoutError, match="has 9 cards; ua3 deals 10"):
        play_advice(UA3, con, 0, parse_hand("♠KQJ1098 7 ♥7 ♦7"))
    with pytest.raises(IllegalPlayError, match="♠K cannot be seat 2's: it is seat 1's"):
        play_advice(UA3, con, 0, hand, leader=1, played=[c("SK")])
    with pytest.raises(InvalidLayoutError, match="it is seat 2's turn, not seat 1's"):
        play_advice(UA3, con, 0, hand, played=[c("S7")])
    with pytest.raises(InvalidRulesError, match="--samples 0"):
        play_advice(UA3, con, 0, hand, samples=0)


def test_python_api_and_the_blind_spot():
    hand = parse_hand("♠KQJ1098 7 ♥7 ♦7 ♣7")
    df = play_table(UA3, UA3.contract("plus-tricks"), 0, hand, samples=3, seed=1)
    assert list(df.columns[:6]) == ["rank", "card", "mean", "se", "p_best", "mean_loss"]
    assert "visible" in BLIND_SPOT


def test_a_record_point_and_its_errors():
    text = ('[Variant "ua3"] [Contract "no-tricks"] [Leader "1"]\n'
            '[Layout "1:KQJ.T98.QJ.KQ 987.A7.AK.JT9 .KQJ.T987.87"]\n'
            '[Play]\n1. ♠K - ♠7 - ♥K.\n2. ♥10 - ♥A - ♥Q.\n*\n')
    (rec,) = parse_kdn(text)
    a = advise_record(rec, "3", samples=10, seed=1)
    assert a.seat == 1 and a.observation.trick_index == 2       # seat 2 took trick 2 and leads
    assert a.observation.knowledge.allowed[2] & parse_hand("♠KQJ1098 7") == 0   # seat 3 showed out of ♠
    b = advise_record(rec, "2.2", samples=10, seed=1)
    assert b.seat == 1 and set(b.table.index) == {"HA", "H7"}
    with pytest.raises(InvalidRulesError, match="past the end of the record"):
        advise_record(rec, "3.2")
    with pytest.raises(InvalidRulesError, match="--at '1.4'"):
        advise_record(rec, "1.4")
    with pytest.raises(InvalidLayoutError, match="has 3 cards"):
        advise_record(rec, "2", hand=parse_hand("♠987"))


def test_a_dask_cluster_gives_the_same_result():
    distributed = pytest.importorskip("distributed")
    con, hands, cards, pos = _late_position(6)
    seat = pos.to_move
    here = play_advice(UA3, con, seat, hands[seat], played=cards, samples=25, seed=3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        there = play_advice(UA3, con, seat, hands[seat], played=cards, samples=25, seed=3,
                            scheduler=cluster.scheduler_address)
    assert np.array_equal(here.values, there.values)


def test_a_seat_that_must_duck():
    # ua3 no-tricks (-2 a trick).  Seat 1 wins the first eight tricks; at trick 9 it leads ♠8,
    # seat 2 plays ♠9, and seat 3 holds ♠K ♠7.  Seat 2 showed out of hearts at trick 8, so it
    # holds the ♦7 and seat 1 the ♥7: one deal only.  Ducking (♠7) gives seat 2 the trick and
    # its ♦7 lead lets seat 3 throw the ♠K: 0.  The ♠K takes trick 9 and the ♠7 is then led
    # into two cards of other suits: -4.
    hands = ["♠Q8 ♥AJ87 ♦AJ ♣KJ", "♠J9 ♥KT ♦KT87 ♣QT", "♠KT7 ♥Q9 ♦Q9 ♣987"]
    play_text = "♠Q ♠J ♠10 ♥A ♥K ♥Q ♥J ♥10 ♥9 ♦A ♦K ♦Q ♦J ♦10 ♦9 ♣K ♣Q ♣9 ♣J ♣10 ♣8 ♥8 ♦8 ♣7 ♠8 ♠9"
    from kingsolve.cards import parse_cards
    a = play_advice(UA3, UA3.contract("no-tricks"), 2, parse_hand(hands[2]), played=parse_cards(play_text),
                    samples=5, seed=1)
    assert a.deals == 1
    assert a.summary["recommended"] == "S7" and a.summary["p_second_better"] == 0.0
    assert a.table.loc["S7", "mean"] == 0 and a.table.loc["SK", "mean"] == -4
    assert a.table.loc["S7", "p_best"] == 1 and a.table.loc["SK", "p_best"] == 0
