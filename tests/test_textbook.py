"""What is known of the textbook deals, pinned: the figures examples/README.md
states about them, and the third example of source 000 (Ukrainian) replayed
against its tricks worked out by hand — not against the functions ``replay``
itself calls (``trick_winner``, ``trick_value``)."""
from __future__ import annotations

import pathlib
import re

import pytest

from kingsolve.cards import parse_cards
from kingsolve.engine import Position, replay
from kingsolve.kdn import parse_kdn
from kingsolve.layout import Layout
from kingsolve.verify import verify_record

EXAMPLES = pathlib.Path(__file__).parent.parent / "examples"
README = (EXAMPLES / "README.md").read_text()


def report(name: str, marks: bool = True):
    rec = parse_kdn((EXAMPLES / name).read_text(), name)[0]
    return verify_record(rec, marks=marks)


def readme_figures(pattern: str) -> tuple:
    m = re.search(pattern, " ".join(README.split()))
    assert m, f"examples/README.md no longer says {pattern!r}: update this test with it"
    return tuple(int(x.replace(",", "")) for x in m.groups())


@pytest.fixture(scope="module")
def no_hearts():
    return report("1_no_hearts.kdn", marks=False)


def test_example_1_readings_and_deals_as_the_readme_says(no_hearts):
    # "with the claims (…), 42 of the 144 readings remain, and the claims hold
    # in 3536 of their 14720 deals"
    kept, readings, holding, deals = readme_figures(
        r"([\d,]+) of the ([\d,]+) readings remain, and the claims hold in ([\d,]+) of their ([\d,]+) deals")
    assert (kept, readings, holding, deals) == (42, 144, 3536, 14720)
    assert (len(no_hearts.kept), len(no_hearts.readings)) == (kept, readings)
    assert no_hearts.layouts_total == deals
    assert no_hearts.n_matching == holding
    for claim in no_hearts.claims:
        assert (claim.layouts, claim.holding, claim.status) == (deals, holding, "possible")


def test_example_2_unseen_cards_lie_in_35700_ways_as_the_readme_says():
    # "… hold in some of the 35700 ways the twelve unseen cards can lie, not in all"
    (ways,) = readme_figures(r"some of the ([\d,]+) ways the twelve unseen cards can lie")
    assert ways == 35700
    rep = report("2_no_last_two.kdn", marks=False)
    assert rep.layouts_total == ways
    assert bin(rep.reading.unseen).count("1") == 12
    assert [c.status for c in rep.claims] == ["possible", "possible"]
    assert all(0 < c.holding < c.layouts == ways for c in rep.claims)


# Source 000 (Ukrainian), third example: ua3, trump ♦, the game bought by the
# third hand for two tricks; the third hand leads.  The deal is the one the
# README gives (the source does not print it; each card of the play below is
# in it).  Seats in order of play from the leader: III, I, II.
EXAMPLE_3_LAYOUT = "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"
# The tricks as printed (bare ranks are hearts, «До» the ♥K), the winner by
# hand: the highest trump, else the highest card of the suit led.
EXAMPLE_3_TRICKS = [
    ("DA D7 DQ", 3),   # 1. ♦Т ♦7 ♦Д: trumps, the ace (III)
    ("DK D8 C9", 3),   # 2. ♦К ♦8 ♣9: II is out of trumps; ♦K (III)
    ("HK H7 HA", 2),   # 3. До 7 Тч: the ♥A (II) leads next
    ("H9 HQ H8", 3),   # 4. 9 Д 8 from II: the ♥Q (III)
    ("HJ HT CT", 3),   # 5. В 10 ♣10: II discards; the ♥J over the ♥10 (III)
    ("S9 SJ SQ", 2),   # 6. ♠9 ♠В ♠Д: the ♠Q (II)
    ("CJ CK C7", 3),   # 7. ♣В ♣К ♣7 from II: the ♣K (III)
    ("S7 S8 ST", 2),   # 8. ♠7 ♠8 ♠10 from III: the ♠10 (II)
    ("C8 D9 CQ", 3),   # 9. ♣8 ♦9 ♣Д from II: III ruffs (III)
    ("DT DJ SK", 1),   # 10. ♦10 ♦В ♠К from III: the ♦J over the ♦10 (I)
]


def test_replay_of_example_3_matches_the_tricks_worked_by_hand():
    report3 = report("3_bought_trump.kdn")
    rules = report3.setup.rules
    layout = Layout.from_str(EXAMPLE_3_LAYOUT)
    cards = [c for trick, _ in EXAMPLE_3_TRICKS for c in parse_cards(trick)]
    out = replay(rules, Position(layout.hands, 2), cards)
    assert [w + 1 for w in out.winners] == [w for _, w in EXAMPLE_3_TRICKS]
    assert [tuple(parse_cards(t)) for t, _ in EXAMPLE_3_TRICKS] == out.trick_cards
    # III takes tricks 1 2 4 5 7 9, II 3 6 8, I the last: +3 a trick
    assert out.tricks == [1, 3, 6]
    assert out.points == [3, 9, 18]
    assert out.position.finished
    # the verifier reads the same deal from the printed record, and after the
    # buyer's debt of two tricks: "I 3, II 3, III 4" (the source's own sentence)
    assert str(report3.layout) == EXAMPLE_3_LAYOUT
    assert report3.raw_score == {"points": [3, 9, 18], "tricks": [1, 3, 6]}
    assert report3.score == {"points": [9, 9, 12], "tricks": [3, 3, 4]}
    assert [c.status for c in report3.claims] == ["holds"]
    # the README: "Seat 2's ♥9 (trick 4) and ♣J (trick 7) each lose a trick double-dummy"
    lost = {(m.trick, m.seat, m.card): m.loss for m in report3.marks if m.loss}
    assert lost == {(4, 2, parse_cards("H9")[0]): 3, (7, 2, parse_cards("CJ")[0]): 3}
