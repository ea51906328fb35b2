"""Score sheets (бланк): reading, checking, totals (`kingsolve score`).

A sheet is a CSV file with a row per deal: the contract (and, optionally,
the trump, the deal number, and who ordered the deal) and each player's
points as written on the sheet (a penalty negative; a blank cell is 0).
Excel's exports are read as they are: UTF-8 with a byte-order mark, cells
separated by ``;`` (or tabs).  The checker does what players use the sheet
for (source 000's бланк): every row must add up to its deal's total
(``variant.contract(name).total``), and every player's entry must be one a
player can score in that deal (its sign, its unit, its range: the King is
one card, no-last-two is 0, 8 or 16, a trump game 3 a trick …); the deals
must be those of the game, the negative and the positive stages must balance,
and the whole game must sum to zero.  Totals rows written as players write
them (``РАЗОМ (−)``, ``РАЗОМ (+)``, ``РАЗОМ``; also ``ИТОГО``, ``total``) are
checked against the rows above them.  It names the first row that does not.

Games:

- ``ua12`` — the 12-deal Ukrainian game (000): six penalty deals, the negative
  erajlash (ералаш), four хваленки (trump or misère games), the positive
  erajlash; the penalty stage first.  ru4: −192 / +192; ua3: −240 / +240.
- ``ru14`` — the Russian game (001): the seven penalty deals, then the seven
  positive mirror deals (отыгрыш).
- ``ru12`` — the Russian short King (001, «короткий кинг»): the same without
  the two erajlashes, six penalty deals then six mirrors; ru4 −96 / +96.
- ``short`` — short King (000): the same 14 deal types once each, in any order.
- ``long`` — long ("ordered", замовний) King: the players order the deals in
  turn round the table, and every player orders each of the 14 types once
  (4 × 14 = 56 deals for four players); the ``by`` column names who ordered
  each deal.
- ``king52`` — six penalty deals (−1300 in all), then four positive
  auction deals (``trump`` or ``minus``, +325 each).

Without ``--game`` the game is worked out from the contract names, and the
table from the number of players and the point scale (the rows' totals), not
from the number of rows.
"""
from __future__ import annotations

import csv
import io
import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import cards_of
from .errors import InvalidRulesError, KingsolveError, ParseError
from .variants import (
    GAME_CONTRACTS, MIRROR_CONTRACTS, PENALTY_CONTRACTS, VARIANT_IDS, Contract, Variant, get_variant, parse_trump,
    split_contract,
)

GAMES = ("ua12", "ru14", "ru12", "short", "long", "king52")
KNOWN_CONTRACTS = PENALTY_CONTRACTS + MIRROR_CONTRACTS + GAME_CONTRACTS
META_COLUMNS = ("deal", "contract", "trump", "by")
DERIVED_COLUMNS = ("sum", "expected")   # written by ``score -F csv`` (with "PLAYER total"); ignored when read
ERAJLASHES = ("erajlash", "plus-erajlash")
GAME_DESCRIPTIONS = {
    "ua12": "the 12-deal Ukrainian game: 6 penalty deals, erajlash, 4 trump games (хваленки), positive erajlash",
    "ru14": "the Russian game: 7 penalty deals, then 7 positive mirror deals",
    "ru12": "the Russian short King: 6 penalty deals, then 6 positive mirror deals, no erajlash",
    "short": "short King: the 14 deal types once each, in any order",
    "long": "long (ordered) King: the players order in turn, each of the 14 deal types once",
    "king52": "king52: 6 penalty deals, then 4 positive auction deals (trump or minus)",
}
# The words players head a totals row with (000's бланк: РАЗОМ (−), РАЗОМ (+), РАЗОМ).
TOTALS_WORDS = ("разом", "итого", "всего", "усього", "сумма", "total", "totals")
TOTALS_KINDS = {"": "total", "(-)": "penalty", "-": "penalty", "(+)": "positive", "+": "positive"}


class SheetError(ParseError):
    """A sheet that cannot be read (exit 2): names file and line."""


@dataclass(frozen=True)
class SheetRow:
    line: int            # line of the file (1-based)
    deal: int            # deal number: the row's place on the sheet (1-based)
    contract: str
    trump: int | None    # None also for contracts without a trump
    by: int | None       # 0-based seat that ordered the deal (long King)
    points: tuple        # per player, in column order
    written_deal: int | None = None   # the number in the ``deal`` column, if any
    trump_given: bool = False          # a trump was written (None then means NT)


