"""kingsolve.layout: one-line layouts in every spelling INTERFACE.md allows,
canonical output, seats and sides, and bad layouts named precisely."""
import pytest
from hypothesis import given, strategies as st

from kingsolve.cards import bit, card, cards_of, parse_card
from kingsolve.errors import InvalidLayoutError, KingsolveError
from kingsolve.layout import Layout, format_hand, parse_hand, parse_seat, parse_side
from kingsolve.variants import VARIANT_IDS, get_variant

from strategies import examples, layouts

# INTERFACE.md's example layout (3 seats), canonical form.
CANON = "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"
SEAT1 = {"SJ", "S8", "HT", "H8", "H7", "DJ", "D8", "D7", "CQ", "C7"}


def cards(*tokens):
    m = 0
    for t in tokens:
        m |= bit(parse_card(t))
    return m


def test_canonical_example():
    lay = Layout.from_str(CANON)
    assert lay.n_seats == 3 and lay.first == 0 and lay.hand_size == 10
    assert lay.hands[0] == cards(*SEAT1)
    assert lay.hands[2] == cards("S9", "S7", "HK", "HQ", "HJ", "DA", "DK", "DT", "D9", "CK")
    assert str(lay) == CANON
    assert repr(lay) == f"Layout.from_str({CANON!r})"
    assert eval(repr(lay)) == lay


@pytest.mark.parametrize("text", [
    CANON,
    "J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K",                       # no FIRST: seat 1
    "1:J8.1087.J87.Q7 KQ10.A9.Q.J1098 97.KQJ.AK109.K",                 # 10 for the ten
    "1:В8.1087.В87.Д7 КД10.Т9.Д.В1098 97.КДВ.ТК109.К",                 # Cyrillic ranks, Т = ace
    "I:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K",                     # Roman seat
    "i:J8.T87.J87.Q7  KQT.A9.Q.JT98\t97.KQJ.AKT9.K",                   # any case, any blanks
    " 1 : J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K ",
    "1:♠J8 ♥1087 ♦J87 ♣Q7 / ♠KQ10 ♥A9 ♦Q ♣J1098 / ♠97 ♥KQJ ♦AK109 ♣K",  # suit markers, '/'
    "1:♠J8♥1087♦J87♣Q7|♠KQ10♥A9♦Q♣J1098|♠97♥KQJ♦AK109♣K",             # '|', no spaces
    "1:♤J8 ♡1087 ♢J87 ♧Q7 / ♤KQT ♡A9 ♢Q ♧JT98 / ♤97 ♡KQJ ♢AKT9 ♧K",    # outline symbols
    "1:♠️J8 ♥️1087 ♦️J87 ♣️Q7 / ♠️KQ10 ♥️A9 ♦️Q ♣️J1098 / ♠️97 ♥️KQJ ♦️AK109 ♣️K",  # emoji (U+FE0F)
    "1:SJ8 H1087 DJ87 CQ7 / SKQ10 HA9 DQ CJ1098 / S97 HKQJ DAK109 CK",  # Latin letters
    "1:s J8 h T87 d J87 c Q7 / s KQT h A9 d Q c JT98 / s 97 h KQJ d AKT9 c K",
    "1:пВ8 ч1087 бВ87 тД7 / пКД10 чТ9 бД тВ1098 / п97 чКДВ бТК109 тК",  # п ч б т, Cyrillic ranks
    "1:♣Q7 ♦J87 ♥1087 ♠J8 / ♠KQ10 ♥A9 ♦Q ♣J1098 / ♠97 ♥KQJ ♦AK109 ♣K",  # suits in any order
    "1:♠J8 ♥1087 ♦J87 ♣Q7 ♦— / ♠KQ10 ♥A9 ♦Q ♣J1098 / ♠97 ♥KQJ ♦AK109 ♣K",  # a void written as —
    "1:♠J ♥1087 ♦J87 ♣Q7 ♠8 / ♠KQ10 ♥A9 ♦Q ♣J1098 / ♠97 ♥KQJ ♦AK109 ♣K",  # a suit given in two pieces
    "1:J8.T87.J87.Q7/KQT.A9.Q.JT98/97.KQJ.AKT9.K",                     # dotted hands with '/'
    "1:J8.T87.J87.Q7 | KQT.A9.Q.JT98 | 97.KQJ.AKT9.K",
    "1:J8.T87.J87.Q7 / ♠KQT ♥A9 ♦Q ♣JT98 / 97.KQJ.AKT9.K",             # mixed forms
])
def test_spellings_read_the_same(text):
    assert str(Layout.from_str(text)) == CANON


