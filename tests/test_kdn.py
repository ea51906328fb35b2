"""KDN reader and writer (INTERFACE.md, KDN section): tags, comments, play
lines in preference style, lenient warnings with line:col, --strict, errors,
round trips, the canonical [Layout]."""
import os

import pytest

from kingsolve.cards import parse_card
from kingsolve.errors import ParseError
from kingsolve.kdn import BARE, CARD, GARBLED, UNKNOWN, parse_claim, parse_kdn, write_kdn, write_record
from kingsolve.layout import Layout

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")

# The example of INTERFACE.md's KDN section, verbatim.
INTERFACE_EXAMPLE = """\
[Variant "ua3"]
[Source "a made-up example"]
[Contract "trump"]  [Trump "H"]  [Declarer "1"]  [Bought "1 from 2 for 1"]
[Layout "1:KQ.AQJT.AJ7.T 98.K9.KT8.KJ9 JT7.87.Q9.Q87"]   ; optional if the play shows every card
[Talon "♠Т ♣Т"]
[Leader "1"]
[Play]
1. ♥Т - ♥9 - ♥7.
2. ♥Д - ♥К - ♥8 {III has no trumps left}
3. 8 - ♦Д - ?.          ; '?' an unreadable card, a bare rank a card whose suit was lost
*                       ; the record stops here (unfinished), or ends after the last trick
[Claim "1:5 2:3 3:2"]   ; the book's result, in tricks or points; never overwritten
"""


def c(text):
    return parse_card(text)


def test_interface_example_tags_layout_and_claim():
    (rec,) = parse_kdn(INTERFACE_EXAMPLE, source="x.kdn")
    assert rec.line == 1
    assert rec.tags["Variant"] == "ua3"
    # several tags on one line
    assert (rec.tags["Contract"], rec.tags["Trump"], rec.tags["Declarer"], rec.tags["Bought"]) == \
        ("trump", "H", "1", "1 from 2 for 1")
    assert rec.layout == Layout.from_str("1:KQ.AQJT.AJ7.T 98.K9.KT8.KJ9 JT7.87.Q9.Q87")
    assert rec.claim.values == [("1", 5), ("2", 3), ("3", 2)] and rec.claim.unit is None
    assert rec.unfinished
    assert rec.warnings == []


def test_interface_example_play_tokens_and_comments():
    (rec,) = parse_kdn(INTERFACE_EXAMPLE)
    kinds = [(t.kind, t.card, t.rank) for t in rec.plays]
    assert kinds == [
        (CARD, c("HA"), None), (CARD, c("H9"), None), (CARD, c("H7"), None),
        (CARD, c("HQ"), None), (CARD, c("HK"), None), (CARD, c("H8"), None),
        (BARE, None, 8), (CARD, c("DQ"), None), (UNKNOWN, None, None),
    ]
    assert rec.tricks[1].tokens[2].after[0].text == "III has no trumps left"
    assert rec.tricks[1].ended is False and rec.tricks[0].ended is True
    assert rec.tricks[2].line_comments[0].text.startswith("'?' an unreadable card")
    texts = [cm.text for cm in rec.comments]
    assert "optional if the play shows every card" in texts
    assert "the book's result, in tricks or points; never overwritten" in texts


def test_card_forms_and_separators():
    text = "[Variant \"ua3\"]\n[Play]\n1. ♦10 – 8♦ — Тч, 10ч.\n2. ♣Д-♣9-♣К.\n"
    (rec,) = parse_kdn(text)
    # suit before or after the rank, Cyrillic Т = ace, ч = hearts; dashes - – — and commas
    assert [t.card for t in rec.tricks[0].tokens] == [c("DT"), c("D8"), c("HA"), c("HT")]
    assert [t.card for t in rec.tricks[1].tokens] == [c("CQ"), c("C9"), c("CK")]


