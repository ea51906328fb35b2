"""The report model of a verification: one :class:`RecordReport` a record,
with its :class:`ClaimCheck` per claim and :class:`PlayMark` per play
(formatted by :mod:`kingsolve.reporting.verify`)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import IllegalPlayError
from ..kdn import Record
from ..layout import Layout
from ..records import Setup
from .claims import ClaimTarget
from .inference import Failure, Reading


@dataclass
class PlayMark:
    """The double-dummy verdict on one play, for the seat that played it."""
    index: int
    trick: int           # 1-based
    seat: int            # 1-based
    card: int
    value: int           # the value of the card played (seat's points from that position on)
    best: int            # the value of its best card
    worst: int           # the value of its worst legal card
    best_cards: tuple    # the cards reaching ``best``
    loss: int            # best - value (the least over the layouts analysed)
    loss_max: int = 0    # the most over the layouts analysed
    layouts: int = 1     # layouts analysed
    mark: str = ""       # "", "?" or "??"
    single: "SingleDummy | None" = None   # the verdict from what the player could see (--single-dummy)


@dataclass
class SingleDummy:
    """The single-dummy verdict on one play: what its player could see then
    (his hand, the talon, the tricks so far), the unseen cards dealt at
    random (:func:`kingsolve.advise.play_advice`), each legal card's mean
    points over those deals."""
    value: float          # the mean of the card played
    best: float           # the highest mean
    best_cards: tuple     # the cards with the highest mean (over several deals: those the card played lost to)
    loss: float           # best - value
    loss_se: float        # its standard error (paired over the same deals; NaN from one deal)
    p_played_better: float  # the chance the card played is really at least as good as the best (NaN: one deal)
    samples: int            # deals of the unseen cards, for each deal below
    mark: str = ""        # "?" when the card played is worse with 95% confidence
    deals: int = 1        # the deals whose hand the player held (several when the record does not fix it)


@dataclass
class ClaimCheck:
    """One claim against the deals of the readings kept: every deal, or a
    uniform random sample of them (``sampled``) when there are more than the
    limit — ``deals`` is how many there are in all."""
    target: ClaimTarget
    layouts: int = 0          # layouts checked
    holding: int = 0          # layouts where it holds
    example_fail: dict | None = None   # {"layout": Layout, "values": {seat1: value}}
    example_hold: dict | None = None
    values: dict | None = None          # {seat1: value} when the same in every layout (a finished record)
    truncated: bool = False             # not every deal was checked (sampled, or interrupted)
    sampled: bool = False               # the deals checked are a uniform random sample
    deals: int = 0                      # deals the record allows (of the readings examined)

    @property
    def status(self) -> str:
        """``holds`` in every layout; ``possible`` in some (it does not follow
        from the printed play alone); ``fails`` in none; ``undecided`` when it
        held in none of those checked but not every layout was checked."""
        if self.layouts and self.holding == self.layouts and not self.truncated:
            return "holds"
        if self.holding:
            return "possible"
        return "undecided" if self.truncated else "fails"

    @property
    def share(self) -> float | None:
        """The share of the deals where the claim holds (of those checked)."""
        return self.holding / self.layouts if self.layouts else None

    @property
    def se(self) -> float | None:
        """The standard error of :attr:`share` when the deals are a sample (0 when every deal was checked)."""
        if not self.layouts:
            return None
        if not self.sampled:
            return 0.0
        p = self.share
        return math.sqrt(p * (1 - p) / self.layouts)


@dataclass
class RecordReport:
    rec: Record
    setup: Setup
    notes: list = field(default_factory=list)
    slots: list = field(default_factory=list)
    readings: list = field(default_factory=list)       # readings consistent with the play
    kept: list = field(default_factory=list)           # those kept (the claims rule the others out)
    truncated: bool = False
    failure: Failure | None = None
    illegal: IllegalPlayError | None = None
    claims: list = field(default_factory=list)         # ClaimCheck per [Claim]
    matching: list = field(default_factory=list)       # [(reading, extra)] where every claim holds
    n_matching: int = 0
    marks: list = field(default_factory=list)
    analysed_layouts: int = 0
    marks_of: int = 0                                  # deals of the reading the marks are over
    marks_sampled: bool = False                        # the marks' deals are a uniform random sample
    marks_from_claims: bool = False                    # ... of the reading's deals agreeing with the claims
    layouts_total: int = 0                             # layouts of the kept readings
    reading: Reading | None = None                     # the reading shown (unique, or the first)
    layout: Layout | None = None                       # the deal, when a single layout is consistent
    score: dict | None = None                          # finished: points/tricks after the debt
    raw_score: dict | None = None                      # before the debt
    certain: list = field(default_factory=list)        # per seat: cards it surely held (every deal kept)
    possible: list = field(default_factory=list)       # per seat: cards it may have held besides
    certain_from: str = "play"                         # "claims": over every deal agreeing with the claims
    weights: dict = field(default_factory=dict)        # id(reading) -> the deals it stands for
    proof: bool = False                                # a claim must hold in every possible deal
    seed: int | None = None                            # the seed of the samples (when any deal set is sampled)
    claim_limit: int = 0                               # deals checked against the claims at most
    claim_deals: int = 0                               # deals the readings allow, all told
    claims_sampled: bool = False
    claims_checked: int = 0                            # deals checked against the claims
    interrupted: bool = False                          # Ctrl-C: the claims were checked on the deals finished
    single_samples: int = 0                            # deals a play of the single-dummy marks (0: none)
    single_deals: int = 0                              # deals whose hands they are over (1: the deal is known)
    marks_deals: list = field(default_factory=list)    # the deals (unseen cards' shares) the marks are over
    model: str = "coalition"                           # the marks' model: "coalition" or "each" (for himself)
    each: object = None                                # EachCheck (kingsolve.verify.each) with model "each"

    @property
    def sampled(self) -> bool:
        return self.claims_sampled or self.marks_sampled

    @property
    def undecided(self) -> bool:
        """No legal reading was found, but the search gave up before ruling every one out."""
        return self.failure is not None and self.failure.undecided

    @property
    def legal(self) -> bool:
        return (self.failure is None or self.failure.undecided) and self.illegal is None

    @property
    def claims_ok(self) -> bool:
        bad = ("fails", "possible", "undecided") if self.proof else ("fails",)
        return all(c.status not in bad for c in self.claims)

    @property
    def ok(self) -> bool:
        return self.legal and self.claims_ok and not (self.proof and self.undecided)

    @property
    def finished(self) -> bool:
        r = self.reading
        return r is not None and r.unseen == 0 and not r.position.trick \
            and r.position.trick_index == self.setup.size