@pytest.mark.parametrize("prefix, first", [("1", 0), ("2", 1), ("3", 2), ("I", 0), ("II", 1), ("III", 2),
                                           ("ii", 1), ("ІІ", 1)])  # the last is Cyrillic І, as in source 000
def test_first_seat_three(prefix, first):
    lay = Layout.from_str(f"{prefix}:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K")
    assert lay.first == first
    # hands are written clockwise from FIRST
    assert lay.hands[first] == cards(*SEAT1)
    assert str(lay) == f"{first + 1}:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"


@pytest.mark.parametrize("prefix, first", [("N", 0), ("E", 1), ("S", 2), ("W", 3), ("IV", 3), ("4", 3),
                                           ("w", 3), ("iv", 3)])
def test_first_seat_four(prefix, first):
    lay = Layout.from_str(f"{prefix}:AK... QJ... T9... 87...")
    assert lay.first == first and lay.hands[first] == cards("SA", "SK")
    assert lay.hands[(first + 3) % 4] == cards("S8", "S7")


def test_voids_and_end_positions():
    lay = Layout.from_str("1:.A7.. .K8.. K8...")  # the end position of tests/test_cli_solve.py
    assert lay.hand_size == 2 and lay.hands[2] == cards("SK", "S8")
    assert Layout.from_str("1:AK.-.-.- QJ.—.–.- T9... 87...") == Layout.from_str("1:AK... QJ... T9... 87...")


def test_symbols_and_format_hand():
    lay = Layout.from_str(CANON)
    assert lay.symbols() == "♠J8 ♥1087 ♦J87 ♣Q7 / ♠KQ10 ♥A9 ♦Q ♣J1098 / ♠97 ♥KQJ ♦AK109 ♣K"
    assert format_hand(cards("SA", "SK", "ST", "D9", "D8", "D7", "C2")) == "AKT..987.2"
    assert format_hand(cards("SA", "ST", "C2"), symbols=True) == "♠A10 ♥— ♦— ♣2"
    assert format_hand(0) == "..."
    assert parse_hand("♠A10 ♥— ♦— ♣2") == cards("SA", "ST", "C2")
    assert parse_hand("AKT..987.2") == cards("SA", "SK", "ST", "D9", "D8", "D7", "C2")


@examples(150)
@given(st.sampled_from(VARIANT_IDS).flatmap(lambda vid: layouts(get_variant(vid))))
def test_round_trip_full_deals(lay):
    """layout → str → layout, and → symbols → layout (full deals of every variant)."""
    assert Layout.from_str(str(lay)) == lay
    back = Layout.from_str(lay.symbols())
    assert back.hands == lay.hands


@examples(150)
@given(st.sampled_from(VARIANT_IDS).flatmap(
    lambda vid: st.integers(0, get_variant(vid).hand_size).flatmap(lambda k: layouts(get_variant(vid), k))))
def test_round_trip_any_size(lay):
    """Short layouts too, voids and all; canonical output is a fixed point."""
    s = str(lay)
    again = Layout.from_str(s)
    assert again == lay and str(again) == s
    assert Layout.from_str(lay.symbols()).hands == lay.hands
    # the same hands written with Cyrillic ranks read back the same
    cyr = s.split(":", 1)[1].replace("A", "Т").replace("K", "К").replace("Q", "Д").replace("J", "В").replace("T", "10")
    assert Layout.from_str(f"{lay.first + 1}:{cyr}") == lay


SUIT_SPELLINGS = ["♠♥♦♣", "♤♡♢♧", "SHDC", "shdc", "пчбт", ["♠\ufe0f", "♥\ufe0f", "♦\ufe0f", "♣\ufe0f"]]
LATIN = {14: "A", 13: "K", 12: "Q", 11: "J"}
CYRILLIC = {14: "Т", 13: "К", 12: "Д", 11: "В"}


