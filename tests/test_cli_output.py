"""What a player reads without the docs (issue 29 §4): solve says once what a
value is and whose values --cards gives; --line shows each trick's leader and
winner as verify does; rules explains misère and every option on one line;
seeds short enough to retype; "1 deal", never "1 deals"."""
import json
import re

import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve.cards import card_symbol, parse_card
from kingsolve.cli import main
from kingsolve.engine import replay
from kingsolve.layout import Layout
from kingsolve.reporting.text import plural, trick_line
from kingsolve.seeds import fresh_seed
from kingsolve.solver import Deal
from kingsolve.variants import OPTION_HELP, get_variant

LAYOUT = "1:.A7.. .K8.. K8..."
EXAMPLE3 = "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_solve_says_once_what_a_value_is(tmp_path):
    f = tmp_path / "two.txt"
    f.write_text(f"{LAYOUT}\n{EXAMPLE3}\n", encoding="utf-8")
    r = run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts")
    assert r.exit_code == 0, r.output
    notes = [x for x in r.output.splitlines() if x.startswith("  value: ")]
    assert len(notes) == 1
    assert "alone against all the others" in notes[0]
    # ua3 no-hearts: 8 hearts at 2 points = -16 (source 000 (Ukrainian); docs/rules.md)
    assert "need not add up to the deal's total (-16)" not in notes[0]     # the first layout is an end position
    assert "need not add up to the -8 still to be won" in notes[0]
    r = run("solve", EXAMPLE3, "-V", "ua3", "-c", "no-hearts")
    assert "need not add up to the deal's total (-16)" in r.output
    # json and csv stay data only
    assert "value:" not in run("solve", LAYOUT, "-V", "ua3", "-c", "no-hearts", "-F", "json").output


def test_cards_lines_say_whose_values_they_are():
    r = run("solve", LAYOUT, "-V", "ua3", "-c", "no-hearts", "--cards")
    out = r.output.splitlines()
    assert "    seat 1 to play, its value after each card: ♥A -4  ♥7 -4" in out
    assert "    seat 1 to play, seat 2's value after each card: ♥A -4  ♥7 -4" in out
    assert "    seat 1 to play, seat 3's value after each card: ♥A +0  ♥7 +0" in out


def test_line_shows_each_tricks_leader_and_winner_as_verify_does():
    r = run("solve", EXAMPLE3, "-V", "ua3", "-c", "no-hearts", "--line", "-p", "1", "-F", "json")
    line = json.loads(r.output)["results"][0]["line"]
    r = run("solve", EXAMPLE3, "-V", "ua3", "-c", "no-hearts", "--line", "-p", "1")
    assert r.exit_code == 0, r.output
    shown = r.output.splitlines()
    start = shown.index("    line:") + 1
    tricks = shown[start:start + 10]
    assert len(tricks) == 10 and shown[start + 10:] == []
    # the engine's replay of the JSON line gives the leaders and winners shown
    v = get_variant("ua3")
    deal = Deal.from_layout(v.contract("no-hearts"), Layout.from_str(EXAMPLE3), 0)
    played = replay(deal.rules, deal.position, [parse_card(c) for c in line])
    leader = 0
    for k, (text, cards, winner) in enumerate(zip(tricks, played.trick_cards, played.winners)):
        assert text == "      " + trick_line(k + 1, leader + 1, [card_symbol(c) for c in cards], winner + 1)
        assert re.fullmatch(rf"\s+{k + 1}\. seat {leader + 1} leads: .*   seat {winner + 1} wins", text)
        leader = winner


def test_line_mid_trick_brackets_the_cards_on_the_table():
    r = run("solve", "1:.A.. .K8.. K8...", "-V", "ua3", "-c", "no-hearts", "--trick", "♥7", "--line", "-p", "2")
    assert "       1. seat 1 leads: [♥7]  ♥K  ♠K   seat 2 wins" in r.output.splitlines()


def test_verify_keeps_its_trick_lines():
    r = run("verify", "examples/3_bought_trump.kdn", "--no-marks")
    assert r.exit_code == 0, r.output
    r = run("verify", "examples/3_bought_trump.kdn")
    assert "     1. seat 3 leads: ♦A  ♦7  ♦Q   seat 3 wins" in r.output.splitlines()


@pytest.mark.parametrize("vid, low", [("ua3", "7"), ("king52", "2")])
def test_rules_explains_misere_and_every_option_on_one_line(vid, low):
    r = run("rules", "-V", vid)
    out = r.output.splitlines()
    if "misere" in get_variant(vid).contracts:
        i = next(k for k, x in enumerate(out) if x.startswith("misere "))
        assert f"ranks inverted (мизер): the ace is the lowest card, the {low} the highest" in out[i + 1]
    opts = out[out.index("options (-o KEY=VALUE):") + 1:]
    keys = [x.split()[0] for x in opts]
    assert len(keys) == len(set(keys)) and set(keys) <= set(OPTION_HELP)
    for x in opts:
        assert x.startswith("  ") and " — " in x


def test_seeds_are_short_enough_to_retype():
    assert all(0 <= fresh_seed() < 2 ** 32 for _ in range(100))
    r = run("bid", "-V", "ua3", "--hand", "♠KQ ♥AQJ10 ♦AJ7 ♣10", "--seat", "2", "--seller-trump", "C", "-n", "1")
    assert r.exit_code == 0, r.output
    seed = int(re.search(r"seed (\d+), 1 sample\b", r.output).group(1))
    assert seed < 2 ** 32
    again = run("bid", "-V", "ua3", "--hand", "♠KQ ♥AQJ10 ♦AJ7 ♣10", "--seat", "2", "--seller-trump", "C", "-n", "1",
                "--seed", str(seed))
    assert again.output == r.output


def test_one_deal_not_one_deals():
    assert (plural(1, "deal"), plural(0, "deal"), plural(2, "deal")) == ("1 deal", "0 deals", "2 deals")
    r = run("stats", "-V", "ua3", "-n", "1", "--hand-size", "1", "-C", "no-hearts")
    assert r.exit_code == 0, r.output
    head = r.output.splitlines()[0]
    assert ", 1 deal (of 1 asked), 1 card a hand," in head
    r = run("table", "1:.A.. .K.. .8..", "-V", "ua3", "-C", "no-hearts")
    assert r.output.splitlines()[0].endswith("seat 1 leads, 1 trick")
    assert not re.search(r"\b1 (deals|samples|tricks|cards|layouts|rows)\b", r.output)
    r = run("advise", "-V", "ru4", "-c", "no-tricks", "-s", "1", "-H", "♠AK7 ♥Q9 ♦J8 ♣7", "-n", "1", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "seed 1, 1 deal sampled uniformly of" in r.output
