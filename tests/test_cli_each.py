"""`kingsolve solve --model each` through Click's CliRunner: output shapes, the
tie rule, the refusal where the exact search cannot reach, exit codes."""
import json

import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve.cli import main

# The hand-worked ending of tests/test_each.py: ua3 no-hearts, the tie rule decides
# whether seat 3 keeps its ♥9 (seat 1 takes three hearts) or sheds it on seat 2's trick.
TIE = "1:.Q.8. .7.T. 8.9.."


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_text_one_row_of_points_and_their_sum():
    r = run("solve", TIE, "-V", "ua3", "-c", "no-hearts", "--model", "each", "--line", "--cards")
    assert r.exit_code == 0, r.output
    rows = r.output.splitlines()
    assert rows[1].split() == ["seat", "1", "seat", "2", "seat", "3", "total"]
    assert rows[2].split() == ["-6", "+0", "+0", "-6"]
    assert rows[3].startswith("  line: 1. ♦8 ♦10 ♠8")
    assert "trick 1 seat 3 ♠8" in rows[4]
    assert rows[5].strip() == "seat 1 to play: ♦8 -6/+0/+0"


def test_tie_break_pessimistic_and_json():
    r = run("solve", TIE, "-V", "ua3", "-c", "no-hearts", "--model", "each", "--tie-break", "pessimistic",
            "-F", "json", "--line", "--cards")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["model"] == "each" and obj["tie_break"] == "pessimistic"
    assert obj["points"] == [-4, -2, 0] and obj["total"] == -6
    assert obj["tie"] is True and obj["ties"] == [{"trick": 1, "seat": 3, "card": "H9"}]
    assert obj["line"][:3] == ["D8", "DT", "H9"]
    assert obj["cards"] == {"D8": [-4, -2, 0]}


def test_csv_carries_the_vector():
    r = run("solve", TIE, "-V", "ua3", "-c", "no-hearts", "--model", "each", "-F", "csv")
    assert r.exit_code == 0, r.output
    head, row = r.output.splitlines()
    d = dict(zip(head.split(","), row.split(",")))
    assert (d["seat1"], d["seat2"], d["seat3"], d["seat4"], d["total"], d["tie"]) == ("-6", "0", "0", "", "-6", "yes")


def test_the_sum_is_the_deals_total_and_each_seat_gets_its_guarantee():
    # a whole ua3 deal (the README's): no-hearts, every heart costs 2, 16 in all
    lay = "1:Q7.K987.K7.KQ K.A.AJ8.JT987 JT98.QJT.QT9."
    each = json.loads(run("solve", lay, "-V", "ua3", "-c", "no-hearts", "--model", "each", "-F", "json").output)
    coal = json.loads(run("solve", lay, "-V", "ua3", "-c", "no-hearts", "-F", "json").output)
    assert each["total"] == sum(each["points"]) == -16
    for seat, r in enumerate(coal["results"]):
        assert each["points"][seat] >= r["value"]


def test_refuses_a_king52_deal_from_the_first_lead():
    lay = "1:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    r = run("solve", lay, "-V", "king52", "-c", "no-tricks", "--model", "each")
    assert r.exit_code == 2
    assert "up to 9 cards a hand" in r.output and "has 13" in r.output
    assert "Traceback" not in r.output


def test_player_and_side_do_not_apply():
    r = run("solve", TIE, "-V", "ua3", "-c", "no-hearts", "--model", "each", "-p", "1")
    assert r.exit_code == 2 and "do not apply" in r.output
    r = run("solve", TIE, "-V", "ua3", "-c", "no-hearts", "--model", "each", "--tie-break", "friendly")
    assert r.exit_code == 2


def test_table_model_each_rows_equal_solve_and_add_up():
    lay = "1:Q7.K987.K7.KQ K.A.AJ8.JT987 JT98.QJT.QT9."
    r = run("table", lay, "-V", "ua3", "--model", "each", "-C", "no-hearts,no-king,trump:H,misere:NT", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["model"] == "each" and [x["contract"] for x in obj["rows"]] == ["no-hearts", "no-king", "trump", "misere"]
    from kingsolve.variants import get_variant
    v = get_variant("ua3")
    for row in obj["rows"]:
        con = v.contract(row["contract"], "default" if row["trump"] is None else "SHDC".index(row["trump"])
                         if row["trump"] != "NT" else None)
        assert row["total"] == sum(row["points"]) == con.total
        args = ["solve", lay, "-V", "ua3", "-c", row["contract"], "--model", "each", "-F", "json"]
        if row["trump"]:
            args += ["-t", row["trump"]]
        one = json.loads(run(*args).output)
        assert one["points"] == row["points"] and one["tie"] == row["tie"]
    text = run("table", lay, "-V", "ua3", "--model", "each", "-C", "no-king").output
    assert "no-king" in text and "-24" in text
    assert run("table", lay, "-V", "ua3", "--model", "each", "--plot", "x.png").exit_code == 2
