"""`kingsolve rules` through CliRunner (exact output pieces, exit codes), and bad
input through the CLI: one line on stderr, exit code 2, no traceback — via
`rules` (pure Python) and via `solve` (needs the native core)."""
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kingsolve.cli import main

from strategies import VARIANT_CONFIGS, config_id
from test_variants import rules_total


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def lines(text):
    return text.splitlines()


# ---------------------------------------------------------------------------
# Text output

def test_rules_text_ua3():
    r = run("rules", "--variant", "ua3")
    assert r.exit_code == 0, r.output
    out = lines(r.stdout)
    assert out[0] == "ua3: 3 players, 32 cards less the black aces (the talon), 10 each"
    assert out[1] == "talon (прикуп, out of play): ♠A ♣A"
    # RULES.md §3, ua3 column: hearts 2 (16), boys 5 (20), King 20 written as 24, erajlash 120
    assert "no-hearts      total   -16  -2 each ♥" in out
    assert "no-boys        total   -20  -5 ♠J ♥J ♦J ♣J" in out
    assert "no-king        total   -24  -24 ♥K" in out
    assert "no-last-two    total   -20  -10 for each of the last two tricks" in out
    assert out[out.index("no-king        total   -24  -24 ♥K") + 1:][:2] == [
        "               no heart lead while holding another suit",
        "               a player void in the led suit must discard the ♥K"]
    assert any(x.startswith("erajlash       total  -120  -2 a trick, -10 for each of the last two tricks") for x in out)
    assert any(x.startswith("plus-erajlash  total  +120  +2 a trick") for x in out)
    assert "trump          total   +30  +3 a trick  trump S|H|D|C" in out
    assert "misere         total   +30  +3 a trick  trump NT|S|H|D|C" in out
    assert "options (-o KEY=VALUE):" in out
    assert any(x.startswith("  king-points = 24   (20 | 24") for x in out)
    assert any(x.startswith("  talon = SA CA   (") for x in out)


def test_rules_text_options_change_the_table():
    out = lines(run("rules", "-V", "ua3", "-o", "king-points=20").stdout)
    assert "no-king        total   -20  -20 ♥K" in out
    assert any(x.startswith("erajlash       total  -116 ") for x in out)
    out = lines(run("rules", "-V", "ru4", "-o", "boys=jacks-kings").stdout)
    assert "no-boys        total   -16  -2 each of ♠J ♠K ♥J ♥K ♦J ♦K ♣J ♣K" in out
    out = lines(run("rules", "-V", "ru4", "-o", "king-lead=king", "--option", "erajlash-forced-king=on").stdout)
    i = out.index("no-king        total   -16  -16 ♥K")
    assert out[i + 1] == "               ♥K may not be led unless it is the last card"
    i = [k for k, x in enumerate(out) if x.startswith("erajlash ")][0]
    assert out[i + 2] == "               a player void in the led suit must discard the ♥K"
    out = lines(run("rules", "-V", "ru4", "-o", "must-trump").stdout)
    i = out.index("trump          total   +24  +3 a trick  trump S|H|D|C")
    assert out[i + 1] == "               a player void in the led suit must trump"
    assert "  must-trump = on   (on | off — a player void in the led suit must trump (off))" in out


def test_rules_text_ru3_talons_and_king52():
    out = lines(run("rules", "-V", "ru3").stdout)
    assert out[1] == "talon (прикуп, out of play): ♠7 ♣7"
    assert "no-hearts      total   -40  -5 each ♥" in out
    out = lines(run("rules", "-V", "ru3", "-o", "talon=hidden").stdout)
    assert out[1] == "talon: 2 cards face down, unknown (points on them are not scored)"
    out = lines(run("rules", "-V", "king52").stdout)
    assert out[0] == "king52: 4 players, 52 cards, 13 each (Portuguese/Brazilian King, Rifki, Jeu du Roi)"
    assert "no-kings-jacks  total  -240  -30 each of ♠J ♠K ♥J ♥K ♦J ♦K ♣J ♣K" in out
    assert "no-king         total  -160  -160 ♥K" in out
    assert "                ♥K may not be led unless it is the last card" in out
    assert "minus           total  +325  325 to each player, -75 a trick  trump NT|S|H|D|C" in out
    assert not any(x.startswith("no-boys") or x.startswith("erajlash") for x in out)
    assert not any(x.startswith("  boys =") for x in out)  # king52 has no boys deal


# ---------------------------------------------------------------------------
# JSON output: the totals are RULES.md's

@pytest.mark.parametrize("vid, options", VARIANT_CONFIGS, ids=[config_id(c) for c in VARIANT_CONFIGS])
def test_rules_json_totals(vid, options):
    args = ["rules", "-V", vid, "--format", "json"]
    for o in options:
        args += ["-o", o]
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert len(lines(r.stdout)) == 1
    data = json.loads(r.stdout)
    assert data["variant"] == vid
    assert (data["seats"], data["hand_size"]) == {"ru4": (4, 8), "ua3": (3, 10), "ru3": (3, 10),
                                                  "king52": (4, 13)}[vid]
    hidden = "talon=hidden" in options
    assert data["talon"] == ([] if hidden else {"ua3": ["SA", "CA"], "ru3": ["S7", "C7"]}.get(vid, []))
    assert data["hidden_talon"] == (2 if hidden else 0)
    for c in data["contracts"]:
        assert c["total"] == rules_total(vid, options, c["name"]), c["name"]
    names = [c["name"] for c in data["contracts"]]
    assert ("no-boys" in names) == (vid != "king52")


