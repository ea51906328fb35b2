"""`kingsolve bid` through Click's CliRunner: output pieces, formats, the plot,
reproducibility across --jobs, and one-line errors with exit code 2."""
import json

import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve.cli import main

ALL_SPADES = "♠AKQJ1098 7"   # ru4: every spade, so every trick in a spade game


def run(*args):
    return CliRunner().invoke(main, ["bid", *args])


def test_text_report_all_trumps():
    r = run("-V", "ru4", "--hand", ALL_SPADES, "--games", "S,H", "--samples", "20", "--seed", "3",
            "--seller-trump", "S")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "kingsolve bid: ru4, seat 2 buying the trump game from seat 1"
    assert lines[1] == "hand: ♠AKQJ10987 ♥— ♦— ♣—"
    assert lines[2] == "seed 3, 20 samples"
    assert lines[3] == ("model: double dummy; each seat counted alone against the others together "
                        "(for a defender, a lower bound on his tricks)")
    row = next(x for x in lines if x.startswith("S "))
    assert row.split()[:5] == ["S", "8.00", "±", "0.00", "24.00"]
    assert row.split()[5:13] == ["100"] * 8
    assert "recommended game: S — 8.00 tricks, 24.00 points (bootstrap: S 100%)" in lines
    assert "most tricks worth offering against the seller's S: 0 — do not buy" in lines
    assert ("  gain of buying 0.00 ± 0.00 tricks over defending it (8.00 ± 0.00); buying at 0 does at least as well "
            "as not buying in 100% of the deals") in lines
    assert "  offers of a bootstrap over the samples: 0 100%" in lines


def test_json_and_csv():
    args = ["-V", "ru4", "--hand", ALL_SPADES, "--games", "S,misere", "--samples", "20", "--seed", "5"]
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["seed"] == 5 and obj["samples"] == 20 and obj["variant"] == "ru4" and obj["role"] == "buyer"
    assert obj["seat"] == 2 and obj["seller"] == 1 and obj["interrupted"] is False
    assert obj["hand"] == ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7"]
    spades = obj["choices"][0]
    assert spades["choice"] == "S" and spades["mean"] == 8.0 and spades["p_at_least"]["8"] == 1.0
    assert obj["summary"]["recommended"] == "S"
    r = run(*args, "--format", "csv")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("variant,role,seat,seed,samples,kind,name,contract,trump,mean,se,points,P>=1")
    assert lines[1].startswith("ru4,buyer,2,5,20,choice,S,trump,S,8,0,24,1")
    assert len(lines) == 3


def test_same_result_for_any_jobs():
    args = ["-V", "ru4", "--hand", "♠AK7 ♥AQ ♦K98", "--games", "S,D", "--samples", "41", "--seed", "8",
            "--format", "json"]
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.output == two.output


def test_plot(tmp_path):
    png = tmp_path / "bid.png"
    r = run("-V", "ru4", "--hand", ALL_SPADES, "--games", "S,H,misere", "--samples", "20", "--seed", "1",
            "--plot", str(png))
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot written to {png}" in r.output


