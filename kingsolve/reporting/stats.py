"""Output of ``kingsolve stats``: the summary as text, JSON or CSV, and plots.
Every report names the seed and the number of deals it covers."""
from __future__ import annotations

import csv
import io
import json
import math

from ..cards import SUIT_SYMBOLS
from ..stats import MIN_DEALS, Summary
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


VALUE_MEANING = ("each value is one seat's points playing alone against all the other seats together "
                 "(double dummy, best play on both sides), so the positions' means need not add up to a "
                 "deal's total")


def _few(n) -> bool:
    return n is not None and not (isinstance(n, float) and math.isnan(n)) and n < MIN_DEALS


def _mean_cell(m, se, n) -> str:
    if m is None or (isinstance(m, float) and math.isnan(m)):
        return "—"
    err = "" if se is None or (isinstance(se, float) and math.isnan(se)) else f"±{se:.2f}"
    return f"{m:+.2f}{err}" + ("~" if _few(n) else "")


def _get(frame, label, p):
    if frame is None or label not in frame.index:
        return None
    return frame.loc[label].get(p)


def king_line(s: Summary, name: str) -> str:
    k = s.king[name]
    spec = s.run.spec
    full = spec.hand_size == spec.variant.hand_size and not spec.variant.hidden_talon
    if full:
        base = f"of {plural(k['deals'], 'deal')} (the ♥K is dealt in every one)"
    else:
        base = (f"of the {plural(k['deals'], 'deal')} where the ♥K was dealt (of {k['of_deals']}; with "
                f"{plural(spec.hand_size, 'card')} a hand it was out of play in the other {k['of_deals'] - k['deals']})")
    if not k["deals"]:
        return f"{name}: the ♥K was not dealt in any of these {plural(k['of_deals'], 'deal')}"
    what = "can be forced to take it" if name == "no-king" else "can make sure of taking it"
    lo, hi = k["ci95"]
    few = "; too few deals to rely on" if k["few_deals"] else ""
    return (f"{name}: {base}, the holder of the ♥K {what} in {k['holder_hits']} "
            f"({100 * k['share']:.1f}%, 95% interval {100 * lo:.0f}–{100 * hi:.0f}%{few}); "
            f"the holder was on lead in {k['holder_on_lead']}")


def to_text(s: Summary) -> str:
    spec = s.run.spec
    n = spec.variant.n_seats
    lines = [header(s)]
    lines += notes(s)
    lines.append(VALUE_MEANING + ".")
    lines.append("")
    w = max([len("contract")] + [len(_label_text(x)) for x in s.labels])
    lines.append("mean ± standard error by seat position (1st = on lead); lead worth = on lead minus the mean "
                 "of the others, deal by deal")
    cells = {(label, p): _mean_cell(_get(s.means, label, p), _get(s.mean_se, label, p), _get(s.counts, label, p))
             for label in s.labels for p in range(1, n + 1)}
    worth = {label: _mean_cell(s.lead_worth.get(label),
                               None if s.lead_worth_se is None else s.lead_worth_se.get(label), s.deals)
             for label in s.labels}
    cw = max([12] + [len(x) for x in cells.values()])
    ww = max([12] + [len(x) for x in worth.values()])
    lines.append(f"{'contract':<{w}}  " + "  ".join(f"{_pos_name(p):>{cw}}" for p in range(1, n + 1))
                 + f"  {'lead worth':>{ww}}")
    for label in s.labels:
        lines.append(f"{_label_text(label):<{w}}  " + "  ".join(f"{cells[(label, p)]:>{cw}}" for p in range(1, n + 1))
                     + f"  {worth[label]:>{ww}}")
    if s.few_deals:
        lines.append(f"~ fewer than {MIN_DEALS} deals: too few to rely on")
    lines.append("")
    lines.append("distribution by seat position: 10% / median / 90% (values that occurred, not interpolated)")
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
    for name in s.king:
        lines.append("")
        lines.append(king_line(s, name))
    return "\n".join(lines)


def _clean(x):
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else round(x, 4)


def _run_fields(s: Summary) -> dict:
    run, spec = s.run, s.run.spec
    return {"variant": spec.variant_id, "options": list(spec.options), "seed": spec.seed,
            "deals": run.deals_done, "deals_asked": run.n_deals, "hand_size": spec.hand_size,
            "leader": spec.leader}


