"""`verify --model each` (issue 34): the book against every seat playing for its own points.

Expected values come from the source text (example 3 of source 000 (Ukrainian)),
from hand-worked positions (the ties example of docs/each.md), or from the
plain-Python max^n of ``kingsolve.reference`` on the same positions — never
from the code under test."""
import csv
import io
import json
import os
import random

import pytest
from strategies import random_playout
from click.testing import CliRunner

from kingsolve import each as each_module
from kingsolve import reference
from kingsolve.cards import card_symbol
from kingsolve.cli import main
from kingsolve.engine import Position, play, points_at_stake
from kingsolve.kdn import parse_kdn
from kingsolve.verify import each as verify_each
from kingsolve.verify import verify_record

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def load(name):
    with open(os.path.join(EXAMPLES, name), encoding="utf-8") as f:
        return parse_kdn(f.read(), source=name)[0]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def record(text):
    return parse_kdn(text, source="t.kdn")[0]


# The ties example of docs/each.md (ua3 no-hearts, a heart costs 2): seat 1 leads ♦8, seat 2's ♦10
# wins, seat 3 (void in diamonds) takes nothing whatever it plays.  Neutral rule: it keeps ♥9 (♠8
# is the lower card) and seat 1 then takes three hearts: -6/0/0.  Pessimistic: it throws ♥9 on
# seat 2's trick: -4/-2/0.  The book below throws the ♥9: seat 2 takes ♥9 (-2), then seat 1's ♥Q
# wins ♥7 ♥Q (-4): -4/-2/0, worked out by hand.
TIES = """[Variant "ua3"] [Contract "no-hearts"] [Leader "1"]
[Layout "1:.Q.8. .7.T. 8.9.."]
[Play]
1. ♦8 ♦10 ♥9
2. ♥7 ♠8 ♥Q
"""

# A three-card ua3 no-hearts deal where two plays lose their player points (each was the worst
# card for its own seat): the departure marks are checked against the reference max^n.
DEPART = """[Variant "ua3"] [Contract "no-hearts"] [Leader "1"]
[Layout "1:.J.8.T 8.T..7 Q.7..K"]
[Play]
1. ♦8 ♣7 ♥7
2. ♣10 ♥10 ♣K
3. ♠Q ♥J ♠8
"""


def expected_plays(rep, tie_break):
    """Each play's (vector, best vector, best cards, tie) by the reference max^n, whole-deal
    points: the tricks before the position plus the reference's vector from it (None for a
    play of a position of more than 3 cards a hand: too large for the reference here)."""
    setup = rep.setup
    rules, n = setup.rules, setup.variant.n_seats
    pos = Position(rep.layout.hands, setup.leader)
    taken = [rules.seat_base] * n
    out = []
    for c in rep.reading.cards:
        if max(bin(h).count("1") for h in pos.hands) > 3:
            out.append(None)
        else:
            opts = reference.each_children(rules, pos, tie_break)
            pick, tie = reference.each_choose(tie_break, pos.to_move, opts)
            own = max(v[pos.to_move] for _, v in opts)
            whole = [tuple(t + x for t, x in zip(taken, v)) for v in (dict(opts)[c], opts[pick][1])]
            out.append((whole[0], whole[1], tuple(x for x, v in opts if v[pos.to_move] == own), tie))
        step = play(rules, pos, c)
        if step.winner is not None:
            taken[step.winner] += step.points
        pos = step.position
    return out


@pytest.mark.parametrize("tie_break", ["neutral", "pessimistic"])
def test_departures_are_exactly_those_of_the_reference_maxn(tie_break):
    rep = verify_record(record(DEPART), model="each", tie_break=tie_break, seed=1)
    e = rep.each
    setup = rep.setup
    start = Position(rep.layout.hands, setup.leader)
    assert e.equilibrium == reference.each_value(setup.rules, start, tie_break)
    _, _, ties = reference.each_line(setup.rules, start, tie_break)
    assert len(e.ties) == len(ties)
    want = expected_plays(rep, tie_break)
    assert len(e.plays) == len(want) == 9
    for p, (vec, best, best_cards, tie) in zip(e.plays, want):
        assert (p.vector, p.best, p.best_cards, p.tie) == (vec, best, best_cards, tie)
        assert p.loss == best[p.seat - 1] - vec[p.seat - 1] and p.departed == (p.loss > 0)
        assert p.change == tuple(a - b for a, b in zip(vec, best))
    assert len(e.departures) == 2            # the record was built with two such plays: the test bites
    assert e.book == tuple(rep.raw_score["points"])
    assert e.equal == (e.book == e.equilibrium)


