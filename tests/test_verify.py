"""kingsolve.verify: inference of lost cards and unseen hands, replay, claims,
per-play marks — on the three textbook deals of seed 000 (what follows from the
source text, said for each) and on small records checked against the engine
and the reference solver."""
import itertools
import os

import pytest

from kingsolve.cards import SUIT_MASKS, DIAMONDS, bit, card_str, card_symbol, cards_of, parse_card
from kingsolve.engine import Position, legal_mask, play, replay
from kingsolve.errors import IllegalPlayError, ParseError
from kingsolve.kdn import parse_kdn
from kingsolve.layout import Layout
from kingsolve import reference
from kingsolve.variants import get_variant
from kingsolve.knowledge import from_constraints
from kingsolve.verify import build_slots, infer, seats_of, setup_record, slot_choices, verify_record

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def c(text):
    return parse_card(text)


def load(name):
    with open(os.path.join(EXAMPLES, name), encoding="utf-8") as fh:
        (rec,) = parse_kdn(fh.read(), source=name)
    return rec


@pytest.fixture(scope="module")
def deal1():
    return verify_record(load("1_no_hearts.kdn"), marks=False)


@pytest.fixture(scope="module")
def deal2():
    return verify_record(load("2_no_last_two.kdn"), marks=False)


@pytest.fixture(scope="module")
def deal3():
    return verify_record(load("3_bought_trump.kdn"))


def unsure(rep):
    """{(trick, token text): {card: readings}} of the kept readings."""
    return {(sl.trick + 1, sl.token.text): tally for sl, tally in slot_choices(rep)}


# ---------------------------------------------------------------- the third example (bought trump game)

def test_deal3_the_garbled_and_bare_cards_have_one_reading_all_hearts(deal3):
    # The source lost the heart symbols (RULES.md §6); the play alone pins every card down.
    assert len(deal3.readings) == 1
    got = {k: list(v) for k, v in unsure(deal3).items()}
    # «До» of trick 3: seat 2 takes that trick with Тч and leads trick 4 ("це ходить
    # другий гравець, який отримав хабар"), so До is a heart below the ace: the ♥K.
    assert got[(3, "До")] == [c("HK")]
    assert got == {(3, "До"): [c("HK")], (3, "7"): [c("H7")], (4, "9"): [c("H9")], (4, "Д"): [c("HQ")],
                   (4, "8"): [c("H8")], (5, "В"): [c("HJ")], (5, "10"): [c("HT")]}


def test_deal3_reconstruction_is_what_each_seat_played(deal3):
    # Every card is played, so each hand is the cards its seat played: seat 3 (the buyer)
    # leads trick 1, the winner leads next.  ♠A ♣A are the talon.
    assert deal3.layout == Layout.from_str("1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K")
    seats, winners = seats_of(deal3.setup, deal3.reading.cards)
    assert winners[2] == 1 and seats[9] == 1   # seat 2 wins trick 3 and leads trick 4 (the source's remark)


def test_deal3_debt_and_claim(deal3):
    # "за мінусом двох хабарів у третьої руки, які він у вигляді боргу віддає першій руці:
    #  I гравець має 3 хабарі, II - 3 хабарі та III - 4 хабарі" (RULES.md §4: buyer takes 6, pays 2, keeps 4)
    assert deal3.raw_score["tricks"] == [1, 3, 6]
    assert deal3.score["tricks"] == [3, 3, 4]
    assert deal3.score["points"] == [9, 9, 12]          # +3 a trick in a хваленка
    (chk,) = deal3.claims
    assert chk.target.unit == "tricks" and chk.status == "holds" and chk.values == {1: 3, 2: 3, 3: 4}
    assert deal3.ok and deal3.finished


def test_deal3_marks_match_the_reference_solver_at_the_end(deal3):
    setup = deal3.setup
    pos = Position(deal3.layout.hands, setup.leader)
    for m in deal3.marks:
        held = sum(h.bit_count() for h in pos.hands)
        if held <= 9:   # the reference minimax is the oracle on small positions
            vals = reference.card_values(setup.rules, pos, 1 << (m.seat - 1))
            assert (m.value, m.best, m.worst) == (vals[m.card], max(vals.values()), min(vals.values()))
        pos = play(setup.rules, pos, m.card).position
    assert len(deal3.marks) == 30 and all(m.loss == m.best - m.value >= 0 for m in deal3.marks)
    assert all((m.mark != "") == (m.loss > 0) for m in deal3.marks)


