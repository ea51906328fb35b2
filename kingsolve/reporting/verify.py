"""Output of ``kingsolve verify``: text for a player, JSON (one object a line) for scripts."""
from __future__ import annotations

import csv
import io
import json
import math

from ..cards import SUIT_SYMBOLS, SUITS, TEN, card_str, card_symbol, cards_of, rank_letter, rank_of, suit_cards, suit_of
from ..verify import SD_MARK_CONFIDENCE, RecordReport, seats_of, slot_choices, slot_deal_shares
from .each import vector_text
from .text import plural, trick_line


def _status(rep: RecordReport) -> str:
    if not rep.readings and rep.undecided:
        return "undecided"
    if not rep.legal:
        return "illegal"
    if not rep.claims_ok:
        return "claim-fails"
    return "ok"


def _trump(rep: RecordReport):
    c = rep.setup.contract
    return c.trump_letter if c.name in ("trump", "misere", "minus", "tricks") else None


def _ranks(mask: int, suit: int) -> str:
    ranks = sorted((rank_of(c) for c in cards_of(suit_cards(mask, suit))), reverse=True)
    return " ".join("10" if r == TEN else rank_letter(r) for r in ranks)


def hand_diagram(hands, title="", indent="    ", extra=None) -> list[str]:
    """Hands side by side, a row per suit, in suit symbols; ``extra`` (per
    seat, a mask) is shown in brackets: cards the seat may also hold."""
    n = len(hands)
    cols = []
    for s in range(n):
        col = [f"seat {s + 1}"]
        for suit in SUITS:
            txt = _ranks(hands[s], suit) or "—"
            if extra is not None and suit_cards(extra[s], suit):
                txt = (txt if suit_cards(hands[s], suit) else "") + " [" + _ranks(extra[s], suit) + "]"
            col.append(f"{SUIT_SYMBOLS[suit]} {txt.strip()}")
        cols.append(col)
    width = max(len(x) for col in cols for x in col) + 3
    out = [indent[:-2] + title] if title else []
    for row in range(5):
        out.append(indent + "".join(cols[s][row].ljust(width) for s in range(n)).rstrip())
    return out


def _tricks(k: int) -> str:
    return plural(k, "trick")


def _points(v: int) -> str:
    return f"{v:+d}"


def _share(c) -> str:
    """"holds in 1234 of 5000 deals sampled of 2,718,281 (24.7% ± 0.6%)"."""
    return (f"{c.holding} of {plural(c.layouts, 'deal')} sampled of {c.deals:,} "
            f"({c.share:.1%} ± {c.se:.1%})")


def _claim_line(c, finished=True) -> str:
    t = c.target
    head = f'[Claim "{t.claim.text}"] ({t.unit}' + (f", tricks {t.start + 1}..)" if t.start else ")")
    if c.status == "holds" and c.layouts == 1:
        got = " ".join(f"{s}:{v}" for s, v in (c.values or {}).items())
        return f"{head}: holds — {got}" + ("" if finished else " with best play from where the record stops")
    if c.status == "holds":
        return f"{head}: holds in all {plural(c.layouts, 'layout')}"
    if c.status == "undecided":
        if c.sampled:
            return f"{head}: holds in none of the {plural(c.layouts, 'deal')} sampled of {c.deals:,}: undecided"
        return (f"{head}: holds in none of the {plural(c.layouts, 'layout')} checked, but not every layout was checked "
                f"(interrupted): undecided")
    got = c.example_fail["values"] if c.example_fail else {}
    vals = " ".join(f"{s}:{v}" for s, v in got.items())
    if c.status == "fails":
        if c.layouts == 1:
            how = "the play gives" if finished else "with best play from where the record stops:"
            return f"{head}: FAILS — {how} {vals}"
        return f"{head}: FAILS in all {plural(c.layouts, 'layout')}, e.g. {c.example_fail['layout']} gives {vals}"
    if c.sampled:
        if c.holding == c.layouts:
            return f"{head}: holds in all {plural(c.layouts, 'deal')} sampled of {c.deals:,}, so it is likely but not proven"
        return (f"{head}: holds in {_share(c)}, so it does not follow from the printed play alone; "
                f"it fails e.g. in {c.example_fail['layout']} ({vals})")
    if c.holding == c.layouts:   # interrupted before every deal was checked
        return f"{head}: holds in all {plural(c.layouts, 'layout')} checked (interrupted: not every layout was checked)"
    return (f"{head}: holds in {c.holding} of {plural(c.layouts, 'layout')}" + (" checked" if c.truncated else "")
            + f", so it does not follow from the printed play alone; it fails e.g. in {c.example_fail['layout']} ({vals})")