@dataclass(frozen=True)
class TotalsRow:
    """A totals row as players write it (РАЗОМ (−) / РАЗОМ (+) / РАЗОМ): checked
    against the deals above it."""
    line: int
    after: int           # how many deals are above it
    kind: str            # "penalty", "positive" or "total"
    label: str           # as written
    points: tuple


@dataclass
class Sheet:
    file: str
    players: tuple
    rows: list = field(default_factory=list)
    has_by: bool = False
    has_trump: bool = False
    totals: list = field(default_factory=list)   # TotalsRow, in sheet order
    delimiter: str = ","


def _int(text: str, blank=None) -> int:
    t = text.strip().replace("−", "-").replace("–", "-")
    if not t and blank is not None:
        return blank
    if t.startswith("+"):
        t = t[1:]
    if not t or not (t.isdigit() or (t[0] == "-" and t[1:].isdigit())):
        raise ValueError(text)
    return int(t)


def totals_kind(text: str) -> str | None:
    """"penalty", "positive" or "total" for a totals row's label (РАЗОМ (−),
    ИТОГО (+), total …), None for anything else."""
    t = "".join(text.lower().replace("−", "-").replace("–", "-").split())
    for word in TOTALS_WORDS:
        if t.startswith(word):
            return TOTALS_KINDS.get(t[len(word):])
    return None


def _delimiter(header_line: str) -> str:
    """The header's separator: ``,``, or ``;`` / a tab as spreadsheets export."""
    for d in (",", ";", "\t"):
        cells = next(csv.reader([header_line], delimiter=d))
        if len(cells) > 1 and any(c.strip().lower() == "contract" for c in cells):
            return d
    return ","


def read_sheet(text: str, file: str = "<sheet>") -> Sheet:
    """Parse a sheet's CSV text.  ``#`` lines and blank lines are skipped; the
    first other line is the header: ``contract`` (required), optionally
    ``deal``, ``trump``, ``by``, and one column per player (3 or 4).  A byte-
    order mark is dropped and ``;`` or tab separators are read (Excel's
    exports); a blank points cell is 0; the ``sum``, ``expected`` and
    ``PLAYER total`` columns of ``score -F csv`` are ignored, so its output
    reads back."""
    text = text.lstrip("\ufeff")
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise SheetError("empty sheet: no header line (contract,PLAYER,PLAYER,…)", file=file)
    delim = _delimiter(lines[0][1])
    hline = lines[0][0]
    header = [c.strip() for c in next(csv.reader([lines[0][1]], delimiter=delim))]
    while header and not header[-1]:     # a spreadsheet's empty trailing columns
        header.pop()
    lower = [h.lower() for h in header]
    if "contract" not in lower:
        raise SheetError(f"the header has no 'contract' column: {','.join(header)}", file=file, line=hline)
    for k, h in enumerate(header):
        if not h:
            raise SheetError(f"column {k + 1} of the header has no name", file=file, line=hline)
        if lower.index(h.lower()) != k:
            raise SheetError(f"column {h!r} appears twice in the header", file=file, line=hline, token=h)
    derived = set(DERIVED_COLUMNS) | {f"{h} total" for h in lower}
    player_cols = [k for k, h in enumerate(lower) if h not in META_COLUMNS and h not in derived]
    players = tuple(header[k] for k in player_cols)
    if len(players) not in (3, 4):
        raise SheetError(f"{len(players)} player columns ({', '.join(players) or 'none'}); King is played by 3 or 4",
                         file=file, line=hline)
    col = {h: k for k, h in enumerate(lower)}
    sheet = Sheet(file, players, has_by="by" in col, has_trump="trump" in col, delimiter=delim)

    def points_of(cells, lineno):
        points = []
        for k in player_cols:
            try:
                points.append(_int(cells[k], blank=0))
            except ValueError:
                raise SheetError(f"{header[k]}: {cells[k]!r} is not a number", file=file, line=lineno,
                                 token=cells[k]) from None
        return tuple(points)

    for lineno, line in lines[1:]:
        cells = [c.strip() for c in next(csv.reader([line], delimiter=delim))]
        while len(cells) > len(header) and not cells[-1]:
            cells.pop()
        if not any(cells):
            continue
        if len(cells) != len(header):
            raise SheetError(f"{len(cells)} columns, the header has {len(header)}", file=file, line=lineno)
        contract = cells[col["contract"]]
        kind = totals_kind(contract)
        if kind is not None:
            sheet.totals.append(TotalsRow(lineno, len(sheet.rows), kind, contract, points_of(cells, lineno)))
            continue
        if not contract:
            raise SheetError("no contract", file=file, line=lineno)
        contract, trump_text = split_contract(contract)
        if contract not in KNOWN_CONTRACTS:
            raise SheetError(f"unknown contract {contract!r} (one of: {', '.join(KNOWN_CONTRACTS)}; totals rows: "
                             f"РАЗОМ (-), РАЗОМ (+), РАЗОМ)", file=file, line=lineno, token=contract)
        if "trump" in col and cells[col["trump"]]:
            if trump_text is not None:
                raise SheetError(f"trump given twice: {cells[col['contract']]!r} and {cells[col['trump']]!r}",
                                 file=file, line=lineno)
            trump_text = cells[col["trump"]]
        try:
            trump = None if trump_text is None else parse_trump(trump_text)
        except KingsolveError as err:
            raise SheetError(str(err), file=file, line=lineno, token=trump_text) from err
        by = None
        if "by" in col and cells[col["by"]]:
            who = cells[col["by"]]
            if who in players:
                by = players.index(who)
            elif who.isdigit() and 1 <= int(who) <= len(players):
                by = int(who) - 1
            else:
                raise SheetError(f"'by' {who!r} is not a player ({', '.join(players)}) nor a seat 1..{len(players)}",
                                 file=file, line=lineno, token=who)
        written = None
        if "deal" in col and cells[col["deal"]]:
            try:
                written = _int(cells[col["deal"]])
            except ValueError:
                raise SheetError(f"deal number {cells[col['deal']]!r} is not a number", file=file, line=lineno,
                                 token=cells[col["deal"]]) from None
        sheet.rows.append(SheetRow(lineno, len(sheet.rows) + 1, contract, trump, by, points_of(cells, lineno),
                                   written, trump_given=trump_text is not None))
    return sheet


