"""Output of ``kingsolve bid``: a text report, JSON, CSV and a matplotlib plot of
the trick distribution per choice.  Every form carries the seed and the number
of samples, so any result can be reproduced."""
from __future__ import annotations

import io
import json
import math

import numpy as np
import pandas as pd

from ..bid import BidAnalysis
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


def _plain(x):
    """A summary value as JSON: nested dicts with string keys, numbers made plain."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    return _num(x)


def _cards(mask: int) -> list:
    return [card_str(c) for c in sorted(cards_of(mask), key=lambda c: (c >> 4, -(c & 15)))]


def _symbols(mask: int) -> str:
    return " ".join(card_symbol(c) for c in sorted(cards_of(mask), key=lambda c: (c >> 4, -(c & 15))))


def _who(a: BidAnalysis) -> str:
    s, sel = a.seat + 1, a.seller + 1
    if a.role == "buyer":
        return f"seat {s} buying the trump game from seat {sel}"
    if a.role == "seller" and a.stage == "name":
        return f"seat {s}, the first hand, naming the game after three cards"
    if a.role == "seller":
        return f"seat {s} selling the game he named ({a.seller_choice.name})"
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
        s += f" (interrupted: the first {a.samples} of {a.requested} finished)"
    elif a.time_limit_reached:
        s += f" (time limit: the first {a.samples} of {a.requested} finished)"
    lines.append(s)
    lines.append(f"model: {a.summary['model']}")
    return lines


def _pct(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "   -"
    return f"{round(100 * p):4d}"


def _pm(mean, se) -> str:
    se_txt = "   -" if se is None or math.isnan(se) else f"{se:4.2f}"
    return f"{mean:5.2f} ± {se_txt}"


def _shares(d: dict) -> str:
    """Bootstrap shares: "2 97%, 3 3%"."""
    return ", ".join(f"{'none' if k is None else k} {100 * p:.0f}%" for k, p in d.items())


def choices_text(a: BidAnalysis) -> list:
    t = a.choices
    n = a.variant.hand_size
    own = f"seat {(a.seller if a.role == 'seller' else a.seat) + 1} leads"
    has_def = "defend_mean" in t.columns
    head = f"{'game':<9}{'tricks ± se':>14}{'points':>9}  " + "".join(f"{'≥' + str(k):>4}" for k in range(1, n + 1))
    if has_def:
        head += f"  {'defending ± se':>15}"
    lines = [f"as declarer ({own}): tricks, expected points, P(tricks ≥ k) in %"
             + (f"; defending the {'dealer' if a.role == 'bidder' else 'seller'}'s game in it "
                f"(seat {a.seller + 1} leads)" if has_def else ""), head]
    for name, row in t.iterrows():
        s = f"{name:<9}{_pm(row['mean'], row['se']):>14}{row['points']:9.2f}  " + "".join(
            _pct(row[f"P>={k}"]) for k in range(1, n + 1))
        if has_def and isinstance(row.get("defend_mean"), float) and not math.isnan(row["defend_mean"]):
            s += f"  {_pm(row['defend_mean'], row['defend_se']):>15}"
        lines.append(s.rstrip())
    return lines


def _buyer_lines(a: BidAnalysis) -> list:
    s = a.summary
    out = []
    if s.get("seller_trump"):
        n = s["max_offer"]
        out.append(f"most tricks worth offering against the seller's {s['seller_trump']}: {n}"
                   + (" — do not buy" if n == 0 else ""))
        out.append(f"  gain of buying {s['gain']:.2f} ± {s['gain_se']:.2f} tricks over defending it "
                   f"({s['defend_mean']:.2f} ± {s['defend_se']:.2f}); buying at {n} does at least as well as "
                   f"not buying in {100 * s['p_not_worse']:.0f}% of the deals")
        out.append(f"  offers of a bootstrap over the samples: {_shares(s['offer_bootstrap'])}")
        if n > 0:
            out.append(f"  after paying them {s['points_after_max_offer']:.2f} points expected")
        return out
    out.append("the seller's game is not known: the most tricks worth offering for each game he could have named "
               "(give --seller-trump once he has named it)")
    out.append(f"  {'his game':<9}{'max offer':>10}{'gain ± se':>16}{'P(not worse)':>14}  bootstrap offers")
    t = a.choices
    for name, n in s["offers"].items():
        out.append(f"  {name:<9}{n:>10}{_pm(t.loc[name, 'gain_mean'], t.loc[name, 'gain_se']):>16}"
                   f"{_pct(s['offers_p_not_worse'][name]):>13}%  {_shares(s['offers_bootstrap'][name])}")
    return out


def _seller_lines(a: BidAnalysis) -> list:
    s = a.summary
    if s["stage"] == "name":
        return [f"name: {s['name']} — {s['recommended_mean']:.2f} tricks expected, the first hand leading "
                f"(best game of a bootstrap over the samples: {_shares(s['recommended_bootstrap'])}); "
                "naming \"by the last card\" is naming the third card's suit"]
    out = [f"play the named {s['named']} (seat {a.seller + 1} leads): {s['play_points']:.2f} ± "
           f"{s['play_se']:.2f} points",
           f"write two tricks to everyone: {s['write_two_points']:.0f} points each, no play"]
    games = ", ".join(f"{k} {100 * c / a.samples:.0f}%" for k, c in s["buyer_games"].items() if c)
    if "offer" in s:
        out.append(f"accept the offer of {s['offer']} from seat {s['buyer'] + 1}: {s['offer']} + "
                   f"{s['defend_mean']:.2f} ± {s['defend_se']:.2f} tricks defending = {s['accept_points']:.2f} ± "
                   f"{s['accept_se']:.2f} points (the buyer's games: {games}); at least as good as refusing in "
                   f"{100 * s['p_accept_not_worse']:.0f}% of the deals")
    else:
        out.append(f"defending the game seat {s['buyer'] + 1} would buy: {s['defend_mean']:.2f} ± "
                   f"{s['defend_se']:.2f} tricks (his games: {games})")
    mo = s["min_offer"]
    out.append("least offer worth accepting: " + (str(mo) if mo is not None else "none")
               + f" (bootstrap: {_shares(s['min_offer_bootstrap'])})")
    label = {"accept": "accept the offer", "play": f"play the named {s['named']}",
             "write-two": "write two tricks to everyone"}
    out.append(f"decision: {label[s['decision']]}")
    return out


def _bidder_lines(a: BidAnalysis) -> list:
    s = a.summary
    other = s["other_reading"]
    if s.get("seller_trump"):
        out = [f"baseline (not winning the auction): defending the dealer's {s['baseline_game']}, "
               f"{s['baseline_points']:.2f} points"]
        if s["best_bid"]:
            out.append(f"highest bid worth making: {s['best_bid']} playing {s['best_bid_choice']}, expected settlement "
                       f"{s['best_bid_settlement']:.2f} points; at least as good as defending in "
                       f"{100 * s['best_bid_p_not_worse']:.0f}% of the deals")
        else:
            out.append("best bid: pass (no bid beats defending)")
        out.append(f"  best bids of a bootstrap over the samples: {_shares(s['best_bid_bootstrap'])}")
        alt = s["best_bid_other_reading"] or "pass"
        out.append(f"  under auction-pay={other}: {alt}"
                   + (" (the same)" if alt == (s["best_bid"] or "pass") else " — the reading of 002 decides"))
        return out
    out = ["the dealer's game is not known: the highest bid worth making against each game he could have named "
           "(give --seller-trump once he has named it)",
           f"  {'his game':<10}{'auction-pay=' + s['auction_pay']:>22}{'auction-pay=' + other:>22}"]
    for name, b in s["best_bids"].items():
        alt = s["best_bids_other_reading"][name]
        out.append(f"  {name:<10}{b or 'pass':>22}{alt or 'pass':>22}")
    return out


def summary_lines(a: BidAnalysis) -> list:
    s = a.summary
    out = []
    if "recommended" in s and a.role != "seller":
        out.append(f"recommended game: {s['recommended']} — {s['recommended_mean']:.2f} tricks, "
                   f"{s['recommended_points']:.2f} points (bootstrap: {_shares(s['recommended_bootstrap'])})")
    if a.role == "buyer":
        out += _buyer_lines(a)
    elif a.role == "seller":
        out += _seller_lines(a)
    else:
        out += _bidder_lines(a)
    return out


def bids_lines(a: BidAnalysis) -> list:
    if a.bids is None:
        return []
    b = a.bids
    worth = "worth" in b.columns
    lines = [f"auction bids (lowest first), auction-pay={a.summary['auction_pay']}: expected settlement with the "
             "best game of the bid's sign" + ("; gain over defending, P(at least as good)" if worth else ""),
             f"{'bid':<5}{'game':<10}{'settlement ± se':>20}" + (f"{'gain ± se':>20}{'P':>6}  worth" if worth else "")]
    for bid, r in b.iterrows():
        line = f"{bid:<5}{r['choice']:<10}{r['settlement']:>12.2f} ± {r['settlement_se']:5.2f}"
        if worth:
            line += (f"{r['gain']:>12.2f} ± {r['gain_se']:5.2f}{_pct(r['p_not_worse']):>5}%  "
                     f"{'yes' if r['worth'] else 'no'}")
        lines.append(line)
    return lines


def to_text(a: BidAnalysis) -> str:
    lines = header_lines(a) + [""] + choices_text(a)
    if a.role == "bidder" and "dealer_p1" in a.choices.columns:
        lines.append("the dealer's tricks in the negative deals (the bidder leading), P(≥ 1) / P(≥ 2) in %: " + "  ".join(
            f"{k} {_pct(r['dealer_p1']).strip()}/{_pct(r['dealer_p2']).strip()}"
            for k, r in a.choices.iterrows() if not math.isnan(r["dealer_p1"])))
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
        "seed": a.seed, "samples": a.samples, "requested_samples": a.requested,
        "seller_trump": a.seller_choice.name if a.seller_choice else None,
        "interrupted": a.interrupted, "time_limit_reached": a.time_limit_reached,
        "choices": _records(a.choices, "choice"),
    }
    if k.talon_known:
        d["known"]["talon"] = _cards(k.talon_known)
    if a.bids is not None:
        d["bids"] = _records(a.bids, "bid")
    d["summary"] = {key: (val + 1 if key == "buyer" else _plain(val)) for key, val in a.summary.items()}
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
    """The distribution of the seat's tricks per game, one panel per game:
    bars as declarer, a grey step line defending the seller's game in it (or,
    for the seller, defending the game the buyer names), the mean marked; the
    recommended game starred; the recommended offer (the buyer told the
    seller's game; the seller's least offer worth accepting) marked on the
    tricks axis.  Every line has its entry in the legend."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = a.variant.hand_size
    s = a.summary
    names = list(a.choices.index)
    cols = min(5, len(names))
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(max(3.2 * cols, 7.5), 2.6 * rows + 1.2), sharex=True, sharey=True,
                             squeeze=False, layout="constrained")
    ks = np.arange(0, n + 1)
    rec = s.get("recommended") or s.get("named")
    lead = (a.seller if a.role == "seller" else a.seat) + 1
    if a.role == "buyer" and s.get("seller_trump"):
        mark = (s["max_offer"], f"most worth offering against {s['seller_trump']}: {s['max_offer']}")
    elif a.role == "seller" and s.get("stage") == "decide" and s.get("min_offer") is not None:
        mark = (s["min_offer"], f"least offer worth accepting: {s['min_offer']}")
    else:
        mark = None

    def dist(x):
        return 100 * np.bincount(x, minlength=n + 1)[: n + 1] / max(1, len(x))

    for ax, name in zip(axes.flat, names):
        x = a.tricks[f"own:{name}"]
        ax.bar(ks, dist(x), width=0.8, color="#1f6fb4" if name == rec else "#8db7dc",
               label=f"as declarer (seat {lead} leads)")
        m = float(x.mean())
        ax.axvline(m, color="#b4341f", lw=1.5, label="mean as declarer")
        dkey = f"defend:{name}" if a.role != "seller" else "defend:bought"
        if dkey in a.tricks:
            who = (f"defending the seller's game (seat {a.seller + 1} leads)" if a.role != "seller" else
                   f"defending the game seat {a.buyer + 1} buys (he leads)")
            ax.step(ks, dist(a.tricks[dkey]), where="mid", color="#555555", lw=1.2, label=who)
        if mark is not None and name == rec:
            ax.axvline(mark[0], color="#2a8a3a", lw=1.5, ls="--", label=mark[1])
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
    legend = {}
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, h)
    fig.legend(list(legend.values()), list(legend.keys()), loc="outside lower center", ncols=2, fontsize=8,
               frameon=False)
    fig.suptitle(f"{a.variant.id} bid: seat {a.seat + 1} ({a.role}), hand {format_hand(a.hand, symbols=True)}\n"
                 f"seed {a.seed}, {plural(a.samples, 'sample')}; ★ {'the named' if s.get('named') else 'recommended'} game",
                 fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)