def to_text(rep: RecordReport, max_completions: int = 20) -> str:
    rec, setup = rep.rec, rep.setup
    n = setup.variant.n_seats
    c = setup.contract
    tr = _trump(rep)
    head = f"{rec.source}:{rec.line}  {setup.variant.id} {c.name}" + (f" (trump {tr})" if tr else "")
    head += f", seat {setup.leader + 1} leads"
    if setup.bought:
        b = setup.bought
        head += f"; bought by seat {b.buyer + 1} from seat {b.seller + 1} for {_tricks(b.tricks)}"
    title = rec.tags.get("Source") or rec.tags.get("Event")
    lines = [head]
    if title:
        lines.append(f"  {title}")
    for w in rec.warnings:
        lines.append(f"  warning {rec.source}:{w}")
    for note in rep.notes:
        lines.append(f"  note: {note}")
    if not rep.readings:
        f = rep.failure
        if f.undecided:
            lines.append(f"  UNDECIDED: {f.reason}")
            lines.append("  verdict: UNDECIDED")
            return "\n".join(lines)
        seat = f", seat {f.seat}" if f.seat else ""
        lines.append(f"  ILLEGAL: no reading of the play is legal: trick {f.trick}{seat}, {f.text!r}: {f.reason}")
        lines.append("  verdict: ILLEGAL")
        return "\n".join(lines)
    if rep.illegal is not None:
        lines.append(f"  ILLEGAL: {rep.illegal}")
        lines.append("  verdict: ILLEGAL")
        return "\n".join(lines)

    # Inference.
    choices = slot_choices(rep)
    nr, nk = len(rep.readings), len(rep.kept)
    more = "+" if rep.truncated else ""
    if choices:
        if nk == 1:
            lines.append(f"  Inference: the play has {nr}{more} legal readings; the claims keep one — filled in:" if nr > 1
                         else "  Inference: the play has a single legal reading — filled in:")
        else:
            lines.append(f"  Inference: {nr}{more} legal readings of the play" + (f", {nk} consistent with the claims" if nk != nr else "")
                         + " — each unsure card can be:")
        seats, _ = seats_of(setup, rep.reading.cards)
        for sl, tally in choices:
            what = {"bare": "suit lost", "unknown": "unreadable", "garbled": "garbled"}.get(sl.token.kind, sl.token.kind)
            text = sl.token.text or "(not printed)"
            share = slot_deal_shares(rep, sl)
            opts = " or ".join(f"{card_symbol(x)}" + (f" ({k}: {share[x]:.0%})" if len(tally) > 1 else "")
                               for x, k in tally.items())
            lines.append(f"    trick {sl.trick + 1}, seat {seats[sl.index] + 1}: {text!r} ({what}) = {opts}")
        if len(choices) and nk > 1:
            lines.append("    (readings: share of the deals they allow" + (" that agree with the claims" if rep.claims and rep.n_matching else "")
                         + "; the play below follows the likeliest)")
        if 1 < nk <= max_completions:
            lines.append("    readings:")
            for r in rep.kept:
                lines.append("      " + "  ".join(f"{sl.trick + 1}:{card_symbol(r.cards[sl.index])}" for sl, _ in choices))
    # Hands.
    if rep.layout is not None:
        how = "the only deal consistent with the play" + (" and the claims" if rep.claims and rep.layouts_total > 1 else "")
        lines.extend(hand_diagram(rep.layout.hands, f"Hands ({how}):"))
    else:
        r = rep.reading
        unseen = r.unseen
        over = f" (over {len(rep.kept)} readings)" if len(rep.kept) > 1 else ""
        src = "the [Layout] and " if rec.layout is not None else ""
        if rep.claims and rep.claims_sampled:
            agree = (f"; {rep.claims_checked:,} sampled of the {rep.claim_deals:,} deals of every reading "
                     f"(seed {rep.seed}): {rep.n_matching:,} agree with the claims")
        elif rep.claims:
            agree = f"; {rep.n_matching} of those checked agree with the claims"
        else:
            agree = ""
        lines.append(f"  Hands: {plural(bin(unseen).count('1'), 'card')} never seen; {rep.layouts_total:,} deal{'' if rep.layouts_total == 1 else 's'} consistent with "
                     f"{src}the play{over}{agree}")
        what = "the deals that agree with the claims" if rep.certain_from == "claims" else "every deal the play allows"
        lines.extend(hand_diagram(rep.certain, f"  held in {what}, [may also have held]:", extra=rep.possible))
        if rep.claims and 0 < rep.n_matching <= max_completions:
            lines.append("    the deals that agree with the claims:")
            for rr, e in rep.matching[:max_completions]:
                lines.append("      " + " / ".join(" ".join(card_symbol(x) for x in sorted(cards_of(m), key=lambda x: (suit_of(x), -rank_of(x))))
                                                  for m in e))
    # Result.
    raw = rep.raw_score
    if rep.finished:
        lines.append("  Result: " + "  ".join(f"seat {s + 1} {_tricks(raw['tricks'][s])} {_points(raw['points'][s])}" for s in range(n)))
        if setup.bought:
            b = setup.bought
            sc = rep.score
            lines.append(f"  After the debt (seat {b.buyer + 1} hands {_tricks(b.tricks)} to seat {b.seller + 1}): "
                         + "  ".join(f"seat {s + 1} {_tricks(sc['tricks'][s])} {_points(sc['points'][s])}" for s in range(n)))
    else:
        done = len(rep.reading.cards) // n
        lines.append(f"  Unfinished: stops after {plural(len(rep.reading.cards), 'card')} (trick {done + 1}); so far "
                     + "  ".join(f"seat {s + 1} {_tricks(raw['tricks'][s])} {_points(raw['points'][s])}" for s in range(n)))
    for chk in rep.claims:
        lines.append("  " + _claim_line(chk, rep.finished))
    # Play by play.
    if rep.marks:
        seats, winners = seats_of(setup, rep.reading.cards)
        if rep.analysed_layouts <= 1:
            lay = ""
        else:
            agree = " that agree with the claims" if rep.marks_from_claims else ""
            if rep.marks_sampled:
                lay = (f", over {rep.analysed_layouts} deals sampled of the {rep.marks_of:,} of its deals{agree} "
                       f"(seed {rep.seed}): a mark is a loss in each")
            else:
                lay = f", over all {rep.analysed_layouts} of its deals{agree}: a mark is a loss in each"
        lines.append(f"  Play (double-dummy, for the seat that played{lay}; ? loses, ?? loses the most it could):")
        if rep.single_samples:
            hands = ("" if rep.single_deals <= 1 else
                     f", holding his hand of each of {rep.single_deals} of those deals (the record does not show it)")
            lines.append(f"    single-dummy: each play also graded by what its player saw (his hand, the talon, the "
                         f"tricks so far){hands}, the unseen cards dealt {plural(rep.single_samples, 'way')} (seed {rep.seed}); "
                         f"? when the card played is worse with {100 * SD_MARK_CONFIDENCE:.0f}% confidence")
        by_trick = {}
        for m in rep.marks:
            by_trick.setdefault(m.trick, []).append(m)
        for t, ms in by_trick.items():
            lines.append("    " + trick_line(t, ms[0].seat, [card_symbol(m.card) + m.mark for m in ms],
                                              winners[t - 1] + 1 if t - 1 < len(winners) else None))
            for m in ms:
                if m.mark:
                    best = "/".join(card_symbol(x) for x in m.best_cards)
                    rng = f" (up to {m.loss_max})" if m.loss_max != m.loss else ""
                    lines.append(f"          {card_symbol(m.card)}{m.mark} seat {m.seat}: {_points(m.value)}, "
                                 f"best {best} {_points(m.best)}: loses {m.loss}{rng}")
                sd = m.single
                if sd is not None and (m.mark or sd.mark):
                    best = "/".join(card_symbol(x) for x in sd.best_cards)
                    if sd.mark:
                        verdict = (f"loses {sd.loss:.2f} ± {sd.loss_se:.2f} against {best} "
                                   f"({sd.best:+.2f}): a mistake from what the player saw")
                    elif sd.loss == 0:
                        verdict = "the best a player could choose from what he saw"
                    elif math.isnan(sd.loss_se):
                        verdict = (f"loses {sd.loss:.2f} against {best} on the one deal dealt: too few deals "
                                   f"to call it a mistake")
                    else:
                        verdict = (f"within {sd.loss:.2f} ± {sd.loss_se:.2f} of {best}: no clear mistake from what "
                                   f"the player saw")
                    lines.append(f"          {card_symbol(m.card)}{sd.mark or ' '} single-dummy: {sd.value:+.2f}, "
                                 f"{verdict}")
    if rep.each is not None:
        lines.extend(_each_lines(rep))
    verdict = {"ok": "OK", "illegal": "ILLEGAL", "claim-fails": "CLAIM FAILS", "undecided": "UNDECIDED"}[_status(rep)]
    lines.append(f"  verdict: {verdict}")
    return "\n".join(lines)


