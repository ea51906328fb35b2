"""`kingsolve verify` through CliRunner: exact output pieces and exit codes
(0 ok, 1 an illegal play or a failed claim, 2 a file that cannot be read)."""
import json
import os

import pytest
from click.testing import CliRunner

from kingsolve.cli import main

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.fixture(scope="module")
def examples_text():
    return run("verify", EXAMPLES)


def test_examples_directory_verifies(examples_text):
    r = examples_text
    assert r.exit_code == 0, r.stderr
    assert r.output.count("  verdict: OK") == 3
    assert r.stderr == ""


def test_examples_text_shows_the_inferred_cards_and_the_hands(examples_text):
    out = examples_text.output
    assert "    trick 3, seat 3: 'До' (garbled) = ♥K\n" in out
    assert "    trick 4, seat 2: 'Т' (suit lost) = ♥A\n" in out          # deal 2: the only ace left
    assert "    trick 4, seat 1: '10' (suit lost) = ♥10 (1: 94%) or ♦10 (1: 6%)\n" in out   # deal 2: both possible
    # the hand diagram of the reconstructed third deal, in suit symbols
    assert ("  Hands (the only deal consistent with the play):\n"
            "    seat 1       seat 2       seat 3\n    ♠ J 8        ♠ K Q 10     ♠ 9 7\n") in out
    assert "  After the debt (seat 3 hands 2 tricks to seat 1): seat 1 3 tricks +9  seat 2 3 tricks +9  seat 3 4 tricks +12\n" in out
    assert '  [Claim "1:3 2:3 3:4"] (tricks): holds — 1:3 2:3 3:4\n' in out
    assert "note: ♠K of the printed talon is played in trick 1: the printed talon is a slip" in out
    assert "warning " + os.path.join(EXAMPLES, "3_bought_trump.kdn") + ":15:4: unreadable card 'До': kept as unknown" in out


def test_examples_text_marks_plays(examples_text):
    out = examples_text.output
    # a mark is the seat's double-dummy loss against its best card
    assert "          ♣J?? seat 2: +0, best ♠K/♠10 +3: loses 3\n" in out
    assert "     7. seat 2 leads: ♣J??  ♣K  ♣7   seat 3 wins\n" in out


def test_json_one_object_per_record():
    r = run("verify", EXAMPLES, "--format", "json", "--no-marks")
    assert r.exit_code == 0, r.stderr
    objs = [json.loads(line) for line in r.output.splitlines()]
    assert [o["contract"] for o in objs] == ["no-hearts", "no-last-two", "trump"]
    assert [o["status"] for o in objs] == ["ok", "ok", "ok"]
    third = objs[2]
    assert third["layouts"]["layout"] == "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"
    assert third["bought"] == {"buyer": 3, "seller": 1, "tricks": 2}
    assert third["settled"]["tricks"] == [3, 3, 4]
    assert third["claims"][0]["status"] == "holds"
    assert third["tricks"][2] == {"number": 3, "leader": 3, "cards": ["HK", "H7", "HA"], "winner": 2}
    assert third["inference"]["unsure"][0] == {"trick": 3, "seat": 3, "text": "До", "kind": "garbled",
                                               "cards": {"HK": 1}, "share": {"HK": 1.0}}
    assert objs[0]["finished"] is False and objs[0]["layouts"]["layout"] is None


def test_proof_makes_an_unproven_claim_fail():
    r = run("verify", os.path.join(EXAMPLES, "2_no_last_two.kdn"), "--proof", "--no-marks")
    assert r.exit_code == 1
    assert "  verdict: CLAIM FAILS\n" in r.output
    assert "does not follow from the printed play alone; it fails e.g. in 1:" in r.output
    assert r.stderr.strip() == "verification failed: " + os.path.join(EXAMPLES, "2_no_last_two.kdn") + ":1"


def test_illegal_play_from_stdin_exits_1():
    text = '[Variant "ua3"] [Contract "no-hearts"]\n[Play]\n1. ♠К - ♥7 - ♠Д.\n2. ♠В - ♠7 - ♠9.\n*\n'
    r = run("verify", "-", input=text)
    assert r.exit_code == 1
    assert ("  ILLEGAL: no reading of the play is legal: trick 2, seat 2, '♠7': "
            "seat 2 cannot hold ♠7: showed out of ♠ at trick 1\n") in r.output
    assert r.stderr == "verification failed: -:1\n"


def test_claim_that_fails_exits_1_and_says_which():
    text = ('[Variant "ua3"] [Contract "no-tricks"]\n[Layout "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"]\n'
            '[Play]\n1. ♠J - ♠K - ♠9.\n*\n[Claim "2:0 points"]\n')
    r = run("verify", "-", "--no-marks", input=text)
    assert r.exit_code == 1
    # seat 2 wins the ♠J lead with ♠K: already 2 points lost (no tricks: -2 a trick), and more to come
    assert '  [Claim "2:0 points"] (points): FAILS — with best play from where the record stops: 2:-10\n' in r.output


def test_unreadable_input_exits_2_with_one_line():
    r = run("verify", "-", input='[Variant "ua3"]\n[Contract no-hearts]\n')
    assert r.exit_code == 2
    assert r.stderr == "Error: -:2:1: cannot read the tag '[Contract no-hearts]' (write [Name \"value\"])\n"
    r = run("verify", "no-such-file.kdn")
    assert r.exit_code == 2 and r.stderr == "Error: no-such-file.kdn: No such file or directory\n"


