"""Score sheets (бланк): reading, checking, totals (`kingsolve score`).

A sheet is a CSV file with a row per deal: the contract (and, optionally,
the trump, the deal number, and who ordered the deal) and each player's
points as written on the sheet (a penalty negative).  The checker does what
players use the sheet for (RULES.md §5): every row must add up to its deal's
total (``variant.contract(name).total``), the deals must be those of the
game, the negative and the positive stages must balance, and the whole game
must sum to zero.  It names the first row that does not.

Games:

- ``ua12`` — the 12-deal Ukrainian game (000): six penalty deals, the negative
  erajlash (ералаш), four хваленки (trump or misère games), the positive
  erajlash; the penalty stage first.  ru4: −192 / +192; ua3: −240 / +240.
- ``ru14`` — the Russian game (001): the seven penalty deals, then the seven
  positive mirror deals (отыгрыш).
- ``short`` — short King (000): the same 14 deal types once each, in any order.
- ``long`` — long ("ordered", замовний) King: every player orders each of the
  14 types once (4 × 14 = 56 deals for four players); the ``by`` column
  names who ordered each deal.
- ``king52`` — six penalty deals (−1300 in all), then four positive
  auction deals (``trump`` or ``minus``, +325 each).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from .errors import InvalidRulesError, KingsolveError, ParseError
from .variants import GAME_CONTRACTS, MIRROR_CONTRACTS, PENALTY_CONTRACTS, Variant, get_variant, parse_trump

GAMES = ("ua12", "ru14", "short", "long", "king52")
KNOWN_CONTRACTS = PENALTY_CONTRACTS + MIRROR_CONTRACTS + GAME_CONTRACTS
META_COLUMNS = ("deal", "contract", "trump", "by")
GAME_DESCRIPTIONS = {
    "ua12": "the 12-deal Ukrainian game: 6 penalty deals, erajlash, 4 trump games (хваленки), positive erajlash",
    "ru14": "the Russian game: 7 penalty deals, then 7 positive mirror deals",
    "short": "short King: the 14 deal types once each, in any order",
    "long": "long (ordered) King: each player orders each of the 14 deal types once",
    "king52": "king52: 6 penalty deals, then 4 positive auction deals (trump or minus)",
}


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


@dataclass
class Sheet:
    file: str
    players: tuple
    rows: list = field(default_factory=list)
    has_by: bool = False
    has_trump: bool = False


def _int(text: str) -> int:
    t = text.strip().replace("−", "-").replace("–", "-")
    if t.startswith("+"):
        t = t[1:]
    if not t or not (t.isdigit() or (t[0] == "-" and t[1:].isdigit())):
        raise ValueError(text)
    return int(t)


def read_sheet(text: str, file: str = "<sheet>") -> Sheet:
    """Parse a sheet's CSV text.  ``#`` lines and blank lines are skipped; the
    first other line is the header: ``contract`` (required), optionally
    ``deal``, ``trump``, ``by``, and one column per player (3 or 4)."""
    rows = []
    header = None
    hline = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in next(csv.reader([line]))]
        if header is None:
            header, hline = cells, lineno
            continue
        rows.append((lineno, cells))
    if header is None:
        raise SheetError("empty sheet: no header line (contract,PLAYER,PLAYER,…)", file=file)
    lower = [h.lower() for h in header]
    if "contract" not in lower:
        raise SheetError(f"the header has no 'contract' column: {','.join(header)}", file=file, line=hline)
    for k, h in enumerate(header):
        if not h:
            raise SheetError(f"column {k + 1} of the header has no name", file=file, line=hline)
        if lower.index(h.lower()) != k:
            raise SheetError(f"column {h!r} appears twice in the header", file=file, line=hline, token=h)
    player_cols = [k for k, h in enumerate(lower) if h not in META_COLUMNS]
    players = tuple(header[k] for k in player_cols)
    if len(players) not in (3, 4):
        raise SheetError(f"{len(players)} player columns ({', '.join(players) or 'none'}); King is played by 3 or 4",
                         file=file, line=hline)
    col = {h: k for k, h in enumerate(lower)}
    sheet = Sheet(file, players, has_by="by" in col, has_trump="trump" in col)
    for deal, (lineno, cells) in enumerate(rows, 1):
        if len(cells) != len(header):
            raise SheetError(f"{len(cells)} columns, the header has {len(header)}", file=file, line=lineno)
        contract = cells[col["contract"]]
        if not contract:
            raise SheetError("no contract", file=file, line=lineno)
        trump_text = None
        if ":" in contract:
            contract, _, trump_text = contract.partition(":")
        if contract not in KNOWN_CONTRACTS:
            raise SheetError(f"unknown contract {contract!r} (one of: {', '.join(KNOWN_CONTRACTS)})",
                             file=file, line=lineno, token=contract)
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
        if "by" in col:
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
        points = []
        for k in player_cols:
            try:
                points.append(_int(cells[k]))
            except ValueError:
                raise SheetError(f"{header[k]}: {cells[k]!r} is not a number", file=file, line=lineno,
                                 token=cells[k]) from None
        sheet.rows.append(SheetRow(lineno, deal, contract, trump, by, tuple(points), written,
                                   trump_given=trump_text is not None))
    return sheet


# --- games -------------------------------------------------------------------------------------

def default_variant(game: str, n_players: int) -> str:
    """The table a game is played on, from the number of players."""
    if game == "king52":
        return "king52"
    if n_players == 4:
        return "ru4"
    return "ru3" if game == "ru14" else "ua3"


def guess_game(sheet: Sheet, variant: Variant | None) -> str:
    """The game of a complete sheet when --game is not given: king52 on the
    king52 variant or with 10 deals, long with a ``by`` column or 14 deals a
    player, ua12 with 12 deals, short with 14 (give ``--game ru14`` to have
    the Russian game's stage order checked too)."""
    n = len(sheet.players)
    if (variant is not None and variant.id == "king52"):
        return "king52"
    if sheet.has_by:
        return "long"
    if len(sheet.rows) == 10 and n == 4:
        return "king52"
    if len(sheet.rows) == 12:
        return "ua12"
    if len(sheet.rows) == 14:
        return "short"
    if len(sheet.rows) == 14 * n:
        return "long"
    raise InvalidRulesError(f"{sheet.file}: cannot tell the game from {len(sheet.rows)} deals; give --game "
                            f"({'|'.join(GAMES)})")


@dataclass(frozen=True)
class Game:
    """What a game's sheet must hold."""
    name: str
    variant: Variant
    slots: dict          # kind -> how many times (kind: contract name, or "hvalenka" / "positive52")
    kinds: dict          # contract name -> kind
    stages: bool         # the penalty stage must come first
    ordered: bool        # long King: every player orders each kind once
    n_deals: int


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
        return Game(name, variant, slots, kinds, True, False, 12)
    if name == "king52":
        kinds = {c: c for c in pen}
        kinds.update({"trump": "positive", "minus": "positive"})
        slots = {c: 1 for c in pen}
        slots["positive"] = 4
        return Game(name, variant, slots, kinds, True, False, 10)
    types = pen + [c for c in MIRROR_CONTRACTS if c in variant.contracts]
    kinds = {c: c for c in types}
    n = variant.n_seats
    if name == "long":
        return Game(name, variant, {c: n for c in types}, kinds, False, True, n * len(types))
    return Game(name, variant, {c: 1 for c in types}, kinds, name == "ru14", False, len(types))


def kind_label(kind: str) -> str:
    return {"hvalenka": "trump game (trump or misere)", "positive": "positive deal (trump or minus)"}.get(kind, kind)


# --- checking -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """A check that failed: where (line and deal, or None for the whole sheet) and why."""
    message: str
    line: int | None = None
    deal: int | None = None
    contract: str | None = None

    def text(self, file: str) -> str:
        if self.line is None:
            return f"{file}: {self.message}"
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
    expected_negative: int
    expected_positive: int
    partial: bool
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _is_negative(variant, contract) -> bool:
    return contract in PENALTY_CONTRACTS


def check_sheet(sheet: Sheet, game: Game, *, partial: bool = False) -> ScoreReport:
    """Check every row and the game; the problems in sheet order (the first is
    the one to name).  ``partial``: a game in progress — missing deals and the
    balance of the stages are not checked."""
    v = game.variant
    n = v.n_seats
    file = sheet.file
    if len(sheet.players) != n:
        raise InvalidRulesError(f"{file}: {len(sheet.players)} players on the sheet, {v.id} has {n} seats")
    problems = []
    expected, running = [], []
    run = [0] * n
    neg, pos = [0] * n, [0] * n
    seen: dict = {}                 # kind -> [deal numbers]
    ordered: dict = {}              # (seat, kind) -> deal
    positive_started = None
    for row in sheet.rows:
        def fail(msg, row=row):
            problems.append(Problem(msg, row.line, row.deal, row.contract))
        try:
            if row.trump_given:
                c = v.contract(row.contract, row.trump)
            elif row.contract == "trump" and row.contract in v.contracts:
                c = v.contract(row.contract, v.trump_choices(row.contract)[0])  # the total is the same for every trump
            else:
                c = v.contract(row.contract)
        except KingsolveError as err:  # a contract or trump this table does not have: unreadable here
            raise SheetError(str(err), file=file, line=row.line, token=row.contract) from err
        want = c.total
        expected.append(want)
        got = sum(row.points)
        for k in range(n):
            run[k] += row.points[k]
            (neg if _is_negative(v, row.contract) else pos)[k] += row.points[k]
        running.append(tuple(run))
        if row.written_deal is not None and row.written_deal != row.deal:
            fail(f"numbered deal {row.written_deal}, but it is deal {row.deal} of the sheet")
        if want is not None and got != want:
            fail(f"the row sums to {got:+d}, expected {want:+d}")
        kind = game.kinds.get(row.contract)
        if want is not None and kind is None:
            fail(f"{row.contract} is not a deal of the {game.name} game")
        elif kind is not None:
            before = seen.setdefault(kind, [])
            if len(before) >= game.slots[kind]:
                times = {1: "once", 2: "twice"}.get(game.slots[kind], f"{game.slots[kind]} times")
                fail(f"{kind_label(kind)} is played {times} in {game.name}; already in row "
                     + ", ".join(map(str, before)))
            before.append(row.deal)
            if game.stages:
                negative = _is_negative(v, row.contract)
                if not negative and positive_started is None:
                    positive_started = row.deal
                elif negative and positive_started is not None:
                    fail(f"a penalty deal after the positive stage began (row {positive_started})")
            if game.ordered:
                if row.by is None:
                    fail("no 'by': in long King the sheet names who ordered each deal")
                else:
                    key = (row.by, kind)
                    if key in ordered:
                        fail(f"{sheet.players[row.by]} ordered {row.contract} already in row {ordered[key]}")
                    else:
                        ordered[key] = row.deal
    if game.ordered and not sheet.has_by:
        problems.insert(0, Problem("no 'by' column: a long King sheet names who ordered each deal"))
    exp_neg = exp_pos = 0
    for kind, times in game.slots.items():
        names = [c for c, k in game.kinds.items() if k == kind]
        c = v.contract(names[0], v.trump_choices(names[0])[0])
        if _is_negative(v, names[0]):
            exp_neg += c.total * times
        else:
            exp_pos += c.total * times
    neg_total, pos_total = sum(neg), sum(pos)
    if not partial:
        missing = [f"{kind_label(kind)}" + (f" ×{times - len(seen.get(kind, []))}" if times - len(seen.get(kind, [])) > 1 else "")
                   for kind, times in game.slots.items() if len(seen.get(kind, [])) < times]
        if missing:
            problems.append(Problem(f"the {game.name} game has {game.n_deals} deals, the sheet {len(sheet.rows)}; "
                                    f"missing: {', '.join(missing)}"))
        if neg_total + pos_total != 0 or neg_total != exp_neg or pos_total != exp_pos:
            problems.append(Problem(
                f"the penalty deals total {neg_total:+d} (a full game: {exp_neg:+d}), the positive deals "
                f"{pos_total:+d} (a full game: {exp_pos:+d}); the game sums to {neg_total + pos_total:+d}, not 0"))
    return ScoreReport(sheet, game, expected, running, tuple(neg), tuple(pos), tuple(run), neg_total, pos_total,
                       exp_neg, exp_pos, partial, problems)


def score_sheet(text: str, file: str, *, game: str | None = None, variant: Variant | None = None,
                partial: bool = False) -> ScoreReport:
    """Read and check a sheet: the game and the variant from the options or the sheet."""
    sheet = read_sheet(text, file)
    if game is None:
        if partial:
            raise InvalidRulesError(f"{file}: --partial needs --game ({'|'.join(GAMES)})")
        game = guess_game(sheet, variant)
    if variant is None:
        variant = get_variant(default_variant(game, len(sheet.players)))
    return check_sheet(sheet, make_game(game, variant), partial=partial)


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
    from .verify import setup_record
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
    from .engine import trick_winner
    from .layout import Layout
    n = setup.variant.n_seats
    rules = setup.rules
    hands = [0] * n
    leader = setup.leader
    for t in range(0, len(cards), n):
        trick = cards[t:t + n]
        for i, c in enumerate(trick):
            hands[(leader + i) % n] |= 1 << c
        leader = trick_winner(rules, leader, trick)
    return Layout(tuple(hands), 0)


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
