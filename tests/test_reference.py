"""kingsolve.reference, the pure-Python minimax oracle, on small positions
worked out by hand (the reasoning is in the comments), plus properties that
hold for any position (a side and its complement share the remaining points;
card values agree with the value)."""
import pytest
from hypothesis import given

from kingsolve import reference
from kingsolve.cards import cards_of, parse_card
from kingsolve.engine import Position, play
from kingsolve.layout import Layout
from kingsolve.variants import get_variant

from strategies import examples, small_positions


def C(token):
    return parse_card(token)


def setup(vid, name, layout, trump="default", options=()):
    lay = Layout.from_str(layout)
    r = get_variant(vid, options).contract(name, trump).deal_rules(lay.hand_size)
    return r, Position(lay.hands, lay.first)


def values(r, p):
    """The value of every seat, each against all the others."""
    return [reference.value(r, p, 1 << s) for s in range(r.n_seats)]


def test_penalty_three_seats_no_tricks():
    # ua3 no tricks (-2 a trick).  1: ♠A ♠7   2: ♠K ♠8   3: ♠Q ♠9, seat 1 leads.
    # Seat 1: ♠A wins whichever trick it is played to, and ♠7 loses any trick
    #   (every other card is higher): exactly one trick, -2.
    # Seat 2: on ♠A it sheds ♠K; then ♠7 ♠8 and seat 3's ♠9/♠Q wins.  On a ♠7 lead it
    #   plays ♠8 and seat 3 must beat it.  It never takes a trick: 0.
    # Seat 3: on a ♠7 lead seat 2 plays ♠8 and seat 3 must go over; on ♠A seat 2
    #   sheds ♠K, keeping ♠8, and trick 2 (♠7 ♠8 ♠9|♠Q) is seat 3's.  One trick: -2.
    r, p = setup("ua3", "no-tricks", "1:A7... K8... Q9...")
    assert values(r, p) == [-2, 0, -2]
    assert reference.card_values(r, p, 0b001) == {C("SA"): -2, C("S7"): -2}
    # For seat 2: after ♠A the opponents cannot make it take a trick either.
    assert reference.card_values(r, p, 0b010) == {C("SA"): 0, C("S7"): 0}


def test_penalty_four_seats_no_hearts_and_a_coalition():
    # ru4 no hearts (-2 a heart).  1: ♠A ♥7  2: ♠K ♥A  3: ♦7 ♥8  4: ♠7 ♥9, seat 1 leads.
    # Seat 1 may not lead ♥7 while holding ♠A, so trick 1 is ♠A ♠K (x) ♠7 and seat 1 wins it;
    # seat 3, void, discards ♦7 or ♥8 (its only choice in the deal).  Trick 2: ♥7 ♥A (y) ♥9,
    # seat 2 wins with ♥A.
    # Seat 1 alone: seat 3 puts ♥8 on trick 1: -2.
    # Seat 2 alone: seat 3 keeps ♥8 for trick 2: ♥7 ♥A ♥8 ♥9 = -8.
    # Seats 3 and 4 never win a trick: 0.
    r, p = setup("ru4", "no-hearts", "1:A.7.. K.A.. .8.7. 7.9..")
    assert values(r, p) == [-2, -8, 0, 0]
    # The coalition of seats 2 and 3 (seat 3 now plays for seat 2): ♥8 goes to seat 1,
    # seat 2 takes ♥7 ♥A ♥9 = -6.
    assert reference.value(r, p, 0b0110) == -6
    # Seats 1 and 2 together take every heart whatever seat 3 does: -8.
    assert reference.value(r, p, 0b0011) == -8
    # At seat 3's choice, the card values for seat 1: ♥8 on the trick costs seat 1 -2.
    q = p
    for c in ("SA", "SK"):
        q = play(r, q, C(c)).position
    assert reference.card_values(r, q, 0b0001) == {C("H8"): -2, C("D7"): 0}
    assert reference.card_values(r, q, 0b0010) == {C("H8"): -6, C("D7"): -8}


