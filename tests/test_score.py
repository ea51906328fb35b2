"""`kingsolve score`: score sheets checked against RULES.md §5 — every wrong
sheet the checker must name, with its file, line, row, contract and sums —
the totals, and sheets built from KDN records of played deals."""
import csv
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingsolve.cards import card_str, cards_of
from kingsolve.cli import main
from kingsolve.engine import Position, legal_mask, play, replay
from kingsolve.layout import Layout
from kingsolve.score import make_game, read_sheet, score_sheet
from kingsolve.variants import get_variant

SHEETS = Path(__file__).resolve().parent.parent / "examples" / "sheets"
HEADER4 = "contract,Anna,Boris,Vera,Gleb\n"
# A full ua12 game on ru4, deal by deal (RULES.md §5: -16 a penalty deal,
# -96 erajlash, +24 a хваленка, +96 positive erajlash).
UA12 = [
    ("no-tricks", "-4,-6,-2,-4"), ("no-hearts", "-6,0,-8,-2"), ("no-boys", "-4,-8,0,-4"),
    ("no-girls", "0,-4,-8,-4"), ("no-last-two", "-8,0,0,-8"), ("no-king", "0,0,-16,0"),
    ("erajlash", "-22,-30,-28,-16"), ("trump:H", "6,9,3,6"), ("trump:S", "3,12,6,3"),
    ("misere", "9,3,6,6"), ("trump:C", "6,6,6,6"), ("plus-erajlash", "30,20,26,20"),
]


def sheet_text(rows, header=HEADER4):
    return header + "".join(f"{c},{p}\n" for c, p in rows)


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def check(tmp_path, rows, *args, header=HEADER4, name="s.csv"):
    f = tmp_path / name
    f.write_text(sheet_text(rows, header), encoding="utf-8")
    return run("score", f, *args), f


# --- correct sheets --------------------------------------------------------------------------------