def test_seller_names_a_game_from_three_cards():
    r = run("-V", "ru4", "--role", "seller", "--hand", "♠AKQ", "--games", "S,H", "--samples", "20", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert "kingsolve bid: ru4, seat 1, the first hand, naming the game after three cards" in r.output
    assert "hand: ♠AKQ ♥— ♦— ♣—  (3 of 8 cards known)" in r.output
    assert "\nname: S — " in r.output and "decision" not in r.output


def test_seller_with_an_offer():
    # 000's third deal: the first hand named clubs; the third hand offers 2
    r = run("-V", "ua3", "--role", "seller", "--hand", "J8.T87.J87.Q7", "--seller-trump", "C", "--offer", "2",
            "--buyer", "3", "--samples", "20", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert "kingsolve bid: ua3, seat 1 selling the game he named (C)" in r.output
    assert "write two tricks to everyone: 6 points each, no play" in r.output
    assert "accept the offer of 2 from seat 3: 2 + " in r.output
    assert "least offer worth accepting: " in r.output
    assert "\ndecision: accept the offer" in r.output


def test_buyer_headline_per_sellers_game():
    # not told the seller's game: one line per game he could have named (issue 33)
    r = run("-V", "ua3", "--hand", "97.KQJ.AKT9.K", "--seat", "3", "--samples", "20", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert "the seller's game is not known: the most tricks worth offering for each game he could have named" in r.output
    table = r.output.split("his game")[1].splitlines()[1:]
    assert [line.split()[0] for line in table] == ["S", "H", "D", "C", "misere"]
    assert "do not buy" not in r.output


def test_help_documents_the_options():
    r = CliRunner().invoke(main, ["bid", "--help"])
    assert r.exit_code == 0
    for opt in ("--hand", "--seat", "--role", "--seller", "--seller-trump", "--known", "--offer", "--samples",
                "--seed", "--jobs", "--plot", "--format", "--games", "--buyer", "--scheduler", "--tt-size",
                "--progress", "--variant", "--option"):
        assert opt in r.output


@pytest.mark.parametrize("args, message", [
    (["-V", "ua3", "--hand", "♠AKQ ♥AQJ10 ♦AJ7"],
     "Error: the hand of seat 2: ♠A is in the talon of ua3"),
    (["-V", "ru4", "--hand", "♠6 ♥AQJ10 ♦AJ7"],
     "Error: the hand of seat 2: ♠6 is not in the deck of ru4"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--known", "3:♠A ♥7"],
     "Error: ♠A is given twice (again for seat 3)"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--known", "4:♥AKQJ10987 ♦A"],
     "Error: seat 4 would hold 9 known cards; it holds 8"),
    (["-V", "ru4", "--hand", "♠AKQJ1098"],
     "Error: the hand of seat 2 has 7 cards; ru4 deals 8"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--known", "3"],
     "Error: --known '3': write SEAT:CARDS, e.g. 3:♠K ♥7 (or talon:CARDS)"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--known", "7:♥A"],
     "Error: --known '7:♥A': seat '7' is not one of 1..4"),
    (["-V", "ru4", "--hand", "♠AKQJ1098 Z"],
     "Error: --hand: unknown rank 'Z' in 'AKQJ1098Z'"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--seller-trump", "NT"],
     "Error: ru4 has no game 'NT' to name (choose from S, H, D, C, misere)"),
    (["-V", "king52", "--hand", "♠AKQJ ♥AKQ ♦432 ♣432", "--role", "buyer"],
     "Error: king52 has an auction, not хваленки: use --role bidder"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--seat", "1"],
     "Error: seat 1 is the seller; the buyer is another seat"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--samples", "0"],
     "Error: Invalid value for '--samples' / '-n': 0 is not in the range x>=1."),
    (["-V", "ua3", "--role", "seller", "--hand", "J8.T87.J87.Q7", "--offer", "2"],
     "Error: --role seller with the whole hand: give --seller-trump"),
    (["-V", "ua3", "--role", "seller", "--hand", "♠KQJ", "--offer", "2"],
     "Error: --offer with a three-card hand: offers come after the deal is completed"),
    (["-V", "ua3", "--role", "seller", "--hand", "J8.T87.J87.Q7", "--seller-trump", "NT", "--offer", "2"],
     "Error: ua3 has no game 'NT' to name (choose from S, H, D, C, misere)"),
    (["-V", "ru4", "--hand", ALL_SPADES, "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "Error: give --jobs or --scheduler, not both"),
    (["-V", "king52", "--hand", "AKQJ.AKQ.432.432", "-o", "auction-pay=price"],
     "Error: option auction-pay='price': expected shortfall or bid"),
])
def test_bad_input_is_one_line_exit_2(args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    first = r.output.strip().splitlines()
    assert len(first) == 1
    assert first[0].startswith(message), first[0]


def test_seller_seat_from_seat():
    r = run("-V", "ru4", "--role", "seller", "--seat", "3", "--hand", "♠AKQ", "--games", "S", "--samples", "20",
            "--seed", "2", "--format", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["seat"] == 3 and obj["seller"] == 3 and obj["choices"][0]["p_at_least"]["3"] == 1.0


def test_king52_auction_bids_follow_the_tricks():
    # One sample and one game only: 13-card solves are slow in the current core.
    r = run("-V", "king52", "--hand", "AKQJ.AKQ.432.432", "--games", "H", "--seller-trump", "H",
            "--samples", "1", "--seed", "2", "--format", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["role"] == "bidder" and obj["seller"] == 1 and obj["seat"] == 2
    hearts = obj["choices"][0]
    t, d = hearts["mean"], hearts["defend_mean"]
    assert hearts["points"] == 25 * t
    bids = {b["bid"]: b for b in obj["bids"]}
    assert list(bids) == ["+1", "+2", "+3", "+4", "+5", "+6", "+7", "+8"]   # no negative game asked for
    for k in range(1, 9):
        assert bids[f"+{k}"]["settlement"] == 25 * t - 25 * max(0, k - t)
        assert bids[f"+{k}"]["worth"] == (bids[f"+{k}"]["settlement"] >= 25 * d)
    assert obj["summary"]["baseline_points"] == 25 * d
    worth = [b for b, x in bids.items() if x["worth"]]
    assert obj["summary"]["best_bid"] == (worth[-1] if worth else None)
    assert obj["summary"]["auction_pay"] == "shortfall" and obj["summary"]["other_reading"] == "bid"


def test_docs_and_readme_list_every_option():
    # issue 33: docs/bid.md and the README's synopsis list every option the command has
    from pathlib import Path

    from kingsolve.cli.bid import bid
    root = Path(__file__).resolve().parent.parent
    docs = (root / "docs" / "bid.md").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    synopsis = readme.split("kingsolve bid ", 1)[1].split("kingsolve stats", 1)[0]
    options = [max(p.opts, key=len) for p in bid.params if p.opts and p.opts[0].startswith("-")]
    assert "--scheduler" in options and "--tt-size" in options
    for opt in options:
        assert f"`{opt}" in docs, opt
        assert opt in synopsis or opt.replace("--", "-", 1) in synopsis or opt == "--option", opt
    assert "-o KEY=VALUE" in synopsis


def test_time_limit_answers_from_the_first_samples_finished():
    r = CliRunner().invoke(main, ["bid", "-V", "ua3", "--hand", "♠KQ ♥AQJ10 ♦AJ7 ♣10", "--seat", "2",
                                  "--seller-trump", "C", "-n", "1000000", "--seed", "1", "--time-limit", "1",
                                  "-F", "json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    assert obj["time_limit_reached"] and not obj["interrupted"] and 0 < obj["samples"] < 1000000
    assert obj["samples"] % 10 == 0                # ranges of ten with a time limit