# --- games -------------------------------------------------------------------------------------

def default_variant(game: str | None, n_players: int) -> str:
    """The table a game is played on, from the number of players."""
    if game == "king52":
        return "king52"
    if n_players == 4:
        return "ru4"
    return "ru3" if game in ("ru14", "ru12") else "ua3"


def _contract_for_total(v: Variant, name: str, trump=None, trump_given=False) -> Contract:
    """The contract of a row (a trump game's total is the same for every trump)."""
    if trump_given:
        return v.contract(name, trump)
    if name == "trump":
        return v.contract(name, v.trump_choices(name)[0])
    return v.contract(name)


def _rows_that_add_up(sheet: Sheet, v: Variant, names=None) -> int:
    n = 0
    for r in sheet.rows:
        if names is not None and r.contract not in names:
            continue
        try:
            c = _contract_for_total(v, r.contract, r.trump, r.trump_given)
        except KingsolveError:
            continue
        n += sum(r.points) == c.total
    return n


def guess_variant(sheet: Sheet, game: str | None = None, options=()) -> str:
    """The table of a sheet when --variant is not given: of the tables for its
    number of players that have every contract on it, the one whose point
    scale the most rows add up to (ru4 no-tricks −16, king52 −260; ua3 −20,
    ru3 −40); the game's usual table when none is better."""
    n = len(sheet.players)
    first = default_variant(game, n)
    ids = [first] + [x for x in VARIANT_IDS if x != first]
    best, best_n = first, -1
    names = {r.contract for r in sheet.rows}
    for vid in ids:
        try:
            v = get_variant(vid, options)
        except KingsolveError:       # an option of another table
            continue
        if v.n_seats != n or not names <= set(v.contracts):
            continue
        if game is not None and (game == "king52") != (vid == "king52"):
            continue
        k = _rows_that_add_up(sheet, v)
        if k > best_n:
            best, best_n = vid, k
    return best


