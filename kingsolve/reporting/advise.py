"""Output of ``kingsolve advise``: a text report, JSON, CSV and a plot of each
option's points over the sampled deals.  Every form carries the seed, the
number of samples and the method's blind spot."""
from __future__ import annotations

import io
import json
import math

import numpy as np

from ..advise import Advice
from ..cards import card_str, card_symbol, cards_of
from ..layout import format_hand
from .text import plural


def _num(x):
    if x is None:
        return None
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(float(x)) else round(float(x), 6)
    return x


def _label(a: Advice, option: str) -> str:
    return a.table.loc[option, "card"] if a.kind == "play" else option


def header_lines(a: Advice) -> list:
    v = a.variant
    if a.kind == "play":
        ob = a.observation
        c = a.contract
        trump = f" (trump {c.trump_letter})" if c.name in ("trump", "misere", "minus", "tricks") else ""
        where = f"trick {ob.trick_index + 1}, " + ("to lead" if not ob.trick else
                                                    "after " + " ".join(card_symbol(x) for x in ob.trick))
        lines = [f"kingsolve advise: {v.id} {c.name}{trump}, seat {a.seat + 1} to play — {where}",
                 f"hand: {format_hand(ob.knowledge.known[a.seat], symbols=True)}"
                 + (f"  (dealt {format_hand(a.hand, symbols=True)})" if ob.knowledge.known[a.seat] != a.hand else "")]
        voids = [f"seat {h + 1}: " + "; ".join(why for _, why in rs)
                 for h, rs in enumerate(ob.knowledge.reasons[:v.n_seats]) if rs and h != a.seat]
        if voids:
            lines.append("the play showed: " + " | ".join(voids))
        lines.append(f"points so far: {a.taken:+d}; values below are the points seat {a.seat + 1} takes from here on")
    else:
        lines = [f"kingsolve advise --order: {v.id}, seat {a.seat + 1} orders and leads",
                 f"hand: {format_hand(a.hand, symbols=True)}"]
    s = f"seed {a.seed}, {plural(a.samples, 'deal')} sampled uniformly of {a.deals:,} consistent with what the seat sees"
    if a.interrupted:
        s += f" (interrupted: the first {a.samples} of {a.requested} finished)"
    elif a.time_limit_reached:
        s += f" (time limit: the first {a.samples} of {a.requested} finished)"
    lines.append(s)
    return lines


def table_lines(a: Advice) -> list:
    t = a.table
    what = "card" if a.kind == "play" else "deal type"
    w = max(len(what), *(len(str(_label(a, o))) for o in t.index)) + 2
    head = f"{what:<{w}}{'points ± se':>16}{'DD-best':>9}{'mean loss':>11}{'range':>12}"
    if a.kind == "order":
        head += f"{'deal total':>12}"
    lines = [head]
    for opt, r in t.iterrows():
        se = "-" if math.isnan(r["se"]) else f"{r['se']:.2f}"
        rng = f"{r['min']}..{r['max']}"
        line = (f"{str(_label(a, opt)):<{w}}{r['mean']:>9.2f} ± {se:>4}{100 * r['p_best']:>8.0f}%"
                f"{r['mean_loss']:>11.2f}{rng:>12}")
        if a.kind == "order":
            line += f"{int(r['deal_total']):>12}"
        lines.append(line)
    return lines


def summary_lines(a: Advice) -> list:
    s = a.summary
    rec = _label(a, s["recommended"])
    equal = s.get("equal") or []
    if equal:
        rec += (f" (or {', '.join(_label(a, x) for x in equal)}: the same in every sampled deal)")
    if "second" not in s:
        if equal:
            return [f"recommended: {rec}"]
        return [f"recommended: {rec} (the only {'legal card' if a.kind == 'play' else 'deal type'})"]
    sec = _label(a, s["second"])
    p = s["p_second_better"]
    margin = s["margin"]
    se = s["margin_se"]
    se_txt = "-" if se is None or math.isnan(se) else f"{se:.2f}"
    chance = (f"the chance that {sec} is really better: {chance_text(p)}" if not math.isnan(p) else
              f"one deal cannot tell how likely {sec} is really better")
    return [f"recommended: {rec}, by {margin:.2f} ± {se_txt} points over {sec} (paired over the same deals); {chance}"]