def test_strict_turns_the_garbled_card_into_exit_2():
    path = os.path.join(EXAMPLES, "3_bought_trump.kdn")
    r = run("verify", path, "--strict")
    assert r.exit_code == 2
    assert r.stderr == f"Error: {path}:15:4: unreadable card 'До': kept as unknown (--strict)\n"


def test_variant_option_overrides_and_is_required_without_a_tag():
    text = '[Contract "no-hearts"]\n[Play]\n1. ♠К - ♠Д - ♠9.\n*\n'
    r = run("verify", "-", input=text)
    assert r.exit_code == 2 and r.stderr == "Error: -:1: the record has no [Variant] tag (give --variant)\n"
    r = run("verify", "-", "--variant", "ua3", "--no-marks", input=text)
    assert r.exit_code == 0, r.stderr
    assert r.output.startswith("-:1  ua3 no-hearts, seat 1 leads\n")


def test_help():
    r = run("verify", "--help")
    assert r.exit_code == 0 and "--max-completions" in r.output and "FILE|DIR|-" in r.output


def test_write_adds_the_reconstructed_layout_and_keeps_the_comments(tmp_path):
    out = tmp_path / "out.kdn"
    r = run("verify", os.path.join(EXAMPLES, "3_bought_trump.kdn"), "--no-marks", "--write", out)
    assert r.exit_code == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert '[Layout "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"]\n[Play]\n' in text
    assert "3. До - 7 - Тч." in text                      # the source's tokens, never repaired
    assert "(він - старша карта)" in text
    again = run("verify", out, "--no-marks")
    assert again.exit_code == 0 and "  verdict: OK" in again.output


def test_empty_input_is_an_error():
    r = run("verify", "-", input="")
    assert r.exit_code == 2 and r.stderr == "Error: -: no KDN records\n"


def test_claims_checked_on_part_of_the_deals_say_so():
    r = run("verify", os.path.join(EXAMPLES, "2_no_last_two.kdn"), "--no-marks", "--claim-layouts", "100",
            "--seed", "7")
    assert r.exit_code == 0, r.stderr
    # 100 deals drawn uniformly from the 35,700 of both readings of trick 4, with the share's standard error
    import re
    assert re.search(r'  \[Claim "3:-20"\] \(points\): holds in \d+ of 100 deals sampled of 35,700 '
                     r'\(\d+\.\d% ± \d+\.\d%\), so it does not follow', r.output), r.output
    assert "100 sampled of the 35,700 deals of every reading (seed 7)" in r.output
    again = run("verify", os.path.join(EXAMPLES, "2_no_last_two.kdn"), "--no-marks", "--claim-layouts", "100",
                "--seed", "7")
    assert again.output == r.output


def test_seed_and_sampling_fields_in_json():
    r = run("verify", os.path.join(EXAMPLES, "2_no_last_two.kdn"), "--no-marks", "--claim-layouts", "50",
            "--seed", "3", "-F", "json")
    assert r.exit_code == 0, r.stderr
    obj = json.loads(r.output)
    assert obj["seed"] == 3
    lay = obj["layouts"]
    assert lay["count"] <= 35700 and lay["claims_sampled"] and lay["claims_checked"] == 50
    assert lay["certain_from"] == "play"
    for c in obj["claims"]:
        assert c["sampled"] and c["deals"] == 35700 and c["layouts"] == 50 and 0 <= c["se"] < 0.1


def test_single_dummy_marks_in_text_and_json():
    path = os.path.join(EXAMPLES, "3_bought_trump.kdn")
    r = run("verify", path, "--single-dummy", "8", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert "single-dummy: each play also graded by what its player saw" in r.output
    assert "♥9? single-dummy:" in r.output
    j = run("verify", path, "--single-dummy", "8", "--seed", "2", "-F", "json")
    plays = json.loads(j.output)["plays"]
    assert len(plays) == 30 and all(p["single_dummy"]["samples"] == 8 for p in plays)
    bad = run("verify", path, "--single-dummy", "8", "--no-marks")
    assert bad.exit_code == 2 and "drop --no-marks" in bad.stderr


def test_single_dummy_over_one_deal_marks_nothing_and_writes_strict_json():
    # one deal of the unseen cards gives no spread to judge a loss by: no `?`,
    # and the chance is JSON null (never NaN, which strict JSON readers refuse)
    path = os.path.join(EXAMPLES, "3_bought_trump.kdn")
    j = run("verify", path, "--single-dummy", "1", "--seed", "2", "-F", "json")
    assert j.exit_code == 0, j.output

    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    plays = json.loads(j.output, parse_constant=refuse)["plays"]
    sds = [p["single_dummy"] for p in plays]
    assert any(sd["loss"] > 0 for sd in sds)                  # some plays did lose on that deal
    for sd in sds:
        assert not sd["mark"] and sd["loss_se"] is None
        assert sd["p_played_better"] == (1.0 if sd["loss"] == 0 else None)
    t = run("verify", path, "--single-dummy", "1", "--seed", "2")
    assert "the unseen cards dealt 1 way (seed 2)" in t.output
    assert "on the one deal dealt: too few deals to call it a mistake" in t.output and "± 0.00" not in t.output


def test_progress_line_names_the_record_and_the_stage():
    r = run("verify", os.path.join(EXAMPLES, "3_bought_trump.kdn"), "--progress")
    assert r.exit_code == 0, r.output
    assert "3_bought_trump.kdn:" in r.stderr and " marks:" in r.stderr and "search" in r.stderr
    assert "Traceback" not in r.stderr
    quiet = run("verify", os.path.join(EXAMPLES, "3_bought_trump.kdn"))
    assert quiet.stdout == r.stdout and not quiet.stderr