def guess_game(sheet: Sheet, variant: Variant | None) -> str:
    """The game of a sheet when --game is not given, from its contract names:
    king52 on the king52 table; trump games (хваленки) ua12; more deals than
    the 14 types, or a deal type ordered again in a ``by`` column, long; an
    erajlash short (give ``--game ru14`` to have the Russian game's stage
    order checked too); positive mirror deals without erajlash the Russian
    short King (ru12)."""
    if variant is not None and variant.id == "king52":
        return "king52"
    names = Counter(r.contract for r in sheet.rows)
    if names.keys() & {"trump", "misere"}:
        return "ua12"
    n_types = len([c for c in PENALTY_CONTRACTS + MIRROR_CONTRACTS
                   if variant is None or c in variant.contracts])
    if len(sheet.rows) > n_types or (any(r.by is not None for r in sheet.rows) and max(names.values()) > 1):
        return "long"
    if names.keys() & set(ERAJLASHES):
        return "short"
    if names.keys() & set(MIRROR_CONTRACTS):
        return "ru12"
    what = "no deal" if not sheet.rows else f"penalty deals only ({len(sheet.rows)})"
    raise InvalidRulesError(f"{sheet.file}: cannot tell the game from {what}; give --game ({'|'.join(GAMES)})")


@dataclass(frozen=True)
class Game:
    """What a game's sheet must hold."""
    name: str
    variant: Variant
    slots: dict          # kind -> how many times (kind: contract name, or "hvalenka" / "positive")
    kinds: dict          # contract name -> kind
    stages: bool         # the penalty stage must come first
    ordered: bool        # long King: the players order in turn, each kind once
    n_deals: int
    settled: frozenset = frozenset()   # kinds whose points move after play (king52 auctions): only the unit is checked


def _penalties(variant: Variant) -> list:
    return [c for c in PENALTY_CONTRACTS if c in variant.contracts]


def make_game(name: str, variant: Variant) -> Game:
    if name not in GAMES:
        raise InvalidRulesError(f"unknown game {name!r} ({'|'.join(GAMES)})")
    if (name == "king52") != (variant.id == "king52"):
        raise InvalidRulesError(f"the {name} game is not played on {variant.id}"
                                + (" (king52 sheets: --game king52)" if variant.id == "king52" else ""))
    pen = _penalties(variant)
    if name == "ua12":
        kinds = {c: c for c in pen}
        kinds.update({"trump": "hvalenka", "misere": "hvalenka", "plus-erajlash": "plus-erajlash"})
        slots = {c: 1 for c in pen}
        slots.update({"hvalenka": 4, "plus-erajlash": 1})
        return Game(name, variant, slots, kinds, True, False, 12, frozenset({"hvalenka"}))
    if name == "king52":
        kinds = {c: c for c in pen}
        kinds.update({"trump": "positive", "minus": "positive"})
        slots = {c: 1 for c in pen}
        slots["positive"] = 4
        return Game(name, variant, slots, kinds, True, False, 10, frozenset({"positive"}))
    types = pen + [c for c in MIRROR_CONTRACTS if c in variant.contracts]
    if name == "ru12":
        types = [c for c in types if c not in ERAJLASHES]
    kinds = {c: c for c in types}
    n = variant.n_seats
    if name == "long":
        return Game(name, variant, {c: n for c in types}, kinds, False, True, n * len(types))
    return Game(name, variant, {c: 1 for c in types}, kinds, name in ("ru14", "ru12"), False, len(types))


def kind_label(kind: str) -> str:
    return {"hvalenka": "trump game (trump or misere)", "positive": "positive deal (trump or minus)"}.get(kind, kind)


# --- what one player can score ---------------------------------------------------------------------

@lru_cache(maxsize=None)
def player_values(contract: Contract) -> frozenset:
    """Every score one player can have in a whole deal of ``contract``: the
    seat's starting points plus any choice of the cards that score and of the
    tricks that score (a superset of the exact set, which couples cards to
    tricks, but tight in sign, unit and range: no-King 0 or −16 — the King is
    one card —, no-last-two 0, −8 or −16, a trump game 3 a trick up to 24)."""
    v = contract.variant
    units = [contract.card_points[c] for c in cards_of(v.deck) if contract.card_points[c]]
    units += [t for t in contract.trick_points(v.hand_size) if t]
    values = {0}
    for u in units:
        values |= {x + u for x in values}
    return frozenset(x + contract.seat_base for x in values)