# ---------------------------------------------------------------- the second example (no last two)

def test_deal2_talon_slip_is_reported_not_repaired_silently(deal2):
    # RULES.md §6: printed "Прикуп: ♠Т, ♠К", but ♠К is played by the first hand in trick 1
    assert any("♠K of the printed talon is played in trick 1" in n for n in deal2.notes)


def test_deal2_trick4_ace_and_king_are_hearts(deal2):
    got = unsure(deal2)
    # Т: ♦Т is printed in trick 6 and the black aces are the talon, so only ♥A is left.
    assert list(got[(4, "Т")]) == [c("HA")]
    # К: ♠К (trick 1) and ♣К (trick 3) are printed; a led ♦K would make seat 3 win trick 4
    # and lead ♣10, after which seat 2 would play ♦В having shown out of ♦.
    assert list(got[(4, "К")]) == [c("HK")]
    assert set(got[(4, "10")]) <= {c("HT"), c("DT")}


def test_deal2_third_hand_on_lead_and_claims_possible(deal2):
    # "І з чого б тепер не зайшла третя рука": seat 3 (0-based 2) leads trick 7
    assert deal2.reading.position.leader == 2 and deal2.reading.position.trick_index == 6
    assert not deal2.finished
    statuses = [c.status for c in deal2.claims]
    assert "fails" not in statuses and deal2.ok
    # some deal the play allows has the third hand take the last two (3:-20) and all four tricks
    assert deal2.n_matching >= 1
    last_two = deal2.claims[1]
    assert last_two.example_hold["values"] == {3: -20}


# ---------------------------------------------------------------- the first example (no hearts)

def test_deal1_seats_follow_the_source(deal1):
    seats, winners = seats_of(deal1.setup, deal1.reading.cards)
    # "у першої руки, що поклала на стіл маленьку шпильку": the first hand played ♠7 in trick 2
    assert seats[deal1.reading.cards.index(c("S7"))] == 0
    # "♦К (а що робити, адже виходити з черв'яка не можна)": the third hand leads trick 5
    assert seats[12] == 2 and winners[:3] == [2, 1, 0]


def test_deal1_the_source_reading_is_kept_and_seat2_is_void_in_diamonds(deal1):
    got = unsure(deal1)
    # The bare Д, В, 9 of seat 2 may be hearts (the lost symbol) — the inference keeps that reading
    assert c("HQ") in got[(4, "Д")] and c("HJ") in got[(5, "В")] and c("H9") in got[(6, "9")]
    readings = {tuple(r.cards[i] for i in (10, 14, 17)) for r in deal1.kept}
    assert (c("HQ"), c("HJ"), c("H9")) in readings
    # seat 2 did not follow the ♦8 of trick 4: void in diamonds from then on
    assert all(r.forbidden[1] & SUIT_MASKS[DIAMONDS] == SUIT_MASKS[DIAMONDS] & deal1.setup.variant.deck
               for r in deal1.kept)


def test_deal1_claims_are_consistent_with_the_play(deal1):
    # "у першої руки 5 черв'яків (-10 очок), у другій - 0 і у третьої - 3 (-6 очок)"
    assert [c.status for c in deal1.claims] != [] and all(c.status != "fails" for c in deal1.claims)
    full = deal1.claims[1]
    assert full.example_hold["values"] == {1: -10, 2: 0, 3: -6}
    assert deal1.ok


# ---------------------------------------------------------------- small records

LAYOUT = "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"


def first_legal_line(contract, layout, leader=0, n_cards=30):
    rules = contract.deal_rules()
    pos = Position(layout.hands, leader)
    out = []
    for _ in range(n_cards):
        x = next(cards_of(legal_mask(rules, pos)))
        out.append(x)
        pos = play(rules, pos, x).position
    return out, pos


def kdn_of(cards, contract="no-last-two", extra_tags="", end="*", n=3):
    lines = [f'[Variant "ua3"] [Contract "{contract}"] [Leader "1"]{extra_tags}', "[Play]"]
    for t in range(0, len(cards), n):
        lines.append(f"{t // n + 1}. " + " - ".join(card_symbol(x) for x in cards[t:t + n]) + ".")
    if end:
        lines.append(end)
    return "\n".join(lines) + "\n"


