"""Output of ``kingsolve table``: a hand diagram and a contract × seat grid
(text), JSON (one object), CSV (a row per contract) and a heatmap (PNG)."""
from __future__ import annotations

import csv
import io
import json

from ..cards import SUIT_SYMBOLS, SUITS, TEN, cards_of, rank_letter, rank_of, suit_cards
from ..solver import Interval, bounds_of
from ..table import Table, trump_label
from .text import plural


def cell_text(x) -> str:
    """A cell: ``+12``, or ``-200..-50`` for the interval a time limit left."""
    return f"{x.low:+d}..{x.high:+d}" if isinstance(x, Interval) else f"{x:+d}"


def _suit_line(mask: int, suit: int) -> str:
    ranks = sorted((rank_of(c) for c in cards_of(suit_cards(mask, suit))), reverse=True)
    return SUIT_SYMBOLS[suit] + ("".join("10" if r == TEN else rank_letter(r) for r in ranks) or "—")


def hand_diagram(hands, leader: int | None = None) -> list[str]:
    """The hands side by side, seat 1 first, one suit a line, in suit symbols."""
    cols = []
    for k, h in enumerate(hands):
        head = f"seat {k + 1}" + (" (leads)" if k == leader else "")
        cols.append([head] + [_suit_line(h, s) for s in SUITS])
    width = max(len(x) for col in cols for x in col) + 3
    return ["".join(col[i].ljust(width) for col in cols).rstrip() for i in range(5)]


def _trump_text(contract) -> str:
    t = trump_label(contract)
    if t is None:
        return ""
    return "NT" if t == "NT" else SUIT_SYMBOLS["SHDC".index(t)]


def to_text(table: Table) -> str:
    v = table.variant
    n = v.n_seats
    lines = [f"{v.id}  {table.layout}  seat {table.leader + 1} leads, {plural(table.n_tricks, 'trick')}", ""]
    lines += hand_diagram(table.layout.hands, table.leader)
    lines.append("")
    name_w = max([len("contract")] + [len(r.contract.name) for r in table.rows])
    val_w = max([len(f"seat {n}")] + [len(cell_text(x)) for r in table.rows for x in r.values])
    lines.append(f"{'contract':<{name_w}}  {'trump':<5}  " + "  ".join(f"{f'seat {k + 1}':>{val_w}}" for k in range(n)))
    for r in table.rows:
        lines.append(f"{r.contract.name:<{name_w}}  {_trump_text(r.contract):<5}  "
                     + "  ".join(f"{cell_text(x):>{val_w}}" for x in r.values))
    lines.append("")
    lines.append("Each value: the points that seat takes alone, best play against all the others together.")
    if any(isinstance(x, Interval) for r in table.rows for x in r.values):
        lines.append("L..H: the time limit ran out with the value proven to lie between L and H.")
    return "\n".join(lines)


def to_dict(table: Table) -> dict:
    return {
        "layout": str(table.layout),
        "variant": table.variant.id,
        "leader": table.leader + 1,
        "seats": list(range(1, table.variant.n_seats + 1)),
        "rows": [_row_dict(r) for r in table.rows],
    }


def _row_dict(r) -> dict:
    # values (null where a time limit left an interval), and every cell's low and high
    ends = [bounds_of(x) for x in r.values]
    return {"contract": r.contract.name, "trump": trump_label(r.contract),
            "values": [None if isinstance(x, Interval) else x for x in r.values],
            "low": [lo for lo, _ in ends], "high": [hi for _, hi in ends],
            "exact": not any(isinstance(x, Interval) for x in r.values)}


def to_json(table: Table) -> str:
    return json.dumps(to_dict(table), ensure_ascii=False)


def to_csv(table: Table) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    n = table.variant.n_seats
    w.writerow(["layout", "variant", "leader", "contract", "trump"] + [f"seat{k + 1}" for k in range(n)]
               + ["exact"] + [f"seat{k + 1}_{end}" for k in range(n) for end in ("low", "high")])
    for r in table.rows:
        d = _row_dict(r)
        w.writerow([str(table.layout), table.variant.id, table.leader + 1, r.contract.name,
                    trump_label(r.contract) or ""] + ["" if x is None else x for x in d["values"]]
                   + ["true" if d["exact"] else "false"] + [x for k in range(n) for x in (d["low"][k], d["high"][k])])
    return buf.getvalue().rstrip("\n")


def plot(table: Table, path) -> None:
    """A heatmap: a row per contract, a column per seat, coloured by the value
    as a share of the contract's points in play (−1 all the penalty, +1 all
    the prize), annotated with the value itself."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    n = table.variant.n_seats
    labels, shares, values = [], [], []
    for r in table.rows:
        c = r.contract
        rules = c.deal_rules(table.n_tricks)
        in_play = (sum(rules.card_points[x] for x in cards_of(table.layout.cards)) + sum(rules.trick_points)
                   + rules.seat_base * n)
        scale = abs(in_play) or 1
        t = _trump_text(c)
        labels.append(c.name + (f" {t}" if t else ""))
        values.append(r.values)
        shares.append([sum(bounds_of(x)) / 2 / scale for x in r.values])
    arr = np.array(shares, dtype=float)
    fig, ax = plt.subplots(figsize=(2.6 + 1.1 * n, 0.8 + 0.32 * len(labels)))
    im = ax.imshow(arr, cmap="RdYlGn", vmin=-1, vmax=1, aspect="auto")
    ax.set_xticks(range(n), [f"seat {k + 1}" + (" ▶" if k == table.leader else "") for k in range(n)])
    ax.set_yticks(range(len(labels)), labels)
    for i, row in enumerate(values):
        for j, x in enumerate(row):
            ax.text(j, i, cell_text(x), ha="center", va="center", fontsize=8)
    ax.set_title(f"{table.variant.id}  {table.layout}\nseat {table.leader + 1} leads", fontsize=8)
    fig.colorbar(im, ax=ax, label="share of the points in play")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
