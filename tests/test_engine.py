"""kingsolve.engine, the reference engine: legal plays (follow suit, lead bans,
the forced K♥ discard, must-trump), trick winners (trumps, misère), every kind
of illegal play with who/which trick/why, and replays of whole sequences.

Hand-made positions; the expected winners and points are worked out in the
comments from RULES.md (§1 play, §3 prices and lead rules, §4 misère)."""
import pytest
from hypothesis import given

from kingsolve.cards import SUIT_MASKS, bit, card_str, cards_of, count, parse_card
from kingsolve.engine import (
    Position, check_play, check_position, legal_mask, play, replay, trick_value, trick_winner,
)
from kingsolve.errors import IllegalPlayError, InvalidLayoutError, KingsolveError
from kingsolve.layout import Layout
from kingsolve.variants import get_variant

from strategies import examples, small_positions


def C(token):
    return parse_card(token)


def cards(text):
    return [C(t) for t in text.split()]


def mask(text):
    m = 0
    for c in cards(text):
        m |= bit(c)
    return m


def pos(layout, leader=None):
    lay = Layout.from_str(layout)
    return Position(lay.hands, lay.first if leader is None else leader)


def rules(vid, name, n, trump="default", options=()):
    return get_variant(vid, options).contract(name, trump).deal_rules(n)


def after(r, p, text):
    for c in cards(text):
        p = play(r, p, c).position
    return p


def names(m):
    return sorted(card_str(c) for c in cards_of(m))


# ---------------------------------------------------------------------------
# Legal plays

def test_follow_suit_or_anything_when_void():
    r = rules("ru4", "no-tricks", 2)
    p = pos("1:A.7.. K.8.. .9.Q. J.T..")
    assert names(legal_mask(r, p)) == ["H7", "SA"]             # the leader may lead anything
    p = after(r, p, "SA")
    assert names(legal_mask(r, p)) == ["SK"]                   # seat 2 must follow ♠
    p = after(r, p, "SK")
    assert names(legal_mask(r, p)) == ["DQ", "H9"]             # seat 3 is void in ♠: any card


def test_heart_lead_ban():
    # no hearts (and no King, erajlash, and the positive mirrors): no heart lead
    # while holding another suit; a hand of hearts only may lead them.
    for name in ("no-hearts", "no-king", "erajlash", "plus-hearts", "plus-king", "plus-erajlash"):
        r = rules("ru4", name, 2)
        p = pos("1:A.7.. K.8.. .9Q.. J.T..")
        assert names(legal_mask(r, p)) == ["SA"], name
        p = pos("1:A.7.. K.8.. .9Q.. J.T..", leader=2)             # seat 3 holds only hearts
        assert names(legal_mask(r, p)) == ["H9", "HQ"], name
    for name in ("no-tricks", "no-boys", "no-girls", "no-last-two", "plus-tricks"):
        assert names(legal_mask(rules("ru4", name, 2), pos("1:A.7.. K.8.. .9Q.. J.T.."))) == ["H7", "SA"], name


def test_king52_no_king_lead_rule():
    # king52 no-King: the K♥ may not be led unless it is the last card; other
    # hearts may be led (no heart-lead ban).
    r = rules("king52", "no-king", 2)
    p = pos("1:.K2.. A2... .AQ.. K3...")
    assert names(legal_mask(r, p)) == ["H2"]
    p = pos("1:.K.. A... .A.. K...")                     # K♥ is the last card: it may be led
    assert names(legal_mask(rules("king52", "no-king", 1), p)) == ["HK"]
    # ru4 with king-lead=king takes the same rule
    r = rules("ru4", "no-king", 2, options=["king-lead=king"])
    assert names(legal_mask(r, pos("1:.K7.. A7... .AQ.. K8..."))) == ["H7"]


