"""Output of ``kingsolve bid``: a text report, JSON, CSV and a matplotlib plot of
the trick distribution per choice.  Every form carries the seed and the number
of samples, so any result can be reproduced."""
from __future__ import annotations

import io
import json
import math

import numpy as np
import pandas as pd

from ..bid import CHUNK, BidAnalysis
from ..cards import card_str, card_symbol, cards_of
from ..layout import format_hand
from .text import plural


def _num(x):
    """JSON-safe number: NaN → None, numpy scalars → Python."""
    if x is None:
        return None
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(float(x)) else float(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x


def _cards(mask: int) -> list:
    return [card_str(c) for c in sorted(cards_of(mask), key=lambda c: (c >> 4, -(c & 15)))]


def _symbols(mask: int) -> str:
    return " ".join(card_symbol(c) for c in sorted(cards_of(mask), key=lambda c: (c >> 4, -(c & 15))))


def _who(a: BidAnalysis) -> str:
    s, sel = a.seat + 1, a.seller + 1
    if a.role == "buyer":
        return f"seat {s} buying the trump game from seat {sel}"
    if a.role == "seller":
        return f"seat {s} selling (the first hand, naming the trump)"
    return f"seat {s} bidding in the auction of dealer seat {sel}"


def _known_text(a: BidAnalysis) -> str:
    k = a.knowledge
    parts = [f"seat {i + 1} {_symbols(m)}" for i, m in enumerate(k.known) if m and i != a.seat]
    if k.talon_known:
        parts.append(f"talon {_symbols(k.talon_known)}")
    return "; ".join(parts)


def header_lines(a: BidAnalysis) -> list:
    v = a.variant
    lines = [f"kingsolve bid: {v.id}, {_who(a)}",
             f"hand: {format_hand(a.hand, symbols=True)}"
             + (f"  ({bin(a.hand).count('1')} of {v.hand_size} cards known)" if bin(a.hand).count('1') != v.hand_size else "")]
    kt = _known_text(a)
    if kt:
        lines.append(f"known: {kt}")
    s = f"seed {a.seed}, {plural(a.samples, 'sample')}"
    if a.interrupted:
        s += f" (interrupted: {a.samples} of {a.requested} finished)"
    lines.append(s)
    return lines


def _pct(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "   -"
    return f"{round(100 * p):4d}"


def _pm(mean, se) -> str:
    se_txt = "   -" if se is None or math.isnan(se) else f"{se:4.2f}"
    return f"{mean:5.2f} ± {se_txt}"


def choices_text(a: BidAnalysis) -> list:
    t = a.choices
    n = a.variant.hand_size
    leader = "leads" if a.role != "seller" else "leads"
    own = f"seat {(a.seller if a.role == 'seller' else a.seat) + 1} {leader}"
    has_def = "defend_mean" in t.columns
    has_offer = "max_offer" in t.columns
    has_dealer = "dealer_mean" in t.columns
    head = f"{'game':<9}{'tricks ± se':>14}{'points':>9}  " + "".join(f"{'≥' + str(k):>4}" for k in range(1, n + 1))
    if has_def:
        head += f"  {'defending ± se':>15}" + (f"{'max offer':>11}" if has_offer else "")
    lines = [f"as declarer ({own}): tricks, expected points, P(tricks ≥ k) in %"
             + (f"; defending the seller's game in it (seat {a.seller + 1} leads)" if has_def else ""), head]
    for name, row in t.iterrows():
        s = f"{name:<9}{_pm(row['mean'], row['se']):>14}{row['points']:9.2f}  " + "".join(
            _pct(row[f"P>={k}"]) for k in range(1, n + 1))
        if has_def:
            if isinstance(row.get("defend_mean"), float) and not math.isnan(row["defend_mean"]):
                s += f"  {_pm(row['defend_mean'], row['defend_se']):>15}"
                mo = row.get("max_offer") if has_offer else None
                s += "" if mo is None or math.isnan(mo) else f"{int(mo):>11}"
            else:
                s += f"  {'':>15}{'':>11}"
        lines.append(s.rstrip())
    return lines


def summary_lines(a: BidAnalysis) -> list:
    s = a.summary
    v = a.variant
    out = [f"recommended game: {s['recommended']} — {s['recommended_mean']:.2f} tricks, "
           f"{s['recommended_points']:.2f} points"]
    if a.role == "buyer":
        if s.get("seller_trump"):
            against = (f"against the seller's {s['seller_trump']} (defending it: "
                       f"{s['defend_mean']:.2f} ± {s['defend_se']:.2f} tricks)")
        else:
            against = (f"against any seller's game (the cautious one is {s['max_offer_against']}, "
                       f"the game you defend best; give --seller-trump)")
        if s["max_offer"] > 0:
            out.append(f"most tricks worth offering: {s['max_offer']} {against}; after paying them "
                       f"{s['points_after_max_offer']:.2f} points expected")
        else:
            out.append(f"most tricks worth offering: 0 {against} — do not buy")
    elif a.role == "seller":
        out.append(f"write two tricks to everyone: {s['write_two_points']:.0f} points each, no play")
        if "offer" in s:
            games = ", ".join(f"{k} {100 * c / a.samples:.0f}%" for k, c in s["buyer_games"].items() if c)
            out.append(f"offer of {s['offer']} from seat {s['buyer'] + 1}: {s['offer']} + "
                       f"{s['defend_mean']:.2f} ± {s['defend_se']:.2f} tricks defending = "
                       f"{s['accept_points']:.2f} points (buyer's games: {games})")
            mo = s["min_offer"]
            out.append("least offer worth accepting: " + (str(mo) if mo is not None else "none"))
        label = {"accept": "accept the offer", "play": f"play your own game ({s['recommended']})",
                 "write-two": "write two tricks to everyone"}
        out.append(f"decision: {label[s['decision']]}")
    else:
        out.append(f"baseline (not winning the auction): defending the dealer's {s['baseline_game']}, "
                   f"{s['baseline_points']:.2f} points"
                   + ("" if s.get("seller_trump") else " (the game you defend best; give --seller-trump)"))
        if s["best_bid"]:
            out.append(f"highest bid worth making: {s['best_bid']} playing {s['best_bid_choice']}, expected settlement "
                       f"{s['best_bid_settlement']:.2f} points")
        else:
            out.append("best bid: pass (no bid beats defending)")
    return out


def bids_lines(a: BidAnalysis) -> list:
    if a.bids is None:
        return []
    lines = ["auction bids (lowest first): expected settlement with the best game of the bid's sign",
             f"{'bid':<5}{'game':<10}{'settlement ± se':>20}{'gain ± se':>20}  worth"]
    for bid, r in a.bids.iterrows():
        lines.append(f"{bid:<5}{r['choice']:<10}{r['settlement']:>12.2f} ± {r['settlement_se']:5.2f}"
                     f"{r['gain']:>12.2f} ± {r['gain_se']:5.2f}  {'yes' if r['worth'] else 'no'}")
    return lines


def to_text(a: BidAnalysis) -> str:
    lines = header_lines(a) + [""] + choices_text(a)
    if a.role == "bidder":
        dealer = a.choices["dealer_mean"] if "dealer_mean" in a.choices.columns else None
        if dealer is not None:
            lines.append("dealer's tricks in the negative deals: " + "  ".join(
                f"{k} {val:.2f}" for k, val in dealer.items() if not math.isnan(val)))
    b = bids_lines(a)
    if b:
        lines += [""] + b
    lines += [""] + summary_lines(a)
    return "\n".join(lines)


def _records(df: pd.DataFrame, index_name: str) -> list:
    out = []
    for idx, row in df.iterrows():
        rec = {index_name: idx}
        p = {}
        for col, val in row.items():
            if str(col).startswith("P>="):
                p[str(col)[3:]] = _num(val)
            else:
                rec[col] = _num(val)
        if p:
            rec["p_at_least"] = p
        out.append(rec)
    return out


def to_dict(a: BidAnalysis) -> dict:
    k = a.knowledge
    d = {
        "variant": a.variant.id, "role": a.role, "seat": a.seat + 1, "seller": a.seller + 1,
        "hand": _cards(a.hand),
        "known": {str(i + 1): _cards(m) for i, m in enumerate(k.known) if m and i != a.seat},
        "seed": a.seed, "samples": a.samples, "requested_samples": a.requested, "block_size": CHUNK,
        "interrupted": a.interrupted,
        "choices": _records(a.choices, "choice"),
    }
    if k.talon_known:
        d["known"]["talon"] = _cards(k.talon_known)
    if a.bids is not None:
        d["bids"] = _records(a.bids, "bid")
    summ = {}
    for key, val in a.summary.items():
        if key == "buyer":
            val = val + 1
        summ[key] = {kk: _num(vv) for kk, vv in val.items()} if isinstance(val, dict) else _num(val)
    d["summary"] = summ
    return d


def to_json(a: BidAnalysis) -> str:
    return json.dumps(to_dict(a), ensure_ascii=False)


def to_csv(a: BidAnalysis) -> str:
    """One row per choice (``kind`` choice) and, for king52, per bid (``kind`` bid),
    each row with the variant, role, seat, seed and sample count."""
    meta = {"variant": a.variant.id, "role": a.role, "seat": a.seat + 1, "seed": str(a.seed), "samples": a.samples}
    frames = []
    c = a.choices.reset_index().rename(columns={"choice": "name"})
    c.insert(0, "kind", "choice")
    frames.append(c)
    if a.bids is not None:
        b = a.bids.reset_index().rename(columns={"bid": "name", "choice": "game"})
        b.insert(0, "kind", "bid")
        frames.append(b)
    df = pd.concat(frames, ignore_index=True, sort=False)
    for i, (k, v) in enumerate(meta.items()):
        df.insert(i, k, v)
    buf = io.StringIO()
    df.to_csv(buf, index=False, lineterminator="\n", float_format="%.6g")
    return buf.getvalue().rstrip("\n")


def plot(a: BidAnalysis, path) -> None:
    """The distribution of the seat's tricks per choice, one panel per game:
    bars as declarer, a grey outline defending the seller's game in it, the
    mean marked; the recommended game in a stronger colour."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = a.variant.hand_size
    names = list(a.choices.index)
    cols = min(5, len(names))
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.0 * cols, 2.5 * rows + 0.6), sharex=True, sharey=True,
                             squeeze=False, layout="constrained")
    ks = np.arange(0, n + 1)
    rec = a.summary.get("recommended")
    for ax, name in zip(axes.flat, names):
        x = a.tricks[f"own:{name}"]
        p = np.bincount(x, minlength=n + 1)[: n + 1] / max(1, len(x))
        colour = "#1f6fb4" if name == rec else "#8db7dc"
        ax.bar(ks, 100 * p, width=0.8, color=colour, label="declarer")
        m = float(x.mean())
        ax.axvline(m, color="#b4341f", lw=1.5)
        dkey = f"defend:{name}"
        if dkey in a.tricks:
            q = np.bincount(a.tricks[dkey], minlength=n + 1)[: n + 1] / max(1, len(a.tricks[dkey]))
            ax.step(ks, 100 * q, where="mid", color="#555555", lw=1.2, label="defending")
        star = " ★" if name == rec else ""
        ax.set_title(f"{name}{star}: {m:.2f} ± {a.choices.loc[name, 'se']:.2f}", fontsize=10)
        ax.set_xticks(ks if n <= 10 else ks[::2])
        ax.grid(axis="y", alpha=0.3)
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("tricks")
    for ax in axes[:, 0]:
        ax.set_ylabel("% of deals")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper right", fontsize=8, frameon=False)
    fig.suptitle(f"{a.variant.id} bid: seat {a.seat + 1} ({a.role}), hand {format_hand(a.hand, symbols=True)}\n"
                 f"seed {a.seed}, {plural(a.samples, 'sample')}; red line = mean", fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)
