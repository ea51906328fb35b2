"""Output of ``kingsolve stats``: the summary as text, JSON or CSV, and plots.
Every report names the seed and the number of deals it covers."""
from __future__ import annotations

import csv
import io
import json
import math

from ..cards import SUIT_SYMBOLS
from ..stats import Summary
from .text import plural


def _pos_name(p: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(p, f"{p}th")


def _label_text(label: str) -> str:
    name, _, trump = label.partition(":")
    if not trump:
        return name
    return f"{name} " + ("NT" if trump == "NT" else SUIT_SYMBOLS["SHDC".index(trump)])


def _num(x, fmt="{:+.2f}") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return fmt.format(x)


def _leader_text(spec) -> str:
    return "the leader rotates (deal k: seat k mod N + 1)" if spec.leader == "rotate" else f"seat {spec.leader} leads"


def header(s: Summary) -> str:
    run, spec = s.run, s.run.spec
    opts = f" -o {spec.options_text}" if spec.options else ""
    line = (f"kingsolve stats: {spec.variant_id}{opts}, seed {spec.seed}, {plural(run.deals_done, 'deal')}"
            f" (of {run.n_deals} asked), {plural(spec.hand_size, 'card')} a hand, {_leader_text(spec)}")
    return line


def notes(s: Summary) -> list[str]:
    run = s.run
    out = []
    if run.resumed:
        out.append(f"resumed: {plural(run.resumed, 'deal')} {'was' if run.resumed == 1 else 'were'} already in {run.out}, {run.computed} solved now")
    if run.dropped_partial:
        out.append(f"{run.out}: rows of deals cut off mid-write were dropped and solved again")
    if run.interrupted:
        where = ""
        if run.out:
            # with no deal finished there is no file to resume from (it would start afresh,
            # with a new seed unless --seed is given)
            where = (f"; rows written to {run.out} (continue with --resume)" if run.deals_done
                     else f"; nothing written to {run.out}")
        out.append(f"interrupted: {run.deals_done} of {plural(run.n_deals, 'deal')} finished{where}")
    return out


def to_text(s: Summary) -> str:
    spec = s.run.spec
    n = spec.variant.n_seats
    lines = [header(s)]
    lines += notes(s)
    lines.append("")
    w = max([len("contract")] + [len(_label_text(x)) for x in s.labels])
    lines.append("mean value by seat position (1st = on lead); lead worth = 1st minus the mean of the others")
    lines.append(f"{'contract':<{w}}  " + "  ".join(f"{_pos_name(p):>8}" for p in range(1, n + 1)) + f"  {'lead worth':>10}")
    for label in s.labels:
        row = s.means.loc[label] if label in s.means.index else None
        vals = [None if row is None else row.get(p) for p in range(1, n + 1)]
        lines.append(f"{_label_text(label):<{w}}  " + "  ".join(f"{_num(v):>8}" for v in vals)
                     + f"  {_num(s.lead_worth.get(label)):>10}")
    lines.append("")
    lines.append("distribution by seat position: 10% / median / 90%")
    cells = {}
    for label in s.labels:
        for p in range(1, n + 1):
            key = (label, p)
            if s.by_position is not None and key in s.by_position.index:
                q = s.by_position.loc[key]
                cells[key] = "/".join(_num(q[c], "{:+.0f}") for c in ("p10", "median", "p90"))
            else:
                cells[key] = "—"
    cw = max([8] + [len(x) for x in cells.values()])
    lines.append(f"{'contract':<{w}}  " + "  ".join(f"{_pos_name(p):>{cw}}" for p in range(1, n + 1)))
    for label in s.labels:
        lines.append(f"{_label_text(label):<{w}}  " + "  ".join(f"{cells[(label, p)]:>{cw}}" for p in range(1, n + 1)))
    lines.append("")
    lines.append("distribution over every seat: min, 10%, quartiles, 90%, max")
    cols = ["min", "p10", "p25", "median", "p75", "p90", "max"]
    lines.append(f"{'contract':<{w}}  " + "  ".join(f"{c:>6}" for c in cols))
    for label in s.labels:
        q = s.quantiles.loc[label] if label in s.quantiles.index and "min" in s.quantiles.columns else None
        lines.append(f"{_label_text(label):<{w}}  " + "  ".join(
            f"{_num(None if q is None else q[c], '{:+.0f}'):>6}" for c in cols))
    for name, k in s.king.items():
        lines.append("")
        if not k["deals"]:
            lines.append(f"{name}: the ♥K was not dealt in any of these deals")
            continue
        what = "can be forced to take it" if name == "no-king" else "can make sure of taking it"
        lines.append(f"{name}: the holder of the ♥K {what} in {k['holder_hits']} of {plural(k['deals'], 'deal')} "
                     f"({100 * k['share']:.1f}%); the holder was on lead in {k['holder_on_lead']}")
    return "\n".join(lines)


def _clean(x):
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else round(x, 4)


def to_dict(s: Summary) -> dict:
    run, spec = s.run, s.run.spec
    n = spec.variant.n_seats
    return {
        "variant": spec.variant_id, "options": list(spec.options), "seed": spec.seed,
        "deals": run.deals_done, "deals_asked": run.n_deals, "hand_size": spec.hand_size,
        "leader": spec.leader, "interrupted": run.interrupted, "resumed": run.resumed, "out": run.out,
        "contracts": [
            {
                "contract": label.partition(":")[0], "trump": label.partition(":")[2] or None,
                "mean_by_position": {str(p): _clean(s.means.loc[label].get(p)) if label in s.means.index else None
                                     for p in range(1, n + 1)},
                "lead_worth": _clean(s.lead_worth.get(label)),
                "quantiles": ({c: _clean(s.quantiles.loc[label][c]) for c in s.quantiles.columns}
                              if label in s.quantiles.index else {}),
                "distribution": {str(p): {str(v): c for v, c in d.items()}
                                 for p, d in s.distribution.get(label, {}).items()},
            }
            for label in s.labels
        ],
        "king_holder": s.king,
    }


def to_json(s: Summary) -> str:
    return json.dumps(to_dict(s), ensure_ascii=False)


def to_csv(s: Summary) -> str:
    """A row per contract × seat position: seed and deal count on every row."""
    spec = s.run.spec
    n = spec.variant.n_seats
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["variant", "seed", "deals", "contract", "trump", "position", "mean", "lead_worth"])
    for label in s.labels:
        name, _, trump = label.partition(":")
        for p in range(1, n + 1):
            m = s.means.loc[label].get(p) if label in s.means.index else None
            mv = _clean(m)
            lw = _clean(s.lead_worth.get(label))
            w.writerow([spec.variant_id, spec.seed, s.run.deals_done, name, trump, p,
                        "" if mv is None else mv, "" if lw is None else lw])
    return buf.getvalue().rstrip("\n")


def plot(s: Summary, path) -> None:
    """One panel per contract: the distribution (box plot) of the value for
    each seat position, the mean marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run, spec = s.run, s.run.spec
    n = spec.variant.n_seats
    df = run.frame
    labels = s.labels
    cols = min(4, len(labels))
    rows = math.ceil(len(labels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.4 * rows + 0.6), squeeze=False)
    for i, label in enumerate(labels):
        ax = axes[i // cols][i % cols]
        name, _, trump = label.partition(":")
        sub = df[(df["contract"] == name) & (df["trump"].astype(str) == trump)]
        data = [sub[sub["position"] == p]["value"].to_numpy() for p in range(1, n + 1)]
        if any(len(d) for d in data):
            ax.boxplot(data, showmeans=True)
        ax.set_xticks(range(1, n + 1), [_pos_name(p) for p in range(1, n + 1)])
        ax.set_title(_label_text(label), fontsize=9)
        ax.tick_params(labelsize=7)
    for j in range(len(labels), rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(header(s), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
