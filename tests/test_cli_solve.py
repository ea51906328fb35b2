"""`kingsolve solve` through Click's CliRunner: output shapes and exit codes."""
import json

import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve.cli import main

LAYOUT = "1:.A7.. .K8.. K8..."


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_json_shape_per_seat():
    r = run("solve", LAYOUT, "-V", "ua3", "-c", "no-hearts", "--format", "json", "--cards", "--line")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["layout"] == "1:.A7.. .K8.. K8..."
    assert obj["variant"] == "ua3" and obj["contract"] == "no-hearts" and obj["trump"] is None
    assert obj["leader"] == 1
    assert [x["side"] for x in obj["results"]] == [[1], [2], [3]]
    assert [x["value"] for x in obj["results"]] == [-4, -4, 0]
    assert obj["results"][0]["cards"] == {"HA": -4, "H7": -4}
    assert len(obj["results"][0]["line"]) == 6


def test_text_player_and_side():
    r = run("solve", LAYOUT, "-V", "ua3", "-c", "no-hearts", "--player", "II")
    assert r.exit_code == 0, r.output
    head, note, *rows = r.output.strip().splitlines()
    assert head == "ua3 no-hearts  1:.A7.. .K8.. K8...  seat 1 leads"
    assert note.startswith("  value: ")
    assert [row.split() for row in rows] == [["seat", "2", "-4"]]
    r = run("solve", LAYOUT, "-V", "ua3", "-c", "no-hearts", "--side", "2,3")
    assert r.exit_code == 0 and "side 2,3" in r.output


def test_trump_game_and_csv():
    r = run("solve", "1:AK... .AK.. QJ... .QJ..", "-V", "king52", "-c", "tricks", "--side", "N,S",
            "--format", "csv")
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("layout,variant,contract,trump,leader,side,value")
    assert lines[1].split(",")[5:7] == ["1 3", "2"]


def test_file_of_layouts_and_error_names_the_line(tmp_path):
    f = tmp_path / "deals.txt"
    f.write_text(f"# two deals\n{LAYOUT}\n1:.A7.. .K8.. K8...X\n", encoding="utf-8")
    r = run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts", "--format", "json")
    assert r.exit_code == 2
    assert f"{f}:3:" in r.output and "'X'" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args, needle", [
    (["1:.A7.. .K8.. K8...", "-V", "ua3", "-c", "no-boyz"], "no contract 'no-boyz'"),
    (["1:.A7.. .K8.. K8...", "-V", "ru4", "-c", "no-hearts"], "3 hands"),
    (["1:A7... .K8.. K8...", "-V", "ua3", "-c", "no-hearts"], "♠A is in the talon"),
    (["1:.A7.. .K8.. K...", "-V", "ua3", "-c", "no-hearts"], "unequal"),
    (["1:.A7.. .K8.. 8...", "-V", "ua3", "-c", "no-hearts"], "unequal"),
    (["1:.A7.. .K8.. K8...", "-V", "ua3", "-c", "trump"], "needs a trump"),
    (["1:.A7.. .K8.. K8...", "-V", "ua3", "-c", "trump", "-t", "NT"], "cannot be played with trump NT"),
    (["1:.A7.. .K8.. K8...", "-V", "ua3", "-c", "no-hearts", "--leader", "5"], "seat '5'"),
    (["1:.A7.. .A8.. K8...", "-V", "ua3", "-c", "no-hearts"], "dealt twice"),
])
def test_bad_input_one_line_exit_2(args, needle):
    r = run("solve", *args)
    assert r.exit_code == 2, r.output
    assert needle in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_kdn_file_layouts_with_their_leader(tmp_path):
    # A KDN record's [Layout] is solved with its [Leader] unless --leader is given.
    f = tmp_path / "deal.kdn"
    f.write_text('[Variant "ua3"]\n[Layout "1:.A7.. .K8.. K8..."]\n[Leader "3"]\n', encoding="utf-8")
    r = run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["leader"] == 3
    r = run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts", "--format", "json", "--leader", "1")
    assert json.loads(r.output)["leader"] == 1
    # a record without a layout is named
    f.write_text('[Variant "ua3"]\n[Leader "3"]\n', encoding="utf-8")
    r = run("solve", "-f", str(f), "-V", "ua3", "-c", "no-hearts")
    assert r.exit_code == 2 and f"{f}:1: the record has no [Layout] and no play" in r.output


def test_layout_may_be_given_unquoted():
    # `kingsolve solve ... 1:.A7.. .K8.. K8...` without quotes: the shell splits the
    # hands into several arguments, which are joined back.
    quoted = run("solve", LAYOUT, "-V", "ua3", "-c", "no-hearts", "--format", "json")
    split = run("solve", *LAYOUT.split(), "-V", "ua3", "-c", "no-hearts", "--format", "json")
    assert split.exit_code == 0, split.output
    assert split.output == quoted.output
    r = run("table", *LAYOUT.split(), "-V", "ua3", "-C", "no-hearts", "--format", "json")
    assert r.exit_code == 0, r.output


def test_seats_solved_in_lanes_print_what_one_lane_prints(tmp_path):
    # -j 2 (two threads, each its own table) and -j 0 (every core): the same
    # output, line for line, as one solver, over a file of layouts
    f = tmp_path / "deals.txt"
    f.write_text("1:Q7.K987.K7.KQ K.A.AJ8.JT987 JT98.QJT.QT9.\n1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K\n",
                 encoding="utf-8")
    base = ["solve", "-f", str(f), "-V", "ua3", "-c", "no-boys", "--cards", "--format", "json"]
    one = run(*base)
    assert one.exit_code == 0, one.output
    assert len(one.output.splitlines()) == 2
    for jobs in ("2", "0"):
        r = run(*base, "-j", jobs)
        assert r.exit_code == 0, r.output
        assert r.output == one.output