def test_unfinished_claim_is_the_double_dummy_value_at_the_cut():
    v = get_variant("ua3")
    con = v.contract("no-last-two")
    lay = Layout.from_str(LAYOUT)
    cards, pos = first_legal_line(con, lay, n_cards=21)      # 7 tricks, 3 to go
    want = {s: reference.value(con.deal_rules(), pos, 1 << s) for s in range(3)}
    claim = " ".join(f"{s + 1}:{want[s]}" for s in range(3))
    text = kdn_of(cards, extra_tags=f' [Layout "{LAYOUT}"]') + f'[Claim "{claim} points"]\n'
    rep = verify_record(parse_kdn(text)[0], marks=False)
    assert rep.layouts_total == 1 and rep.claims[0].status == "holds"
    wrong = " ".join(f"{s + 1}:{want[s] - 10 * (s == 0)}" for s in range(3))
    rep = verify_record(parse_kdn(text.replace(claim, wrong))[0], marks=False)
    assert rep.claims[0].status == "fails" and not rep.ok
    assert rep.claims[0].example_fail["values"][1] == want[0]


def test_unseen_cards_are_dealt_exactly_as_the_engine_allows():
    # Without a layout, every dealing of the 9 unseen cards is tried with the engine's replay:
    # the inference's count must be the number of dealings whose replay is legal.
    v = get_variant("ua3")
    con = v.contract("no-hearts")
    lay = Layout.from_str(LAYOUT)
    cards, _ = first_legal_line(con, lay, n_cards=21)
    rec = parse_kdn(kdn_of(cards, contract="no-hearts"))[0]
    setup = setup_record(rec)
    slots, _ = build_slots(rec, setup)
    (reading,), truncated, failure = infer(setup, slots)
    played = [0, 0, 0]
    seats, _ = seats_of(setup, cards)
    for x, s in zip(cards, seats):
        played[s] |= bit(x)
    unseen = list(cards_of(v.deck & ~sum(played)))
    legal = 0
    for deal in itertools.product(range(3), repeat=len(unseen)):
        if any(deal.count(s) != 10 - played[s].bit_count() for s in range(3)):
            continue
        hands = list(played)
        for x, s in zip(unseen, deal):
            hands[s] |= bit(x)
        try:
            replay(setup.rules, Position(tuple(hands), 0), cards)
        except IllegalPlayError:
            continue
        legal += 1
    assert reading.n_layouts == legal == sum(1 for _ in reading.knowledge.deals())
    assert legal < 1680   # the voids shown in the play do rule dealings out


def test_count_layouts_small_cases():
    # two cards, one to each of two seats, the third seat forbidden both
    def count_layouts(unseen, need, forbid):
        return from_constraints(len(need), unseen, need, forbid).count
    assert count_layouts(0b11, (1, 1, 0), (0, 0, 0)) == 2
    assert count_layouts(0b11, (1, 1, 0), (0b01, 0, 0)) == 1
    assert count_layouts(0b11, (1, 1, 0), (0b11, 0, 0)) == 0
    assert count_layouts(0b111, (1, 1, 1), (0, 0, 0)) == 6


def test_a_bare_rank_is_inferred_from_follow_suit():
    # seat 1 leads ♠K; seat 2's "7" follows suit (♠7 is free) — but ♠7 is printed later,
    # so seat 2's 7 is another suit; and seat 2 then cannot hold spades.
    text = '[Variant "ua3"] [Contract "no-tricks"]\n[Play]\n1. ♠К - 7 - ♠Д.\n2. ♠В - ♠7 - ♠9.\n*\n'
    rep = verify_record(parse_kdn(text)[0], marks=False)
    assert not rep.legal      # seat 2 showed out of ♠ in trick 1 yet plays ♠7 in trick 2
    text = '[Variant "ua3"] [Contract "no-tricks"]\n[Play]\n1. ♠К - 7 - ♠Д.\n2. ♠В - ♦7 - ♠9.\n*\n'
    rep = verify_record(parse_kdn(text)[0], marks=False)
    choices = unsure(rep)[(1, "7")]
    assert set(choices) <= {c("S7"), c("H7"), c("C7")} and c("S7") in choices


