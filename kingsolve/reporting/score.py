"""Output of ``kingsolve score``: the checked sheet with running totals
(text), JSON, CSV (which reads back as a sheet), and a plot of the running
totals."""
from __future__ import annotations

import csv
import io
import json

from ..cards import SUIT_LETTERS, SUIT_SYMBOLS
from ..score import GAME_DESCRIPTIONS, ScoreReport, _is_negative
from .text import plural


def _trump(row, symbols=True) -> str:
    if not row.trump_given:
        return ""
    if row.trump is None:
        return "NT"
    return SUIT_SYMBOLS[row.trump] if symbols else SUIT_LETTERS[row.trump]


def _problem_rows(r: ScoreReport) -> dict:
    out = {}
    for p in r.problems:
        if p.deal is not None:
            out.setdefault(p.deal, p.message)
    return out


def to_text(r: ScoreReport) -> str:
    s, g = r.sheet, r.game
    players = list(s.players)
    lines = [f"{s.file}: {g.name} on {g.variant.id} — {GAME_DESCRIPTIONS[g.name]}",
             f"{plural(len(s.rows), 'deal')}, players: {', '.join(players)}" + ("  (a game in progress)" if r.partial else "")]
    lines += [f"note: {n}" for n in r.notes]
    lines.append("")
    bad = _problem_rows(r)
    cw = max([len("contract")] + [len(x.contract) + 3 for x in s.rows])
    pw = max([6] + [len(p) for p in players])
    by_w = max([2] + [len(p) for p in players]) if s.has_by else 0
    head = f"{'deal':>4}  {'contract':<{cw}}  " + (f"{'by':<{by_w}}  " if s.has_by else "")
    head += "  ".join(f"{p:>{pw}}" for p in players) + f"  {'sum':>6}  {'expected':>8}"
    lines.append(head)
    for row, want, run in zip(s.rows, r.expected, r.running):
        t = _trump(row)
        name = row.contract + (f" {t}" if t else "")
        by = (f"{players[row.by] if row.by is not None else '':<{by_w}}  " if s.has_by else "")
        mark = "ok" if row.deal not in bad else "✗ " + bad[row.deal]
        lines.append(f"{row.deal:>4}  {name:<{cw}}  {by}" + "  ".join(f"{x:>+{pw}d}" for x in row.points)
                     + f"  {sum(row.points):>+6d}  {('?' if want is None else f'{want:+d}'):>8}  {mark}")
    lines.append("")
    pad = f"{'':>4}  {'':<{cw}}  " + (f"{'':<{by_w}}  " if s.has_by else "")
    lines.append(pad + "  ".join(f"{p:>{pw}}" for p in players))
    full = "so far" if r.partial else "a game"
    lines.append(pad + "  ".join(f"{'':>{pw}}" for _ in players) + f"  {'':>6}  {full:>8}")
    lines.append(f"{'penalty deals':<{len(pad)}}" + "  ".join(f"{x:>+{pw}d}" for x in r.negative)
                 + f"  {r.negative_total:>+6d}  {r.expected_negative:>+8d}")
    lines.append(f"{'positive deals':<{len(pad)}}" + "  ".join(f"{x:>+{pw}d}" for x in r.positive)
                 + f"  {r.positive_total:>+6d}  {r.expected_positive:>+8d}")
    lines.append(f"{'total':<{len(pad)}}" + "  ".join(f"{x:>+{pw}d}" for x in r.total)
                 + f"  {sum(r.total):>+6d}  {0:>+8d}")
    if s.totals:
        lines.append("")
        lines.append("totals rows on the sheet:")
        tw = max(len(t.label) for t in s.totals)
        for t, ok in zip(s.totals, r.totals_ok):
            lines.append(f"line {t.line:<4}  {t.label:<{tw}}  " + "  ".join(f"{x:>+{pw}d}" for x in t.points)
                         + "  " + ("ok" if ok else "✗ does not match the deals above it"))
    lines.append("")
    lines.append("running totals after each deal:")
    lines.append(f"{'deal':>4}  " + "  ".join(f"{p:>{pw}}" for p in players))
    for row, run in zip(s.rows, r.running):
        lines.append(f"{row.deal:>4}  " + "  ".join(f"{x:>+{pw}d}" for x in run))
    lines.append("")
    if r.ok:
        lines.append("the sheet adds up: every row, the stages and the whole game" if not r.partial
                     else "every row adds up so far")
    else:
        lines.append(f"{len(r.problems)} problem(s):")
        lines += ["  " + p.text(s.file) for p in r.problems]
    return "\n".join(lines)