def _or_list(values) -> str:
    vals = [f"{x:+d}" if x else "0" for x in values]
    return vals[0] if len(vals) == 1 else ", ".join(vals[:-1]) + " or " + vals[-1]


def entry_problem(contract: Contract, player: str, value: int, settled: bool = False) -> str | None:
    """Why ``value`` cannot be ``player``'s score in a deal of ``contract`` (a
    wrong sign, unit or range), or None.  ``settled``: a game that can be sold,
    whose points move after play (the хваленки debt: N tricks from the buyer
    to the seller whatever he made, so the buyer can end below 0; king52's
    auction settlement), so only the unit is checked."""
    values = player_values(contract)
    unit = math.gcd(*(x - contract.seat_base for x in values))
    if settled:
        if unit and (value - contract.seat_base) % unit:
            what = (f"{contract.seat_base:+d} less a multiple of {unit}" if contract.seat_base
                    else f"a multiple of {unit}")
            return (f"{player} {value:+d}: not {what} ({contract.name}: {abs(contract.per_trick)} a trick; "
                    f"a sold game moves whole tricks)")
        return None
    if value in values:
        return None
    lo, hi = min(values), max(values)
    who = f"{player} {value:+d}"
    if hi <= 0 < value:
        return f"{who}: {contract.name} is a penalty deal, its points are 0 or negative"
    if lo >= 0 > value:
        return f"{who}: {contract.name} is a positive deal, its points are 0 or more"
    nonzero = [x for x in values if x]
    if len(nonzero) == 1 and sum(1 for c in contract.card_points if c) == 1:
        return (f"{who}: the King is one card, not split: {nonzero[0]:+d} to the player who takes it "
                f"and 0 to the others")
    if not lo <= value <= hi:
        return f"{who}: one player scores {lo:+d} to {hi:+d} in {contract.name}"
    if len(values) <= 4:
        return f"{who}: one player scores {_or_list(sorted(values, key=abs))} in {contract.name}"
    if unit and value % unit:
        what = f"{abs(contract.per_trick)} a trick" if contract.name in GAME_CONTRACTS else f"points come in {unit}s"
        return f"{who}: not a multiple of {unit} ({contract.name}: {what})"
    return f"{who}: no player can score that in {contract.name}"


# --- checking -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """A check that failed: where (line and deal, or None for the whole sheet) and why."""
    message: str
    line: int | None = None
    deal: int | None = None
    contract: str | None = None     # or a totals row's label

    def text(self, file: str) -> str:
        if self.line is None:
            return f"{file}: {self.message}"
        if self.deal is None:
            return f"{file}:{self.line}: {self.contract}: {self.message}"
        return f"{file}:{self.line}: row {self.deal} ({self.contract}): {self.message}"


@dataclass
class ScoreReport:
    sheet: Sheet
    game: Game
    expected: list          # per row: the deal's total
    running: list           # per row: running totals per player
    negative: tuple         # per player: the penalty stage
    positive: tuple         # per player: the positive stage
    total: tuple            # per player
    negative_total: int
    positive_total: int
    expected_negative: int  # a full game's (with --partial: the rows so far)
    expected_positive: int
    partial: bool
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)       # how the game and table were told, the King's price
    totals_ok: list = field(default_factory=list)   # per TotalsRow of the sheet: it agrees

    @property
    def ok(self) -> bool:
        return not self.problems


def _is_negative(contract) -> bool:
    return contract in PENALTY_CONTRACTS


