"""kingsolve.cards: card indices, masks, and every spelling of a card (RULES.md §6)."""
import pytest
from hypothesis import given, strategies as st
from strategies import examples

from kingsolve.cards import (
    ACE, ALL_CARDS, CLUBS, DIAMONDS, HEARTS, JACK, KING, QUEEN, SPADES, SUIT_MASKS, TEN, bit, card, card_str,
    card_symbol, cards_of, count, deck_mask, mask_str, parse_card, parse_cards, parse_rank, parse_suit, rank_of,
    suit_of,
)
from kingsolve.errors import InvalidCardError, KingsolveError

ALL = list(cards_of(ALL_CARDS))


def test_card_index_layout():
    # suit * 16 + (rank - 2): ♠2 is bit 0, ♠A bit 12, ♥2 bit 16, ♣A bit 60.
    assert card(SPADES, 2) == 0 and card(SPADES, ACE) == 12
    assert card(HEARTS, 2) == 16 and card(CLUBS, ACE) == 60
    assert len(ALL) == 52 and count(ALL_CARDS) == 52
    for c in ALL:
        assert card(suit_of(c), rank_of(c)) == c
        assert SUIT_MASKS[suit_of(c)] & bit(c)
    # The four suit masks are disjoint.
    assert sum(count(m) for m in SUIT_MASKS) == 52 and (SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]) == ALL_CARDS


def test_decks():
    # RULES.md §2: 32 cards 7..A, 52 cards 2..A.
    assert count(deck_mask(7)) == 32 and count(deck_mask(2)) == 52
    assert min(rank_of(c) for c in cards_of(deck_mask(7))) == 7
    black_aces = bit(card(SPADES, ACE)) | bit(card(CLUBS, ACE))
    assert count(deck_mask(7, black_aces)) == 30


def test_cards_of_is_ordered_and_count():
    m = bit(card(CLUBS, 7)) | bit(card(SPADES, ACE)) | bit(card(HEARTS, TEN))
    assert list(cards_of(m)) == [card(SPADES, ACE), card(HEARTS, TEN), card(CLUBS, 7)]
    assert count(m) == 3 and list(cards_of(0)) == []


def test_ascii_and_symbol_forms():
    assert card_str(card(SPADES, ACE)) == "SA"
    assert card_str(card(HEARTS, TEN)) == "HT"
    assert card_str(card(CLUBS, 2)) == "C2"
    assert card_symbol(card(SPADES, ACE)) == "♠A"
    assert card_symbol(card(DIAMONDS, TEN)) == "♦10"
    assert card_symbol(card(CLUBS, QUEEN)) == "♣Q"
    m = bit(card(CLUBS, 7)) | bit(card(SPADES, 9)) | bit(card(SPADES, ACE))
    assert mask_str(m) == "SA S9 C7"


@pytest.mark.parametrize("token, want", [
    # Latin, suit first and suit last (JSON form and people's form)
    ("SA", "SA"), ("AS", "SA"), ("sa", "SA"), ("HT", "HT"), ("TH", "HT"), ("ht", "HT"), ("C2", "C2"),
    ("D10", "DT"), ("10D", "DT"),
    # suit symbols, filled and outline, either order
    ("♠A", "SA"), ("A♠", "SA"), ("♦10", "DT"), ("10♦", "DT"), ("8♦", "D8"), ("♥K", "HK"),
    ("♤K", "SK"), ("♡Q", "HQ"), ("♢J", "DJ"), ("♧T", "CT"), ("7♧", "C7"),
    # emoji presentation (U+FE0F) and text presentation (U+FE0E) selectors
    ("♠\ufe0fA", "SA"), ("A♥\ufe0f", "HA"), ("♦\ufe0e9", "D9"), ("♣\ufe0f10", "CT"),
    # Cyrillic ranks: Т = туз (ace), К король, Д дама, В валет
    ("♣Д", "CQ"), ("♠Т", "SA"), ("♥К", "HK"), ("♦В", "DJ"), ("Т♣", "CA"),
    # Cyrillic suit letters п ч б т (пики, черви, бубны, трефы) after or before the rank
    ("Тч", "HA"), ("Кп", "SK"), ("Дб", "DQ"), ("Вт", "CJ"), ("10ч", "HT"), ("7т", "C7"),
    ("чТ", "HA"), ("тТ", "CA"), ("Тт", "CA"), ("ЧК", "HK"), ("ТП", "SA"),
    # lowercase Cyrillic ranks as lowercase Latin (issue 29): т after a suit marker is the ace
    ("♣д", "CQ"), ("к♥", "HK"), ("♦в", "DJ"), ("Пт", "SA"), ("тч", "HA"), ("кт", "CK"),
    # Latin T is the ten, Cyrillic Т the ace: the same-looking letters differ.
    ("T♠", "ST"), ("Т♠", "SA"),
    # surrounding spaces are ignored
    ("  ♠A ", "SA"),
])
def test_parse_card_spellings(token, want):
    assert card_str(parse_card(token)) == want


