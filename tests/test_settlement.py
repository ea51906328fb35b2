"""One settlement of a sold game (kingsolve.settlement), from the sources' own
sentences and figures: source 002 (Slovak) for the king52 auction under both
readings of ``auction-pay``, source 000 (Ukrainian) for the хваленки debt."""
import numpy as np
import pytest

from kingsolve.errors import InvalidRulesError
from kingsolve.settlement import auction_transfer, settle_sold_game
from kingsolve.variants import get_variant
from kingsolve.verify import Bought

KING52 = get_variant("king52")
KING52_BID = get_variant("king52", ["auction-pay=bid"])
UA3 = get_variant("ua3")


def test_positive_deal_shortfall_rule():
    # Issue figures: a positive deal, +5 bought by seat 2 from the dealer (seat 1), seat 2 took 3 tricks
    # (tricks 4 3 4 2: 100 75 100 50).  002: "the missing sum is deducted from his total and added to the
    # dealer's": 2 tricks short, 50 points move -> +150 +25 +100 +50.
    c = KING52.contract("trump", "H")
    pts, trs = settle_sold_game(c, Bought(1, 0, 5), [100, 75, 100, 50], [4, 3, 4, 2])
    assert pts == [150, 25, 100, 50] and trs == [4, 3, 4, 2]
    # a +2 bid made with 3 tricks: nothing is short, nothing moves
    assert settle_sold_game(c, Bought(1, 0, 2), [100, 75, 100, 50], [4, 3, 4, 2])[0] == [100, 75, 100, 50]


def test_positive_deal_bid_rule():
    # auction-pay=bid: 002's "must pay the dealer according to the conditions of the bid" read as a price:
    # the whole 25 x N moves, made or not (the winner's net is 25 x (tricks - N)).
    c = KING52_BID.contract("trump", "H")
    assert settle_sold_game(c, Bought(1, 0, 5), [100, 75, 100, 50], [4, 3, 4, 2])[0] == [225, -50, 100, 50]
    assert settle_sold_game(c, Bought(1, 0, 2), [100, 75, 100, 50], [4, 3, 4, 2])[0] == [150, 25, 100, 50]


@pytest.mark.parametrize("variant", [KING52, KING52_BID])
def test_minus_deal(variant):
    # Issue figures: a negative deal, -2 bought by seat 2, tricks 4 3 4 2 (325 - 75 a trick: 25 100 25 175).
    # 002: "the winner gets the points for as many of the dealer's tricks as he offered; the winner's points
    # decrease, the dealer's do not" -> the dealer's first two tricks (150) are the winner's: -50 +175 +25 +175.
    c = variant.contract("minus", None)
    pts, _ = settle_sold_game(c, Bought(1, 0, 2), [25, 100, 25, 175], [4, 3, 4, 2])
    assert pts == [175, -50, 25, 175] and sum(pts) == 325
    # "...unless the dealer took more tricks than were offered": with 1 dealer trick only 75 moves
    assert settle_sold_game(c, Bought(1, 0, 2), [250, 100, 25, 25], [1, 3, 4, 5])[0] == [325, 25, 25, 25]


def test_transfer_over_samples():
    c = KING52.contract("trump", None)
    assert list(auction_transfer(c, 7, np.array([5, 7, 9]))) == [50, 0, 0]
    assert list(auction_transfer(c, 7, np.array([5, 7, 9]), pay="bid")) == [175, 175, 175]
    m = KING52.contract("minus", "S")
    assert list(auction_transfer(m, 1, np.array([3, 3]), np.array([0, 4]))) == [0, 75]
    with pytest.raises(InvalidRulesError, match="dealer's tricks"):
        auction_transfer(m, 1, np.array([3]))
    with pytest.raises(InvalidRulesError, match="not no-tricks"):
        auction_transfer(KING52.contract("no-tricks"), 1, 3, 3)


def test_option_is_king52s():
    assert KING52.options.auction_pay == "shortfall" and KING52_BID.options.auction_pay == "bid"
    with pytest.raises(InvalidRulesError, match="king52 option"):
        get_variant("ua3", ["auction-pay=bid"])
    with pytest.raises(InvalidRulesError, match="expected shortfall or bid"):
        get_variant("king52", ["auction-pay=price"])


def test_khvalenka_debt_moves_tricks():
    # 000, third example: the buyer (III) took 6, "за мінусом двох хабарів у третьої руки, які він у вигляді
    # боргу віддає першій руці": I 3 tricks, II 3, III 4.
    c = UA3.contract("trump", "D")
    pts, trs = settle_sold_game(c, Bought(2, 0, 2), [3, 9, 18], [1, 3, 6])
    assert trs == [3, 3, 4] and pts == [9, 9, 12]


def test_verify_settles_an_auction_the_same_way():
    # verify (and score's reading of records with unreadable cards) settle through the same function
    from kingsolve.kdn import parse_kdn
    from kingsolve.verify import settle, setup_record
    text = '[Variant "king52"] [Contract "trump"] [Trump "H"] [Bought "2 from 1 for 5"]\n[Play]\n*\n'
    setup = setup_record(parse_kdn(text, source="t.kdn")[0])
    assert settle(setup, [100, 75, 100, 50], [4, 3, 4, 2])[0] == [150, 25, 100, 50]
    text = text.replace('[Bought', '[Options "auction-pay=bid"] [Bought')
    setup = setup_record(parse_kdn(text, source="t.kdn")[0])
    assert settle(setup, [100, 75, 100, 50], [4, 3, 4, 2])[0] == [225, -50, 100, 50]