def test_illegal_records_name_trick_seat_and_reason():
    bad = {
        "1. ♠A - ♠K - ♠Q.": "♠A is in the talon of ua3",
        "1. ♠K - ♥7 - ♠Q.\n2. ♠J - ♠7 - ♠9.": "seat 2 cannot hold ♠7: showed out of ♠ at trick 1",
        "1. ♠K - ♠Q - ♠9.\n2. ♠K - ♠7 - ♠8.": "♠K was already played",
    }
    for play_text, reason in bad.items():
        text = f'[Variant "ua3"] [Contract "no-hearts"]\n[Play]\n{play_text}\n*\n'
        rep = verify_record(parse_kdn(text)[0], marks=False)
        assert not rep.legal and rep.failure.reason == reason, play_text


def test_no_heart_lead_while_holding_another_suit():
    text = '[Variant "ua3"] [Contract "no-hearts"]\n[Play]\n1. ♥7 - ♥8 - ♥9.\n2. ♠J - ♠7 - ♠9.\n*\n'
    rep = verify_record(parse_kdn(text)[0], marks=False)
    # leading ♥7 at trick 1 means seat 1 held ten hearts — there are eight: found at once
    assert rep.failure.trick == 1 and rep.failure.seat == 1
    assert rep.failure.reason == ("after ♥7 the cards left cannot make up the hands "
                                  "(seat 1 led ♥7 at trick 1, so held only hearts then)")


def test_a_finished_record_claim_that_does_not_add_up_fails():
    v = get_variant("ua3")
    lay = Layout.from_str(LAYOUT)
    cards, _ = first_legal_line(v.contract("no-tricks"), lay)
    rp = replay(v.contract("no-tricks").deal_rules(), Position(lay.hands, 0), cards)
    right = " ".join(f"{s + 1}:{rp.tricks[s]}" for s in range(3))
    rec = parse_kdn(kdn_of(cards, contract="no-tricks", end="") + f'[Claim "{right} tricks"]\n')[0]
    rep = verify_record(rec, marks=False)
    assert rep.finished and rep.claims[0].status == "holds" and rep.layout == lay
    wrong = " ".join(f"{s + 1}:{rp.points[s] - 2 * (s == 1) + 2 * (s == 2)}" for s in range(3))
    rec = parse_kdn(kdn_of(cards, contract="no-tricks", end="") + f'[Claim "{wrong}"]\n')[0]
    rep = verify_record(rec, marks=False)
    assert rep.claims[0].status == "fails" and not rep.ok


def test_missing_tags_are_read_errors():
    with pytest.raises(ParseError, match=r"^x.kdn:1: the record has no \[Variant\] tag"):
        verify_record(parse_kdn('[Contract "no-hearts"]\n[Play]\n1. ♠К - ♠Д - ♠9.\n', source="x.kdn")[0])
    with pytest.raises(ParseError, match=r"trick 1 has 4 cards for 3 seats"):
        verify_record(parse_kdn('[Variant "ua3"] [Contract "no-hearts"]\n[Play]\n1. ♠К - ♠Д - ♠9 - ♠8.\n')[0])
    with pytest.raises(ParseError, match=r"\[Bought"):
        verify_record(parse_kdn('[Variant "ua3"] [Contract "trump"] [Trump "D"] [Bought "3 for 2"]\n[Play]\n')[0])


# ---------------------------------------------------------------- random records, every variant and contract

from hypothesis import given, strategies as st  # noqa: E402

from strategies import VARIANT_CONFIGS, all_contracts, examples, random_hands  # noqa: E402
from kingsolve.cards import rank_letter, rank_of, TEN  # noqa: E402
import random  # noqa: E402


def _bare(x):
    return "10" if rank_of(x) == TEN else rank_letter(rank_of(x))