def test_positive_plus_king_with_the_lead_ban():
    # ua3 plus-king (+24 to whoever takes the K♥; hearts not led while holding another suit).
    # 1: ♥K ♠7   2: ♠A ♥7   3: ♠K ♦7, seat 1 leads.
    # Seat 1 may not lead ♥K (it holds ♠7): ♠7 ♠A ♠K, seat 2 wins; seat 2 then has only
    # ♥7: ♥7 ♦7 ♥K, and seat 1's King wins: +24 for seat 1, every play forced.
    r, p = setup("ua3", "plus-king", "1:7.K.. A.7.. K..7.")
    assert values(r, p) == [24, 0, 0]
    # plus-hearts on the same cards (+2 a heart): seat 1 takes ♥7 ♥K: +4.
    r, p = setup("ua3", "plus-hearts", "1:7.K.. A.7.. K..7.")
    assert values(r, p) == [4, 0, 0]
    # With no lead ban (plus-tricks, +2 a trick) seat 1 may lead ♥K, win it (♥7, and
    # seat 3 has no heart), and then lose ♠7 to ♠A: one trick each for seats 1 and 2.
    r, p = setup("ua3", "plus-tricks", "1:7.K.. A.7.. K..7.")
    assert values(r, p) == [2, 2, 0]


def test_trump_game_three_seats():
    # ua3 trump ♥ (+3 a trick).  1: ♠A ♠K   2: ♥7 ♦A   3: ♠Q ♦K, seat 1 leads.
    # Seat 1 has only spades; seat 2 is void in ♠ and ruffs with ♥7 (the only trump),
    # then cashes ♦A (seat 3's ♦K is lower, seat 1 has no diamond): seat 2 +6.
    # Played against seat 2 the others can do nothing; against seat 1, seat 2 ruffs: 0.
    r, p = setup("ua3", "trump", "1:AK... .7.A. Q..K.", "H")
    assert values(r, p) == [0, 6, 0]
    assert reference.value(r, p, 0b101) == 0
    # With no trumps (tricks, NT) the same cards: seat 1 leads ♠A then ♠K and wins both
    # (seat 2 has no spade, seat 3 only ♠Q): 2 tricks.
    r, p = setup("ua3", "tricks", "1:AK... .7.A. Q..K.", "NT")
    assert values(r, p) == [2, 0, 0]


def test_misere_four_seats():
    # ru4 misère (+3 a trick, the ace lowest).  All spades: 1: ♠A ♠7  2: ♠K ♠8  3: ♠Q ♠9
    # 4: ♠J ♠10, seat 1 leads.  ♠7 is now the top card and wins its trick; ♠A never wins.
    # Seat 1: exactly one trick, +3.  Seat 2: it plays ♠8 to the trick without ♠7, where
    # nothing is lower than 8: +3.  Seats 3 and 4: seats 1 and 2 keep ♠7 and ♠8 apart, so
    # every trick has one of them: 0.
    r, p = setup("ru4", "misere", "1:A7... K8... Q9... JT...")
    assert values(r, p) == [3, 3, 0, 0]
    assert reference.value(r, p, 0b0011) == 6
    assert reference.value(r, p, 0b1100) == 0
    # Played the ordinary way (tricks, NT) ♠A wins: seat 1 takes one trick, seat 2's ♠K
    # takes the other when ♠A is not in it.
    r, p = setup("ru4", "tricks", "1:A7... K8... Q9... JT...", "NT")
    assert values(r, p) == [1, 1, 0, 0]