def test_comment_interrupting_a_line_between_two_separators():
    # the source's "4. 8♦- (…) - Д - ♦Т.": the two dashes around the comment are one separator
    (rec,) = parse_kdn("[Play]\n4. 8♦- (у трефу захід був би зайвим) - Д - ♦Т.\n")
    toks = rec.tricks[0].tokens
    assert [(t.kind, t.text) for t in toks] == [(CARD, "8♦"), (BARE, "Д"), (CARD, "♦Т")]
    assert toks[0].after[0].kind == "(" and toks[0].after[0].text == "у трефу захід був би зайвим"
    # the only warning: the line is numbered 4 in a record with no trick before it
    assert [w.message for w in rec.warnings] == ["trick numbered 4, expected 1"]
    assert rec.tricks[0].number == 4 and len(rec.tricks) == 1


def test_braces_comment_spans_lines_and_blank_lines_inside_it():
    text = "[Variant \"ua3\"]\n[Play]\n1. ♠К {a comment\n\nover lines} - ♠Д - ♠9.\n2. ♠В - ♠10 - ♠7.\n"
    (rec,) = parse_kdn(text)
    assert len(rec.tricks) == 2
    assert rec.tricks[0].tokens[0].after[0].text == "a comment\n\nover lines"


def test_records_are_separated_by_blank_lines_with_their_lines():
    text = "[Variant \"ua3\"]\n[Play]\n1. ♠К - ♠Д - ♠9.\n\n\n; second\n[Variant \"ru4\"]\n[Play]\n1. ♠A - ♠K - ♠Q - ♠J.\n"
    recs = parse_kdn(text)
    assert [r.line for r in recs] == [1, 6]
    assert [r.tags["Variant"] for r in recs] == ["ua3", "ru4"]
    assert recs[1].comments[0].text == "second"


def test_garbled_card_is_kept_as_unreadable_with_a_warning_at_its_place():
    # the source's trick 3 of the third example: «До» is not a card
    (rec,) = parse_kdn("[Play]\n1. До - 7 - Тч.\n", source="g.kdn")
    tok = rec.tricks[0].tokens[0]
    assert tok.kind == GARBLED and tok.text == "До"
    (w,) = rec.warnings
    assert (w.line, w.col) == (2, 4) and "'До'" in w.message


def test_strict_turns_the_warning_into_an_error_naming_file_line_col():
    with pytest.raises(ParseError) as err:
        parse_kdn("[Play]\n1. До - 7 - Тч.\n", source="g.kdn", strict=True)
    assert str(err.value).startswith("g.kdn:2:4: unreadable card 'До'")
    assert err.value.token == "До"


def test_unclosed_parenthesis_ends_with_its_line_leniently():
    text = "[Play]\n1. ♠К (a comment never closed - ♠Д - ♠9.\n2. ♠В - ♠10 - ♠7.\n"
    (rec,) = parse_kdn(text)
    assert any("unclosed '('" in w.message for w in rec.warnings)
    assert [len(t.tokens) for t in rec.tricks] == [1, 3]
    with pytest.raises(ParseError):
        parse_kdn(text, strict=True)


def test_missing_separator_and_empty_slot_warn():
    (rec,) = parse_kdn("[Play]\n1. ♠К ♠Д - ♠9.\n")
    assert [t.card for t in rec.plays] == [c("SK"), c("SQ"), c("S9")]
    assert any("no separator" in w.message for w in rec.warnings)
    (rec,) = parse_kdn("[Play]\n1. ♠К - - ♠9.\n")
    assert any("empty card slot" in w.message for w in rec.warnings)


def test_broken_tag_is_an_error_with_file_line_col_and_token():
    with pytest.raises(ParseError) as err:
        parse_kdn('[Variant "ua3"]\n[Contract no-hearts]\n', source="b.kdn")
    assert str(err.value).startswith("b.kdn:2:1: cannot read the tag '[Contract no-hearts]'")


def test_bad_layout_and_bad_claim_are_errors():
    with pytest.raises(ParseError, match=r"^l.kdn:1:1: \[Layout\]"):
        parse_kdn('[Layout "1:KQ.AQ"]\n', source="l.kdn")
    with pytest.raises(ParseError, match=r"^c.kdn:2:1: claim"):
        parse_kdn('[Play]\n[Claim "first takes five"]\n', source="c.kdn")