@examples(30)
@given(config=st.sampled_from(VARIANT_CONFIGS), seed=st.integers(0, 10 ** 6))
def test_random_records_the_truth_is_a_reading_and_every_layout_replays(config, seed):
    # A random deal and a random legal play, printed with some suits lost and some cards
    # unreadable, stopped early: the true reading and the true deal must be among those
    # found, and every deal found must replay legally in the engine.
    rng = random.Random(seed)
    vid, options = config
    v = get_variant(vid, options)
    con = rng.choice(all_contracts(v))
    hands = random_hands(v, rng)
    rules = con.deal_rules()
    pos = Position(hands, 0)
    n = v.n_seats
    n_cards = rng.randrange(n, n * v.hand_size - n)
    cards = []
    for _ in range(n_cards):
        x = rng.choice(list(cards_of(legal_mask(rules, pos))))
        cards.append(x)
        pos = play(rules, pos, x).position
    shown = []
    for x in cards:
        roll = rng.random()
        shown.append("?" if roll < 0.03 else _bare(x) if roll < 0.2 else card_symbol(x))
    lines = [f'[Variant "{vid}"] [Contract "{con.name}"] [Leader "1"]'
             + (f' [Trump "{con.trump_letter}"]' if con.name in ("trump", "misere", "minus", "tricks") else "")
             + (f' [Options "{" ".join(options)}"]' if options else ""), "[Play]"]
    for t in range(0, len(shown), n):
        lines.append(f"{t // n + 1}. " + " - ".join(shown[t:t + n]))
    lines.append("*")
    (rec,) = parse_kdn("\n".join(lines) + "\n")
    setup = setup_record(rec)
    slots, _ = build_slots(rec, setup)
    readings, truncated, failure = infer(setup, slots, limit=300)
    if truncated:
        return   # too many readings, or the search gave up: nothing to check
    assert failure is None
    truth = [r for r in readings if list(r.cards) == cards]
    assert len(truth) == 1
    (r,) = truth
    true_extra = tuple(h & r.unseen for h in hands)
    deals = list(itertools.islice(r.knowledge.deals(), 5000))
    if len(deals) < 5000:
        assert len(deals) == r.n_layouts
        assert any(d[:n] == true_extra for d in deals)
    for d in deals[:30]:
        lay = [p | e for p, e in zip(r.played, d)]
        replay(rules, Position(tuple(lay), 0), cards)   # raises if the inference let an illegal deal through


def test_unfinished_trick_count_claim_from_a_trick_is_the_double_dummy_count():
    # "whatever she leads, the remaining tricks are hers": the fewest tricks the seat can take
    # from the cut, the others giving her as many as they can (the reference solver, −1 a trick)
    from dataclasses import replace
    v = get_variant("ua3")
    con = v.contract("no-last-two")
    lay = Layout.from_str(LAYOUT)
    cards, pos = first_legal_line(con, lay, n_cards=21)
    rules = con.deal_rules()
    count_rules = replace(rules, card_points=(0,) * 64, trick_points=(-1,) * 10)
    fewest = -reference.value(count_rules, pos, 1 << 2)
    text = kdn_of(cards, extra_tags=f' [Layout "{LAYOUT}"]')
    rep = verify_record(parse_kdn(text + f'[Claim "3:{fewest} tricks from 8"]\n')[0], marks=False)
    assert rep.claims[0].status == "holds" and rep.claims[0].target.start == 7
    rep = verify_record(parse_kdn(text + f'[Claim "3:{fewest + 1} tricks from 8"]\n')[0], marks=False)
    assert rep.claims[0].status == "fails"
    with pytest.raises(ParseError, match=r"the record stops in trick 8; a claim about the tricks from 9"):
        verify_record(parse_kdn(text + '[Claim "3:1 tricks from 9"]\n')[0], marks=False)


def test_an_end_position_layout_is_the_last_tricks_of_the_deal():
    # INTERFACE.md: an end position is fine; "the last two" are the last two tricks of the layout.
    # Three cards each: seat 1 wins trick 1 with ♠K (not one of the last two) and then leads
    # ♣7 (♣9 wins) rather than ♥A (it would win trick 2 and still lead ♣7 into the last): 0 for seat 1.
    head = ('[Variant "ua3"] [Contract "no-last-two"] [Leader "1"]\n'
            '[Layout "1:K.A..7 Q.K..8 J..A.9"]\n[Play]\n1. ♠K - ♠Q - ♠J.\n*\n')
    rep = verify_record(parse_kdn(head + '[Claim "1:0 points from 2"]\n')[0])
    assert rep.setup.size == 3 and rep.layouts_total == 1 and rep.raw_score["points"] == [0, 0, 0]
    assert rep.claims[0].status == "holds"
    pos = Position((bit(c("HA")) | bit(c("C7")), bit(c("HK")) | bit(c("C8")),
                    bit(c("DA")) | bit(c("C9"))), 0, (), 1)
    want = [reference.value(rep.setup.rules, pos, 1 << s) for s in range(3)]
    assert want[0] == 0
    claim = " ".join(f"{s + 1}:{want[s]}" for s in range(3))
    rep = verify_record(parse_kdn(head + f'[Claim "{claim} points from 2"]\n')[0], marks=False)
    assert rep.claims[0].status == "holds"