def test_the_tie_example_of_the_docs_worked_by_hand():
    neutral = verify_record(record(TIES), model="each", seed=1).each
    assert neutral.equilibrium == (-6, 0, 0) and neutral.book == (-4, -2, 0) and not neutral.equal
    assert neutral.ties and not neutral.departures          # the book's difference is a tie, not a loss
    throw = neutral.plays[2]                                # seat 3's ♥9 on seat 2's trick
    assert (throw.seat, throw.loss, throw.tie, throw.change) == (3, 0, True, (2, -2, 0))
    pess = verify_record(record(TIES), model="each", tie_break="pessimistic", seed=1).each
    assert pess.equilibrium == (-4, -2, 0) and pess.equal
    assert all(p.change == (0, 0, 0) for p in pess.plays)


def test_an_unfinished_record_is_continued_each_for_himself():
    text = DEPART.split("2. ")[0] + "*\n"                   # stops after trick 1
    rep = verify_record(record(text), model="each", seed=1)
    e = rep.each
    assert e.book_continued == 1 and len(e.plays) == 3
    pos = Position(rep.layout.hands, rep.setup.leader)
    taken = [0, 0, 0]          # ua3 no-hearts: no points to start with
    for c in rep.reading.cards:
        step = play(rep.setup.rules, pos, c)
        if step.winner is not None:
            taken[step.winner] += step.points
        pos = step.position
    rest = reference.each_value(rep.setup.rules, pos)
    assert e.book == tuple(t + r for t, r in zip(taken, rest))


def test_textbook_examples_vectors_sum_to_the_deal_and_the_book_is_the_source_result():
    # example 3 of source 000 (Ukrainian): its deal is the only one the play allows
    rep = verify_record(load("3_bought_trump.kdn"), model="each", seed=1)
    e = rep.each
    total = points_at_stake(rep.setup.rules, Position(rep.layout.hands, rep.setup.leader))
    assert e.solved and e.start == 0 and e.total == total == sum(e.book)
    assert all(sum(p.vector) == sum(p.best) == total for p in e.plays) and len(e.plays) == 30
    # the source: after the debt of 2 tricks from seat 3 to seat 1, 3 / 3 / 4 tricks, so before
    # it 1 / 3 / 6 tricks, each worth the trump game's points a trick
    per_trick = rep.setup.rules.trick_points[0]
    assert e.book == (1 * per_trick, 3 * per_trick, 6 * per_trick)
    res = each_module.solve_each(rep.layout, rep.setup.contract, leader=rep.setup.leader)
    assert e.equilibrium == res.points and bool(e.ties) == res.tie_met
    # examples 1 and 2 stop early with many deals: an honest line, no numbers
    for name in ("1_no_hearts.kdn", "2_no_last_two.kdn"):
        e = verify_record(load(name), model="each", seed=1, claim_layouts=200).each
        assert not e.solved and e.equilibrium is None and e.plays == []
        assert e.reason.startswith("each for himself needs the deal") and "give it as [Layout]" in e.reason


KING52 = """[Variant "king52"] [Contract "trump"] [Trump "H"] [Leader "1"]
[Layout "1:KJ74.J8.AKJ5.AQ6 A.AQT94.82.KT932 Q532.763.T93.875 T986.K52.Q764.J4"]
[Play]
1. ♠J ♠A ♠2 ♠9
2. ♣K ♣8 ♣J ♣A
*
"""


def test_king52_before_the_search_reaches_is_one_honest_line():
    e = verify_record(record(KING52), model="each", seed=1).each
    assert not e.solved and e.plays == [] and e.equilibrium is None
    assert e.reason == ("verify grades each for himself from 8 cards a hand in king52 (trick 6 on); "
                        "the record stops before trick 6: nothing to solve")


def king52_played(tricks: int) -> str:
    """The KING52 deal with its first ``tricks`` tricks played by random legal cards (the input)."""
    rep = verify_record(record(KING52), marks=False, seed=1)
    rules = rep.setup.rules
    rp = random_playout(rules, Position(rep.layout.hands, 0), random.Random(5))
    body = "".join(f"{k}. " + " ".join(card_symbol(c) for c in t) + "\n"
                   for k, t in enumerate(rp.trick_cards[:tricks], 1))
    return KING52.split("[Play]")[0] + "[Play]\n" + body + ("*\n" if tricks < 13 else "")