@st.composite
def spelled(draw, lay):
    """``lay`` written in a random spelling: dotted or suit markers, Latin or
    Cyrillic ranks, T or 10, any marker alphabet, suits in any order, '/' or '|',
    any FIRST spelling (number, Roman, compass)."""
    n = lay.n_seats
    ranks = draw(st.sampled_from([LATIN, CYRILLIC]))
    ten = draw(st.sampled_from(["T", "10"]))

    def rank(r):
        return ranks.get(r) or (ten if r == 10 else str(r))

    def suit_text(h, s):
        rs = sorted((c & 15) + 2 for c in cards_of(h) if c >> 4 == s)
        rs = draw(st.permutations(rs))  # any rank order
        return "".join(rank(r) for r in rs)

    firsts = [str(lay.first + 1), ["I", "II", "III", "IV"][lay.first]] + (["NESW"[lay.first]] if n == 4 else [])
    first = draw(st.sampled_from(firsts))
    order = [lay.hands[(lay.first + k) % n] for k in range(n)]
    if draw(st.booleans()):
        body = " ".join(".".join(suit_text(h, s) for s in range(4)) for h in order)
    else:
        markers = draw(st.sampled_from(SUIT_SPELLINGS))
        hands = []
        for h in order:
            suits = draw(st.permutations(range(4)))
            hands.append(" ".join(markers[s] + suit_text(h, s) for s in suits))
        body = draw(st.sampled_from([" / ", "/", " | "])).join(hands)
    return f"{first}:{body}"


@examples(150)
@given(st.sampled_from(VARIANT_IDS).flatmap(
    lambda vid: st.integers(1, get_variant(vid).hand_size).flatmap(lambda k: layouts(get_variant(vid), k)))
    .flatmap(lambda lay: st.tuples(st.just(lay), spelled(lay))))
def test_any_spelling_reads_back(case):
    lay, text = case
    got = Layout.from_str(text)
    assert got == lay, text
    assert str(got) == str(lay)


# ---------------------------------------------------------------------------
# Seats and sides

@pytest.mark.parametrize("text, n, want", [
    ("1", 3, 0), ("3", 3, 2), ("I", 3, 0), ("II", 3, 1), ("III", 3, 2), ("iii", 3, 2), ("ІІІ", 3, 2),
    ("4", 4, 3), ("IV", 4, 3), ("N", 4, 0), ("E", 4, 1), ("S", 4, 2), ("W", 4, 3), ("w", 4, 3), (" 2 ", 4, 1),
    (2, 4, 1),
])
def test_parse_seat(text, n, want):
    assert parse_seat(text, n) == want


@pytest.mark.parametrize("text, n, needle", [
    ("0", 3, "seat '0' is not one of 1..3"),
    ("4", 3, "seat '4' is not one of 1..3"),
    ("IV", 3, "seat 'IV' is not one of 1..3"),
    ("N", 3, "unknown seat 'N' (1..3)"),
    ("X", 4, "unknown seat 'X' (1..4, N E S W)"),
    ("", 4, "unknown seat ''"),
    ("V", 4, "unknown seat 'V'"),
])
def test_parse_seat_rejects(text, n, needle):
    with pytest.raises(InvalidLayoutError) as err:
        parse_seat(text, n)
    assert needle in str(err.value)


def test_parse_side():
    assert parse_side("1,3", 4) == 0b0101
    assert parse_side("N,S", 4) == 0b0101
    assert parse_side("E W", 4) == 0b1010
    assert parse_side("II+III", 3) == 0b110
    assert parse_side("2", 3) == 0b010
    with pytest.raises(InvalidLayoutError, match="empty side"):
        parse_side(" , ", 3)
    with pytest.raises(InvalidLayoutError, match="'5'"):
        parse_side("1,5", 4)


# ---------------------------------------------------------------------------
# Bad layouts: one line, naming the token and where

