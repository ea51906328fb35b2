"""Each for himself (max^n): every seat plays for its own points.

The plain-Python oracle (``kingsolve.reference.each_*``) on positions worked
out by hand and on properties every position has; the core (``EachSearch``,
its tables and prunings) against the oracle on random small positions of
every variant and contract."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kingsolve import reference
from kingsolve.cards import cards_of
from kingsolve.engine import Position, legal_mask, play
from kingsolve.layout import Layout
from kingsolve.variants import get_variant

from test_reference import C, setup
from strategies import VARIANT_CONFIGS, all_contracts, config_id, examples, random_hands, small_positions


def remaining_points(r, p):
    """Every point still to be scored from ``p``: the live cards' and the tricks'."""
    live = p.hands[0] | p.hands[1] | p.hands[2] | (p.hands[3] if len(p.hands) > 3 else 0)
    cards = sum(r.card_points[c] for c in range(64) if live >> c & 1) + sum(r.card_points[c] for c in p.trick)
    return cards + sum(r.trick_points[p.trick_index:p.trick_index + p.tricks_left])


def test_tie_rule_decides_who_takes_the_hearts():
    # ua3 no-hearts (each heart costs 2, tricks nothing).
    # 1: ♥Q ♦8   2: ♥7 ♦T   3: ♠8 ♥9, seat 1 leads.
    # Lead ♥Q: ♥7 and ♥9 follow, seat 1 takes three hearts (-6) and the ♦ trick
    #   costs nothing: (-6, 0, 0) whatever the others do.
    # Lead ♦8: ♦T wins it; seat 3, void, is indifferent (it takes nothing either way):
    #   - discard ♠8: seat 2 then leads ♥7, ♥9 and ♥Q follow, seat 1 wins: (-6, 0, 0);
    #   - discard ♥9: seat 2's trick costs it 2, then ♥7 ♠8 ♥Q: seat 1 takes two: (-4, -2, 0).
    # neutral: seat 3 plays its lowest card, ♠8 (spades before hearts): seat 1 is at
    #   -6 either way, and both leads give (-6, 0, 0): no choice of seat 1's is a tie.
    # pessimistic: seat 3 holds down the best-placed other seat: max(-6, 0) = 0 against
    #   max(-4, -2) = -2, so ♥9; seat 1 then leads ♦8 for -4 rather than ♥Q for -6.
    r, p = setup("ua3", "no-hearts", "1:.Q.8. .7.T. 8.9..")
    vec, line, ties = reference.each_line(r, p, "neutral")
    assert vec == (-6, 0, 0) and ties == [2]
    vec, line, ties = reference.each_line(r, p, "pessimistic")
    assert vec == (-4, -2, 0)
    assert line[:3] == [C("D8"), C("DT"), C("H9")] and ties == [2]


def test_choose_rules():
    # seat 0 to move, three cards giving it 5 each; the others' vectors differ
    opts = [(C("SA"), (5, 6, 0, 1)), (C("S2"), (5, 1, 3, 3)), (C("H2"), (5, 7, 0, 0)), (C("C2"), (4, 8, 0, 0))]
    # neutral: the lowest card (♠2 is below ♠A; spades before hearts)
    assert reference.each_choose("neutral", 0, opts) == (1, True)
    # pessimistic: the others' top is 6, 3, 7 for the three tied cards: ♠2
    assert reference.each_choose("pessimistic", 0, opts) == (1, True)
    opts[1] = (C("S2"), (5, 7, 0, 0))
    # now ♠A (top 6) is the pessimistic choice; neutral still the ♠2
    assert reference.each_choose("pessimistic", 0, opts) == (0, True)
    assert reference.each_choose("neutral", 0, opts) == (1, True)
    # equal vectors are no tie
    assert reference.each_choose("neutral", 0, [(1, (2, 0, 0)), (2, (2, 0, 0)), (3, (1, 1, 0))]) == (0, False)
    with pytest.raises(ValueError):
        reference.each_choose("friendly", 0, opts)


@examples(120)
@given(small_positions(max_cards=3))
def test_reference_vector_sums_and_guarantees(sp):
    r, p = sp.rules, sp.position
    for tb in reference.TIE_BREAKS:
        vec, line, ties = reference.each_line(r, p, tb)
        assert sum(vec) == remaining_points(r, p)
        # each seat's each-for-himself points are at least its guarantee alone against the rest
        for s in range(r.n_seats):
            assert vec[s] >= reference.value(r, p, 1 << s)
        # the line is legal, scores the vector, and follows the card vectors
        q, got = p, [0] * r.n_seats
        for c in line:
            st = play(r, q, c)
            if st.winner is not None:
                got[st.winner] += st.points
            q = st.position
        assert q.finished and tuple(got) == vec
        assert all(0 <= i < len(line) for i in ties)


def core_for(r, tt_log2=12):
    from kingsolve._core import EachSearch
    es = EachSearch(tt_log2)
    es.configure(r.n_seats, r.trump, r.inverted, r.card_points, r.trick_points, r.lead_restricted,
                 r.discard_forced)
    return es


def core_args(p):
    return list(p.hands), p.leader, list(p.trick), p.trick_index


@examples(300)
@given(small_positions(max_cards=4))
def test_core_equals_reference(sp):
    r, p = sp.rules, sp.position
    es = core_for(r)
    for tb in reference.TIE_BREAKS:
        want = reference.each_value(r, p, tb)
        assert es.value(*core_args(p), tb) == want
        assert es.card_vectors(*core_args(p), tb) == reference.each_children(r, p, tb)
        # every vector sums to the points left; each seat gets at least its guarantee
        assert sum(want) == remaining_points(r, p)
        for s in range(r.n_seats):
            assert want[s] >= reference.value(r, p, 1 << s)


@examples(60)
@given(small_positions(max_cards=4), st.sampled_from([(False, True, True), (True, False, True),
                                                      (True, True, False), (False, False, False)]))
def test_core_techniques_do_not_change_the_value(sp, switches):
    # the table, rank equivalence and shallow pruning switched off one at a time
    # (and all together) give the reference's vectors
    r, p = sp.rules, sp.position
    es = core_for(r)
    es.techniques(*switches)
    for tb in reference.TIE_BREAKS:
        assert es.value(*core_args(p), tb) == reference.each_value(r, p, tb)


def test_core_rejects_a_bad_tie_rule_and_position():
    r, p = setup("ru4", "no-tricks", "1:A... K... Q... J...")
    es = core_for(r)
    with pytest.raises(ValueError, match="tie_break"):
        es.value(*core_args(p), "friendly")
    with pytest.raises(ValueError):
        es.value([1, 2, 4], 0, [], 0)


@pytest.mark.parametrize("config", VARIANT_CONFIGS, ids=config_id)
def test_core_every_contract_of_every_variant_setting(config):
    # seeded random 3-card positions (some mid-trick) of every contract and
    # trump of each variant with each option setting the tests cover
    import random
    vid, options = config
    v = get_variant(vid, options)
    rng = random.Random(34)
    for con in all_contracts(v):
        r = con.deal_rules(3)
        es = core_for(r)
        for k in range(2):
            p = Position(random_hands(v, rng, 3), k % v.n_seats)
            if k:
                p = play(r, p, rng.choice(list(cards_of(legal_mask(r, p))))).position
            for tb in reference.TIE_BREAKS:
                assert es.value(*core_args(p), tb) == reference.each_value(r, p, tb), (con, p, tb)


def test_api_whole_deal_line_and_cards():
    # a whole ru4 deal: the vector adds up to the contract's total, the line replays
    # to it, and its first card is the rule's choice among the card vectors
    from kingsolve.each import EachSolver, solve_each
    from kingsolve.engine import replay
    v = get_variant("ru4")
    import random
    lay = Layout(random_hands(v, random.Random(3)), 0)
    for name, trump in (("no-hearts", "default"), ("plus-king", "default"), ("trump", 1)):
        con = v.contract(name, trump)
        res = solve_each(lay, con, cards=True, solver=EachSolver(16))
        assert res.total == con.total
        rep = replay(res.deal.rules, res.deal.position, res.line)
        assert tuple(x + con.seat_base for x in rep.points) == res.points
        opts = sorted(res.cards.items())
        assert opts[reference.each_choose("neutral", 0, opts)[0]][0] == res.line[0]
        assert max(v[0] for v in res.cards.values()) == res.points[0]


def test_api_seat_base_and_refusal():
    # king52 minus: every seat starts at 325 (source 000's scoring), included in each seat's points
    from kingsolve.each import OutOfReach, solve_each
    v = get_variant("king52")
    import random
    hands = random_hands(v, random.Random(5), 3)
    con = v.contract("minus", "S")
    res = solve_each(Layout(hands, 0), con)
    r = con.deal_rules(3)
    assert res.points == tuple(x + con.seat_base for x in reference.each_value(r, Position(hands, 0)))
    with pytest.raises(OutOfReach, match="up to 9 cards"):
        solve_each(Layout(random_hands(v, random.Random(5), 10), 0), con)


@pytest.mark.parametrize("vid,name,trump", [("ru4", "plus-boys", "default"), ("ru4", "no-girls", "default"),
                                            ("ua3", "plus-girls", "default"), ("king52", "trump", "H")])
def test_core_table_growth_keeps_the_values(vid, name, trump):
    # a vector table of 2^8 entries that grows to 2^10 while the search runs
    # (moving its entries) gives the vectors of one that never needs to
    import random
    v = get_variant(vid)
    con = v.contract(name, trump)
    r = con.deal_rules(6)
    from kingsolve._core import EachSearch
    rng = random.Random(f"growth-{vid}-{name}")
    grew = False
    for _ in range(2):
        p = Position(random_hands(v, rng, 6), 0)
        for tb in reference.TIE_BREAKS:
            small, big = EachSearch(8, 10), EachSearch(16, 16)
            for es in (small, big):
                es.configure(r.n_seats, r.trump, r.inverted, r.card_points, r.trick_points, r.lead_restricted,
                             r.discard_forced)
            assert small.value(*core_args(p), tb) == big.value(*core_args(p), tb)
            assert small.card_vectors(*core_args(p), tb) == big.card_vectors(*core_args(p), tb)
            grew = grew or small.stats["tt_entries"] == 1 << 10
    assert grew


def test_core_pessimistic_stops_on_a_tie_it_is_sure_to_lose():
    # ru4 plus-tricks (2 a trick).  1: ♠9 ♠8 ♠7   2: ♠10 ♦7 ♣7   3: ♠A ♥8 ♥7   4: ♠K ♥10 ♥9.
    # Seat 3 wins the spade trick and leads a heart; seat 4 takes the last two
    # tricks whatever seats 1 and 2 discard.  Seat 2, indifferent between ♦7
    # and ♣7, searches ♦7 first: seat 4 ends on 4, the most any seat other than
    # seat 2 gets.  After ♣7 (a higher card: a tie must hold the others
    # lower to win) seat 4 leads the last trick and has 2 of it at once, 4
    # counted from seat 2's card: the tie is lost there and the search stops
    # -- under the pessimistic rule too (it searched on before).
    r, p = setup("ru4", "plus-tricks", "1:987... T..7.7 A.87.. K.T9..")
    for tb in reference.TIE_BREAKS:
        es = core_for(r)
        assert es.value(*core_args(p), tb) == reference.each_value(r, p, tb) == (0, 0, 2, 4)
        assert es.stats["cuts"] >= 1, tb