@pytest.mark.parametrize("tricks", [13, 11])
def test_a_large_deal_is_graded_from_the_first_trick_the_search_reaches(monkeypatch, tricks):
    # the reach lowered to 3 cards a hand, so that the reference max^n checks it in moments
    monkeypatch.setattr(verify_each, "EACH_GRADE_KING52", 3)
    rep = verify_record(record(king52_played(tricks)), model="each", seed=1)
    e = rep.each
    assert e.solved and e.start == 10 and "from trick 11, the book's first 10 tricks as played" in e.start_note
    want = expected_plays(rep, "neutral")
    assert [(p.vector, p.best, p.best_cards, p.tie) for p in e.plays] == want[40:]
    assert [p.index for p in e.plays] == list(range(40, 4 * tricks))
    total = points_at_stake(rep.setup.rules, Position(rep.layout.hands, 0))
    assert sum(e.equilibrium) == sum(e.book) == total
    assert e.book_continued == (None if tricks == 13 else 11)


# ---------------------------------------------------------------- the command

def test_cli_text_json_and_csv_carry_the_vectors(tmp_path):
    f = tmp_path / "ties.kdn"
    f.write_text(TIES, encoding="utf-8")
    r = run("verify", "--model", "each", f)
    assert r.exit_code == 0, r.output
    assert "    equilibrium  seat 1 -6  seat 2 +0  seat 3 +0   total -6\n" in r.output
    assert "    the book     seat 1 -4  seat 2 -2  seat 3 +0   total -6\n" in r.output
    assert "♥9~ seat 3: -4/-2/+0, the neutral rule's card -6/+0/+0: its own points kept; seat 1 +2, seat 2 -2" \
        in r.output
    r = run("verify", "--model", "each", "--tie-break", "pessimistic", "-F", "json", f)
    assert r.exit_code == 0, r.output
    d = json.loads(r.output.splitlines()[0])
    assert d["model"] == "each"
    e = d["each"]
    assert set(e) == {"tie_break", "solved", "from_trick", "note", "equilibrium", "total", "book",
                      "book_continued_from", "equal", "tie", "ties", "line", "plays"}
    assert (e["tie_break"], e["equilibrium"], e["book"], e["total"], e["equal"]) == \
        ("pessimistic", [-4, -2, 0], [-4, -2, 0], -6, True)
    assert set(e["plays"][0]) == {"trick", "seat", "card", "vector", "best", "best_cards", "loss", "departed",
                                  "change", "tie"}
    assert len(e["plays"]) == 6 and e["plays"][2]["card"] == "H9"
    r = run("verify", "--model", "each", "-F", "csv", f)
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert len(rows) == 6
    assert [rows[2][k] for k in ("card", "seat1", "seat2", "seat3", "best_seat1", "departed", "play_tie")] == \
        ["H9", "-4", "-2", "0", "-6", "no", "yes"]
    assert rows[0]["equilibrium_seat1"] == "-6" and rows[0]["book_seat2"] == "-2" and rows[0]["equal"] == "no"


def test_cli_king52_refusal_is_a_line_of_the_report_not_an_error(tmp_path):
    f = tmp_path / "k.kdn"
    f.write_text(KING52, encoding="utf-8")
    r = run("verify", "--model", "each", f)
    assert r.exit_code == 0, r.output
    assert ("  Each for himself (every seat playing for its own points; ties neutral): verify grades each for "
            "himself from 8 cards a hand in king52 (trick 6 on); the record stops before trick 6: nothing to "
            "solve\n") in r.output
    r = run("verify", "--model", "each", "-F", "csv", f)
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert len(rows) == 1 and rows[0]["reason"].startswith("verify grades each for himself") and not rows[0]["total"]


@pytest.mark.parametrize("args, message", [
    (["--tie-break", "pessimistic"], "--tie-break decides the ties of --model each"),
    (["-F", "csv"], "--format csv is the play-by-play rows of --model each"),
    (["--model", "each", "--single-dummy", "3"], "--single-dummy grades the coalition marks"),
])
def test_cli_bad_combinations_are_one_line_and_exit_2(args, message):
    r = run("verify", *args, os.path.join(EXAMPLES, "3_bought_trump.kdn"))
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output