def test_forced_king_discard():
    # no-King (ru4 default): void in the led suit while holding the K♥, it must go at once.
    r = rules("ru4", "no-king", 2)
    p = after(r, pos("1:A7... .K8.. Q.9.. J.T.."), "SA")
    assert names(legal_mask(r, p)) == ["HK"]
    # following suit, the K♥ is not forced: any heart may follow a heart lead
    p = after(r, pos("1:.A7.. .K8.. Q.9.. J.T.."), "HA")    # seat 1 holds only hearts: it may lead one
    assert names(legal_mask(r, p)) == ["H8", "HK"]
    # the option off, and erajlash (off by default, an option): any card
    assert names(legal_mask(rules("ru4", "no-king", 2, options=["forced-king=off"]),
                            after(r, pos("1:A7... .K8.. Q.9.. J.T.."), "SA"))) == ["H8", "HK"]
    r = rules("ru4", "erajlash", 2)
    assert names(legal_mask(r, after(r, pos("1:A7... .K8.. Q.9.. J.T.."), "SA"))) == ["H8", "HK"]
    r = rules("ru4", "erajlash", 2, options=["erajlash-forced-king"])
    assert names(legal_mask(r, after(r, pos("1:A7... .K8.. Q.9.. J.T.."), "SA"))) == ["HK"]
    # king52 does not force it
    r = rules("king52", "no-king", 2)
    assert names(legal_mask(r, after(r, pos("1:A7... .K8.. Q.9.. J.T.."), "SA"))) == ["H8", "HK"]


def test_must_trump_option():
    # must-trump (off by default): void in the led suit, a trump must be played if held.
    r = rules("ru4", "trump", 2, "H", options=["must-trump"])
    p = after(r, pos("1:A7... .K.8. Q.9.. J.T.."), "SA")
    assert names(legal_mask(r, p)) == ["HK"]
    r = rules("ru4", "trump", 2, "H")
    assert names(legal_mask(r, after(r, pos("1:A7... .K.8. Q.9.. J.T.."), "SA"))) == ["D8", "HK"]
    # no trump in hand: any card
    r = rules("ru4", "trump", 2, "C", options=["must-trump"])
    assert names(legal_mask(r, after(r, pos("1:A7... .K.8. Q.9.. J.T.."), "SA"))) == ["D8", "HK"]


# ---------------------------------------------------------------------------
# Who wins a trick

@pytest.mark.parametrize("vid, name, trump, trick, leader, winner", [
    # no trump: the highest card of the led suit; a higher card of another suit does not win
    ("ru4", "no-tricks", "default", "S8 SA D9 S7", 0, 1),
    ("ru4", "no-tricks", "default", "S8 HA DA CA", 2, 2),
    # a trump game: any trump beats the led suit, the highest trump wins
    ("ru4", "trump", "D", "SA SK D7 SQ", 0, 2),
    ("ru4", "trump", "D", "SA D7 DK D8", 3, 1),
    ("ru4", "trump", "D", "D7 SA SK D8", 1, 0),           # trumps led: the highest trump
    ("ua3", "trump", "C", "HA HK HQ", 1, 1),              # no trump played: the led suit
    # misère: ranks inverted, the ace is the lowest card — the lowest of the led suit wins
    ("ru4", "misere", "default", "SA S7 S8 SK", 0, 1),
    ("ru4", "misere", "default", "S9 H7 D7 SA", 2, 2),     # seat 3 leads ♠9, seat 2 plays ♠A: the ace is lower
    ("ru4", "misere", "default", "SA H7 D7 S9", 2, 1),     # the other way round: ♠9 (seat 2) wins
    # misère with a trump: any trump beats the led suit, and the lowest trump wins
    ("ru4", "misere", "H", "S7 HA HK S8", 0, 2),
    # king52: 2 is the lowest card
    ("king52", "tricks", "NT", "C2 C3 CA CK", 0, 2),
])
def test_trick_winner(vid, name, trump, trick, leader, winner):
    r = rules(vid, name, 1, trump)
    assert trick_winner(r, leader, cards(trick)) == winner