def chance_text(p: float) -> str:
    """A probability as a whole percent, never rounded to a certainty it is
    not: 0.25% is "under 1%", 99.7% "over 99%" (0 and 1 themselves, when
    every paired difference is the same, stay 0% and 100%)."""
    if 0 < p < 0.005:
        return "under 1%"
    if 0.995 < p < 1:
        return "over 99%"
    return f"{100 * p:.0f}%"


def to_text(a: Advice) -> str:
    lines = header_lines(a) + [""] + table_lines(a) + [""] + summary_lines(a)
    lines.append("DD-best: how often the option is best in a sampled deal; mean loss: against each deal's best")
    lines.append(f"blind spot: {a.blind_spot}")
    return "\n".join(lines)


def to_dict(a: Advice) -> dict:
    d = {
        "kind": a.kind, "variant": a.variant.id, "seat": a.seat + 1,
        "hand": [card_str(c) for c in cards_of(a.hand)],
        "seed": a.seed, "samples": a.samples, "requested_samples": a.requested, "interrupted": a.interrupted,
        "time_limit_reached": a.time_limit_reached,
        "consistent_deals": str(a.deals),
    }
    if a.kind == "play":
        ob = a.observation
        d.update({"contract": a.contract.name, "trump": a.contract.trump_letter, "leader": ob.leader + 1,
                  "trick": ob.trick_index + 1, "on_table": [card_str(c) for c in ob.trick], "points_so_far": a.taken})
    rows = []
    for opt, r in a.table.iterrows():
        row = {"option": opt}
        row.update({k: _num(v) for k, v in r.items()})
        rows.append(row)
    d["options"] = rows
    d["summary"] = {k: _num(v) for k, v in a.summary.items()}
    d["blind_spot"] = a.blind_spot
    return d


def to_json(a: Advice) -> str:
    return json.dumps(to_dict(a), ensure_ascii=False)


def to_csv(a: Advice) -> str:
    """One row per option, best first, with the variant, seat, seed and sample count."""
    df = a.table.reset_index()
    meta = {"kind": a.kind, "variant": a.variant.id, "seat": a.seat + 1, "seed": str(a.seed), "samples": a.samples}
    for i, (k, v) in enumerate(meta.items()):
        df.insert(i, k, v)
    buf = io.StringIO()
    df.to_csv(buf, index=False, lineterminator="\n", float_format="%.6g")
    return buf.getvalue().rstrip("\n")


def plot(a: Advice, path) -> None:
    """Each option's points over the sampled deals: one row per option, best at
    the top, a bar per points value (the share of the deals), the mean marked
    in red; the recommended option in a stronger colour."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(a.table.index)
    col = {o: j for j, o in enumerate(a.options if a.kind == "order" else [card_str(c) for c in a.options])}
    lo, hi = int(a.values.min()), int(a.values.max())
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 0.9 * len(names) + 1.2), sharex=True, squeeze=False,
                             layout="constrained")
    for ax, name in zip(axes[:, 0], names):
        x = a.values[:, col[name]]
        vals, counts = np.unique(x, return_counts=True)
        colour = "#1f6fb4" if name == a.summary["recommended"] else "#8db7dc"
        step = max(1, min(np.diff(np.unique(a.values)).min() if len(np.unique(a.values)) > 1 else 1, 10))
        ax.bar(vals, 100 * counts / len(x), width=0.8 * step, color=colour)
        ax.axvline(float(x.mean()), color="#b4341f", lw=1.5)
        ax.set_ylabel(str(_label(a, name)), rotation=0, ha="right", va="center", fontsize=9)
        ax.set_yticks([])
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("points" + (" from here on" if a.kind == "play" else " in the deal"))
    axes[-1, 0].set_xlim(lo - 1, hi + 1)
    title = (f"{a.variant.id} {a.contract.name}: seat {a.seat + 1}'s cards" if a.kind == "play"
             else f"{a.variant.id}: seat {a.seat + 1} ordering, hand {format_hand(a.hand, symbols=True)}")
    fig.suptitle(f"{title}\nseed {a.seed}, {plural(a.samples, 'deal')}; red line = mean; bars = share of the deals",
                 fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)