def test_forced_king_discard_changes_the_value():
    # ru4 no King (-16).  1: ♠7 ♠9  2: ♥K ♣7  3: ♠8 ♦A  4: ♠A ♦7, seat 1 leads a spade.
    # Trick 1: seat 2 is void in ♠; seat 3 plays ♠8; seat 4 must play ♠A and wins.
    # Forced discard (the default): the K♥ goes now, onto seat 4's trick: seat 4 -16,
    #   and seat 3 is safe (0).
    # forced-king=off: against seat 3 the K♥ is kept; seat 4 leads ♦7, seat 3 must win
    #   with ♦A, and seat 2 drops the K♥ then: seat 3 -16.  Seat 4 still gets -16 when
    #   playing against it (the K♥ is dropped at once).
    layout = "1:97... .K..7 8..A. A..7."
    r, p = setup("ru4", "no-king", layout)
    assert values(r, p) == [0, 0, 0, -16]
    r, p = setup("ru4", "no-king", layout, options=["forced-king=off"])
    assert values(r, p) == [0, 0, -16, -16]


def test_last_two_on_a_short_layout():
    # ua3 no last two: in a 2-card layout both tricks are "the last two" (-10 each).
    # 1: ♠A ♦7   2: ♠K ♦8   3: ♠Q ♦9, seat 1 leads.  Everyone follows suit, so there is
    # one spade trick (♠A, seat 1) and one diamond trick (♦9, seat 3) in either order.
    r, p = setup("ua3", "no-last-two", "1:A..7. K..8. Q..9.")
    assert values(r, p) == [-10, 0, -10]


def test_mid_trick_position():
    # From the no-hearts position above, after ♠A ♠K ♥8 are on the table, only seat 4
    # plays: the rest is forced, seat 1 takes ♥8 (-2) and seat 2 ♥7 ♥A ♥9 (-6).
    r, p = setup("ru4", "no-hearts", "1:A.7.. K.A.. .8.7. 7.9..")
    for c in ("SA", "SK", "H8"):
        p = play(r, p, C(c)).position
    assert p.trick and p.to_move == 3
    assert values(r, p) == [-2, -6, 0, 0]


# ---------------------------------------------------------------------------
# Properties on random small positions of every variant and contract

@examples(80)
@given(small_positions(max_cards=2))
def test_side_and_complement_share_the_points(sp):
    """The points left (cards in play, on the table, and every trick's price)
    go to a side or to the rest: value(side) + value(rest) is that sum."""
    r, p = sp.rules, sp.position
    n = r.n_seats
    left = 0
    for h in p.hands:
        left |= h
    remaining = sum(r.card_points[c] for c in cards_of(left)) + sum(r.card_points[c] for c in p.trick)
    remaining += sum(r.trick_points[p.trick_index:])
    full = (1 << n) - 1
    for side in (0b1, 0b10, 0b101 & full):
        assert reference.value(r, p, side) + reference.value(r, p, full & ~side) == remaining


@examples(80)
@given(small_positions(max_cards=2))
def test_card_values_agree_with_value(sp):
    r, p = sp.rules, sp.position
    side = 1 << p.to_move
    cv = reference.card_values(r, p, side)
    assert cv and max(cv.values()) == reference.value(r, p, side)
    # and for the opponents of the seat to move, the best card for them is the minimum
    other = ((1 << r.n_seats) - 1) & ~side
    assert min(reference.card_values(r, p, other).values()) == reference.value(r, p, other)


def test_king52_minus_seat_base_not_included():
    # king52 minus: -75 a trick; every seat also starts from 325 (rules.seat_base), which
    # reference.value leaves out.  1-card layout ♠A ♠K ♠Q ♠J: seat 1 takes the trick.
    r, p = setup("king52", "minus", "1:A... K... Q... J...", "NT")
    assert values(r, p) == [-75, 0, 0, 0] and r.seat_base == 325
    # ♠2 led under the others' spades (seat 1 must lead it): seat 2's ♠A wins.
    r, p = setup("king52", "minus", "1:2... A... Q... J...", "H")
    assert values(r, p) == [0, -75, 0, 0]