@pytest.mark.parametrize("name,args,game,variant,neg", [
    ("ua12_ru4.csv", [], "ua12", "ru4", -192),       # RULES.md §5: -192 / +192
    ("ua12_ua3.csv", [], "ua12", "ua3", -240),       # 000: "становить 240, так само, як і позитивних"
    ("ru14_ru4.csv", ["--game", "ru14"], "ru14", "ru4", -192),
    ("short_ru4.csv", [], "short", "ru4", -192),
    ("long_ru4.csv", [], "long", "ru4", -4 * 192),
    ("king52.csv", [], "king52", "king52", -1300),   # 002: six penalty deals -1300, four of +325
])
def test_correct_example_sheets(name, args, game, variant, neg):
    r = run("score", SHEETS / name, *args, "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert (obj["game"], obj["variant"], obj["ok"], obj["problems"]) == (game, variant, True, [])
    assert (obj["penalty_total"], obj["positive_total"]) == (neg, -neg)
    # Totals recomputed here from the CSV itself.
    rows = [row for row in csv.reader(l for l in (SHEETS / name).read_text(encoding="utf-8").splitlines()
                                      if l and not l.startswith("#"))]
    head, body = rows[0], rows[1:]
    players = [h for h in head if h not in ("deal", "contract", "trump", "by")]
    totals = [sum(int(b[head.index(p)]) for b in body) for p in players]
    assert obj["totals"]["total"] == totals and sum(totals) == 0
    assert obj["rows"][-1]["running"] == totals
    assert len(obj["rows"]) == {"ua12": 12, "ru14": 14, "short": 14, "long": 56, "king52": 10}[game]


def test_text_report_and_running_totals(tmp_path):
    r, _ = check(tmp_path, UA12)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{tmp_path / 's.csv'}: ua12 on ru4")
    row8 = next(l for l in lines if l.lstrip().startswith("8  "))
    assert row8.split() == ["8", "trump", "♥", "+6", "+9", "+3", "+6", "+24", "+24", "ok"]
    assert next(l for l in lines if l.startswith("penalty deals")).split()[2:] == ["-44", "-48", "-62", "-38", "-192", "-192"]
    assert next(l for l in lines if l.startswith("total")).split()[1:] == ["+10", "+2", "-15", "+3", "+0", "+0"]
    assert lines[-1] == "the sheet adds up: every row, the stages and the whole game"


def test_csv_output_and_plot(tmp_path):
    png = tmp_path / "run.png"
    f = tmp_path / "s.csv"
    f.write_text(sheet_text(UA12), encoding="utf-8")
    r = run("score", f, "-F", "csv", "--plot", png)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "deal,contract,trump,Anna,Boris,Vera,Gleb,sum,expected,Anna total,Boris total,Vera total,Gleb total"
    assert lines[2] == "2,no-hearts,,-6,0,-8,-2,-16,-16,-10,-6,-10,-6"
    assert png.read_bytes()[:4] == b"\x89PNG"


# --- wrong sheets: exit 1, the first problem named ----------------------------------------------------

def test_wrong_row_sum_names_the_first_row(tmp_path):
    rows = list(UA12)
    rows[3] = ("no-girls", "0,-4,-4,-4")        # -12: four queens at 4 are -16
    rows[6] = ("erajlash", "-22,-30,-28,-10")   # a later wrong row is listed, not named first
    r, f = check(tmp_path, rows)
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{f}:5: row 4 (no-girls): the row sums to -12, expected -16"
    assert "✗ the row sums to -12, expected -16" in r.stdout
    assert f"{f}:8: row 7 (erajlash): the row sums to -90, expected -96" in r.stdout


def test_ua3_king_written_as_24(tmp_path):
    # 000: in the game for three the King is written as 24, not 20.
    r = run("score", SHEETS / "wrong_ua3_king_20.csv")
    assert r.exit_code == 1
    assert r.stderr.strip().endswith(":10: row 6 (no-king): the row sums to -20, expected -24")


def test_ua3_king_20_does_not_balance(tmp_path):
    # With king-points=20 every row adds up, but the stages differ by 4 (000).
    r = run("score", SHEETS / "wrong_ua3_king_20.csv", "-V", "ua3", "-o", "king-points=20")
    assert r.exit_code == 1
    assert r.stderr.strip() == (f"{SHEETS / 'wrong_ua3_king_20.csv'}: the penalty deals total -232 (a full game: -232), "
                                "the positive deals +236 (a full game: +236); the game sums to +4, not 0")


def test_repeated_deal_type(tmp_path):
    rows = list(UA12)
    rows[4] = ("no-king", "-16,0,0,0")
    r, f = check(tmp_path, rows)
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{f}:7: row 6 (no-king): no-king is played once in ua12; already in row 5"
    assert f"{f}: the ua12 game has 12 deals, the sheet 12; missing: no-last-two" in r.stdout


def test_fifth_trump_game(tmp_path):
    rows = UA12[:11] + [("trump:D", "6,6,6,6")]
    r, f = check(tmp_path, rows)
    assert r.exit_code == 1
    assert r.stderr.strip() == (f"{f}:13: row 12 (trump): trump game (trump or misere) is played 4 times in ua12; "
                                "already in row 8, 9, 10, 11")


def test_deal_not_of_the_game(tmp_path):
    rows = UA12[:11] + [("plus-tricks", "4,4,4,4")]
    r, f = check(tmp_path, rows)
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{f}:13: row 12 (plus-tricks): plus-tricks is not a deal of the ua12 game"


def test_missing_deal(tmp_path):
    r, f = check(tmp_path, UA12[:11], "--game", "ua12")
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{f}: the ua12 game has 12 deals, the sheet 11; missing: plus-erajlash"
    # A game in progress is fine with --partial.
    r = run("score", f, "--game", "ua12", "--partial")
    assert r.exit_code == 0 and r.stdout.splitlines()[-1] == "every row adds up so far"


@pytest.mark.parametrize("game,rows,line,deal,contract,began", [
    ("ua12", [UA12[7]] + UA12[:7] + UA12[8:], 3, 2, "no-tricks", 1),
    ("ru14", None, 11, 8, "erajlash", 7),
])
def test_penalty_stage_comes_first(tmp_path, game, rows, line, deal, contract, began):
    if rows is None:
        r = run("score", SHEETS / "wrong_stage_order.csv", "--game", game)
        f = SHEETS / "wrong_stage_order.csv"
    else:
        r, f = check(tmp_path, rows, "--game", game)
    assert r.exit_code == 1
    assert r.stderr.strip() == (f"{f}:{line}: row {deal} ({contract}): a penalty deal after the positive stage "
                                f"began (row {began})")


def test_short_king_any_order_but_ru14_in_stages():
    assert run("score", SHEETS / "short_ru4.csv", "--game", "short").exit_code == 0
    r = run("score", SHEETS / "short_ru4.csv", "--game", "ru14")
    assert r.exit_code == 1 and "row 2 (no-tricks): a penalty deal after the positive stage began (row 1)" in r.stderr


def test_long_king_orders_each_type_once():
    r = run("score", SHEETS / "wrong_long_orders_twice.csv")
    assert r.exit_code == 1
    assert r.stderr.strip().endswith(":13: row 10 (no-tricks): Boris ordered no-tricks already in row 2")


def test_long_king_needs_the_by_column():
    text = "\n".join(l for l in (SHEETS / "long_ru4.csv").read_text(encoding="utf-8").splitlines()
                     if not l.startswith("#"))
    plain = "\n".join(",".join(c for k, c in enumerate(l.split(",")) if k != 1) for l in text.splitlines())
    r = run("score", "-", "--game", "long", input=plain)
    assert r.exit_code == 1
    assert r.stderr.strip() == "<stdin>: no 'by' column: a long King sheet names who ordered each deal"


def test_deal_number_out_of_sequence(tmp_path):
    header = "deal,contract,Anna,Boris,Vera,Gleb\n"
    rows = [(f"{k + 1 if k != 2 else 4},{c}", p) for k, (c, p) in enumerate(UA12)]
    r, f = check(tmp_path, rows, header=header)
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{f}:4: row 3 (no-boys): numbered deal 4, but it is deal 3 of the sheet"


def test_king52_positive_deals_and_minus():
    r = run("score", SHEETS / "king52.csv", "-F", "json")
    obj = json.loads(r.output)
    assert [x["expected"] for x in obj["rows"]] == [-260, -260, -200, -240, -180, -160, 325, 325, 325, 325]
    assert [x["trump"] for x in obj["rows"][6:]] == ["S", "NT", "NT", "H"]


# --- unreadable sheets: exit 2, one line with file:line ------------------------------------------------

@pytest.mark.parametrize("text,where,message", [
    (HEADER4 + "no-tricks,-4,-6,-2,-4\nno-queens,0,-4,-8,-4\n", 3, "unknown contract 'no-queens'"),
    (HEADER4 + "no-tricks,-4,-6,-2\n", 2, "4 columns, the header has 5"),
    (HEADER4 + "no-tricks,-4,-6,-2,-4,0\n", 2, "6 columns, the header has 5"),
    (HEADER4 + "no-tricks,-4,-6,x,-4\n", 2, "Vera: 'x' is not a number"),
    (HEADER4 + "no-tricks,-4,-6,2.5,-4\n", 2, "Vera: '2.5' is not a number"),
    (HEADER4 + "no-kings-jacks,-4,-6,-2,-4\n", 2, "ru4 has no contract 'no-kings-jacks'"),
    (HEADER4 + "no-hearts:S,-4,-6,-2,-4\n", 2, "contract no-hearts in ru4 cannot be played with trump S"),
    (HEADER4 + "trump:X,-4,-6,-2,-4\n", 2, "unknown trump 'X'"),
    ("deal,by,contract,A,B,C,D\n1,Zed,no-tricks,-4,-6,-2,-4\n", 2, "'by' 'Zed' is not a player"),
    ("deal,contract,A,B,C,D\nfirst,no-tricks,-4,-6,-2,-4\n", 2, "deal number 'first' is not a number"),
    ("Anna,Boris,Vera,Gleb\n-4,-6,-2,-4\n", 1, "the header has no 'contract' column"),
    ("contract,Anna,Boris\nno-tricks,-8,-8\n", 1, "2 player columns (Anna, Boris); King is played by 3 or 4"),
    ("contract,Anna,Anna,Vera\nno-tricks,-8,-8,-4\n", 1, "column 'Anna' appears twice in the header"),
])
def test_unreadable_sheets_exit_2(text, where, message):
    r = run("score", "-", "--game", "ua12", "--partial", input=text)
    assert r.exit_code == 2, r.output
    assert r.output.strip().startswith(f"Error: <stdin>:{where}: ")
    assert message in r.output and len(r.output.strip().splitlines()) == 1


def test_example_bad_sheets_exit_2():
    for name, line, message in [("bad_unknown_contract.csv", 5, "unknown contract 'no-queens'"),
                                ("bad_column_count.csv", 4, "4 columns, the header has 5"),
                                ("bad_not_a_number.csv", 4, "Vera: 'minus 8' is not a number")]:
        r = run("score", SHEETS / name)
        assert r.exit_code == 2
        assert r.output.startswith(f"Error: {SHEETS / name}:{line}: {message}")
        assert len(r.output.strip().splitlines()) == 1


def test_other_usage_errors():
    r = run("score", SHEETS / "ua12_ua3.csv", "-V", "ru4")
    assert r.exit_code == 2 and "3 players on the sheet, ru4 has 4 seats" in r.output
    r = run("score", SHEETS / "ua12_ru4.csv", "--game", "king52", "-V", "ru4")
    assert r.exit_code == 2 and "the king52 game is not played on ru4" in r.output
    r = run("score", SHEETS / "ua12_ru4.csv", "--game", "king52")  # on king52 itself: no boys there
    assert r.exit_code == 2 and f"{SHEETS / 'ua12_ru4.csv'}:7: king52 has no contract 'no-boys'" in r.output
    r = run("score", "-", input=HEADER4 + "no-tricks,-4,-6,-2,-4\n")
    assert r.exit_code == 2 and "cannot tell the game from penalty deals only (1); give --game" in r.output
    r = run("score")
    assert r.exit_code == 2 and "no sheet" in r.output


def test_sheet_parsing_details():
    s = read_sheet("# c\n\ncontract,trump,A,B,C\nno-tricks,,+2,-12,−10\ntrump,NT,3,3,24\n", "x.csv")
    assert s.players == ("A", "B", "C")
    assert [r.line for r in s.rows] == [4, 5]
    assert s.rows[0].points == (2, -12, -10)
    assert s.rows[1].trump is None and s.rows[1].trump_given
    g = make_game("long", get_variant("ua3"))
    assert g.n_deals == 42  # three players × 14 types


# --- sheets from KDN records of played deals ------------------------------------------------------------

def played_record(vid, contract, trump, seed, extra="", stop=None):
    """A random legal play of a random deal, as a KDN record, and its replayed points."""
    v = get_variant(vid)
    rng = random.Random(seed)
    deck = list(cards_of(v.deck))
    rng.shuffle(deck)
    n, hs = v.n_seats, v.hand_size
    hands = [0] * n
    for i, c in enumerate(deck[: n * hs]):
        hands[i // hs] |= 1 << c
    lay = Layout(tuple(hands), 0)
    rules = v.contract(contract, trump if trump else "default").deal_rules()
    pos, cards = Position(lay.hands, 0), []
    while not pos.finished:
        c = rng.choice(list(cards_of(legal_mask(rules, pos))))
        cards.append(c)
        pos = play(rules, pos, c).position
    cards = cards[:stop]
    points = replay(rules, Position(lay.hands, 0), cards).points
    lines = [f'[Variant "{vid}"] [Contract "{contract}"]' + (f' [Trump "{trump}"]' if trump else "") + extra,
             f'[Layout "{lay}"]', '[Leader "1"]', "[Play]"]
    for t in range(0, len(cards), n):
        lines.append(f"{t // n + 1}. " + " - ".join(card_str(c) for c in cards[t:t + n]) + ".")
    if stop is not None:
        lines.append("*")
    return "\n".join(lines), points


def test_sheet_from_kdn(tmp_path):
    a, pa = played_record("ua3", "no-hearts", None, 1)
    b, pb = played_record("ua3", "trump", "H", 2, ' [Bought "2 from 1 for 1"]')
    f = tmp_path / "game.kdn"
    f.write_text(a + "\n\n" + b + "\n", encoding="utf-8")
    r = run("score", "--from-kdn", f, "--game", "ua12", "--partial", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["players"] == ["seat 1", "seat 2", "seat 3"] and obj["variant"] == "ua3"
    assert obj["rows"][0]["points"] == pa and sum(pa) == -16
    # The buyer (seat 2) hands one trick, 3 points, to the seller (seat 1).
    assert obj["rows"][1]["points"] == [pb[0] + 3, pb[1] - 3, pb[2]]
    assert obj["rows"][1]["trump"] == "H"


def test_kdn_unfinished_or_unreadable_records_cannot_be_scored(tmp_path):
    a, _ = played_record("ua3", "no-tricks", None, 3, stop=12)
    f = tmp_path / "cut.kdn"
    f.write_text(a + "\n", encoding="utf-8")
    r = run("score", "--from-kdn", f, "--game", "ua12", "--partial")
    assert r.exit_code == 2 and "stops before the end of the deal" in r.output
    # The source's first example stops in prose before the last tricks.
    r = run("score", "--from-kdn", Path(__file__).resolve().parent.parent / "examples" / "1_no_hearts.kdn",
            "--game", "ua12", "--partial")
    assert r.exit_code == 2 and "record at line 1 stops before the end of the deal" in r.output


def test_kdn_textbook_bought_game_with_lost_suits():
    # 000, third example: bare ranks whose heart symbol was lost, a garbled card;
    # the buyer (III) pays two tricks to the first hand: "I гравець має 3 хабарі,
    # II - 3 хабарі та III - 4 хабарі" — at +3 a trick, +9 +9 +12.
    r = run("score", "--from-kdn", Path(__file__).resolve().parent.parent / "examples" / "3_bought_trump.kdn",
            "--game", "ua12", "--partial", "-F", "json")
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)["rows"][0]
    assert (row["contract"], row["trump"], row["points"]) == ("trump", "D", [9, 9, 12])


def test_score_sheet_api():
    rep = score_sheet(sheet_text(UA12), "api.csv")
    assert rep.ok and rep.game.name == "ua12" and rep.total == (10, 2, -15, 3)
    assert rep.expected == [-16] * 6 + [-96, 24, 24, 24, 24, 96]


def test_help():
    r = run("score", "--help")
    assert r.exit_code == 0
    assert "Check a score sheet (бланк) and print its totals." in r.output
    for opt in ("--game", "--variant", "--format", "--plot", "--from-kdn", "--partial"):
        assert opt in r.output


# --- issue 35: the Russian short King, impossible rows, sheets as players write them ------------------

def test_russian_short_king_accepted():
    # 001: «В варианте короткий «кинг» этот этап не играют» — no erajlash; six penalty deals of
    # -16 ("итого − 16 очков") and their six mirrors: -96 / +96.
    r = run("score", SHEETS / "ru12_ru4.csv", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert (obj["game"], obj["variant"], obj["ok"]) == ("ru12", "ru4", True)
    assert (obj["penalty_total"], obj["positive_total"]) == (-96, 96)
    assert [x["expected"] for x in obj["rows"]] == [-16] * 6 + [16] * 6
    # ru12 keeps 001's stages: a penalty deal after the first mirror is named.
    text = (SHEETS / "ru12_ru4.csv").read_text(encoding="utf-8").splitlines()
    body = [l for l in text if l and not l.startswith("#")]
    r = run("score", "-", "--game", "ru12", input="\n".join(body[:1] + body[2:8] + [body[1]] + body[8:]) + "\n")
    assert r.exit_code == 1
    assert r.stderr.strip() == "<stdin>:8: row 7 (no-tricks): a penalty deal after the positive stage began (row 6)"
    # Three players, ru3 (001: 40 a deal): -240 / +240, the table told from the point scale.
    rows = [("no-tricks", "-12,-16,-12"), ("no-hearts", "-10,-20,-10"), ("no-boys", "-10,-20,-10"),
            ("no-girls", "-20,0,-20"), ("no-last-two", "0,-20,-20"), ("no-king", "0,-40,0"),
            ("plus-tricks", "16,12,12"), ("plus-hearts", "15,15,10"), ("plus-boys", "20,10,10"),
            ("plus-girls", "10,20,10"), ("plus-last-two", "20,20,0"), ("plus-king", "0,0,40")]
    rep = score_sheet(sheet_text(rows, "contract,A,B,C\n"), "ru3.csv")
    assert rep.ok, rep.problems
    assert (rep.game.name, rep.game.variant.id, rep.negative_total, rep.positive_total) == ("ru12", "ru3", -240, 240)


@pytest.mark.parametrize("name,line,message", [
    # a positive entry in a penalty deal (001: penalty points only in the first stage)
    ("wrong_positive_in_penalty.csv", 5, "row 2 (no-hearts): Anna +2: no-hearts is a penalty deal, its points are 0 or negative"),
    # 001: "за каждого «мальчика» во взятке — по 4 штрафных очка"
    ("wrong_boys_unit.csv", 5, "row 3 (no-boys): Anna -2: not a multiple of 4 (no-boys: points come in 4s)"),
    # 001: "не брать 2 последние взятки — за каждую взятку по 8"
    ("wrong_last_two_range.csv", 8, "row 5 (no-last-two): Anna -12: one player scores 0, -8 or -16 in no-last-two"),
    # 001: "за взятого короля червей даётся 16 штрафных очков"
    ("wrong_king_split.csv", 8, "row 6 (no-king): Anna -8: the King is one card, not split: -16 to the player who "
                                "takes it and 0 to the others"),
    # 000: "По +3 очки за кожен взятий хабар"
    ("wrong_trump_not_3.csv", 10, "row 8 (trump): Anna +7: not a multiple of 3 (trump: 3 a trick; a sold game "
                                  "moves whole tricks)"),
    ("wrong_long_turn.csv", 6, "row 3 (no-tricks): Gleb ordered out of turn: the players order in turn round the "
                               "table; Boris ordered deal 2, so it was Vera's turn"),
    ("wrong_totals_row.csv", 15, "РАЗОМ (+): Vera wrote +46; the positive deals above total +47"),
])
def test_impossible_rows_named(name, line, message):
    r = run("score", SHEETS / name)
    assert r.exit_code == 1, r.output
    assert r.stderr.strip() == f"{SHEETS / name}:{line}: {message}"


def test_impossible_entries_that_sum_right_are_each_named(tmp_path):
    rows = list(UA12)
    rows[5] = ("no-king", "-8,0,-8,0")
    r, f = check(tmp_path, rows)
    assert r.exit_code == 1
    assert f"{f}:7: row 6 (no-king): Anna -8: the King is one card" in r.stdout
    assert f"{f}:7: row 6 (no-king): Vera -8: the King is one card" in r.stdout
    # The rows sum right: no row-sum problem is reported for the row.
    assert "row 6 (no-king): the row sums" not in r.stdout


def test_player_values_from_the_prices():
    from kingsolve.score import entry_problem, player_values
    ru4 = get_variant("ru4")
    assert sorted(player_values(ru4.contract("no-last-two"))) == [-16, -8, 0]
    assert sorted(player_values(ru4.contract("no-king"))) == [-16, 0]
    assert sorted(player_values(ru4.contract("trump", "H"))) == list(range(0, 25, 3))
    assert sorted(player_values(ru4.contract("no-boys"))) == [-16, -12, -8, -4, 0]
    k52 = get_variant("king52")
    # 002: a negative deal gives each player 325 less 75 a trick.
    assert sorted(player_values(k52.contract("minus", None))) == [325 - 75 * k for k in range(13, -1, -1)]
    # king52 auction deals move whole tricks (002): only the unit is checked.
    assert entry_problem(k52.contract("trump", "S"), "A", -50, settled=True) is None
    assert entry_problem(k52.contract("trump", "S"), "A", 60, settled=True) is not None
    assert entry_problem(k52.contract("minus", None), "A", 400, settled=True) is None   # 325 + 75
    assert entry_problem(k52.contract("minus", None), "A", 300, settled=True) is not None
    # A хваленка's buyer hands N tricks to the seller whatever he made (000): he can end below 0,
    # the seller above +24, so a sold ua12 trump game is checked for its unit only.
    ua12 = make_game("ua12", ru4)
    assert "hvalenka" in ua12.settled
    assert entry_problem(ru4.contract("trump", "S"), "A", -3, settled=True) is None
    assert entry_problem(ru4.contract("trump", "S"), "A", 27, settled=True) is None
    assert entry_problem(ru4.contract("trump", "S"), "A", 26, settled=True) is not None


def test_game_told_from_contracts_not_row_count(tmp_path):
    # A ua12 sheet missing two deals is still ua12 on ru4 (it was read as king52 with 10 rows).
    r, f = check(tmp_path, UA12[:10])
    assert r.exit_code == 1
    assert r.stderr.strip() == f"{f}: the ua12 game has 12 deals, the sheet 10; missing: trump game (trump or misere), plus-erajlash"
    assert "ua12 on ru4" in r.stdout
    # A short King sheet missing a deal (13 rows) is short King, missing that deal.
    body = [l for l in (SHEETS / "short_ru4.csv").read_text(encoding="utf-8").splitlines()
            if l and not l.startswith("#")]
    r = run("score", "-", input="\n".join(body[:-1]) + "\n")
    assert r.exit_code == 1 and r.stderr.strip() == ("<stdin>: the short game has 14 deals, the sheet 13; "
                                                     "missing: plus-last-two")
    # A 'by' column does not make a 12-deal sheet long King.
    header = "by,contract,Anna,Boris,Vera,Gleb\n"
    rows = [(["Anna", "Boris", "Vera", "Gleb"][k % 4] + "," + c, p) for k, (c, p) in enumerate(UA12)]
    r, f = check(tmp_path, rows, header=header)
    assert r.exit_code == 0, r.output
    assert "ua12 on ru4" in r.stdout


def test_ua3_short_king_at_20():
    # 000: "У разі гри утрьох гравець втрачає 20 очок за взятий кінг" — the three-player short King.
    r = run("score", SHEETS / "short_ua3_king20.csv", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert (obj["game"], obj["variant"], obj["penalty_total"], obj["positive_total"]) == ("short", "ua3", -232, 232)
    assert any("king-points=20" in n for n in obj["notes"])
    # Asked for at 24, the four King deals are named instead.
    r = run("score", SHEETS / "short_ua3_king20.csv", "-V", "ua3", "-o", "king-points=24")
    assert r.exit_code == 1 and r.stderr.strip().endswith(":10: row 5 (plus-king): the row sums to +20, expected +24")
    # ua12 keeps the King at 24 (000: "записується ... не 20, а 24").
    r = run("score", SHEETS / "wrong_ua3_king_20.csv")
    assert r.exit_code == 1 and ":10: row 6 (no-king): the row sums to -20, expected -24" in r.stderr


def test_excel_export_bom_semicolons_blank_cells_and_totals_rows():
    # 000's бланк: РАЗОМ (-) must total -192, РАЗОМ (+) +192, РАЗОМ 0 over the players.
    f = SHEETS / "excel_bom_semicolon.csv"
    assert f.read_bytes()[:3] == b"\xef\xbb\xbf"
    r = run("score", f, "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["game"] == "ua12" and obj["totals"]["total"] == [10, 2, -15, 3]
    assert [(t["label"], t["kind"], t["ok"]) for t in obj["totals_rows"]] == [
        ("РАЗОМ (-)", "penalty", True), ("РАЗОМ (+)", "positive", True), ("РАЗОМ", "total", True)]
    assert sum(obj["totals_rows"][0]["points"]) == -192 and sum(obj["totals_rows"][1]["points"]) == 192
    assert obj["rows"][1]["points"] == [-6, 0, -8, -2]       # a blank cell is 0
    s = read_sheet(f.read_text(encoding="utf-8"), "x.csv")
    assert s.delimiter == ";" and s.players == ("Anna", "Boris", "Vera", "Gleb")


def test_csv_output_reads_back(tmp_path):
    for name in ("ua12_ru4.csv", "long_ru4.csv", "king52.csv", "short_ua3_king20.csv"):
        r = run("score", SHEETS / name, "-F", "csv")
        assert r.exit_code == 0, r.output
        back = tmp_path / ("back_" + name)
        back.write_text(r.output, encoding="utf-8")
        a = json.loads(run("score", SHEETS / name, "-F", "json").output)
        b = run("score", back, "-F", "json")
        assert b.exit_code == 0, b.output
        b = json.loads(b.output)
        assert [x["points"] for x in a["rows"]] == [x["points"] for x in b["rows"]]
        assert (a["game"], a["variant"], a["totals"]) == (b["game"], b["variant"], b["totals"])


def test_partial_compares_with_the_rows_so_far(tmp_path):
    r, f = check(tmp_path, UA12[:8], "--partial", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert (obj["expected_penalty_total"], obj["expected_positive_total"]) == (-192, 24)
    assert (obj["penalty_total"], obj["positive_total"]) == (-192, 24)


def test_long_king_names_who_never_ordered_a_type(tmp_path):
    lines = (SHEETS / "long_ru4.csv").read_text(encoding="utf-8").splitlines()
    r = run("score", "-", input="\n".join(lines[:-1]) + "\n")   # deal 56, Gleb's no-boys, missing
    assert r.exit_code == 1
    assert r.stderr.strip() == "<stdin>: the long game has 56 deals, the sheet 55; missing: Gleb never ordered no-boys"


def test_plot_marks_bad_rows_and_names_contracts(tmp_path):
    png = tmp_path / "p.png"
    r = run("score", SHEETS / "wrong_king_split.csv", "--plot", png)
    assert r.exit_code == 1 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("contract, trump, bought, options", [
    ("trump", "H", "2 from 1 for 5", ""), ("trump", "H", "2 from 1 for 5", "auction-pay=bid"),
    ("minus", "NT", "2 from 1 for 2", ""),
])
def test_kdn_king52_auction_settled_by_002(tmp_path, contract, trump, bought, options):
    # Issue 35: auctions were settled like a хваленка debt.  002: a +N winner pays the dealer 25 for each
    # trick he is short (auction-pay=shortfall) or the whole bid (auction-pay=bid); a -N winner takes the
    # penalty of up to N of the dealer's tricks, which the dealer does not pay.
    extra = f' [Bought "{bought}"]' + (f' [Options "{options}"]' if options else "")
    rec, raw = played_record("king52", contract, trump, 5, extra)
    raw = [p + (325 if contract == "minus" else 0) for p in raw]   # replay's points leave out the seat base
    f = tmp_path / "auction.kdn"
    f.write_text(rec + "\n", encoding="utf-8")
    r = run("score", "--from-kdn", f, "--game", "king52", "--partial", "-F", "json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)["rows"][0]["points"]
    if contract == "trump":
        made = raw[1] // 25
        moved = 25 * 5 if options else 25 * max(0, 5 - made)
    else:
        dealer_tricks = (325 - raw[0]) // 75
        moved = 75 * min(2, dealer_tricks)
    assert got == [raw[0] + moved, raw[1] - moved, raw[2], raw[3]]


def test_totals_row_labels_as_players_write_them():
    from kingsolve.score import totals_kind
    for text, kind in [("РАЗОМ (-)", "penalty"), ("Разом (−)", "penalty"), ("РАЗОМ(+)", "positive"),
                       ("РАЗОМ", "total"), ("ИТОГО (–)", "penalty"), ("Total", "total"), ("total (+)", "positive")]:
        assert totals_kind(text) == kind, text
    for text in ("no-king", "разом ще", "", "plus-king"):
        assert totals_kind(text) is None, text