def check_sheet(sheet: Sheet, game: Game, *, partial: bool = False) -> ScoreReport:
    """Check every row and the game; the problems in sheet order (the first is
    the one to name).  ``partial``: a game in progress — missing deals are not
    looked for, and the stages are compared with the rows so far."""
    v = game.variant
    n = v.n_seats
    file = sheet.file
    players = sheet.players
    if len(players) != n:
        raise InvalidRulesError(f"{file}: {len(players)} players on the sheet, {v.id} has {n} seats")
    problems = []
    expected, running = [], []
    run = [0] * n
    neg, pos = [0] * n, [0] * n
    seen: dict = {}                 # kind -> [deal numbers]
    ordered: dict = {}              # (seat, kind) -> deal
    positive_started = None
    turn = None                     # long King: the seat whose turn it is to order
    totals_at: dict = {}
    for t in sheet.totals:
        totals_at.setdefault(t.after, []).append(t)
    totals_ok = {}
    exp_neg_rows = exp_pos_rows = 0

    def check_totals(after):
        for t in totals_at.get(after, ()):
            want = {"penalty": neg, "positive": pos, "total": run}[t.kind]
            what = {"penalty": "the penalty deals above total", "positive": "the positive deals above total",
                    "total": "the deals above total"}[t.kind]
            bad = [k for k in range(n) if t.points[k] != want[k]]
            totals_ok[t.line] = not bad
            for k in bad:
                problems.append(Problem(f"{players[k]} wrote {t.points[k]:+d}; {what} {want[k]:+d}", t.line, None,
                                        t.label))

    check_totals(0)
    for row in sheet.rows:
        def fail(msg, row=row):
            problems.append(Problem(msg, row.line, row.deal, row.contract))
        try:
            c = _contract_for_total(v, row.contract, row.trump, row.trump_given)
        except KingsolveError as err:  # a contract or trump this table does not have: unreadable here
            raise SheetError(str(err), file=file, line=row.line, token=row.contract) from err
        want = c.total
        expected.append(want)
        got = sum(row.points)
        negative = _is_negative(row.contract)
        for k in range(n):
            run[k] += row.points[k]
            (neg if negative else pos)[k] += row.points[k]
        if negative:
            exp_neg_rows += want
        else:
            exp_pos_rows += want
        running.append(tuple(run))
        if row.written_deal is not None and row.written_deal != row.deal:
            fail(f"numbered deal {row.written_deal}, but it is deal {row.deal} of the sheet")
        if got != want:
            fail(f"the row sums to {got:+d}, expected {want:+d}")
        kind = game.kinds.get(row.contract)
        for k in range(n):
            why = entry_problem(c, players[k], row.points[k], settled=kind in game.settled)
            if why:
                fail(why)
        if kind is None:
            fail(f"{row.contract} is not a deal of the {game.name} game")
        else:
            before = seen.setdefault(kind, [])
            if len(before) >= game.slots[kind]:
                times = {1: "once", 2: "twice"}.get(game.slots[kind], f"{game.slots[kind]} times")
                fail(f"{kind_label(kind)} is played {times} in {game.name}; already in row "
                     + ", ".join(map(str, before)))
            before.append(row.deal)
            if game.stages:
                if not negative and positive_started is None:
                    positive_started = row.deal
                elif negative and positive_started is not None:
                    fail(f"a penalty deal after the positive stage began (row {positive_started})")
            if game.ordered and sheet.has_by:
                if row.by is None:
                    fail("no 'by': in long King the sheet names who ordered each deal")
                else:
                    if turn is not None and row.by != turn:
                        fail(f"{players[row.by]} ordered out of turn: the players order in turn round the table; "
                             f"{players[(turn - 1) % n]} ordered deal {row.deal - 1}, so it was {players[turn]}'s turn")
                    turn = (row.by + 1) % n
                    key = (row.by, kind)
                    if key in ordered:
                        fail(f"{players[row.by]} ordered {row.contract} already in row {ordered[key]}")
                    else:
                        ordered[key] = row.deal
        check_totals(row.deal)
    if game.ordered and not sheet.has_by:
        problems.insert(0, Problem("no 'by' column: a long King sheet names who ordered each deal"))
    exp_neg = exp_pos = 0
    for kind, times in game.slots.items():
        names = [c for c, k in game.kinds.items() if k == kind]
        c = _contract_for_total(v, names[0])
        if _is_negative(names[0]):
            exp_neg += c.total * times
        else:
            exp_pos += c.total * times
    if partial:
        exp_neg, exp_pos = exp_neg_rows, exp_pos_rows
    neg_total, pos_total = sum(neg), sum(pos)
    if not partial:
        missing = [f"{kind_label(kind)}" + (f" ×{times - len(seen.get(kind, []))}" if times - len(seen.get(kind, [])) > 1 else "")
                   for kind, times in game.slots.items() if len(seen.get(kind, [])) < times]
        if missing and game.ordered and sheet.has_by:
            never = [f"{players[s]} never ordered {kind}" for s in range(n) for kind in game.slots
                     if (s, kind) not in ordered]
            missing = never or missing
        if missing:
            problems.append(Problem(f"the {game.name} game has {game.n_deals} deals, the sheet {len(sheet.rows)}; "
                                    f"missing: {', '.join(missing)}"))
    if neg_total != exp_neg or pos_total != exp_pos or (not partial and neg_total + pos_total != 0):
        if partial:
            problems.append(Problem(
                f"the penalty deals so far total {neg_total:+d} (their rows: {exp_neg:+d}), the positive deals "
                f"{pos_total:+d} (their rows: {exp_pos:+d})"))
        else:
            problems.append(Problem(
                f"the penalty deals total {neg_total:+d} (a full game: {exp_neg:+d}), the positive deals "
                f"{pos_total:+d} (a full game: {exp_pos:+d}); the game sums to {neg_total + pos_total:+d}, not 0"))
    return ScoreReport(sheet, game, expected, running, tuple(neg), tuple(pos), tuple(run), neg_total, pos_total,
                       exp_neg, exp_pos, partial, problems,
                       totals_ok=[totals_ok.get(t.line, True) for t in sheet.totals])