@pytest.mark.parametrize("text, needle", [
    ("1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.X", "layout hand of seat 3: unknown rank 'X' in 'X'"),
    ("2:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.X", "layout hand of seat 1: unknown rank 'X'"),
    ("1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9", "layout hand of seat 3: '97.KQJ.AKT9' has 3 suits"),
    ("1:J8.T87.J87.Q7 KQT.A9.Q.JT98 J7.KQJ.AKT9.K", "♠J is dealt twice (seats 1 and 3)"),
    ("1:JJ8.T87.J87.Q7 KQT.A9.Q.T98 97.KQJ.AKT9.K", "layout hand of seat 1: ♠J written twice"),
    ("1:♠J8 ♥7 ♠J/♠K ♥A ♥9/♠9 ♥K ♥Q", "layout hand of seat 1: ♠J written twice"),
    ("1:J8 ♥7/♠K ♥A ♥9/♠9 ♥K ♥Q", "layout hand of seat 1: ranks 'J8' before any suit marker"),
    ("1:♠J8 ♥7 / ♠K ♥A ♥9 / ♠9 ♥K ♥Q /", "hand 4 is empty"),
    ("1:♠J8 ♥7Z / ♠K ♥A ♥9 / ♠9 ♥K ♥Q", "layout hand of seat 1: unknown rank 'Z'"),
    ("1:J8.T87.J87.Q7 KQT.A9.Q.JT98", "has 2 hands; 3 or 4 expected"),
    ("1:AKQ.AKQ.AK.A", "has 1 hand; 3 or 4 expected"),
    ("1:A.... K... Q...", "layout hand of seat 1: 'A....' has 5 suits"),
    ("1:AK... QJ... T9... 87... 65...", "has 5 hands"),
    ("5:AK... QJ... T9...", "seat '5' is not one of 1..3"),
    ("N:AK... QJ... T9...", "unknown seat 'N' (1..3)"),
    ("Z:AK... QJ... T9... 87...", "unknown seat 'Z'"),
    ("garbage", "cannot read layout 'garbage'"),
    ("", "has 0 hands"),
])
def test_bad_layouts(text, needle):
    with pytest.raises(InvalidLayoutError) as err:
        Layout.from_str(text)
    msg = str(err.value)
    assert needle in msg, msg
    assert "\n" not in msg
    assert isinstance(err.value, KingsolveError)


@pytest.mark.parametrize("vid, options, text, needle", [
    # a card outside the variant's deck
    ("ru4", (), "1:6... 7... 8... 9...", "♠6 is not in the deck of ru4 (held by seat 1)"),
    ("ru4", (), "1:7... .6.. 8... 9...", "♥6 is not in the deck of ru4 (held by seat 2)"),
    ("ua3", (), "1:A... K... Q...", "♠A is in the talon of ua3 (held by seat 1)"),
    ("ua3", (), "1:...K ...A ...Q", "♣A is in the talon of ua3 (held by seat 2)"),
    ("ru3", (), "1:...K ...7 ...Q", "♣7 is in the talon of ru3 (held by seat 2)"),
    ("ru3", ("talon=♥7 ♦7",), "1:..7. 8... 9...", "♦7 is in the talon of ru3"),
    # unequal hands
    ("ua3", (), "1:.A7.. .K8.. 8...", "hands of unequal size: seat 1 2, seat 2 2, seat 3 1"),
    ("ru4", (), "1:AK... QJ... T9... 8...", "seat 4 1"),
    # seat count, too many cards, nothing at all
    ("ru4", (), "1:.A7.. .K8.. K8...", "3 hands, but ru4 has 4 seats"),
    ("ua3", (), "1:... ... ...", "every hand is empty"),
])
def test_layout_check_against_variant(vid, options, text, needle):
    lay = Layout.from_str(text)
    with pytest.raises(InvalidLayoutError) as err:
        lay.check(get_variant(vid, options))
    assert needle in str(err.value), str(err.value)


def test_layout_check_hand_too_big():
    # with equal hands a deck cannot hold more than a full hand each; mid-trick (equal=False) it can
    lay = Layout.from_str("1:KQJT.AKQJT98.. 987.7.KQJ.KQJ .-.AT98.T987")
    with pytest.raises(InvalidLayoutError, match="a hand of 11 cards; ua3 deals 10"):
        lay.check(get_variant("ua3"), equal=False)


def test_layout_check_accepts():
    Layout.from_str(CANON).check(get_variant("ru3", ["talon=hidden"]))  # all 32 cards may be held
    Layout.from_str("1:A... K... Q...").check(get_variant("ua3", ["talon=S7 C7"]))  # ♠A in play with another talon
    Layout.from_str("1:.A7.. .K8.. 8...").check(get_variant("ua3"), equal=False)  # mid-trick: sizes may differ
    Layout.from_str("1:.A7.. .K8.. K8...").check(get_variant("ua3"))