def test_rules_json_contract_details():
    data = json.loads(run("rules", "-V", "ru4", "-F", "json").stdout)
    by = {c["name"]: c for c in data["contracts"]}
    assert by["no-hearts"]["cards"] == {f"H{r}": -2 for r in "789TJQKA"}
    assert by["no-hearts"]["restrictions"] == ["no heart lead while holding another suit"]
    assert by["no-last-two"]["last_two"] == -8 and by["no-last-two"]["per_trick"] == 0
    assert by["trump"]["trumps"] == ["S", "H", "D", "C"]
    assert data["options"]["forced-king"] is True and data["options"]["must-trump"] is False


# ---------------------------------------------------------------------------
# Bad input: one line, exit code 2, no traceback

def assert_one_line_error(r, needle):
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert r.stdout == ""
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("Error: ") and needle in err, err
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args, needle", [
    (["-V", "ru4", "-o", "bogus=1"], "unknown option 'bogus'"),
    (["-V", "ru4", "-o", "boys=kings"], "boys='kings'"),
    (["-V", "ua3", "-o", "boys=jacks-kings"], "boys=jacks-kings is a ru4 option, not ua3"),
    (["-V", "ua3", "-o", "talon=hidden"], "talon=hidden is a ru3 option"),
    (["-V", "ua3", "-o", "talon=SA ZZ"], "'ZZ'"),
    (["-V", "ru4", "-o", "king-points=20"], "king-points='20'"),
    (["-V", "ru5"], "'ru5' is not one of 'ru4', 'ua3', 'ru3', 'king52'"),
    (["-V", "ru4", "--format", "csv"], "'csv' is not one of 'text', 'json'"),
    (["-V", "ru4", "--colour"], "No such option '--colour'"),
])
def test_rules_bad_input(args, needle):
    assert_one_line_error(run("rules", *args), needle)


# Click 8.2+ writes a missing Choice option as several lines ("Choose from:\n\tru4,
# ..."); KingsolveGroup joins them into one.
def test_rules_missing_variant_is_one_line():
    assert_one_line_error(run("rules"), "Missing option '--variant'")


# `kingsolve rules` is pure Python and must work before the native core is built
# (the CLI loads each command's module only when it is used).
def test_rules_works_without_the_native_core():
    code = ("import sys; sys.modules['kingsolve._core'] = None\n"
            "from kingsolve.cli import main\n"
            "main(['rules', '-V', 'ru4'], prog_name='kingsolve')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-300:]
    assert p.stdout.startswith("ru4: 4 players, 32 cards (7..A), 8 each")


# ---------------------------------------------------------------------------
# The same kinds of bad input through `kingsolve solve` (needs the native core)

@pytest.mark.parametrize("args, needle", [
    # duplicate cards
    (["1:K.7.. K.8.. J.9..", "-V", "ua3", "-c", "no-hearts"], "♠K is dealt twice (seats 1 and 2)"),
    (["1:KK.7. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts"], "'KK.7.' has 3 suits"),
    (["1:KK.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts"], "layout hand of seat 1: ♠K written twice"),
    # unequal hand sizes
    (["1:K.7.. Q.8.. J...", "-V", "ua3", "-c", "no-hearts"], "hands of unequal size: seat 1 2, seat 2 2, seat 3 1"),
    # a card outside the variant's deck
    (["1:6.7.. Q.8.. J.9.. T.T..", "-V", "ru4", "-c", "no-hearts"], "♠6 is not in the deck of ru4 (held by seat 1)"),
    (["1:A.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts"], "♠A is in the talon of ua3 (held by seat 1)"),
    (["1:7.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts", "-o", "talon=S7,C7"], "♠7 is in the talon of ua3"),
    # a contract the variant lacks
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-kings-jacks"], "ua3 has no contract 'no-kings-jacks'"),
    (["1:K.7.. Q.8.. J.9.. T.T..", "-V", "king52", "-c", "erajlash"], "king52 has no contract 'erajlash'"),
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "trump", "-t", "NT"], "cannot be played with trump NT"),
    # an unknown token
    (["1:K.7.. Q.8.. J.9X..", "-V", "ua3", "-c", "no-hearts"], "layout hand of seat 3: unknown rank 'X' in '9X'"),
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts", "--leader", "IV"], "seat 'IV' is not one of 1..3"),
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts", "--side", "1,N"], "unknown seat 'N'"),
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "misere", "-t", "X"], "unknown trump 'X'"),
    # an unknown option
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts", "-o", "frob"], "unknown option 'frob'"),
    # an illegal card on the table
    (["1:K.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts", "--trick", "H7"],
     "trick 1, seat 1: ♥7 may not be led: no ♥ lead while holding another suit"),
])
def test_solve_bad_input(args, needle):
    pytest.importorskip("kingsolve._core")
    assert_one_line_error(run("solve", *args), needle)


def test_solve_accepts_the_talon_option():
    # ♠A is in play in ua3 once the talon option puts other cards aside
    pytest.importorskip("kingsolve._core")
    r = run("solve", "1:A.7.. Q.8.. J.9..", "-V", "ua3", "-c", "no-hearts", "-o", "talon=S7 C7", "-F", "json")
    assert r.exit_code == 0, r.output
    # ♠A ♠Q ♠J: seat 1 wins the spade trick, then must lead ♥7: ♥7 ♥8 ♥9, seat 3 takes
    # three hearts (-6); every play is forced.
    assert [x["value"] for x in json.loads(r.stdout)["results"]] == [0, 0, -6]