@pytest.mark.parametrize("token", [
    "", "♠", "S", "A", "10", "Т", "AA", "SS", "♠A♠", "♠1", "1O♦", "♠11", "X♠", "♠X", "♠ A", "Zz", "ТТ",
])
def test_parse_card_rejects_with_the_token(token):
    with pytest.raises(InvalidCardError) as err:
        parse_card(token)
    assert repr(token) in str(err.value)
    assert isinstance(err.value, KingsolveError) and isinstance(err.value, ValueError)
    assert "\n" not in str(err.value)


def test_parse_suit_and_rank():
    for t, s in [("♠", 0), ("♤", 0), ("S", 0), ("п", 0), ("♥", 1), ("♡", 1), ("H", 1), ("ч", 1),
                 ("♦", 2), ("♢", 2), ("D", 2), ("б", 2), ("♣", 3), ("♧", 3), ("C", 3), ("т", 3), ("♣\ufe0f", 3)]:
        assert parse_suit(t) == s, t
    for t, r in [("A", ACE), ("Т", ACE), ("K", KING), ("К", KING), ("Q", QUEEN), ("Д", QUEEN), ("J", JACK),
                 ("В", JACK), ("T", TEN), ("10", TEN), ("9", 9), ("2", 2)]:
        assert parse_rank(t) == r, t
    with pytest.raises(InvalidCardError, match="'X'"):
        parse_suit("X")
    with pytest.raises(InvalidCardError, match="'1'"):
        parse_rank("1")


def test_parse_cards_list():
    assert [card_str(c) for c in parse_cards("♠Т, ♣Т")] == ["SA", "CA"]  # the talon line of source 000
    assert [card_str(c) for c in parse_cards("SA HT  C2,D10")] == ["SA", "HT", "C2", "DT"]
    assert parse_cards("") == []
    with pytest.raises(InvalidCardError, match="'Q♠♠'"):
        parse_cards("SA Q♠♠ C2")


@examples(200)
@given(st.sampled_from(ALL), st.data())
def test_round_trip_every_spelling(c, data):
    """Any card, written in any accepted alphabet and order, reads back as itself."""
    s, r = suit_of(c), rank_of(c)
    suit = data.draw(st.sampled_from([
        "SHDC"[s], "shdc"[s], "♠♥♦♣"[s], "♤♡♢♧"[s], "♠♥♦♣"[s] + "\ufe0f", "пчбт"[s],
    ]), label="suit")
    latin = {14: "A", 13: "K", 12: "Q", 11: "J", 10: data.draw(st.sampled_from(["T", "10"]), label="ten")}
    cyr = {14: "Т", 13: "К", 12: "Д", 11: "В", 10: "10"}
    rank = data.draw(st.sampled_from([latin.get(r, str(r)), cyr.get(r, str(r))]), label="rank")
    token = data.draw(st.sampled_from([suit + rank, rank + suit]), label="order")
    assert parse_card(token) == c
    # canonical outputs read back too
    assert parse_card(card_str(c)) == c and parse_card(card_symbol(c)) == c