def test_trick_value():
    r = rules("ru4", "erajlash", 8)
    # trick 1 of 8 (not one of the last two): -2 a trick, -4 for ♠Q, -6 for ♥J (a jack and a heart)
    assert trick_value(r, cards("SQ HJ S7 S8"), 0) == -2 - 4 - 6
    # trick 8: -2 a trick, -8 for a last trick, -18 for ♥K (King 16 + heart 2), -2 for ♥7
    assert trick_value(r, cards("HK H7 S7 S8"), 7) == -2 - 8 - 18 - 2


# ---------------------------------------------------------------------------
# Illegal plays: who, which trick, why

def illegal(r, p, token):
    with pytest.raises(IllegalPlayError) as err:
        check_play(r, p, C(token))
    e = err.value
    assert isinstance(e, KingsolveError) and "\n" not in str(e)
    return e


def test_not_held():
    r = rules("ru4", "no-tricks", 2)
    e = illegal(r, pos("1:A.7.. K.8.. Q.9.. J.T.."), "SK")
    assert (e.reason, e.trick, e.seat, e.card) == ("not-held", 1, 1, C("SK"))
    assert str(e) == "trick 1, seat 1: ♠K is not in the hand"


def test_revoke():
    r = rules("ru4", "no-tricks", 2)
    p = after(r, pos("1:A.7.. K.8.. Q.9.. J.T.."), "SA")
    e = illegal(r, p, "H8")
    assert (e.reason, e.trick, e.seat) == ("revoke", 1, 2)
    assert str(e) == "trick 1, seat 2: revoke, ♥8 played to a ♠ lead while holding ♠"


def test_forbidden_heart_lead():
    r = rules("ua3", "no-hearts", 2)
    e = illegal(r, pos("2:A.7.. K.8.. Q.9.."), "H7")   # seat 2 leads (the layout's first)
    assert (e.reason, e.trick, e.seat) == ("forbidden-lead", 1, 2)
    assert str(e) == "trick 1, seat 2: ♥7 may not be led: no ♥ lead while holding another suit"


def test_forbidden_king_lead():
    r = rules("king52", "no-king", 2)
    e = illegal(r, pos("1:.K2.. A2... .AQ.. K3..."), "HK")
    assert e.reason == "forbidden-lead" and (e.trick, e.seat) == (1, 1)
    assert "♥K may not be led unless it is the last card" in str(e)


def test_king_withheld():
    r = rules("ru4", "no-king", 2)
    p = after(r, pos("1:A7... .K8.. Q.9.. J.T.."), "SA")
    e = illegal(r, p, "H8")
    assert (e.reason, e.trick, e.seat) == ("king-withheld", 1, 2)
    assert str(e).startswith("trick 1, seat 2: the King of hearts withheld") and "♥8 played instead" in str(e)


def test_must_trump():
    r = rules("ru4", "trump", 2, "H", options=["must-trump"])
    p = after(r, pos("1:A7... .K.8. Q.9.. J.T.."), "SA")
    e = illegal(r, p, "D8")
    assert (e.reason, e.trick, e.seat) == ("must-trump", 1, 2)
    assert str(e) == "trick 1, seat 2: void in ♠, must trump (♥), ♦8 played instead"


def test_later_trick_and_seat_in_replay():
    # Trick 1: ♠A ♠K ♠Q ♠J, seat 1 wins and leads trick 2 with ♥7, ♥8 from seat 2;
    # seat 3 then plays ♦10, which seat 4 holds: not held, trick 2, seat 3.
    r = rules("ru4", "no-tricks", 2)
    with pytest.raises(IllegalPlayError) as err:
        replay(r, pos("1:A.7.. K.8.. Q.9.. J..T."), cards("SA SK SQ SJ H7 H8 DT"))
    assert (err.value.trick, err.value.seat, err.value.reason) == (2, 3, "not-held")
    # Three tricks: trick 1 ♠A ♠Q ♠10 ♠9 (seat 1); trick 2 ♥7 ♥8, and seat 3 plays
    # ♣10 while holding ♥9: a revoke in trick 2 by seat 3.
    r = rules("ru4", "no-tricks", 3)
    with pytest.raises(IllegalPlayError) as err:
        replay(r, pos("1:AK.7.. QJ.8.. T.9..T 98..T."), cards("SA SQ ST S9 H7 H8 CT"))
    assert (err.value.trick, err.value.seat, err.value.reason) == (2, 3, "revoke")
    assert str(err.value).startswith("trick 2, seat 3: revoke, ♣10")


