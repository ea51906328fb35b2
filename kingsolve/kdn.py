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
    text = clean(text).replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    sc = _Scanner(text, source, strict)
    records = []
    pos, n = 0, len(text)
    rec = None
    in_play = False
    trick = None       # the play line being read
    last_tok = None    # the last card slot of that trick
    pending_sep = False
    last_item_line = 0

    def new_record(at):
        nonlocal rec, in_play, trick, last_tok, pending_sep
        rec = Record(source=source, line=sc.lc(at)[0])
        records.append(rec)
        in_play, trick, last_tok, pending_sep = False, None, None, False

    def close_trick():
        nonlocal trick, last_tok, pending_sep
        trick, last_tok, pending_sep = None, None, False

    while pos < n:
        ch = text[pos]
        if ch == "\n":
            # A blank line (only whitespace up to the next newline) ends the record.
            nxt = text.find("\n", pos + 1)
            seg = text[pos + 1:(nxt if nxt >= 0 else n)]
            if rec is not None and seg.strip() == "" and nxt >= 0:
                rec = None
                close_trick()
                in_play = False
                pos = nxt
                continue
            pos += 1
            continue
        if ch.isspace():
            pos += 1
            continue
        if rec is None:
            new_record(pos)
        line, col = sc.lc(pos)
        if ch == ";":
            end = text.find("\n", pos)
            end = n if end < 0 else end
            c = Comment(";", text[pos + 1:end].strip(), line, col)
            if trick is None and rec.tricks and rec.items[-1][0] == "trick" and rec.tricks[-1].ended \
                    and last_item_line == line:
                rec.tricks[-1].line_comments.append(c)   # "3. 8 - ♦Д - ?.   ; comment"
            elif trick is not None:
                trick.line_comments.append(c)
            else:
                rec.items.append(("comment", c, line == last_item_line))
            pos = end
            continue
        if ch in "{(":
            close = COMMENT_OPEN[ch]
            end = _match(text, pos, ch, close)
            if end < 0:
                eol = text.find("\n", pos)
                eol = n if eol < 0 else eol
                sc.warn(rec, pos, f"unclosed '{ch}': the comment is taken to end with its line", ch)
                body, pos_after = text[pos + 1:eol], eol
            else:
                body, pos_after = text[pos + 1:end], end + 1
            c = Comment(ch, body.strip() if ch == "(" else body, line, col)
            if ch == "{":
                c.text = body
            if trick is not None:
                (last_tok.after if last_tok is not None else trick.before).append(c)
            else:
                rec.items.append(("comment", c, line == last_item_line))
            pos = pos_after
            last_item_line = sc.lc(pos_after - 1)[0]
            continue
        if ch in ")}]":
            sc.warn(rec, pos, f"'{ch}' without an opening bracket, ignored", ch)
            pos += 1
            continue
        if ch == "[":
            m = _TAG.match(text, pos)
            if not m:
                eol = text.find("\n", pos)
                bad = text[pos:(eol if eol >= 0 else n)].strip()
                raise sc.error(pos, f"cannot read the tag {bad!r} (write [Name \"value\"])", bad)
            close_trick()
            name, value = m.group(1), (m.group(2) or "").replace('\\"', '"').replace("\\\\", "\\")
            if name.lower() == "play":
                in_play = True
            if name in rec.tags and name != "Claim":
                if rec.tricks:
                    raise sc.error(pos, f"[{name}] again after the play: a new record? Records are separated by "
                                        f"a blank line", name)
                sc.warn(rec, pos, f"tag [{name}] given twice; the last one counts", name)
            rec.tags[name] = value
            rec.tag_lines[name] = (line, col)
            rec.items.append(("tag", name, value, line, col))
            if name == "Layout" and value.strip():
                try:
                    rec.layout = Layout.from_str(value)
                except InvalidLayoutError as err:
                    raise sc.error(pos, f"[Layout]: {err}", value) from err
            elif name == "Claim":
                try:
                    claim = parse_claim(value)
                    claim.line, claim.col = line, col
                    rec.claims.append(claim)
                except ValueError as err:
                    raise sc.error(pos, str(err), value) from err
            pos = m.end()
            last_item_line = sc.lc(pos - 1)[0]
            continue
        if ch == "*":
            close_trick()
            rec.unfinished = True
            rec.items.append(("end", "*"))
            pos += 1
            last_item_line = line
            continue
        # Play text.
        m = _TRICK_NO.match(text, pos)
        if m and (trick is None or sc.line_start(pos)):
            number = int(m.group(1))
            expected = len(rec.tricks) + 1
            # Mid-trick, a number at the start of a line opens the next trick
            # only if it is the expected one ("9." there may be a card and '.').
            if trick is None or number == expected:
                if not in_play:
                    sc.warn(rec, pos, "play line before [Play]; read as play", m.group(0))
                    in_play = True
                if number != expected:
                    again = " (a new record? Records are separated by a blank line)" if number == 1 else ""
                    sc.warn(rec, pos, f"trick numbered {number}, expected {expected}{again}", m.group(0))
                trick = Trick(number, line, col)
                rec.tricks.append(trick)
                rec.items.append(("trick", trick))
                last_tok, pending_sep = None, False
                pos = m.end()
                last_item_line = line
                continue
        if ch in SEPARATORS:
            if trick is None:
                sc.warn(rec, pos, f"{ch!r} outside a play line, ignored", ch)
            elif pending_sep or last_tok is None:
                # "8♦- (comment) - Д": two separators around a comment are one.
                if not (last_tok is not None and last_tok.after) and last_tok is not None:
                    sc.warn(rec, pos, "an empty card slot between two separators (write '?' for a lost card)", ch)
            pending_sep = True
            pos += 1
            continue
        if ch == ".":
            if trick is None:
                sc.warn(rec, pos, "'.' outside a play line, ignored", ch)
            else:
                trick.ended = True
                close_trick()
                last_item_line = line
            pos += 1
            continue
        # A card slot: up to the next separator, bracket, comment or end of trick.
        end = pos
        while end < n and text[end] not in _STOP and text[end] != "\n":
            end += 1
        raw = text[pos:end].rstrip()
        if end == pos:   # a character no rule above takes: never loop on it
            sc.warn(rec, pos, f"unexpected {ch!r}, ignored", ch)
            pos += 1
            continue
        if trick is None:
            if not in_play and rec.tricks == []:
                sc.warn(rec, pos, f"text outside a tag or play line, ignored: {raw!r}", raw)
                pos = end
                continue
            # A play line without its number: continue as the next trick.
            sc.warn(rec, pos, f"card text {raw!r} outside a numbered play line; read as trick {len(rec.tricks) + 1}", raw)
            trick = Trick(len(rec.tricks) + 1, line, col)
            rec.tricks.append(trick)
            rec.items.append(("trick", trick))
            last_tok, pending_sep = None, False
        if last_tok is not None and not pending_sep:
            sc.warn(rec, pos, f"no separator before {raw!r}", raw)
        for tok in _slot_tokens(raw, line, col, rec, sc, pos):
            trick.tokens.append(tok)
            last_tok = tok
        pending_sep = False
        pos = end
        last_item_line = line
    return records


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
