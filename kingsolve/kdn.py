"""KDN — King Deal Notation (``.kdn``): reader and writer (docs/cli.md, KDN).

A KDN file holds records separated by a blank line (an empty line, or one of
spaces only; a record's own lines may not be blank).  A record is PGN-like::

    [Variant "ua3"] [Contract "no-hearts"]
    [Leader "1"]
    [Play]
    1. ♣Д (commentary) - ♣9 - ♣К.
    2. ♠10 - 7 - ?.         ; a bare rank: a card whose suit was lost; '?': unreadable
    *                       ; the record stops here (unfinished)
    [Claim "1:-10 2:0 3:-6"]

Tags are ``[Name "value"]`` (several may share a line); ``;`` comments run to
the end of the line, ``{…}`` and, in play lines, ``(…)`` comments may span
lines.  Play lines are preference-style (преферансна транскрипція): ``N.`` then
the cards of the trick in order of play from its leader, separated by ``-``,
``–``, ``—`` or ``,``, the suit before or after the rank (``♦10``, ``8♦``,
``Тч``).  A bare rank (``Д``) is a card whose suit was lost; ``?`` is an
unreadable card; any other token in a card's place is kept as unreadable with
a warning (a garbled card, e.g. ``До``).

The reader is lenient: what it can read past is kept as a warning on the
record (``rec.warnings``, with line and column); ``strict=True`` makes the
first warning a :class:`ParseError`.  What it cannot read past (a broken tag,
a bad ``[Layout]``) is always a :class:`ParseError` naming file, line, column
and token.  The writer keeps the source's comments and emits a canonical
``[Layout]`` in the PBN alphabet.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from .cards import RANK_TOKENS, card_str, clean, parse_card, rank_letter
from .errors import InvalidCardError, InvalidLayoutError, ParseError
from .layout import Layout

SEPARATORS = "-–—,"
COMMENT_OPEN = {"(": ")", "{": "}"}

# Token kinds of a card slot.
CARD, BARE, UNKNOWN, GARBLED = "card", "bare", "unknown", "garbled"


@dataclass
class KdnWarning:
    """Something the lenient reader read past, with where it is (1-based)."""
    line: int
    col: int
    message: str
    token: str | None = None

    def __str__(self):
        return f"{self.line}:{self.col}: {self.message}"


@dataclass
class Comment:
    """A comment as written: ``kind`` is ``;``, ``{`` or ``(``; ``text`` without the delimiters."""
    kind: str
    text: str
    line: int = 0
    col: int = 0

    def write(self) -> str:
        if self.kind == ";":
            return "; " + self.text if self.text else ";"
        close = COMMENT_OPEN[self.kind]
        return f"{self.kind}{self.text}{close}"

    def same(self, other) -> bool:
        return (self.kind, self.text) == (other.kind, other.text)


@dataclass
class PlayToken:
    """One card slot of a play line.

    ``kind``: ``card`` (``card`` is set), ``bare`` (``rank`` is set, the suit
    was lost), ``unknown`` (``?``) or ``garbled`` (an unreadable token, kept as
    written in ``text``).  ``after``: the comments written after it."""
    kind: str
    text: str
    line: int
    col: int
    card: int | None = None
    rank: int | None = None
    after: list = field(default_factory=list)

    def write(self) -> str:
        if self.kind == CARD:
            out = self.text if _reads_as(self.text, self.card) else card_str(self.card)
        elif self.kind == BARE:
            out = self.text if self.text in RANK_TOKENS else rank_letter(self.rank)
        elif self.kind == UNKNOWN:
            out = "?"
        else:
            out = self.text
        return " ".join([out] + [c.write() for c in self.after])


def _reads_as(text, card) -> bool:
    try:
        return parse_card(text) == card
    except InvalidCardError:
        return False


@dataclass
class Trick:
    """A play line: its number as written, its card slots, its comments."""
    number: int
    line: int
    col: int
    tokens: list = field(default_factory=list)
    before: list = field(default_factory=list)   # comments between the number and the first card
    line_comments: list = field(default_factory=list)  # ';' comments of the line(s)
    ended: bool = False                          # closed by '.'

    def write(self) -> str:
        parts = [f"{self.number}."] + [c.write() for c in self.before]
        body = " - ".join(t.write() for t in self.tokens)
        text = " ".join(p for p in parts + [body] if p)
        if self.ended:
            text += "."
        for c in self.line_comments:
            text += "  " + c.write()
        return text


@dataclass
class Claim:
    """The book's result (``[Claim "1:5 2:3 3:2"]``), never overwritten.

    ``values``: [(seat as written, int)]; ``unit``: ``tricks``, ``points`` or
    None (decided by the verifier from the contract: see :func:`claim_unit`)."""
    text: str
    values: list
    unit: str | None
    start: int = 1          # "from N": the result of tricks N.. only (prose that ends a record)
    line: int = 0
    col: int = 0


_CLAIM_PAIR = re.compile(r"^\s*([0-9]+|IV|III|II|I|[NESW])\s*[:=]\s*([+-−]?\d+)\s*$", re.I)


def parse_claim(text: str) -> Claim:
    """``"1:5 2:3 3:2"`` (seats 1..N or I II III IV), optionally followed by
    ``tricks`` or ``points`` and by ``from N`` (the result of tricks N.. only:
    what the prose ending a record says of the remaining tricks).  Raises
    ValueError (the reader turns it into a ParseError)."""
    body = clean(text).strip()
    unit = None
    start = 1
    m = re.search(r"\s*\bfrom\s+(?:trick\s+)?(\d+)\s*$", body, re.I)
    if m:
        start = int(m.group(1))
        if start < 1:
            raise ValueError(f"claim {text!r}: 'from {start}': tricks are numbered from 1")
        body = body[:m.start()]
    m = re.search(r"\s*\b(tricks?|points?|pts)\s*$", body, re.I)
    if m:
        word = m.group(1).lower()
        unit = "tricks" if word.startswith("trick") else "points"
        body = body[:m.start()]
    pairs = []
    for part in re.split(r"[,;\s]+", body.strip()):
        if not part:
            continue
        pm = _CLAIM_PAIR.match(part)
        if not pm:
            raise ValueError(f"claim {text!r}: cannot read {part!r} (write SEAT:NUMBER)")
        pairs.append((pm.group(1).upper(), int(pm.group(2).replace("−", "-"))))
    if not pairs:
        raise ValueError(f"claim {text!r} is empty")
    return Claim(text, pairs, unit, start)


@dataclass
class Record:
    """One deal of a KDN file.

    ``items`` is the record in source order — ``("tag", name, value, line, col)``,
    ``("comment", Comment, same_line)``, ``("trick", Trick)``, ``("end", "*")`` —
    which is what the writer replays; the other fields are views of it."""
    source: str
    line: int
    items: list = field(default_factory=list)
    tags: dict = field(default_factory=dict)
    tag_lines: dict = field(default_factory=dict)  # tag name -> (line, col)
    tricks: list = field(default_factory=list)
    unfinished: bool = False
    layout: Layout | None = None
    claims: list = field(default_factory=list)   # every [Claim], in order
    warnings: list = field(default_factory=list)

    @property
    def claim(self) -> Claim | None:
        """The first claim (a record may carry several)."""
        return self.claims[0] if self.claims else None

    @property
    def plays(self) -> list:
        """Every card slot in order of play."""
        return [t for tr in self.tricks for t in tr.tokens]

    @property
    def comments(self) -> list:
        """Every comment, in source order (record, trick and card comments)."""
        out = []
        for it in self.items:
            if it[0] == "comment":
                out.append(it[1])
            elif it[0] == "trick":
                tr = it[1]
                out.extend(tr.before)
                for tok in tr.tokens:
                    out.extend(tok.after)
                out.extend(tr.line_comments)
        return out

    def where(self, line=None, col=None) -> str:
        return ":".join(str(p) for p in (self.source, line or self.line, col) if p is not None)


class _Scanner:
    """Offsets to line:col, and the warnings/strict policy of one parse."""

    def __init__(self, text: str, source: str, strict: bool):
        self.text = text
        self.source = source
        self.strict = strict
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def lc(self, pos: int):
        k = bisect.bisect_right(self.starts, pos) - 1
        return k + 1, pos - self.starts[k] + 1

    def error(self, pos: int, message: str, token=None):
        line, col = self.lc(pos)
        return ParseError(message, file=self.source, line=line, col=col, token=token)

    def warn(self, rec: Record, pos: int, message: str, token=None):
        line, col = self.lc(pos)
        if self.strict:
            raise ParseError(message + " (--strict)", file=self.source, line=line, col=col, token=token)
        rec.warnings.append(KdnWarning(line, col, message, token))

    def line_start(self, pos: int) -> bool:
        """Only whitespace between the start of the line and ``pos``."""
        k = self.text.rfind("\n", 0, pos)
        return self.text[k + 1:pos].strip() == ""


_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:"((?:[^"\\\n]|\\.)*)")?\s*\]')
_TRICK_NO = re.compile(r"(\d+)\.(?=\s|$)")
_STOP = set(SEPARATORS) | set("(){};[].*")


def parse_kdn(text: str, source: str = "<kdn>", strict: bool = False) -> list:
    """Every record of a KDN text.  Lenient unless ``strict``; ParseError on
    what cannot be read.  ``source`` names the file in messages."""
    return _Reader(_normalise(text), source, strict).records()


def _normalise(text: str) -> str:
    # the reader's alphabet (cards.clean), Unix line ends, no byte-order mark
    text = clean(text).replace("\r\n", "\n").replace("\r", "\n")
    return text[1:] if text.startswith("\ufeff") else text


class _Reader:
    """One parse of a KDN text: the record and the play line being read.

    :meth:`records` walks the text; each of the other methods reads one
    construct — the blank line between records, a comment, a tag, the end
    mark ``*``, and in the play a trick's number, a separator, the ``.`` that
    ends a trick, a card slot — from the offset where it starts and returns
    the offset after it."""

    def __init__(self, text: str, source: str, strict: bool):
        self.text = text
        self.source = source
        self.sc = _Scanner(text, source, strict)
        self.found = []                # the records read
        self.rec = None                # the record being read
        self.in_play = False           # after its [Play] (or its first play line)
        self.trick = None              # the play line being read
        self.last_tok = None           # the last card slot of that trick
        self.pending_sep = False       # a separator read after that slot
        self.last_item_line = 0        # the line the last item ended on

    def records(self) -> list:
        text, n = self.text, len(self.text)
        pos = 0
        while pos < n:
            ch = text[pos]
            if ch == "\n":
                pos = self.newline(pos)
            elif ch.isspace():
                pos += 1
            else:
                if self.rec is None:
                    self.new_record(pos)
                pos = self.item(pos, ch)
        return self.found

    def new_record(self, at: int) -> None:
        self.rec = Record(source=self.source, line=self.sc.lc(at)[0])
        self.found.append(self.rec)
        self.in_play = False
        self.close_trick()

    def close_trick(self) -> None:
        self.trick, self.last_tok, self.pending_sep = None, None, False

    def newline(self, pos: int) -> int:
        # A blank line (only whitespace up to the next newline) ends the record.
        text = self.text
        nxt = text.find("\n", pos + 1)
        seg = text[pos + 1:(nxt if nxt >= 0 else len(text))]
        if self.rec is not None and seg.strip() == "" and nxt >= 0:
            self.rec = None
            self.close_trick()
            self.in_play = False
            return nxt
        return pos + 1

    def item(self, pos: int, ch: str) -> int:
        line, col = self.sc.lc(pos)
        if ch == ";":
            return self.line_comment(pos, line, col)
        if ch in "{(":
            return self.bracket_comment(pos, ch, line, col)
        if ch in ")}]":
            self.sc.warn(self.rec, pos, f"'{ch}' without an opening bracket, ignored", ch)
            return pos + 1
        if ch == "[":
            return self.tag(pos, line, col)
        if ch == "*":
            return self.end_mark(pos, line)
        return self.play(pos, ch, line, col)

    def line_comment(self, pos: int, line: int, col: int) -> int:
        text, rec, trick = self.text, self.rec, self.trick
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        c = Comment(";", text[pos + 1:end].strip(), line, col)
        if trick is None and rec.tricks and rec.items[-1][0] == "trick" and rec.tricks[-1].ended \
                and self.last_item_line == line:
            rec.tricks[-1].line_comments.append(c)   # "3. 8 - ♦Д - ?.   ; comment"
        elif trick is not None:
            trick.line_comments.append(c)
        else:
            rec.items.append(("comment", c, line == self.last_item_line))
        return end

    def bracket_comment(self, pos: int, ch: str, line: int, col: int) -> int:
        text = self.text
        end = _match(text, pos, ch, COMMENT_OPEN[ch])
        if end < 0:
            eol = text.find("\n", pos)
            eol = len(text) if eol < 0 else eol
            self.sc.warn(self.rec, pos, f"unclosed '{ch}': the comment is taken to end with its line", ch)
            body, pos_after = text[pos + 1:eol], eol
        else:
            body, pos_after = text[pos + 1:end], end + 1
        c = Comment(ch, body.strip() if ch == "(" else body, line, col)
        if self.trick is not None:
            (self.last_tok.after if self.last_tok is not None else self.trick.before).append(c)
        else:
            self.rec.items.append(("comment", c, line == self.last_item_line))
        self.last_item_line = self.sc.lc(pos_after - 1)[0]
        return pos_after

    def tag(self, pos: int, line: int, col: int) -> int:
        text, rec, sc = self.text, self.rec, self.sc
        m = _TAG.match(text, pos)
        if not m:
            eol = text.find("\n", pos)
            bad = text[pos:(eol if eol >= 0 else len(text))].strip()
            raise sc.error(pos, f"cannot read the tag {bad!r} (write [Name \"value\"])", bad)
        self.close_trick()
        name, value = m.group(1), (m.group(2) or "").replace('\\"', '"').replace("\\\\", "\\")
        if name.lower() == "play":
            self.in_play = True
        if name in rec.tags and name != "Claim":
            if rec.tricks:
                raise sc.error(pos, f"[{name}] again after the play: a new record? Records are separated by "
                                    f"a blank line", name)
            sc.warn(rec, pos, f"tag [{name}] given twice; the last one counts", name)
        rec.tags[name] = value
        rec.tag_lines[name] = (line, col)
        rec.items.append(("tag", name, value, line, col))
        self.tag_value(pos, name, value, line, col)
        self.last_item_line = sc.lc(m.end() - 1)[0]
        return m.end()

    def tag_value(self, pos: int, name: str, value: str, line: int, col: int) -> None:
        # what the record holds of a [Layout] or a [Claim] beside its text
        rec = self.rec
        if name == "Layout" and value.strip():
            try:
                rec.layout = Layout.from_str(value)
            except InvalidLayoutError as err:
                raise self.sc.error(pos, f"[Layout]: {err}", value) from err
        elif name == "Claim":
            try:
                claim = parse_claim(value)
                claim.line, claim.col = line, col
                rec.claims.append(claim)
            except ValueError as err:
                raise self.sc.error(pos, str(err), value) from err

    def end_mark(self, pos: int, line: int) -> int:
        self.close_trick()
        self.rec.unfinished = True
        self.rec.items.append(("end", "*"))
        self.last_item_line = line
        return pos + 1

    def play(self, pos: int, ch: str, line: int, col: int) -> int:
        m = _TRICK_NO.match(self.text, pos)
        if m and (self.trick is None or self.sc.line_start(pos)):
            after = self.trick_number(m, pos, line, col)
            if after is not None:
                return after
        if ch in SEPARATORS:
            return self.separator(pos, ch)
        if ch == ".":
            return self.full_stop(pos, line)
        return self.card_slot(pos, ch, line, col)

    def trick_number(self, m, pos: int, line: int, col: int) -> int | None:
        # "N." opening a trick; None when it is read as something else
        rec, sc = self.rec, self.sc
        number = int(m.group(1))
        expected = len(rec.tricks) + 1
        # Mid-trick, a number at the start of a line opens the next trick
        # only if it is the expected one ("9." there may be a card and '.').
        if self.trick is not None and number != expected:
            return None
        if not self.in_play:
            sc.warn(rec, pos, "play line before [Play]; read as play", m.group(0))
            self.in_play = True
        if number != expected:
            again = " (a new record? Records are separated by a blank line)" if number == 1 else ""
            sc.warn(rec, pos, f"trick numbered {number}, expected {expected}{again}", m.group(0))
        self.open_trick(number, line, col)
        self.last_item_line = line
        return m.end()

    def open_trick(self, number: int, line: int, col: int) -> None:
        self.trick = Trick(number, line, col)
        self.rec.tricks.append(self.trick)
        self.rec.items.append(("trick", self.trick))
        self.last_tok, self.pending_sep = None, False

    def separator(self, pos: int, ch: str) -> int:
        if self.trick is None:
            self.sc.warn(self.rec, pos, f"{ch!r} outside a play line, ignored", ch)
        elif self.pending_sep or self.last_tok is None:
            # "8♦- (comment) - Д": two separators around a comment are one.
            if self.last_tok is not None and not self.last_tok.after:
                self.sc.warn(self.rec, pos, "an empty card slot between two separators (write '?' for a lost card)",
                             ch)
        self.pending_sep = True
        return pos + 1

    def full_stop(self, pos: int, line: int) -> int:
        if self.trick is None:
            self.sc.warn(self.rec, pos, "'.' outside a play line, ignored", ".")
        else:
            self.trick.ended = True
            self.close_trick()
            self.last_item_line = line
        return pos + 1

    def card_slot(self, pos: int, ch: str, line: int, col: int) -> int:
        # A card slot: up to the next separator, bracket, comment or end of trick.
        text, rec, sc = self.text, self.rec, self.sc
        end = pos
        while end < len(text) and text[end] not in _STOP and text[end] != "\n":
            end += 1
        raw = text[pos:end].rstrip()
        if end == pos:   # a character no rule above takes: never loop on it
            sc.warn(rec, pos, f"unexpected {ch!r}, ignored", ch)
            return pos + 1
        if self.trick is None:
            if not self.in_play and rec.tricks == []:
                sc.warn(rec, pos, f"text outside a tag or play line, ignored: {raw!r}", raw)
                return end
            # A play line without its number: continue as the next trick.
            sc.warn(rec, pos, f"card text {raw!r} outside a numbered play line; read as trick {len(rec.tricks) + 1}",
                    raw)
            self.open_trick(len(rec.tricks) + 1, line, col)
        if self.last_tok is not None and not self.pending_sep:
            sc.warn(rec, pos, f"no separator before {raw!r}", raw)
        for tok in _slot_tokens(raw, line, col, rec, sc, pos):
            self.trick.tokens.append(tok)
            self.last_tok = tok
        self.pending_sep = False
        self.last_item_line = line
        return end


def _match(text: str, pos: int, open_ch: str, close_ch: str) -> int:
    """Offset of the bracket closing the one at ``pos`` (nesting counted), or -1.
    A blank line ends the search for ``(`` (it cannot run past its record)."""
    depth = 0
    k = pos
    n = len(text)
    while k < n:
        ch = text[k]
        if ch == open_ch:
            depth += 1
        elif ch == close_ch:
            depth -= 1
            if depth == 0:
                return k
        elif ch == "\n" and open_ch == "(":
            nxt = text.find("\n", k + 1)
            if text[k + 1:(nxt if nxt >= 0 else n)].strip() == "":
                return -1
        k += 1
    return -1


def _classify(tok: str, line: int, col: int) -> PlayToken:
    if tok == "?":
        return PlayToken(UNKNOWN, tok, line, col)
    try:
        return PlayToken(CARD, tok, line, col, card=parse_card(tok))
    except InvalidCardError:
        pass
    if tok in RANK_TOKENS:
        return PlayToken(BARE, tok, line, col, rank=RANK_TOKENS[tok])
    return PlayToken(GARBLED, tok, line, col)


def _slot_tokens(raw: str, line: int, col: int, rec: Record, sc: _Scanner, pos: int):
    """The play tokens of one slot's text (normally one card)."""
    pieces = raw.split()
    if len(pieces) > 1:
        joined = _classify("".join(pieces), line, col)
        if joined.kind in (CARD,):
            joined.text = raw
            return [joined]
        parts = [_classify(p, line, col) for p in pieces]
        if all(p.kind != GARBLED for p in parts):
            sc.warn(rec, pos, f"no separator in {raw!r}: read as {len(parts)} cards", raw)
            return parts
    tok = _classify(raw, line, col)
    if tok.kind == GARBLED:
        sc.warn(rec, pos, f"unreadable card {raw!r}: kept as unknown", raw)
    return [tok]


# ---------------------------------------------------------------- writing

def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_record(rec: Record, layout: Layout | None = None) -> str:
    """The record as KDN text: its items in source order, comments kept, and
    ``[Layout]`` canonical (``layout`` if given, else the record's own); a
    layout given for a record without one goes just before ``[Play]``."""
    layout = layout if layout is not None else rec.layout
    lines: list[str] = []
    have_layout_tag = any(it[0] == "tag" and it[1] == "Layout" for it in rec.items)
    for it in rec.items:
        kind = it[0]
        if kind == "tag":
            name, value = it[1], it[2]
            if name == "Layout" and layout is not None:
                value = str(layout)
            if name == "Play" and layout is not None and not have_layout_tag:
                lines.append(f"[Layout {_quote(str(layout))}]")
            lines.append(f"[{name} {_quote(value)}]" if value or name != "Play" else "[Play]")
        elif kind == "comment":
            c, same_line = it[1], it[2]
            text = c.write()
            if c.kind == ";" or not lines:
                if same_line and lines:
                    lines[-1] += "  " + text
                else:
                    lines.append(text)
            elif same_line and lines:
                lines[-1] += " " + text
            else:
                lines.append(text)
        elif kind == "trick":
            lines.append(it[1].write())
        elif kind == "end":
            lines.append("*")
    if layout is not None and not have_layout_tag and not any(it[0] == "tag" and it[1] == "Play" for it in rec.items):
        lines.insert(0, f"[Layout {_quote(str(layout))}]")
    return "\n".join(lines) + "\n"


def write_kdn(records, layouts=None) -> str:
    """Records as one KDN text, separated by blank lines; ``layouts`` (a list
    parallel to ``records``, entries may be None) overrides their [Layout]."""
    layouts = layouts or [None] * len(records)
    return "\n".join(write_record(r, lay) for r, lay in zip(records, layouts))
