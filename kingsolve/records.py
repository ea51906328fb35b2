"""A KDN record as a deal to solve (``kingsolve solve -f FILE.kdn``).

The record's tags say what to solve — ``[Variant]`` (with ``[Options]``),
``[Contract]`` and ``[Trump]``, ``[Leader]`` (a bought game: the buyer) — and
its ``[Layout]`` the hands; options given on the command line take their
place.  A record without a ``[Layout]`` gets the deal ``kingsolve verify``
reconstructs from its play and claims, when that deal is the only one.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import ParseError
from .kdn import Record
from .layout import Layout, parse_seat
from .reporting.text import plural
from .variants import Contract, Variant


@dataclass(frozen=True)
class RecordDeal:
    """What to solve for one record (``leader`` 0-based)."""
    variant: Variant
    contract: Contract
    layout: Layout
    leader: int


def holds_a_deal(rec: Record) -> bool:
    """False for a block of comments only (no tag but [Play], no trick)."""
    return bool(rec.tricks) or any(k != "Play" for k in rec.tags)


def record_deal(rec: Record, variant: Variant | None = None, contract: str | None = None,
                trump: str | None = None, leader: str | None = None) -> RecordDeal:
    """The deal of ``rec`` to solve.  ``variant``, ``contract`` (as written:
    ``no-king``, ``trump:H``), ``trump`` and ``leader`` (a seat as written),
    when given, replace the record's tags.  ParseError (naming the record)
    when a needed tag is missing or the deal cannot be told from the record."""
    from .verify import setup_record
    tags = dict(rec.tags)
    if contract is not None:
        tags["Contract"] = contract
        tags.pop("Trump", None)
        if trump is not None:
            tags["Trump"] = trump
    setup = setup_record(replace(rec, tags=tags), variant)
    v = setup.variant
    layout = rec.layout if rec.layout is not None else rebuild_layout(rec, v)
    lead = parse_seat(leader, v.n_seats) if leader is not None else setup.leader
    return RecordDeal(v, setup.contract, layout, lead)


def rebuild_layout(rec: Record, variant: Variant | None = None) -> Layout:
    """The deal as ``kingsolve verify`` reconstructs it from the record's play
    and claims; ParseError unless exactly one deal fits."""
    from .verify import verify_record
    if not rec.tricks:
        raise ParseError("the record has no [Layout] and no play to rebuild it from", file=rec.source,
                         line=rec.line)
    rep = verify_record(rec, variant, marks=False)
    if not rep.readings:
        f = rep.failure
        raise ParseError(f"the record has no [Layout], and its play cannot be read: trick {f.trick}, "
                         f"{f.text!r}: {f.reason}", file=rec.source, line=rec.line)
    if rep.illegal is not None:
        raise ParseError(f"the record has no [Layout], and its play is illegal: {rep.illegal}",
                         file=rec.source, line=rec.line)
    if rep.layout is None:
        fits = f"{plural(rep.layouts_total, 'deal')} fit its play"
        if rep.claims and rep.n_matching:
            fits += f" ({rep.n_matching} of those checked agree with its claims)"
        raise ParseError(f"the record has no [Layout] and {fits}: give the deal as [Layout] or LAYOUT "
                         f"(`kingsolve verify {rec.source}` shows what the play tells)",
                         file=rec.source, line=rec.line)
    return rep.layout
