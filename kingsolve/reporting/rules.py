"""``kingsolve rules``: a variant's contracts, prices, totals and options."""
from __future__ import annotations

import json

from ..cards import SUIT_LETTERS, card_symbol, cards_of, count
from ..variants import KING_OF_HEARTS, OPTION_HELP, Variant


def _restrictions(contract) -> list[str]:
    out = []
    lr, df = contract.lead_restricted, contract.discard_forced
    if lr:
        if count(lr) == 1:
            out.append(f"{card_symbol(lr.bit_length() - 1)} may not be led unless it is the last card")
        else:
            out.append("no heart lead while holding another suit")
    if df:
        if count(df) == 1:
            out.append(f"a player void in the led suit must discard the {card_symbol(df.bit_length() - 1)}")
        else:
            out.append("a player void in the led suit must trump")
    return out


def _pricing(contract) -> str:
    parts = []
    if contract.per_trick:
        parts.append(f"{contract.per_trick:+d} a trick")
    if contract.last_two:
        parts.append(f"{contract.last_two:+d} for each of the last two tricks")
    groups = {}
    for c in cards_of(contract.variant.deck):
        p = contract.card_points[c]
        if p:
            groups.setdefault(p, []).append(c)
    for p, cs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        if len(cs) > 4:
            suits = {c >> 4 for c in cs}
            if len(suits) == 1:
                label = "each " + "♠♥♦♣"[suits.pop()]
            else:
                label = "each of " + " ".join(card_symbol(c) for c in cs)
        else:
            label = " ".join(card_symbol(c) for c in cs)
        parts.append(f"{p:+d} {label}")
    if contract.seat_base:
        parts.insert(0, f"{contract.seat_base} to each player")
    return ", ".join(parts)


def _contracts(variant: Variant):
    for name in variant.contracts:
        trumps = variant.trump_choices(name)
        contract = variant.contract(name, trumps[0])
        yield name, trumps, contract


def _all_restrictions(variant: Variant, trumps, contract) -> list[str]:
    """The restrictions of ``contract`` as listed (its first trump choice), plus
    must-trump when that choice is no trump but a suit may be named."""
    out = _restrictions(contract)
    if variant.options.must_trump and contract.trump is None and any(t is not None for t in trumps):
        out.append("with a suit trump, a player void in the led suit must trump")
    return out


def _applies(variant: Variant, key: str) -> bool:
    """Whether option ``key`` means anything for ``variant`` (boys only with a no-boys
    deal, erajlash-forced-king only with an erajlash)."""
    needs = {"boys": "no-boys", "erajlash-forced-king": "erajlash"}.get(key)
    return needs is None or needs in variant.contracts


def rules_json(variant: Variant) -> str:
    o = variant.options
    data = {
        "variant": variant.id,
        "description": variant.description,
        "seats": variant.n_seats,
        "hand_size": variant.hand_size,
        "deck": count(variant.deck),
        "talon": [SUIT_LETTERS[c >> 4] + "23456789TJQKA"[(c & 15)] for c in cards_of(variant.talon)],
        "hidden_talon": variant.hidden_talon,
        "options": {
            "boys": o.boys, "must-trump": o.must_trump, "forced-king": o.forced_king,
            "erajlash-forced-king": o.erajlash_forced_king, "king-lead": o.king_lead,
            "king-points": o.king_points, "talon": o.talon, "auction-pay": o.auction_pay,
        },
        "contracts": [
            {
                "name": name,
                "description": contract.description,
                "trumps": ["NT" if t is None else SUIT_LETTERS[t] for t in trumps],
                "total": contract.total,
                "per_trick": contract.per_trick,
                "last_two": contract.last_two,
                "seat_base": contract.seat_base,
                "cards": {SUIT_LETTERS[c >> 4] + "23456789TJQKA"[(c & 15)]: contract.card_points[c]
                          for c in cards_of(variant.deck) if contract.card_points[c]},
                "restrictions": _all_restrictions(variant, trumps, contract),
            }
            for name, trumps, contract in _contracts(variant)
        ],
    }
    return json.dumps(data, ensure_ascii=False)


def rules_text(variant: Variant) -> str:
    lines = [f"{variant.id}: {variant.description}"]
    talon = " ".join(card_symbol(c) for c in cards_of(variant.talon))
    if talon:
        lines.append(f"talon (прикуп, out of play): {talon}")
    if variant.hidden_talon:
        lines.append(f"talon: {variant.hidden_talon} cards face down, unknown (points on them are not scored)")
    lines.append("")
    width = max(len(n) for n in variant.contracts)
    for name, trumps, contract in _contracts(variant):
        tr = ""
        if name in ("trump", "misere", "minus", "tricks"):
            tr = "  trump " + "|".join("NT" if t is None else SUIT_LETTERS[t] for t in trumps)
        lines.append(f"{name:<{width}}  total {contract.total:+5d}  {_pricing(contract)}{tr}")
        if contract.inverted:
            low = "2" if variant.low_rank == 2 else "7"
            lines.append(f"{'':<{width}}  ranks inverted (мизер): the ace is the lowest card, the {low} the highest; "
                         f"no trump unless one is named")
        for r in _all_restrictions(variant, trumps, contract):
            lines.append(f"{'':<{width}}  {r}")
    lines.append("")
    lines.append("options (-o KEY=VALUE):")
    o = variant.options
    current = {"boys": o.boys, "must-trump": o.must_trump, "forced-king": o.forced_king,
               "erajlash-forced-king": o.erajlash_forced_king, "king-lead": o.king_lead,
               "king-points": o.king_points, "talon": o.talon, "auction-pay": o.auction_pay}
    for key, text in OPTION_HELP.items():
        val = current[key]
        if val is None or not _applies(variant, key):
            continue
        shown = ("on" if val else "off") if isinstance(val, bool) else str(val)
        lines.append(f"  {key} = {shown}   ({text})")
    return "\n".join(lines)