def to_dict(r: ScoreReport) -> dict:
    s = r.sheet
    return {
        "file": s.file, "game": r.game.name, "variant": r.game.variant.id, "players": list(s.players),
        "partial": r.partial, "ok": r.ok, "notes": list(r.notes),
        "rows": [
            {"deal": row.deal, "line": row.line, "contract": row.contract, "trump": _trump(row, symbols=False) or None,
             "by": (s.players[row.by] if row.by is not None else None), "points": list(row.points),
             "sum": sum(row.points), "expected": want, "running": list(run)}
            for row, want, run in zip(s.rows, r.expected, r.running)
        ],
        "totals": {"penalty": list(r.negative), "positive": list(r.positive), "total": list(r.total)},
        "totals_rows": [{"line": t.line, "label": t.label, "kind": t.kind, "after_deal": t.after,
                         "points": list(t.points), "ok": ok} for t, ok in zip(s.totals, r.totals_ok)],
        "penalty_total": r.negative_total, "positive_total": r.positive_total,
        "expected_penalty_total": r.expected_negative, "expected_positive_total": r.expected_positive,
        "problems": [{"line": p.line, "deal": p.deal, "contract": p.contract, "message": p.message}
                     for p in r.problems],
    }


def to_json(r: ScoreReport) -> str:
    return json.dumps(to_dict(r), ensure_ascii=False)


def to_csv(r: ScoreReport) -> str:
    """The sheet with each row's sum and expected total and the running totals."""
    s = r.sheet
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    players = list(s.players)
    w.writerow(["deal", "contract", "trump"] + (["by"] if s.has_by else []) + players + ["sum", "expected"]
               + [f"{p} total" for p in players])
    for row, want, run in zip(s.rows, r.expected, r.running):
        w.writerow([row.deal, row.contract, _trump(row, symbols=False)]
                   + ([players[row.by] if row.by is not None else ""] if s.has_by else [])
                   + list(row.points) + [sum(row.points), "" if want is None else want] + list(run))
    return buf.getvalue().rstrip("\n")


def plot(r: ScoreReport, path) -> None:
    """Running totals per player, deal by deal: the contracts named along the
    x-axis, a line between the penalty and the positive stage (games played
    in stages), rows with a problem marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = r.sheet
    xs = [0] + [row.deal for row in s.rows]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.32 * len(xs) + 3), 4.6))
    for k, p in enumerate(s.players):
        ax.plot(xs, [0] + [run[k] for run in r.running], marker="o", markersize=3, label=p)
    ax.axhline(0, color="grey", linewidth=0.8)
    if r.game.stages:
        first_positive = next((row.deal for row in s.rows if not _is_negative(row.contract)), None)
        if first_positive is not None:
            ax.axvline(first_positive - 0.5, color="black", linestyle="--", linewidth=1)
            ax.text(first_positive - 0.5, 1.0, " positive stage →", transform=ax.get_xaxis_transform(),
                    fontsize=7, va="bottom", ha="left")
            ax.text(first_positive - 0.5, 1.0, "← penalty stage ", transform=ax.get_xaxis_transform(),
                    fontsize=7, va="bottom", ha="right")
    bad = _problem_rows(r)
    for k, row in enumerate(s.rows):
        if row.deal in bad:
            ax.axvspan(row.deal - 0.5, row.deal + 0.5, color="red", alpha=0.18, linewidth=0,
                       label="a problem in the row" if k == min(bad) - 1 else None)
    names = [f"{row.deal} {row.contract}" + (f" {_trump(row, False)}" if row.trump_given else "") for row in s.rows]
    ax.set_xticks(xs[1:], names, fontsize=7, rotation=60, ha="right")
    for tick, row in zip(ax.get_xticklabels(), s.rows):
        if row.deal in bad:
            tick.set_color("red")
    ax.set_xlim(0, len(s.rows) + 0.5)
    ax.set_xlabel("deal")
    ax.set_ylabel("running total (points)")
    ax.set_title(f"{s.file}: {r.game.name} on {r.game.variant.id}" + ("" if r.ok else "  (does not add up)"),
                 fontsize=9, pad=14)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
