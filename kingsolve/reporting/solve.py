"""Output of ``kingsolve solve``: text, JSON (one object a line) and CSV."""
from __future__ import annotations

import csv
import io
import json

from ..cards import card_str, card_symbol, count, rank_of, suit_of
from ..engine import points_at_stake, replay
from ..solver import SolveResult
from .text import trick_line


def _trump(contract):
    if contract.name in ("trump", "misere", "minus", "tricks"):
        return contract.trump_letter
    return None


def _sorted_cards(cards: dict):
    return sorted(cards.items(), key=lambda kv: (suit_of(kv[0]), -rank_of(kv[0])))


def result_dict(res: SolveResult) -> dict:
    c = res.deal.contract
    out = {
        "layout": str(res.layout),
        "variant": c.variant.id,
        "contract": c.name,
        "trump": _trump(c),
        "leader": res.deal.position.leader + 1,
    }
    if res.deal.position.trick:
        out["trick"] = [card_str(x) for x in res.deal.position.trick]
    out["results"] = []
    for r in res.results:
        item = {"side": [s + 1 for s in r.side], "value": r.value}
        if r.cards is not None:
            item["cards"] = {card_str(k): v for k, v in _sorted_cards(r.cards)}
        if r.line is not None:
            item["line"] = [card_str(x) for x in r.line]
        out["results"].append(item)
    return out


def to_json(res: SolveResult) -> str:
    return json.dumps(result_dict(res), ensure_ascii=False)


CSV_FIELDS = ["layout", "variant", "contract", "trump", "leader", "side", "value", "cards", "line"]


def csv_header() -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(CSV_FIELDS)
    return buf.getvalue().rstrip("\n")


def to_csv_rows(res: SolveResult) -> str:
    d = result_dict(res)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in d["results"]:
        w.writerow([
            d["layout"], d["variant"], d["contract"], d["trump"] or "", d["leader"],
            " ".join(str(s) for s in r["side"]), r["value"],
            " ".join(f"{k}:{v}" for k, v in r.get("cards", {}).items()),
            " ".join(r.get("line", [])),
        ])
    return buf.getvalue().rstrip("\n")


def side_label(seats) -> str:
    """``seat 3`` or ``side 1,3`` for 0-based ``seats``."""
    return ("seat " if len(seats) == 1 else "side ") + ",".join(str(k + 1) for k in seats)


def value_note(res: SolveResult) -> str:
    """What a value is, said once above the results."""
    deal = res.deal
    pos = deal.position
    stake = points_at_stake(deal.rules, pos)
    whole = not pos.trick and pos.trick_index == 0 and sum(map(count, pos.hands)) == deal.contract.variant.hand_size * len(pos.hands)
    total = f"the deal's total ({stake:+d})" if whole else f"the {stake:+d} still to be won"
    if any(len(r.side) > 1 for r in res.results):
        return (f"  value: the points a side's seats take together from here with best play, against all the other "
                f"seats together; each side is solved on its own")
    return (f"  value: the points a seat takes from here with best play, alone against all the others together; "
            f"each seat is solved on its own, so the values need not add up to {total}")


def format_line_tricks(res: SolveResult, line) -> list:
    """An optimal line as tricks, as ``verify`` shows them: who leads, the cards
    (those already on the table in brackets), who wins."""
    deal = res.deal
    pos = deal.position
    played = replay(deal.rules, pos, line)
    out, leader = [], pos.leader
    for k, (cards, winner) in enumerate(zip(played.trick_cards, played.winners)):
        shown = [f"[{card_symbol(x)}]" if k == 0 and j < len(pos.trick) else card_symbol(x)
                 for j, x in enumerate(cards)]
        out.append(trick_line(pos.trick_index + k + 1, leader + 1, shown, winner + 1))
        leader = winner
    return out


def to_text(res: SolveResult, explain: bool = False) -> str:
    """A layout's results for a player; ``explain``: with :func:`value_note`
    (said once, above the first layout's results)."""
    deal = res.deal
    c = deal.contract
    tr = _trump(c)
    head = f"{c.variant.id} {c.name}" + (f" ({tr})" if tr else "")
    pos = deal.position
    lines = [f"{head}  {res.layout}  seat {pos.leader + 1} leads"
             + (f", on the table: {' '.join(card_symbol(x) for x in pos.trick)}" if pos.trick else "")]
    if explain:
        lines.append(value_note(res))
    for r in res.results:
        who = side_label(r.side)
        lines.append(f"  {who:<10} {r.value:+d}")
        if r.cards is not None:
            mover = pos.to_move + 1
            whose = "its" if r.side == (pos.to_move,) else f"{who}'s"
            lines.append(f"    seat {mover} to play, {whose} value after each card: " + "  ".join(
                f"{card_symbol(k)} {v:+d}" for k, v in _sorted_cards(r.cards)))
        if r.line is not None:
            lines.append("    line:")
            lines.extend("      " + t for t in format_line_tricks(res, r.line))
    return "\n".join(lines)