KING_CONTRACTS = ("no-king", "plus-king", "erajlash", "plus-erajlash")


def score_read_sheet(sheet: Sheet, *, game: str | None = None, variant: Variant | str | None = None,
                     options=(), partial: bool = False) -> ScoreReport:
    """Check a read sheet.  ``variant``: a Variant (used as it is), an id, or
    None (told from the sheet, :func:`guess_variant`); ``options``: the ``-o``
    strings for an id.  ``game``: None tells it from the contract names.  On
    ua3 in short and long King, when ``king-points`` is not given and the
    sheet's King deals add up with the King at 20 — source 000's price in the
    three-player short and long King — it is counted at 20, and said so."""
    notes = []
    options = tuple(options)
    if isinstance(variant, Variant):
        v = variant
    else:
        vid = variant or guess_variant(sheet, game, options)
        v = get_variant(vid, options)
        if variant is None:
            notes.append(f"the table told from {len(sheet.players)} players and the rows' point scale: {vid} "
                         f"(--variant to say otherwise)")
    g = game or guess_game(sheet, v)
    if game is None:
        notes.append(f"the game told from its contracts: {g} (--game to say otherwise)")
    if (not isinstance(variant, Variant) and v.id == "ua3" and g in ("short", "long")
            and not any(str(o).replace("_", "-").startswith("king-points") for o in options)):
        at20 = get_variant("ua3", options + ("king-points=20",))
        if _rows_that_add_up(sheet, at20, KING_CONTRACTS) > _rows_that_add_up(sheet, v, KING_CONTRACTS):
            v = at20
            notes.append("the King counted at 20 (king-points=20): source 000 (Ukrainian) prices it so in the "
                         "three-player short and long King; -o king-points=24 to check it at 24")
    report = check_sheet(sheet, make_game(g, v), partial=partial)
    report.notes = notes + report.notes
    return report


def score_sheet(text: str, file: str, *, game: str | None = None, variant: Variant | str | None = None,
                options=(), partial: bool = False) -> ScoreReport:
    """Read and check a sheet: the game and the variant from the options or the sheet."""
    return score_read_sheet(read_sheet(text, file), game=game, variant=variant, options=options, partial=partial)


# --- sheets from played deals (KDN) -----------------------------------------------------------------

