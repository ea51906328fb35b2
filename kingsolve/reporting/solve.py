"""Output of ``kingsolve solve``: text, JSON (one object a line) and CSV."""
from __future__ import annotations

import csv
import io
import json

from ..cards import card_str, card_symbol, rank_of, suit_of
from ..solver import SolveResult


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


def format_line(cards, leader: int, n_seats: int, already: int = 0) -> str:
    """An optimal line, a trick per group: ``1. ♠J ♠K ♠9  2. …``."""
    groups, cur = [], []
    first = n_seats - already if already else n_seats
    for x in cards:
        cur.append(card_symbol(x))
        if len(cur) == (first if not groups else n_seats):
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return "  ".join(f"{k + 1}. {' '.join(g)}" for k, g in enumerate(groups))


def side_label(seats) -> str:
    """``seat 3`` or ``side 1,3`` for 0-based ``seats``."""
    return ("seat " if len(seats) == 1 else "side ") + ",".join(str(k + 1) for k in seats)


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
        lines.append(f"    seat {mover} to play: " + "  ".join(
            f"{card_symbol(k)} {v:+d}" for k, v in _sorted_cards(r.cards)))
    if r.line is not None:
        lines.append("    line: " + format_line(r.line, pos.leader, deal.rules.n_seats, len(pos.trick)))
    if r.timed_out and r.exact:
        lines.append("    (the time limit ran out before the card values or line asked for were finished)")
    return "\n".join(lines)


def to_text(res: SolveResult) -> str:
    return "\n".join([text_head(res)] + [side_text(res, r) for r in res.results])


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