# ---------------------------------------------------------------- sampling (issue 29 §1)

@pytest.fixture(scope="module")
def deal2_every_deal():
    # every one of the 35,700 deals checked: the exact shares
    rep = verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=10 ** 6)
    assert not rep.claims_sampled and rep.claims_checked == rep.claim_deals == 35700
    return rep


def test_a_sampled_share_estimates_the_exact_share(deal2_every_deal):
    # A uniform sample of the deals, not the first ones in enumeration order: the share of
    # the deals where each claim holds lies within a few standard errors of the exact share.
    exact = [c.holding / c.layouts for c in deal2_every_deal.claims]
    rep = verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=1500, seed=11)
    assert rep.claims_sampled and rep.claims_checked == 1500 and rep.seed == 11
    for c, want in zip(rep.claims, exact):
        assert c.sampled and c.deals == 35700 and c.layouts == 1500
        assert abs(c.share - want) < 4 * max(c.se, 1e-3), (c.share, want, c.se)
        assert c.status == "possible"


def test_certain_holdings_come_from_the_constraints_never_from_a_sample(deal2_every_deal):
    a = verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=300, seed=1)
    b = verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=300, seed=2)
    assert a.certain == b.certain and a.possible == b.possible and a.certain_from == "play"
    # exactly what each seat played plus what every deal of every kept reading gives it
    for s in range(3):
        want = -1
        for r in a.kept:
            want &= r.played[s] | r.knowledge.certain()[s]
        assert a.certain[s] == want & a.setup.deck
    # with every deal checked, the deals agreeing with the claims decide (and contain the play's certain cards)
    full = deal2_every_deal
    assert full.certain_from == "claims"
    assert all(full.certain[s] & a.certain[s] == a.certain[s] for s in range(3))


def test_the_limit_given_is_honoured_exactly():
    for limit in (1, 37, 35699):
        rep = verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=limit, seed=5)
        assert rep.claims_checked == limit and rep.claims_sampled
    with pytest.raises(Exception, match="at least one deal"):
        verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=0)


def test_ru4_three_tricks_in_certain_is_what_was_shown():
    # A ru4 record stopped after three tricks (billions of deals), with a claim: the holdings
    # shown as certain are the cards each seat played (no constraint pins more down here),
    # and the marks are over a uniform sample of the deals.
    v = get_variant("ru4")
    con = v.contract("no-tricks")
    lay = Layout.from_str("1:QT8.K98..J7 K.QJ.AKQ7.T A97.7..KQ98 J.AT.JT98.A")   # a random deal
    rules = con.deal_rules()
    pos = Position(lay.hands, 0)
    cards = []
    for _ in range(12):
        x = next(cards_of(legal_mask(rules, pos)))
        cards.append(x)
        pos = play(rules, pos, x).position
    text = kdn_of(cards, contract="no-tricks", n=4).replace('"ua3"', '"ru4"') + '[Claim "1:-10"]\n'
    rep = verify_record(parse_kdn(text)[0], claim_layouts=40, analysis_layouts=5, seed=4)
    assert rep.claim_deals > 10 ** 6 and rep.claims_sampled and rep.claims_checked == 40
    (r,) = rep.kept
    for s in range(4):
        assert rep.certain[s] == r.played[s] | r.knowledge.certain()[s]
        assert rep.certain[s] & r.unseen == r.knowledge.certain()[s] & r.unseen
    # with deals agreeing with the claim, the marks are over those (of the sample)
    assert rep.marks_of == rep.n_matching and rep.analysed_layouts == min(5, rep.n_matching)
    bare = verify_record(parse_kdn(text.replace('[Claim "1:-10"]', ""))[0], analysis_layouts=5, seed=4)
    assert bare.marks_sampled and bare.analysed_layouts == 5 and bare.marks_of == r.n_layouts
    assert all(m.layouts == 5 for m in bare.marks) and bare.certain == rep.certain