def sheet_from_kdn(text: str, file: str, variant: Variant | None = None) -> tuple:
    """(sheet, variant) from a KDN file of played deals, a record per deal in order:
    each record is replayed with the engine (every play checked) from its
    ``[Layout]`` — or from the play itself when every card of it is readable;
    lost suits and unreadable cards are read by the verifier's inference
    (:func:`kingsolve.verify.verify_record`), and the deal is scored when every
    reading gives the same score — and a bought trump game's debt is handed
    over ([Bought]).  Seats are the
    players' seats, ``seat 1`` … ``seat N``.  A record that stops early counts
    only in no-King once the King of hearts has been taken (the deal ends
    there); any other unfinished record is an error."""
    from .engine import Position, replay
    from .kdn import parse_kdn
    from .settlement import settle_sold_game
    from .records import setup_record
    from .variants import KING_OF_HEARTS

    records = parse_kdn(text, source=file)
    if not records:
        raise SheetError("no records", file=file)
    sheet = table = None
    for deal, rec in enumerate(records, 1):
        setup = setup_record(rec, variant)
        v, contract = setup.variant, setup.contract
        n = v.n_seats
        if sheet is None:
            sheet, table = Sheet(file, tuple(f"seat {k + 1}" for k in range(n)), has_trump=True), v
        elif v != table:
            raise SheetError(f"a {v.id} record among {table.id} deals (one game, one table)", file=file,
                             line=rec.line)
        trump = contract.trump if contract.name in GAME_CONTRACTS else None
        cards = [tok.card for tok in rec.plays]
        if any(c is None for c in cards):
            # Lost suits, '?' or garbled cards: the verifier's inference reads them.
            points = _points_by_inference(rec, variant, file)
            sheet.rows.append(SheetRow(rec.line, deal, contract.name, trump, None, tuple(points),
                                       trump_given=contract.name in GAME_CONTRACTS))
            continue
        layout = rec.layout
        if layout is None:
            if rec.unfinished or len(cards) != n * v.hand_size:
                raise SheetError("no [Layout], and the play does not show every card", file=file, line=rec.line)
            layout = _layout_from_play(setup, cards)
        pos = Position(tuple(layout.hands), setup.leader)
        rules = contract.deal_rules(max(bin(h).count("1") for h in layout.hands))
        try:
            rep = replay(rules, pos, cards)
        except KingsolveError as err:
            raise SheetError(f"record at line {rec.line}: {err}", file=file, line=rec.line) from err
        finished = rep.position.finished
        king_taken = any(KING_OF_HEARTS in t for t in rep.trick_cards)
        if not finished and not (contract.name == "no-king" and king_taken):
            raise SheetError(f"record at line {rec.line} stops before the end of the deal: its score is not known",
                             file=file, line=rec.line)
        points, _ = settle_sold_game(contract, setup.bought, [p + rules.seat_base for p in rep.points], rep.tricks)
        sheet.rows.append(SheetRow(rec.line, deal, contract.name, trump, None, tuple(points),
                                   trump_given=contract.name in GAME_CONTRACTS))
    return sheet, table


def _points_by_inference(rec, variant, file) -> list:
    """The settled points of a finished record whose play has unreadable cards,
    when every reading the verifier's inference keeps gives the same score."""
    from .verify import settle, verify_record
    rep = verify_record(rec, variant, marks=False)
    if rep.failure is not None or rep.illegal is not None:
        why = rep.failure.reason if rep.failure is not None else str(rep.illegal)
        raise SheetError(f"record at line {rec.line}: the play cannot be read as a legal deal ({why})",
                         file=file, line=rec.line)
    if not rep.finished:
        raise SheetError(f"record at line {rec.line} stops before the end of the deal: its score is not known",
                         file=file, line=rec.line)
    base = rep.setup.rules.seat_base
    scores = {tuple(settle(rep.setup, [p + base for p in r.points], r.tricks)[0]) for r in rep.kept}
    if len(scores) != 1 or rep.truncated:
        raise SheetError(f"record at line {rec.line}: its unreadable cards can be read in ways that score "
                         f"differently ({len(scores)} scores); complete them", file=file, line=rec.line)
    return list(scores.pop())


def _layout_from_play(setup, cards):
    """The hands, from a complete play: who played each card follows from the
    trick winners, found by replaying trick by trick."""
    from .engine import hands_from_play
    from .layout import Layout
    return Layout(hands_from_play(setup.rules, setup.leader, setup.variant.n_seats, cards), 0)


def sheet_to_csv(sheet: Sheet) -> str:
    """A sheet back to CSV (the format :func:`read_sheet` reads)."""
    from .cards import SUIT_LETTERS
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["deal", "contract", "trump"] + list(sheet.players))
    for r in sheet.rows:
        trump = "" if not r.trump_given else ("NT" if r.trump is None else SUIT_LETTERS[r.trump])
        w.writerow([r.deal, r.contract, trump] + list(r.points))
    return buf.getvalue()