def test_claim_forms():
    cl = parse_claim("I:3 II:3 III:4")
    assert cl.values == [("I", 3), ("II", 3), ("III", 4)] and cl.unit is None and cl.start == 1
    cl = parse_claim("2:0 3:0 points from 8")
    assert cl.values == [("2", 0), ("3", 0)] and cl.unit == "points" and cl.start == 8
    assert parse_claim("3:4 tricks from 7").unit == "tricks"
    assert parse_claim("1:-10, 2:0, 3:-6").values == [("1", -10), ("2", 0), ("3", -6)]


def test_several_claims_in_a_record():
    (rec,) = parse_kdn('[Play]\n1. ♠К - ♠Д - ♠9.\n*\n[Claim "3:4 tricks from 7"]\n[Claim "3:-20"]\n')
    assert [cl.text for cl in rec.claims] == ["3:4 tricks from 7", "3:-20"]
    assert rec.warnings == []


def _shape(rec):
    """Everything the reader keeps of a record, for round-trip comparison."""
    items = []
    for it in rec.items:
        if it[0] == "tag":
            items.append(("tag", it[1], it[2]))
        elif it[0] == "comment":
            items.append(("comment", it[1].kind, it[1].text))
        elif it[0] == "trick":
            tr = it[1]
            items.append(("trick", tr.number, tr.ended,
                          tuple((cm.kind, cm.text) for cm in tr.before),
                          tuple((t.kind, t.card, t.rank, t.text if t.kind == GARBLED else None,
                                 tuple((cm.kind, cm.text) for cm in t.after)) for t in tr.tokens),
                          tuple((cm.kind, cm.text) for cm in tr.line_comments)))
        else:
            items.append(it)
    return items


@pytest.mark.parametrize("name", ["1_no_hearts.kdn", "2_no_last_two.kdn", "3_bought_trump.kdn"])
def test_round_trip_of_the_examples_keeps_tags_plays_and_comments(name):
    with open(os.path.join(EXAMPLES, name), encoding="utf-8") as fh:
        recs = parse_kdn(fh.read(), source=name)
    again = parse_kdn(write_kdn(recs), source=name)
    assert [_shape(r) for r in again] == [_shape(r) for r in recs]
    assert [[str(w.message) for w in r.warnings] for r in again] == [[w.message for w in r.warnings] for r in recs]


def test_round_trip_of_the_interface_example_and_a_fixed_point():
    recs = parse_kdn(INTERFACE_EXAMPLE)
    text = write_kdn(recs)
    again = parse_kdn(text)
    assert [_shape(r) for r in again] == [_shape(r) for r in recs]
    assert write_kdn(again) == text


def test_writer_emits_a_canonical_layout_in_the_pbn_alphabet():
    (rec,) = parse_kdn('[Variant "ua3"]\n[Layout "1:КД.ТДВ10.ТВ7.10 98.К9.К108.КВ9 В107.87.Д9.Д87"]\n[Play]\n1. ♥Т - ♥9 - ♥7.\n')
    out = write_record(rec)
    assert '[Layout "1:KQ.AQJT.AJ7.T 98.K9.KT8.KJ9 JT7.87.Q9.Q87"]' in out


def test_writer_puts_a_supplied_layout_before_play():
    (rec,) = parse_kdn('[Variant "ua3"]\n[Play]\n1. ♥Т - ♥9 - ♥7.\n')
    lay = Layout.from_str("1:KQ.AQJT.AJ7.T 98.K9.KT8.KJ9 JT7.87.Q9.Q87")
    out = write_record(rec, lay).splitlines()
    assert out[1] == '[Layout "1:KQ.AQJT.AJ7.T 98.K9.KT8.KJ9 JT7.87.Q9.Q87"]' and out[2] == "[Play]"
    assert parse_kdn("\n".join(out))[0].layout == lay


def test_stray_closing_brackets_are_warnings_not_a_hang():
    # found by fuzzing: a ']' outside a tag used to stop the reader from advancing
    (rec,) = parse_kdn('[Variant "ua3"]]\n[Play]\n1. ♠К ] - ♠Д - ♠9.\n', source="s.kdn")
    assert [t.card for t in rec.plays] == [c("SK"), c("SQ"), c("S9")]
    assert [(w.line, w.col, w.message) for w in rec.warnings] == [
        (1, 16, "']' without an opening bracket, ignored"), (3, 7, "']' without an opening bracket, ignored")]