def test_ctrl_c_while_checking_claims_keeps_the_deals_finished(monkeypatch):
    import kingsolve.verify as V
    real = V.claim_values
    calls = {"n": 0}

    def stop_after_ten(*a, **kw):
        calls["n"] += 1
        if calls["n"] > 10:
            raise KeyboardInterrupt
        return real(*a, **kw)
    monkeypatch.setattr(V, "claim_values", stop_after_ten)
    rep = verify_record(load("2_no_last_two.kdn"), marks=False, claim_layouts=500, seed=1)
    assert rep.interrupted and 0 < rep.claims_checked < 10
    assert any("interrupted: the claims were checked on the" in n for n in rep.notes)
    assert all(c.truncated and c.status != "holds" for c in rep.claims)


# ---------------------------------------------------------------- single-dummy marks (issue 30)

def test_single_dummy_marks_grade_each_play_by_what_its_player_saw():
    from kingsolve.advise import play_advice
    rep = verify_record(load("3_bought_trump.kdn"), single_dummy=12, seed=3)
    assert rep.single_samples == 12 and len(rep.marks) == 30
    setup, hands = rep.setup, rep.layout.hands
    for m in rep.marks:
        sd = m.single
        assert sd is not None and sd.samples == 12
        assert sd.best >= sd.value and sd.loss == pytest.approx(sd.best - sd.value)
        assert (sd.mark == "?") == (sd.loss > 0 and sd.p_played_better < 0.05)
        if m.card in sd.best_cards:
            assert sd.loss == 0 and not sd.mark
    # a play's single-dummy value is advise's mean for the card at that point (same seed, same deals)
    m = rep.marks[9]
    a = play_advice(setup.variant, setup.contract, m.seat - 1, hands[m.seat - 1], leader=setup.leader,
                    played=list(rep.reading.cards[:9]), samples=12, seed=3)
    assert a.table.loc[card_str(m.card), "mean"] \
        == pytest.approx(m.single.value)
    # the last trick: one card each, nothing to choose
    assert all(x.single.loss == 0 for x in rep.marks[-3:])


def test_single_dummy_on_an_unfinished_record_is_over_some_of_its_deals():
    # the record does not show the players' hands: each play is graded holding the hand of
    # each of the first deals the marks are over (SD_DEALS at most)
    from kingsolve.verify import SD_DEALS
    rep = verify_record(load("2_no_last_two.kdn"), single_dummy=3, seed=1, claim_layouts=50, analysis_layouts=2)
    assert rep.single_deals == min(SD_DEALS, 2) == 2 and len(rep.marks_deals) == 2
    for m in rep.marks:
        sd = m.single
        assert sd.deals == 2 and sd.loss >= 0 and (sd.mark == "?") == (sd.loss > 0 and sd.p_played_better < 0.05)
    with pytest.raises(Exception, match="drop --no-marks"):
        verify_record(load("3_bought_trump.kdn"), single_dummy=5, marks=False)


def test_progress_reports_each_stage_to_its_end():
    # a king52 record's searches take minutes: verify tells how far each long stage is
    calls = []
    rep = verify_record(load("1_no_hearts.kdn"), seed=1, single_dummy=2,
                        progress=lambda stage, done, total: calls.append((stage, done, total)))
    stages = [s for s, _, _ in calls]
    assert stages == sorted(stages, key=["claims", "marks", "single-dummy"].index)   # in the order they run
    for stage in ("claims", "marks", "single-dummy"):
        mine = [(d, t) for s, d, t in calls if s == stage]
        assert mine[0][0] == 0 and mine[-1][0] == mine[-1][1] > 0                   # from 0 to the total
        assert [d for d, _ in mine] == sorted(d for d, _ in mine) and len({t for _, t in mine}) == 1
    n_plays = len(rep.reading.cards)
    assert [t for s, _, t in calls if s == "marks"][0] == rep.analysed_layouts * n_plays
    assert [t for s, _, t in calls if s == "claims"][0] == rep.claims_checked
