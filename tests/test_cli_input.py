"""Input edges of every command (issue 29 §2, §3): a bad file, a --plot path
matplotlib cannot write, an empty layout file, Cyrillic ranks, one contract
spelling, KDN records solved from their own tags.  Each is one line on stderr
and exit code 2 before any work, never a traceback."""
import json
import pathlib

import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve.cards import CYRILLIC_ACE_HINT, parse_card
from kingsolve.cli import main
from kingsolve.errors import InvalidLayoutError, ParseError
from kingsolve.kdn import parse_kdn
from kingsolve.layout import Layout, parse_hand
from kingsolve.variants import get_variant

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
LAYOUT = "1:.A7.. .K8.. K8..."
# Example 3 of source 000 (Ukrainian): the only deal its play allows (examples/README.md)
EXAMPLE3 = "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def one_line_exit_2(r, needle):
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    assert len(r.output.strip().splitlines()) == 1, r.output
    assert needle in r.output, r.output


# -- §2: one file reader, --plot checked first, no layout is an error

def test_solve_file_not_utf8_is_one_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"1:.A7.. \xff\xfe .K8.. K8...\n")
    one_line_exit_2(run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts"), f"{f}: not UTF-8 text (byte 8)")
    # the same words as verify, whose reader it is
    one_line_exit_2(run("verify", str(f)), f"{f}: not UTF-8 text (byte 8)")
    one_line_exit_2(run("score", str(f)), f"{f}: not UTF-8 text (byte 8)")
    one_line_exit_2(run("score", "--from-kdn", str(f)), f"{f}: not UTF-8 text (byte 8)")
    one_line_exit_2(run("advise", "-f", str(f), "--at", "1"), f"{f}: not UTF-8 text (byte 8)")


def test_solve_empty_file_is_an_error(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("# nothing but a comment\n\n", encoding="utf-8")
    one_line_exit_2(run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts"), f"{f}: no layout in the file")
    k = tmp_path / "empty.kdn"
    k.write_text("; comments only\n", encoding="utf-8")
    one_line_exit_2(run("solve", "-f", str(k), "-V", "ua3", "-c", "no-hearts"), f"{k}: no KDN record")
    one_line_exit_2(run("solve", "-f", "-", "-V", "ua3", "-c", "no-hearts", input=""), "<stdin>: no layout")


@pytest.mark.parametrize("args", [
    ["table", LAYOUT, "-V", "ua3", "-C", "no-hearts"],
    ["bid", "-V", "ua3", "--hand", "♠KQ ♥AQJ10 ♦AJ7 ♣10", "-n", "1"],
    ["stats", "-V", "ua3", "-n", "1", "--hand-size", "1", "-C", "no-hearts"],
    ["score", str(EXAMPLES / "sheets" / "ua12_ua3.csv")],
    ["advise", "-V", "ru4", "-c", "no-tricks", "-s", "1", "-H", "♠AK7 ♥Q9 ♦J8 ♣7", "-n", "1"],
])
@pytest.mark.parametrize("plot, needle", [("out.txt", "cannot write .txt"), ("out", "without an extension"),
                                          ("no/such/dir/out.png", "no directory")])
def test_plot_path_refused_before_any_work(tmp_path, monkeypatch, args, plot, needle):
    monkeypatch.chdir(tmp_path)
    r = run(*args, "--plot", plot)
    one_line_exit_2(r, needle)
    assert "--plot" in r.output
    assert list(tmp_path.iterdir()) == []      # nothing written, no report printed


def test_plot_path_a_format_matplotlib_writes(tmp_path):
    out = tmp_path / "grid.svg"
    r = run("table", LAYOUT, "-V", "ua3", "-C", "no-hearts", "--plot", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")


# -- §3: notation

def test_lowercase_cyrillic_ranks_read_as_capitals():
    assert Layout.from_str("1:в8.1087.в87.д7 кд10.т9.д.в1098 97.кдв.тк109.к") == Layout.from_str(EXAMPLE3)
    # lowercase т is the ace after a rank or a suit marker, the clubs marker where a suit starts
    assert parse_hand("♠кт ♥дв т97") == parse_hand("♠KA ♥QJ ♣97")
    assert parse_hand("♠т ♥тк") == parse_hand("♠A ♥AK")
    assert parse_card("тч") == parse_card("Тч") == parse_card("♥A")
    assert parse_card("♣д") == parse_card("♣Q") and parse_card("кт") == parse_card("♣K")
    r = run("solve", "1:.т7.. .к8.. к8...", "-V", "ua3", "-c", "no-hearts", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["layout"] == LAYOUT


@pytest.mark.parametrize("layout", [
    "1:J8.Т87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K",    # ♥Т meant as the ten: the ♥A twice
    "1:Т8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K",    # ♠Т meant as the ten: the ♠A is ua3's talon
    "1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKТ9.K",   # ♦A written twice
])
def test_cyrillic_t_is_the_ace_hint(layout):
    r = run("solve", layout, "-V", "ua3", "-c", "no-hearts")
    one_line_exit_2(r, CYRILLIC_ACE_HINT)


def test_no_hint_without_cyrillic_t():
    with pytest.raises(InvalidLayoutError) as err:
        Layout.from_str("1:A8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K").check(get_variant("ua3"))
    assert CYRILLIC_ACE_HINT not in str(err.value)


def test_one_contract_spelling():
    spelt = run("solve", EXAMPLE3, "-V", "ua3", "-c", "trump:H", "-p", "1", "--format", "json")
    apart = run("solve", EXAMPLE3, "-V", "ua3", "-c", "trump", "-t", "H", "-p", "1", "--format", "json")
    assert spelt.exit_code == 0, spelt.output
    assert spelt.output == apart.output and json.loads(spelt.output)["trump"] == "H"
    one_line_exit_2(run("solve", EXAMPLE3, "-V", "ua3", "-c", "trump:H", "-t", "S"), "give the trump once")
    # misère states its trump, NT unless one is given
    r = run("solve", EXAMPLE3, "-V", "ua3", "-c", "misere", "-p", "1")
    assert r.output.splitlines()[0].startswith("ua3 misere (NT)")
    assert "misere, minus and tricks are NT unless given" in run("solve", "--help").output
    # and in KDN: [Contract "trump:H"]
    rec = parse_kdn(f'[Variant "ua3"] [Contract "trump:H"] [Layout "{EXAMPLE3}"]\n')[0]
    from kingsolve.records import record_deal
    assert record_deal(rec).contract.trump_letter == "H"


@pytest.mark.parametrize("name, contract, leader", [("3_bought_trump.kdn", "ua3 trump (D)", 3)])
def test_solve_kdn_takes_the_records_tags_and_rebuilds_its_layout(name, contract, leader):
    # No option but the file: [Variant], [Contract], [Trump], [Leader] from the record,
    # the layout rebuilt from the play as verify does (example 3 allows one deal).
    r = run("solve", "-f", str(EXAMPLES / name))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == f"{contract}  {EXAMPLE3}  seat {leader} leads"
    # options given replace the tags
    r = run("solve", "-f", str(EXAMPLES / name), "-c", "no-hearts", "-l", "1", "--format", "json")
    obj = json.loads(r.output)
    assert (obj["contract"], obj["trump"], obj["leader"], obj["layout"]) == ("no-hearts", None, 1, EXAMPLE3)


@pytest.mark.parametrize("name", ["1_no_hearts.kdn", "2_no_last_two.kdn"])
def test_solve_kdn_unfinished_record_says_the_deal_is_not_known(name):
    # Examples 1 and 2 stop early: thousands of deals fit their play; solve says so.
    r = run("solve", "-f", str(EXAMPLES / name))
    one_line_exit_2(r, "the record has no [Layout] and ")
    assert "deals fit its play" in r.output and "give the deal as [Layout] or LAYOUT" in r.output


def test_solve_plain_layout_file_needs_variant_and_contract(tmp_path):
    f = tmp_path / "deals.txt"
    f.write_text(LAYOUT + "\n", encoding="utf-8")
    one_line_exit_2(run("solve", "-f", str(f)), "give --variant and --contract")


def test_records_without_the_blank_line_between_them():
    text = (EXAMPLES / "3_bought_trump.kdn").read_text(encoding="utf-8").rstrip("\n")
    assert len(parse_kdn(text + "\n\n" + text)) == 2
    with pytest.raises(ParseError, match="Records are separated by a blank line"):
        parse_kdn(text + "\n" + text)
    two = '[Variant "ua3"]\n[Play]\n1. ♣Д - ♣9 - ♣К.\n1. ♣7 - ♣8 - ♣В.\n'
    assert "Records are separated by a blank line" in parse_kdn(two)[0].warnings[0].message


def test_bid_takes_the_contract_spelling_too():
    from kingsolve.bid import parse_choice
    ua3, king52 = get_variant("ua3"), get_variant("king52")
    assert parse_choice("trump:C", ua3) == parse_choice("C", ua3)
    assert parse_choice("misere", ua3) == parse_choice("misere:NT", ua3)
    assert parse_choice("minus:H", king52) == parse_choice("minus-H", king52)
    assert parse_choice("trump:NT", king52) == parse_choice("NT", king52)


def test_a_reader_that_goes_away_stops_the_command_quietly(tmp_path):
    # `kingsolve solve … | head -2`: the pipe closes before the lines are written; before, the command
    # printed "Error: [Errno 32] Broken pipe" (exit 2) as if the input were bad
    import os
    import subprocess
    import sys

    import kingsolve
    root = os.path.dirname(os.path.dirname(os.path.abspath(kingsolve.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (root, os.environ.get("PYTHONPATH")) if x))
    p = subprocess.Popen([sys.executable, "-m", "kingsolve", "solve", "-V", "ua3", "-c", "no-hearts", "--cards",
                          "--line", "1:Q7.K987.K7.KQ K.A.AJ8.JT987 JT98.QJT.QT9."],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env)
    p.stdout.close()                    # the reader is gone before the first line
    err = p.stderr.read().decode()
    rc = p.wait(timeout=60)
    assert rc in (0, 141) and err == "", (rc, err)