def to_dict(s: Summary) -> dict:
    run, spec = s.run, s.run.spec
    n = spec.variant.n_seats
    out = _run_fields(s)
    out.update({
        "value": VALUE_MEANING, "interrupted": run.interrupted, "resumed": run.resumed, "out": run.out,
        "few_deals": s.few_deals, "min_deals": MIN_DEALS,
        "quantile_method": "inverted_cdf (values that occurred, not interpolated)",
        "contracts": [
            {
                "contract": label.partition(":")[0], "trump": label.partition(":")[2] or None,
                "mean_by_position": {str(p): _clean(_get(s.means, label, p)) for p in range(1, n + 1)},
                "mean_se_by_position": {str(p): _clean(_get(s.mean_se, label, p)) for p in range(1, n + 1)},
                "n_by_position": {str(p): (None if _get(s.counts, label, p) is None or math.isnan(_get(s.counts, label, p))
                                           else int(_get(s.counts, label, p))) for p in range(1, n + 1)},
                "lead_worth": _clean(s.lead_worth.get(label)),
                "lead_worth_se": _clean(None if s.lead_worth_se is None else s.lead_worth_se.get(label)),
                "quantiles": ({c: _clean(s.quantiles.loc[label][c]) for c in s.quantiles.columns}
                              if label in s.quantiles.index else {}),
                "distribution": {str(p): {str(v): c for v, c in d.items()}
                                 for p, d in s.distribution.get(label, {}).items()},
            }
            for label in s.labels
        ],
        "king_holder": s.king,
    })
    return out


def to_json(s: Summary) -> str:
    return json.dumps(to_dict(s), ensure_ascii=False)


CSV_COLUMNS = ["variant", "options", "seed", "deals", "hand_size", "leader", "contract", "trump", "position",
               "n", "mean", "mean_se", "lead_worth", "lead_worth_se", "few_deals"]


def to_csv(s: Summary) -> str:
    """A row per contract × seat position: the run (variant, options, seed,
    deals, hand size, leader) on every row, the mean and the lead worth each
    with its standard error."""
    spec = s.run.spec
    n = spec.variant.n_seats
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    run = _run_fields(s)
    for label in s.labels:
        name, _, trump = label.partition(":")
        for p in range(1, n + 1):
            cnt = _get(s.counts, label, p)
            cnt = None if cnt is None or math.isnan(cnt) else int(cnt)
            vals = [_clean(_get(s.means, label, p)), _clean(_get(s.mean_se, label, p)),
                    _clean(s.lead_worth.get(label)),
                    _clean(None if s.lead_worth_se is None else s.lead_worth_se.get(label))]
            w.writerow([run["variant"], " ".join(run["options"]), run["seed"], run["deals"], run["hand_size"],
                        run["leader"], name, trump, p, "" if cnt is None else cnt]
                       + ["" if v is None else v for v in vals] + [int(cnt is None or _few(cnt))])
    return buf.getvalue().rstrip("\n")


def plot(s: Summary, path) -> None:
    """One panel per contract: for each seat position the distribution of the
    value — a box plot (box: the quartiles, whiskers, the median line and the
    mean marker, in a legend), or, where only a few values occur and boxes
    would collapse to lines (0 / −16), the share of deals with each value."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    run, spec = s.run, s.run.spec
    n = spec.variant.n_seats
    df = run.frame
    labels = s.labels
    cols = min(4, len(labels))
    rows = math.ceil(len(labels) / cols)
    height = 2.7 * rows + 1.2
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, height), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    used_box = False
    for i, label in enumerate(labels):
        ax = axes[i // cols][i % cols]
        name, _, trump = label.partition(":")
        sub = df[(df["contract"] == name) & (df["trump"].astype(str) == trump)]
        data = [sub[sub["position"] == p]["value"].to_numpy() for p in range(1, n + 1)]
        values = sorted(set(sub["value"].tolist()))
        if len(values) <= 5 and len(sub):
            width = 0.8 / max(1, len(values))
            for j, v in enumerate(values):
                shares = [float((d == v).mean()) if len(d) else 0.0 for d in data]
                ax.bar([p + (j - (len(values) - 1) / 2) * width for p in range(1, n + 1)], shares, width,
                       color=colours[j % len(colours)], label=f"{v:+d}" if v else "0")
            ax.set_ylabel("share of deals", fontsize=7)
            ax.set_ylim(0, 1.35)        # room above the bars for the legend
            ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
            ax.legend(fontsize=6, title="value", title_fontsize=6, loc="upper center", ncol=min(5, len(values)))
        elif len(sub):
            used_box = True
            ax.boxplot(data, showmeans=True)
            ax.set_ylabel("points", fontsize=7)
        ax.set_xticks(range(1, n + 1), [_pos_name(p) for p in range(1, n + 1)])
        ax.set_xlabel("seat position (1st on lead)", fontsize=7)
        ax.set_title(_label_text(label), fontsize=9)
        ax.tick_params(labelsize=7)
    for j in range(len(labels), rows * cols):
        axes[j // cols][j % cols].axis("off")
    handles = []
    if used_box:
        handles += [Line2D([], [], color="C1", label="median"),
                    Line2D([], [], marker="^", color="green", linestyle="", label="mean"),
                    Line2D([], [], marker="o", markerfacecolor="none", color="black", linestyle="",
                           label="outlier")]
    import textwrap
    title = "\n".join(textwrap.wrap(header(s) + ". " + VALUE_MEANING + ".", width=int(3.4 * cols * 16)))
    fig.suptitle(title, fontsize=8)
    if handles:
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7, frameon=False)
    # the title and the legend keep their inches whatever the number of panels
    fig.tight_layout(rect=(0, (0.35 / height) if handles else 0, 1, 1))   # (tight_layout keeps the suptitle clear)
    fig.savefig(path, dpi=100)
    plt.close(fig)
