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
    assert r.exit_code == 2 and "cannot tell the game from 1 deals; give --game" in r.output
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