def _seats_row(v) -> str:
    return "  ".join(f"seat {s + 1} {x:+d}" for s, x in enumerate(v)) + f"   total {sum(v):+d}"


def _changes(p) -> str:
    """``seat 1 -2, seat 3 +2``: what a play did to each seat against the rule's card."""
    return ", ".join(f"seat {s + 1} {d:+d}" for s, d in enumerate(p.change) if d) or "no seat's points"


def _each_lines(rep: RecordReport) -> list:
    """The each-for-himself section of a record's text (``verify --model each``)."""
    e = rep.each
    head = f"  Each for himself (every seat playing for its own points; ties {e.tie_break}"
    if not e.solved:
        return [head + f"): {e.reason}"]
    lines = [head + ("), from the first lead:" if not e.start else f"), from trick {e.start + 1}:")]
    if e.start_note:
        lines.append(f"    note: {e.start_note}")
    debt = " (before the debt)" if rep.setup.bought else ""
    lines.append(f"    equilibrium  {_seats_row(e.equilibrium)}")
    book = "the book   " if e.book_continued is None else "book + each"
    lines.append(f"    {book}  {_seats_row(e.book)}{debt}")
    if e.book_continued is not None:
        lines.append(f"    (the record stops in trick {e.book_continued + 1}: its tricks as printed, then every seat "
                     f"playing for itself)")
    departed = e.departures
    if e.equal:
        lines.append("    the book's result is the each-for-himself outcome")
    else:
        lines.append("    the book's result is not the each-for-himself outcome: "
                     + (f"{plural(len(departed), 'play')} lost {'its' if len(departed) == 1 else 'their'} player's points"
                        if departed else
                        "no play lost its player's points; seats indifferent between cards chose otherwise than "
                        "the tie rule" if e.plays else "see the plays (--no-marks left them out)"))
    if e.ties:
        lines.append("    the equilibrium depends on the tie rule (an indifferent seat's card changed the others' "
                     "points): " + "; ".join(f"trick {t} seat {s + 1} {card_symbol(x)}" for t, s, x in e.ties))
    else:
        lines.append("    no tie on the equilibrium line")
    if not e.plays:
        return lines
    n = rep.setup.variant.n_seats
    seats, winners = seats_of(rep.setup, rep.reading.cards)
    lines.append("  Play (each for himself: every seat's points after the card, all playing for themselves "
                 "afterwards; ? the player's own points fell, ~ a tie: its points kept, the others' changed):")
    by_trick = {}
    for p in e.plays:
        by_trick.setdefault(p.trick, []).append(p)
    for t, ps in by_trick.items():
        k = (t - 1) * n
        shown = [card_symbol(x) for x in rep.reading.cards[k:k + n]]
        for p in ps:
            shown[p.index - k] += "?" if p.departed else "~" if p.change != (0,) * n else ""
        lines.append("    " + trick_line(t, seats[k] + 1, shown, winners[t - 1] + 1 if t - 1 < len(winners) else None))
        for p in ps:
            best = "/".join(card_symbol(x) for x in p.best_cards)
            if p.departed:
                lines.append(f"          {card_symbol(p.card)}? seat {p.seat}: {vector_text(p.vector)}, best {best} "
                             f"{vector_text(p.best)}: loses {p.loss}; {_changes(p)}")
            elif p.change != (0,) * n:
                lines.append(f"          {card_symbol(p.card)}~ seat {p.seat}: {vector_text(p.vector)}, the "
                             f"{e.tie_break} rule's card {vector_text(p.best)}: its own points kept; {_changes(p)}")
    return lines