# ---------------------------------------------------------------------------
# Replays of whole sequences

def test_replay_erajlash_end_position():
    # ru4 erajlash, two tricks left: both are "the last two" (-8 each) on top of -2 a trick.
    # Trick 1: ♠A ♠K ♠Q ♠J — seat 1 wins: -2 -8 -4 (♠Q) -4 (♠J) = -18.
    # Trick 2: seat 1 has only ♥7 left (a heart lead is allowed): ♥7 ♥8 ♥9 ♥10 —
    #          seat 4 wins with ♥10: -2 -8 -2*4 (four hearts) = -18.
    r = rules("ru4", "erajlash", 2)
    out = replay(r, pos("1:A.7.. K.8.. Q.9.. J.T.."), cards("SA SK SQ SJ H7 H8 H9 HT"))
    assert out.points == [-18, 0, 0, -18]
    assert out.tricks == [1, 0, 0, 1]
    assert out.winners == [0, 3]
    assert out.trick_cards == [tuple(cards("SA SK SQ SJ")), tuple(cards("H7 H8 H9 HT"))]
    assert out.position.finished and sum(out.points) == -36


def test_replay_trump_and_misere():
    layout = "1:.AK.. 7.Q.. .JT.. ..AK."
    # Trump ♠ (+3 a trick): trick 1 ♥A ♥Q ♥J ♦A — seat 1 (♥A).  Trick 2 from seat 1:
    # ♥K, seat 2 is void in ♥ and ruffs with ♠7, ♥10, ♦K — seat 2 (the only trump).
    out = replay(rules("ru4", "trump", 2, "S"), pos(layout), cards("HA HQ HJ DA HK S7 HT DK"))
    assert out.points == [3, 3, 0, 0] and out.winners == [0, 1]
    # Misère, no trump: trick 1 the lowest heart ♥J wins (seat 3); trick 2 from seat 3:
    # ♥10 ♦K ♥K ♠7 — the lowest heart ♥10, seat 3 again.
    out = replay(rules("ru4", "misere", 2), pos(layout), cards("HA HQ HJ DA HT DK HK S7"))
    assert out.points == [0, 0, 6, 0] and out.winners == [2, 2]
    # Misère with ♠ trumps: trick 1 as before (seat 3); trick 2 the ♠7 ruff wins (seat 2).
    out = replay(rules("ru4", "misere", 2, "S"), pos(layout), cards("HA HQ HJ DA HT DK HK S7"))
    assert out.points == [0, 3, 3, 0] and out.winners == [2, 1]


def test_replay_king52_minus_and_mid_trick():
    # king52 minus: -75 a trick (the 325 each seat starts from is the rules' seat_base).
    r = rules("king52", "minus", 1, "NT")
    assert r.seat_base == 325
    p = after(r, pos("1:A... K... Q... J..."), "SA SK")       # mid-trick: two cards on the table
    assert p.trick == tuple(cards("SA SK")) and p.to_move == 2
    out = replay(r, p, cards("SQ SJ"))
    assert out.points == [-75, 0, 0, 0]
    assert out.trick_cards == [tuple(cards("SA SK SQ SJ"))]   # the table cards belong to the trick


def test_replay_no_king_forced():
    # ru4 no-King: seat 2 is void in ♠ and must discard the K♥ on trick 1; seat 1 wins with ♠A: -16.
    r = rules("ru4", "no-king", 2)
    out = replay(r, pos("1:A7... .K8.. Q.9.. J.T.."), cards("SA HK SQ SJ S7 H8 H9 HT"))
    assert out.points == [-16, 0, 0, 0] and out.winners == [0, 0]


# ---------------------------------------------------------------------------
# Positions

