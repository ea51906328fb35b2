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
    out["results"] = [result_item(r) for r in res.results]
    return out


def result_item(r) -> dict:
    """One side's result as a dict: ``value`` (null when a time limit left
    only an interval), ``low``, ``high``, ``exact``, and the card values and
    line when there are any."""
    item = {"side": [s + 1 for s in r.side], "value": r.value, "low": r.low, "high": r.high,
            "exact": r.exact}
    if r.timed_out:
        item["time_limit_reached"] = True
    if r.cards is not None:
        item["cards"] = {card_str(k): v for k, v in _sorted_cards(r.cards)}
    if r.line is not None:
        item["line"] = [card_str(x) for x in r.line]
    return item


def to_json(res: SolveResult) -> str:
    return json.dumps(result_dict(res), ensure_ascii=False)


CSV_FIELDS = ["layout", "variant", "contract", "trump", "leader", "side", "value", "cards", "line",
              "low", "high", "exact"]


def csv_header() -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(CSV_FIELDS)
    return buf.getvalue().rstrip("\n")


def to_csv_rows(res: SolveResult, results=None) -> str:
    """The CSV rows of ``res``'s results (or of ``results``, some of them);
    ``value`` is empty for a value a time limit left an interval."""
    d = result_dict(res)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in (d["results"] if results is None else [result_item(x) for x in results]):
        w.writerow([
            d["layout"], d["variant"], d["contract"], d["trump"] or "", d["leader"],
            " ".join(str(s) for s in r["side"]), "" if r["value"] is None else r["value"],
            " ".join(f"{k}:{v}" for k, v in r.get("cards", {}).items()),
            " ".join(r.get("line", [])), r["low"], r["high"], "true" if r["exact"] else "false",
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


def text_head(res: SolveResult) -> str:
    """The first line of :func:`to_text`: the contract, the layout, who leads."""
    c = res.deal.contract
    tr = _trump(c)
    head = f"{c.variant.id} {c.name}" + (f" ({tr})" if tr else "")
    pos = res.deal.position
    return (f"{head}  {res.layout}  seat {pos.leader + 1} leads"
            + (f", on the table: {' '.join(card_symbol(x) for x in pos.trick)}" if pos.trick else ""))


def side_text(res: SolveResult, r) -> str:
    """The lines of :func:`to_text` for one side's result ``r``: its value
    (``value between L and H`` when a time limit left an interval), card
    values and line."""
    deal = res.deal
    pos = deal.position
    who = side_label(r.side)
    if r.exact:
        lines = [f"  {who:<10} {r.value:+d}"]
    else:
        lines = [f"  {who:<10} value between {r.low:+d} and {r.high:+d} (time limit)"]
    if r.cards is not None:
        mover = pos.to_move + 1
        whose = "its" if r.side == (pos.to_move,) else f"{who}'s"
        lines.append(f"    seat {mover} to play, {whose} value after each card: " + "  ".join(
            f"{card_symbol(k)} {v:+d}" for k, v in _sorted_cards(r.cards)))
    if r.line is not None:
        lines.append("    line:")
        lines.extend("      " + t for t in format_line_tricks(res, r.line))
    if r.timed_out and r.exact:
        lines.append("    (the time limit ran out before the card values or line asked for were finished)")
    return "\n".join(lines)


def to_text(res: SolveResult, explain: bool = False) -> str:
    """A layout's results for a player; ``explain``: with :func:`value_note`
    (said once, above the first layout's results)."""
    return "\n".join([text_head(res)] + ([value_note(res)] if explain else [])
                     + [side_text(res, r) for r in res.results])


def progress_text(running) -> str:
    """The progress line's text for the sides being solved: ``running`` holds
    (0-based seats, (low, high) proven so far or None, seconds spent)."""
    out = []
    for seats, proven, secs in running:
        if proven is None:
            known = "…"
        elif proven[0] == proven[1]:
            known = f"{proven[0]:+d}"
        else:
            known = f"{proven[0]:+d}..{proven[1]:+d}"
        out.append(f"{side_label(seats)} {known} {secs:.0f}s")
    return "; ".join(out)