def to_dict(rep: RecordReport, max_completions: int = 20) -> dict:
    rec, setup = rep.rec, rep.setup
    n = setup.variant.n_seats
    out = {
        "source": rec.source, "line": rec.line, "variant": setup.variant.id, "contract": setup.contract.name,
        "trump": _trump(rep), "leader": setup.leader + 1,
        "bought": ({"buyer": setup.bought.buyer + 1, "seller": setup.bought.seller + 1, "tricks": setup.bought.tricks}
                   if setup.bought else None),
        "status": _status(rep), "legal": rep.legal, "seed": rep.seed,
        "warnings": [{"line": w.line, "col": w.col, "message": w.message} for w in rec.warnings],
        "notes": list(rep.notes),
    }
    if not rep.readings:
        f = rep.failure
        out["illegal" if not f.undecided else "undecided"] = {"trick": f.trick, "seat": f.seat, "token": f.text,
                                                               "reason": f.reason}
        return out
    if rep.illegal is not None:
        e = rep.illegal
        out["illegal"] = {"trick": e.trick, "seat": e.seat, "token": card_str(e.card) if e.card is not None else None,
                          "reason": e.reason, "message": str(e)}
        return out
    seats, winners = seats_of(setup, rep.reading.cards)
    out["finished"] = rep.finished
    tricks = []
    for t in range(0, len(rep.reading.cards), n):
        cards = rep.reading.cards[t:t + n]
        tricks.append({"number": t // n + 1, "leader": seats[t] + 1, "cards": [card_str(x) for x in cards],
                       "winner": winners[t // n] + 1 if t // n < len(winners) else None})
    out["tricks"] = tricks
    choices = slot_choices(rep)
    out["inference"] = {
        "readings": len(rep.readings), "kept": len(rep.kept), "truncated": rep.truncated,
        "unsure": [{"trick": sl.trick + 1, "seat": seats[sl.index] + 1, "text": sl.token.text, "kind": sl.token.kind,
                    "cards": {card_str(x): k for x, k in tally.items()},
                    "share": {card_str(x): round(w, 4) for x, w in slot_deal_shares(rep, sl).items()}}
                   for sl, tally in choices],
        "completions": ([[card_str(r.cards[sl.index]) for sl, _ in choices] for r in rep.kept[:max_completions]]
                        if choices else []),
    }
    out["layouts"] = {
        "count": rep.layouts_total, "matching_claims": rep.n_matching if rep.claims else None,
        "layout": str(rep.layout) if rep.layout is not None else None,
        "certain": {str(s + 1): [card_str(x) for x in cards_of(rep.certain[s])] for s in range(n)},
        "possible": {str(s + 1): [card_str(x) for x in cards_of(rep.possible[s])] for s in range(n)},
        "certain_from": rep.certain_from,
        "claims_sampled": rep.claims_sampled, "claims_checked": rep.claims_checked,
        "claim_limit": rep.claim_limit, "interrupted": rep.interrupted,
    }
    out["score"] = {"tricks": rep.raw_score["tricks"], "points": rep.raw_score["points"]}
    if rep.finished and setup.bought:
        out["settled"] = rep.score
    out["claims"] = []
    for c in rep.claims:
        item = {"claim": c.target.claim.text, "unit": c.target.unit, "from": c.target.start + 1, "status": c.status,
                "layouts": c.layouts, "holding": c.holding, "truncated": c.truncated,
                "sampled": c.sampled, "deals": c.deals,
                "share": None if c.share is None else round(c.share, 6),
                "se": None if c.se is None else round(c.se, 6)}
        if c.values:
            item["values"] = {str(k): v for k, v in c.values.items()}
        for key, ex in (("fails_in", c.example_fail), ("holds_in", c.example_hold)):
            if ex and c.layouts > 1:
                item[key] = {"layout": str(ex["layout"]), "values": {str(k): v for k, v in ex["values"].items()}}
        if c.example_fail and c.layouts == 1:
            item["values"] = {str(k): v for k, v in c.example_fail["values"].items()}
        out["claims"].append(item)
    out["plays"] = [{"trick": m.trick, "seat": m.seat, "card": card_str(m.card), "value": m.value, "best": m.best,
                     "best_cards": [card_str(x) for x in m.best_cards], "loss": m.loss, "loss_max": m.loss_max,
                     "layouts": m.layouts, "mark": m.mark,
                     **({"single_dummy": _single(m.single)} if m.single is not None else {})} for m in rep.marks]
    out["marks_over"] = {"deals": rep.analysed_layouts, "of": rep.marks_of, "sampled": rep.marks_sampled,
                         "agreeing_with_claims": rep.marks_from_claims}
    out["model"] = rep.model
    if rep.each is not None:
        out["each"] = each_dict(rep.each)
    return out


def each_dict(e) -> dict:
    """The each-for-himself part of a record's JSON (``verify --model each``)."""
    if not e.solved:
        return {"tie_break": e.tie_break, "solved": False, "reason": e.reason}
    return {
        "tie_break": e.tie_break, "solved": True, "from_trick": e.start + 1, "note": e.start_note,
        "equilibrium": list(e.equilibrium), "total": e.total, "book": list(e.book),
        "book_continued_from": None if e.book_continued is None else e.book_continued + 1,
        "equal": e.equal, "tie": bool(e.ties),
        "ties": [{"trick": t, "seat": s + 1, "card": card_str(x)} for t, s, x in e.ties],
        "line": [card_str(x) for x in e.line],
        "plays": [{"trick": p.trick, "seat": p.seat, "card": card_str(p.card), "vector": list(p.vector),
                   "best": list(p.best), "best_cards": [card_str(x) for x in p.best_cards], "loss": p.loss,
                   "departed": p.departed, "change": list(p.change), "tie": p.tie} for p in e.plays],
    }


def _single(sd) -> dict:
    return {"value": round(sd.value, 6), "best": round(sd.best, 6), "best_cards": [card_str(x) for x in sd.best_cards],
            "loss": round(sd.loss, 6), "loss_se": _rounded(sd.loss_se), "p_played_better": _rounded(sd.p_played_better),
            "samples": sd.samples, "deals": sd.deals, "mark": sd.mark}


def _rounded(x: float):
    # NaN (one deal: no spread) is JSON null
    return None if math.isnan(x) else round(x, 6)


def to_json(rep: RecordReport, max_completions: int = 20) -> str:
    return json.dumps(to_dict(rep, max_completions), ensure_ascii=False)


EACH_CSV_FIELDS = (["source", "line", "variant", "contract", "trump", "tie_break", "status", "reason", "from_trick"]
                   + [f"equilibrium_seat{k}" for k in range(1, 5)] + ["total"]
                   + [f"book_seat{k}" for k in range(1, 5)] + ["book_continued_from", "equal", "tie",
                                                               "trick", "seat", "card", "departed", "loss"]
                   + [f"seat{k}" for k in range(1, 5)] + ["best_cards"] + [f"best_seat{k}" for k in range(1, 5)]
                   + ["play_tie"])


def each_csv_header() -> str:
    return _csv_line(EACH_CSV_FIELDS)


def _csv_line(row) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(row)
    return buf.getvalue().rstrip("\n")


def _four(v) -> list:
    return (list(v) if v is not None else []) + [""] * (4 - (len(v) if v is not None else 0))


def each_csv_rows(rep: RecordReport) -> str:
    """``verify --model each -F csv``: a row a play analysed (the record's
    fields repeated on each), or one row for a record with no plays."""
    setup, e = rep.setup, rep.each
    yn = lambda b: "" if b is None else "yes" if b else "no"  # noqa: E731
    head = [rep.rec.source, rep.rec.line, setup.variant.id, setup.contract.name, _trump(rep) or "",
            e.tie_break if e is not None else "", _status(rep)]
    if e is None or not e.solved:
        reason = e.reason if e is not None else "the play cannot be replayed (see the text report)"
        return _csv_line(head + [reason] + [""] * (len(EACH_CSV_FIELDS) - len(head) - 1))
    rec_part = head + ["", e.start + 1, *_four(e.equilibrium), e.total, *_four(e.book),
                       "" if e.book_continued is None else e.book_continued + 1, yn(e.equal), yn(bool(e.ties))]
    if not e.plays:
        return _csv_line(rec_part + [""] * (len(EACH_CSV_FIELDS) - len(rec_part)))
    return "\n".join(_csv_line(rec_part + [p.trick, p.seat, card_str(p.card), yn(p.departed), p.loss,
                                           *_four(p.vector), " ".join(card_str(x) for x in p.best_cards),
                                           *_four(p.best), yn(p.tie)])
                     for p in e.plays)
