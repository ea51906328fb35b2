"""Output of ``kingsolve solve --model each``: text, JSON (one object a line) and CSV."""
from __future__ import annotations

import csv
import io
import json

from ..cards import card_str, card_symbol
from ..each import EachResult
from .solve import _sorted_cards, _trump, format_line


def result_dict(res: EachResult, line: bool = False) -> dict:
    c = res.deal.contract
    out = {
        "layout": str(res.layout),
        "variant": c.variant.id,
        "contract": c.name,
        "trump": _trump(c),
        "leader": res.deal.position.leader + 1,
        "model": "each",
        "tie_break": res.tie_break,
    }
    if res.deal.position.trick:
        out["trick"] = [card_str(x) for x in res.deal.position.trick]
    out["points"] = list(res.points)
    out["total"] = res.total
    out["tie"] = res.tie_met
    out["ties"] = [{"trick": t, "seat": s + 1, "card": card_str(x)} for t, s, x in res.tie_plays()]
    if res.cards is not None:
        out["cards"] = {card_str(k): list(v) for k, v in _sorted_cards(res.cards)}
    if line:
        out["line"] = [card_str(x) for x in res.line]
    return out


def to_json(res: EachResult, line: bool = False) -> str:
    return json.dumps(result_dict(res, line), ensure_ascii=False)


CSV_FIELDS = ["layout", "variant", "contract", "trump", "leader", "tie_break",
              "seat1", "seat2", "seat3", "seat4", "total", "tie", "cards", "line"]


def csv_header() -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(CSV_FIELDS)
    return buf.getvalue().rstrip("\n")


def _vector(v) -> str:
    return "/".join(f"{x:+d}" for x in v)


def to_csv_rows(res: EachResult, line: bool = False) -> str:
    d = result_dict(res, line)
    pts = d["points"] + [""] * (4 - len(d["points"]))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([
        d["layout"], d["variant"], d["contract"], d["trump"] or "", d["leader"], d["tie_break"],
        *pts, d["total"], "yes" if d["tie"] else "no",
        " ".join(f"{k}:{_vector(v)}" for k, v in d.get("cards", {}).items()),
        " ".join(d.get("line", [])),
    ])
    return buf.getvalue().rstrip("\n")


def to_text(res: EachResult, line: bool = False) -> str:
    deal = res.deal
    c = deal.contract
    tr = _trump(c)
    pos = deal.position
    n = deal.rules.n_seats
    head = f"{c.variant.id} {c.name}" + (f" ({tr})" if tr else "")
    lines = [f"{head}  {res.layout}  seat {pos.leader + 1} leads"
             + (f", on the table: {' '.join(card_symbol(x) for x in pos.trick)}" if pos.trick else "")
             + f"  each for himself, ties {res.tie_break}"]
    names = [f"seat {k + 1}" for k in range(n)] + ["total"]
    cells = [f"{x:+d}" for x in res.points] + [f"{res.total:+d}"]
    w = max(len(x) for x in names + cells)
    lines.append("  " + "  ".join(x.rjust(w) for x in names))
    lines.append("  " + "  ".join(x.rjust(w) for x in cells))
    if line:
        lines.append("  line: " + format_line(res.line, pos.leader, n, len(pos.trick)))
    plays = res.tie_plays()
    if plays:
        lines.append("  decided by the tie rule (an indifferent seat's card changed the others' points): "
                     + "; ".join(f"trick {t} seat {s + 1} {card_symbol(x)}" for t, s, x in plays))
    else:
        lines.append("  no tie on the line: no indifferent seat's card changed the others' points along it")
    if res.cards is not None:
        lines.append(f"  seat {pos.to_move + 1} to play: " + "  ".join(
            f"{card_symbol(k)} {_vector(v)}" for k, v in _sorted_cards(res.cards)))
    return "\n".join(lines)
