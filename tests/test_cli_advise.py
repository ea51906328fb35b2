"""`kingsolve advise` through CliRunner: the report's pieces, the formats, the
same output for any --jobs, and bad input as one line with exit code 2."""
import json
import os

import pytest
from click.testing import CliRunner

from kingsolve.cli import main

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
HAND = "♠KQJ1098 7 ♥7 ♦7 ♣7"
PLAY = ["advise", "-V", "ua3", "-c", "plus-tricks", "-s", "1", "-H", HAND, "-n", "20", "--seed", "4"]


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_text_report():
    r = run(*PLAY)
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.startswith("kingsolve advise: ua3 plus-tricks, seat 1 to play — trick 1, to lead\n")
    # the other 20 cards split 10/10 between seats 2 and 3: C(20, 10) deals
    assert "seed 4, 20 deals sampled uniformly of 184,756 consistent with what the seat sees" in out
    assert "\n♠K        14.00 ± 0.00     100%       0.00      14..14\n" in out
    assert "recommended: ♠" in out and "blind spot: each sampled deal is solved double dummy" in out


def test_json_csv_and_jobs():
    j1 = run(*PLAY, "-F", "json")
    j2 = run(*PLAY, "-F", "json", "-j", "2")
    assert j1.exit_code == 0 and j1.output == j2.output
    obj = json.loads(j1.output)
    assert obj["seed"] == 4 and obj["samples"] == 20 and obj["kind"] == "play"
    assert obj["options"][0]["mean"] == 14 and obj["summary"]["recommended"].startswith("S")
    csv = run(*PLAY, "-F", "csv")
    lines = csv.output.splitlines()
    assert lines[0].startswith("kind,variant,seat,seed,samples,option,rank,card,mean,se,p_best,mean_loss")
    assert len(lines) == 11


def test_plot(tmp_path):
    out = tmp_path / "cards.png"
    r = run(*PLAY, "--plot", out)
    assert r.exit_code == 0 and out.stat().st_size > 1000
    bad = run(*PLAY, "--plot", tmp_path / "cards.txt")
    assert bad.exit_code == 2 and "cannot write .txt" in bad.stderr and not bad.stdout


def test_order():
    r = run("advise", "--order", "-V", "ru4", "-s", "2", "-H", "♠AK7 ♥Q9 ♦J8 ♣7", "-n", "3", "--seed", "1",
            "--left", "plus-tricks,no-king")
    assert r.exit_code == 0, r.output
    assert "kingsolve advise --order: ru4, seat 2 orders and leads" in r.output
    assert "plus-tricks" in r.output and "no-king" in r.output and "deal total" in r.output


def test_record_point():
    r = run("advise", "-f", os.path.join(EXAMPLES, "3_bought_trump.kdn"), "--at", "4.2", "-n", "10", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "ua3 trump (trump D), seat 3 to play — trick 4, after ♥9" in r.output


@pytest.mark.parametrize("args, needle", [
    (["-V", "ua3", "-c", "no-tricks", "-s", "1", "-H", "♠KQJ1098 7 ♥7 ♦7"], "has 9 cards; ua3 deals 10"),
    (["-V", "ua3", "-c", "no-tricks", "-s", "1", "-H", HAND, "-l", "2", "--played", "♠K"],
     "trick 1, seat 2: ♠K cannot be seat 2's: it is seat 1's"),
    (["-V", "ua3", "-c", "no-tricks", "-s", "1", "-H", HAND, "--played", "♠K ♥8 ♠A"], "♠A is in the talon"),
    (["-f", os.path.join(EXAMPLES, "3_bought_trump.kdn"), "--at", "11"], "a deal of ua3 has 10 tricks"),
    (["-f", os.path.join(EXAMPLES, "2_no_last_two.kdn"), "--at", "8"], "past the end of the record"),
    (["-f", os.path.join(EXAMPLES, "2_no_last_two.kdn"), "--at", "3"], "give its hand with --hand"),
    (["-V", "ua3", "-c", "no-tricks", "-s", "1"], "play advice needs --variant, --contract, --seat and --hand"),
    (["--order", "-V", "king52", "-s", "1", "-H", "AKQJ.AKQ.432.432"], "king52 has no ordered (long) King"),
    (["--order", "-V", "ru4", "-s", "1", "-H", "AK7.Q9.J8.7", "-c", "no-tricks"], "--order takes no --contract"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    r = run("advise", *args)
    assert r.exit_code == 2, r.output
    assert needle in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.output


def test_time_limit_answers_from_the_first_deals_finished():
    # ru4 no-tricks at trick 1: tens of ms a deal, so 10^5 deals cannot finish in a second; the answer
    # is the first deals finished, said in the report (exit 0), and -n of that many gives the same report
    args = ["advise", "-V", "ru4", "-c", "no-tricks", "-s", "1", "-H", "♠AK7 ♥Q9 ♦J8 ♣7", "--seed", "3"]
    r = run(*args, "-n", "100000", "--time-limit", "1", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["time_limit_reached"] and not obj["interrupted"] and obj["requested_samples"] == 100000
    k = obj["samples"]
    assert 0 < k < 100000 and k % 10 == 0        # whole ranges of ten (what ran at the limit is dropped)
    again = json.loads(run(*args, "-n", k, "-F", "json").stdout)
    assert again["options"] == obj["options"] and not again["time_limit_reached"]
    text = run(*args, "-n", "100000", "--time-limit", "0.5")
    assert text.exit_code == 0 and " of 100000 finished)" in text.stdout and "(time limit: the first " in text.stdout


def test_time_limit_with_no_deal_finished_is_one_line_and_exit_1():
    # a king52 decision at trick 1 of no-tricks takes seconds to minutes a deal
    r = run("advise", "-V", "king52", "-c", "no-tricks", "-s", "1", "-H", "♠6 ♥KT7652 ♦AT63 ♣AT", "-n", "5",
            "--seed", "1", "--time-limit", "0.2")
    assert r.exit_code == 1 and not r.stdout
    assert r.stderr.startswith("no deal finished within the time limit (0.2 s)") and r.stderr.count("\n") == 1


def test_a_13_card_decision_early_in_the_deal_warns_of_its_cost():
    args = ["advise", "-V", "king52", "-c", "trump", "-t", "S", "-s", "1", "-H", "♠6 ♥KT7652 ♦AT63 ♣AT", "-n", "1",
            "--seed", "1"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("warning: king52 with 13 cards a hand: every card of every sampled deal is a full "
                               "double-dummy search") and "--time-limit SECONDS" in r.stderr
    assert not run(*args, "--time-limit", "60").stderr                # asked with a limit: no warning
    assert not run(*PLAY).stderr                                       # short hands: none
