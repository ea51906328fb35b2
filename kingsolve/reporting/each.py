"""Output of ``kingsolve solve --model each`` and ``table --model each``: text,
JSON (one object a line) and CSV."""
from __future__ import annotations

import csv
import io
import json

from ..cards import card_str, card_symbol
from ..each import EachResult, EachTable
from ..solver import SolveResult
from ..table import trump_label
from . import solve as solve_report
from .solve import _sorted_cards, _trump, format_line_tricks
from .table import _trump_text, hand_diagram


def _ties(plays) -> list:
    return [{"trick": t, "seat": s + 1, "card": card_str(x)} for t, s, x in plays]


def result_dict(res: EachResult, line: bool = False) -> dict:
    # the position as solve's coalition output gives it, then the model's own fields
    out = solve_report.result_dict(SolveResult(res.deal, res.layout))
    del out["results"]
    out["model"] = "each"
    out["tie_break"] = res.tie_break
    out["points"] = list(res.points)
    out["total"] = res.total
    out["tie"] = res.tie_met
    out["ties"] = _ties(res.tie_plays())
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


def vector_text(v) -> str:
    return "/".join(f"{x:+d}" for x in v)


def to_csv_rows(res: EachResult, line: bool = False) -> str:
    d = result_dict(res, line)
    pts = d["points"] + [""] * (4 - len(d["points"]))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([
        d["layout"], d["variant"], d["contract"], d["trump"] or "", d["leader"], d["tie_break"],
        *pts, d["total"], "yes" if d["tie"] else "no",
        " ".join(f"{k}:{vector_text(v)}" for k, v in d.get("cards", {}).items()),
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
        lines.append("  line (each seat playing for itself):")
        lines.extend("    " + t for t in format_line_tricks(res, res.line))
    plays = res.tie_plays()
    if plays:
        lines.append("  decided by the tie rule (an indifferent seat's card changed the others' points): "
                     + "; ".join(f"trick {t} seat {s + 1} {card_symbol(x)}" for t, s, x in plays))
    else:
        lines.append("  no tie on the line: no indifferent seat's card changed the others' points along it")
    if res.cards is not None:
        lines.append(f"  seat {pos.to_move + 1} to play: " + "  ".join(
            f"{card_symbol(k)} {vector_text(v)}" for k, v in _sorted_cards(res.cards)))
    return "\n".join(lines)


def table_to_text(table: EachTable) -> str:
    v = table.variant
    n = v.n_seats
    lines = [f"{v.id}  {table.layout}  seat {table.leader + 1} leads, {table.n_tricks} tricks  "
             f"each for himself, ties {table.tie_break}", ""]
    lines += hand_diagram(table.layout.hands, table.leader)
    lines.append("")
    name_w = max([len("contract")] + [len(r.contract.name) for r in table.rows])
    val_w = max([len(f"seat {n}"), len("total")] + [len(f"{x:+d}") for r in table.rows for x in r.points + (r.total,)])
    lines.append(f"{'contract':<{name_w}}  {'trump':<5}  "
                 + "  ".join(f"{x:>{val_w}}" for x in [f"seat {k + 1}" for k in range(n)] + ["total"]) + "  tie")
    for r in table.rows:
        lines.append(f"{r.contract.name:<{name_w}}  {_trump_text(r.contract):<5}  "
                     + "  ".join(f"{x:>+{val_w}d}" for x in r.points + (r.total,))
                     + ("  yes" if r.ties else ""))
    lines.append("")
    lines.append("Each row: every seat's points when each plays for its own score (see docs/each.md); "
                 "tie: the tie rule decided a card on the line.")
    return "\n".join(lines)


def table_to_dict(table: EachTable) -> dict:
    return {
        "layout": str(table.layout),
        "variant": table.variant.id,
        "leader": table.leader + 1,
        "model": "each",
        "tie_break": table.tie_break,
        "seats": list(range(1, table.variant.n_seats + 1)),
        "rows": [{"contract": r.contract.name, "trump": trump_label(r.contract), "points": list(r.points),
                  "total": r.total, "tie": bool(r.ties),
                  "ties": _ties(r.ties)}
                 for r in table.rows],
    }


def table_to_json(table: EachTable) -> str:
    return json.dumps(table_to_dict(table), ensure_ascii=False)


def table_to_csv(table: EachTable) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    n = table.variant.n_seats
    w.writerow(["layout", "variant", "leader", "tie_break", "contract", "trump"]
               + [f"seat{k + 1}" for k in range(n)] + ["total", "tie"])
    for r in table.rows:
        w.writerow([str(table.layout), table.variant.id, table.leader + 1, table.tie_break, r.contract.name,
                    trump_label(r.contract) or ""] + list(r.points) + [r.total, "yes" if r.ties else "no"])
    return buf.getvalue().rstrip("\n")