def test_position_properties():
    p = pos("2:A.7.. K.8.. Q.9..")
    assert (p.n_seats, p.leader, p.to_move, p.tricks_left, p.finished) == (3, 1, 1, 2, False)
    r = rules("ua3", "no-tricks", 2)
    p = after(r, p, "SA")
    assert (p.to_move, p.tricks_left, p.trick) == (2, 2, (C("SA"),))
    p = after(r, p, "SK SQ")
    assert p.trick == () and p.trick_index == 1 and p.leader == 1 and p.tricks_left == 1


@pytest.mark.parametrize("hands, leader, trick, index, needle", [
    ("1:A.7.. K.8.. Q.9..", 0, "", 0, "3 hands for 4 seats"),
    ("1:A.7.. K.8.. Q.9.. J.T..", 4, "", 0, "leader 5 is not a seat of 4"),
    ("1:A.7.. K.8.. Q.9.. J.T..", 0, "S7 S8 S9 ST", 0, "4 cards on the table"),
    ("1:A.7.. K.8.. Q.9.. J.T..", 0, "S7 S7", 0, "♠7 is on the table twice"),
    ("1:A.7.. K.8.. Q.9.. J.T..", 0, "SA", 0, "♠A is held twice"),
    ("1:A.7.. K... Q.9.. J.T..", 0, "", 0, "seat 2 holds 1 card, expected 2"),
    ("1:A.7.. K.8.. Q.9.. J.T..", 0, "", 1, "exceeds the deal's 2 tricks"),
])
def test_check_position_rejects(hands, leader, trick, index, needle):
    lay = Layout.from_str(hands)
    r = rules("ru4", "no-tricks", 2)
    p = Position(lay.hands, leader, tuple(cards(trick)), index)
    with pytest.raises(InvalidLayoutError) as err:
        check_position(r, p)
    assert needle in str(err.value)


# ---------------------------------------------------------------------------
# Properties over random small positions of every variant and contract

@examples(300)
@given(small_positions(max_cards=3))
def test_check_play_agrees_with_legal_mask(sp):
    r, p = sp.rules, sp.position
    check_position(r, p)
    hand = p.hands[p.to_move]
    legal = legal_mask(r, p)
    assert legal and legal & ~hand == 0                 # never empty, always held
    for c in cards_of(hand):
        if legal & bit(c):
            check_play(r, p, c)
        else:
            with pytest.raises(IllegalPlayError) as err:
                check_play(r, p, c)
            assert err.value.reason in ("revoke", "forbidden-lead", "king-withheld", "must-trump")
            assert err.value.seat == p.to_move + 1 and err.value.trick == p.trick_index + 1
    if p.trick:
        follow = hand & SUIT_MASKS[p.trick[0] >> 4]
        forced = hand & r.discard_forced
        # the led suit if held; else the forced cards (K♥, or trumps) if held; else anything
        assert legal == (follow or forced or hand)
    else:
        free = hand & ~r.lead_restricted
        assert legal == (free or hand)


@examples(200)
@given(small_positions(max_cards=3, mid_trick=False))
def test_play_conserves_cards_and_points(sp):
    """Playing the first legal card each time: every card ends in exactly one
    trick, every trick has one winner, and the points are the sum of trick values."""
    r, p = sp.rules, sp.position
    seq = []
    q = p
    while not q.finished:
        c = min(cards_of(legal_mask(r, q)))
        seq.append(c)
        q = play(r, q, c).position
    out = replay(r, p, seq)
    held = 0
    for h in p.hands:
        held |= h
    assert sorted(c for t in out.trick_cards for c in t) == sorted(cards_of(held))
    assert sum(out.tricks) == count(p.hands[0]) == r.n_tricks
    assert sum(out.points) == sum(trick_value(r, t, k) for k, t in enumerate(out.trick_cards))
    for t, w, k in zip(out.trick_cards, out.winners, range(r.n_tricks)):
        leader = out.winners[k - 1] if k else p.leader
        assert trick_winner(r, leader, t) == w
