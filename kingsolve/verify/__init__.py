"""Verify annotated deals (``kingsolve verify``): inference, replay, claims, marks.

A card book prints a deal as a talon, a line per trick and prose.  For one
KDN record (:mod:`kingsolve.kdn`) this package answers what a reader wants to
know (перевірка розіграшу):

* **Set-up** — the record's tags read as rules (variant, contract, leader, a
  bought game's debt): :func:`kingsolve.records.setup_record`.
* **Inference** (:mod:`.inference`) — lost suits (a bare rank), unreadable
  and garbled cards are filled in by a constraint search over the play: each
  card exists once, in the variant's deck and not in its talon (прикуп); a
  seat that did not follow suit is void in it from then on; the contract's
  lead rules (no heart lead while holding another suit in no-hearts) and
  forced discards hold.  Each consistent assignment is a *reading*.  The
  hands are then reconstructed: the cards never seen (a record that stops
  early) are dealt over the seats in every way consistent with those
  constraints — each is a *layout*.  The book's claim, when given, is an
  optional further constraint: if it rules out some readings, the others are
  kept and the report says so.
* **Replay** — each reading is replayed by the reference engine
  (:func:`kingsolve.engine.replay`, whose ``check_play`` is the authority on
  legality) and scored; a bought trump game settles the buyer's debt of N
  tricks to the seller (хваленка, куплена за N хабарів).
* **Claims** (:mod:`.claims`, the deals from :mod:`.sampling`) — a finished
  record's score is compared with the claim; for an unfinished one the claim
  must hold, double-dummy, in every layout: each claimed seat's value (that
  seat against the others, from where the record stops) plus what it already
  took must equal the claim.  When the readings allow more deals than the
  limit (``--claim-layouts``), a uniform random sample of them is checked
  (:mod:`kingsolve.knowledge`, seeded and reported) and the share where the
  claim holds is given with its standard error.  A layout where it fails is
  shown.
* **Holdings** — the cards a seat held in every deal (and the cards it may
  have held) are exact: from the constraints of the play, or from every deal
  agreeing with the claims when every deal was checked; never from a sample.
* **Marks** (:mod:`.analysis`) — every play gets the double-dummy value, for
  the seat that played, of the card played against its best card (position
  before the play, side = that seat), over every deal of the reading shown or
  a uniform sample of them.  ``?`` marks a play that loses points, ``??`` one
  that loses the most it could: its value is the worst of all its legal cards
  (and some card was better).
* **Each for himself** (:mod:`.each`, ``--model each``) — the book's result
  against the outcome when every seat plays for its own points, and the
  plays that departed from it.

The report model is :mod:`.report`; the solvers one verification uses,
:mod:`.solvers`.  :func:`verify_record` below is the driver, one named step
a stage.  Seats are 0-based inside, 1-based in reports.
"""
from __future__ import annotations

from ..cards import count
from ..engine import Position, replay
from ..errors import IllegalPlayError, InvalidRulesError, KingsolveError, ParseError
from ..kdn import Record
from ..records import Bought, Setup, parse_bought, setup_record
from ..reference import TIE_BREAKS
from ..reporting.text import plural
from ..seeds import fresh_seed
from .analysis import (SD_DEALS, SD_MARK_CONFIDENCE, analyse_plays, seats_of, single_dummy_marks, slot_choices,
                       slot_deal_shares)
from .claims import ClaimTarget, claim_target, claim_values, printed_result, settle
from .each import EachCheck, EachPlay, each_check
from .inference import MAX_NODES, MAX_READINGS, Failure, Reading, Slot, build_slots, cut_position, full_layout, infer
from .report import ClaimCheck, PlayMark, RecordReport, SingleDummy
from .sampling import CLAIM_STREAM, MARK_STREAM, MAX_CLAIM_LAYOUTS, claim_deals, default_claim_layouts
from .solvers import Solvers

__all__ = [
    "Bought", "Setup", "parse_bought", "setup_record",
    "Slot", "Reading", "Failure", "build_slots", "infer", "full_layout", "cut_position", "MAX_READINGS", "MAX_NODES",
    "ClaimTarget", "claim_target", "printed_result", "settle", "claim_values", "Solvers",
    "PlayMark", "SingleDummy", "ClaimCheck", "RecordReport", "EachCheck", "EachPlay", "each_check", "MODELS",
    "CLAIM_STREAM", "MARK_STREAM", "MAX_CLAIM_LAYOUTS", "default_claim_layouts",
    "SD_MARK_CONFIDENCE", "SD_DEALS", "single_dummy_marks", "analyse_plays", "seats_of", "slot_choices",
    "slot_deal_shares",
    "DEFAULT_MAX_COMPLETIONS", "DEFAULT_ANALYSIS_LAYOUTS", "MAX_COUNTED", "verify_record",
]

DEFAULT_MAX_COMPLETIONS = 20
MAX_COUNTED = 2_000         # readings whose deals are counted
DEFAULT_ANALYSIS_LAYOUTS = 12
MODELS = ("coalition", "each")


def verify_record(rec: Record, variant=None, *, max_completions: int = DEFAULT_MAX_COMPLETIONS,
                  solver=None, analysis_layouts: int = DEFAULT_ANALYSIS_LAYOUTS, marks: bool = True,
                  claim_layouts: int | None = None, proof: bool = False, seed: int | None = None,
                  single_dummy: int = 0, model: str = "coalition", tie_break: str = "neutral",
                  progress=None) -> RecordReport:
    """Verify one record (see the package docstring).  ParseError when the
    record cannot be played at all (a missing tag, too many cards, a bad claim).

    ``claim_layouts``: deals checked against the claims, over all readings
    (default :func:`default_claim_layouts`); when the record allows more, a
    uniform random sample of that many, drawn with ``seed`` (default: a fresh
    one, reported); the marks' deals likewise.  ``proof``: a claim that holds
    in only some of the possible deals counts as failed.  ``solver``: a
    :class:`~kingsolve.solver.Solver` to use (default: one of the size
    :func:`~kingsolve.solver.solver_for` gives).  Ctrl-C while the claims are
    checked keeps the deals finished (``interrupted``).

    ``model``: ``"coalition"`` marks each play by its seat's value against
    all the others; ``"each"`` sets the record against every seat playing for
    itself (``rep.each``, :func:`kingsolve.verify.each.each_check`, the tie
    rule ``tie_break``; ``marks`` then says whether every play is graded).

    ``progress(stage, done, total)``, if given, is told how far the long
    stages are ("claims": the deals checked; "marks": the searches of the
    double-dummy marks; "single-dummy": the plays graded): a king52 record's
    searches can take minutes."""
    if model not in MODELS:
        raise InvalidRulesError(f"model {model!r} is not one of {', '.join(MODELS)}")
    if tie_break not in TIE_BREAKS:
        raise InvalidRulesError(f"tie-break {tie_break!r} is not one of {', '.join(TIE_BREAKS)}")
    if single_dummy and model == "each":
        raise InvalidRulesError("single-dummy marks grade a seat's value against the others (--model coalition), "
                                "not the each-for-himself outcome")
    setup = setup_record(rec, variant)
    rep = RecordReport(rec, setup, notes=list(setup.notes), proof=proof, model=model)
    rep.seed = fresh_seed() if seed is None else int(seed)
    if single_dummy and not marks:
        raise InvalidRulesError("single-dummy marks go with the double-dummy marks (drop --no-marks)")
    if claim_layouts is not None and claim_layouts < 1:
        raise InvalidRulesError(f"--claim-layouts {claim_layouts}: check at least one deal")
    targets = _read_record(rec, setup, rep)
    readings, truncated, failure = infer(setup, rep.slots, rec.layout)
    rep.readings, rep.truncated, rep.failure = readings, truncated, failure
    if not readings:
        return rep
    _check_claims_after_cut(rec, setup, readings, targets)
    solvers = Solvers(setup.size, solver)
    weights = _count_deals(rep, readings, targets, claim_layouts)
    per = _check_claims(rep, setup, readings, weights, targets, solvers, progress) if targets else {}
    use_match = _keep_readings(rep, readings, weights, targets, per)
    _holdings(rep, setup, per, use_match)
    extra0 = _shown_deal(rep, use_match)
    if not _replay(rep, setup, extra0):
        return rep
    if model == "each":
        rep.each = each_check(rep, setup, tie_break, plays=marks)
    elif marks:
        _mark_plays(rep, setup, solvers, analysis_layouts, use_match, progress)
    if single_dummy:
        _single_dummy(rep, setup, single_dummy, progress)
    return rep


def _read_record(rec: Record, setup: Setup, rep: RecordReport) -> list:
    """The card slots of the play (into ``rep``), the [Layout] checked, and
    each [Claim] made exact: the claims' targets (ParseError for a bad one)."""
    slots, shape_notes = build_slots(rec, setup)
    rep.notes.extend(shape_notes)
    rep.slots = slots
    if rec.layout is not None:
        try:
            rec.layout.check(setup.variant)
        except KingsolveError as err:
            line, col = rec.tag_lines.get("Layout", (rec.line, None))
            raise ParseError(f"[Layout]: {err}", file=rec.source, line=line, col=col) from err
    targets = []
    for cl in rec.claims:
        try:
            targets.append(claim_target(setup, cl))
        except KingsolveError as err:
            raise ParseError(f"[Claim]: {err}", file=rec.source, line=cl.line or rec.line, col=cl.col or None,
                             token=cl.text) from err
    return targets


def _check_claims_after_cut(rec: Record, setup: Setup, readings: list, targets: list) -> None:
    """ParseError for a claim about tricks after the one the record stops in."""
    cut = readings[0].position.trick_index        # the trick the record stops in (0-based)
    for t in targets:
        if cut < setup.size and t.start > cut:
            cl = t.claim
            raise ParseError(f"[Claim {cl.text!r}]: the record stops in trick {cut + 1}; a claim about the "
                             f"tricks from {t.start + 1} on cannot be told apart from the tricks before it",
                             file=rec.source, line=cl.line or rec.line, col=cl.col or None, token=cl.text)


def _count_deals(rep: RecordReport, readings: list, targets: list, claim_layouts: int | None) -> list:
    """The deals each reading allows, counted exactly (the first
    :data:`MAX_COUNTED` readings; the others weigh 0), and how many deals the
    claims are checked on (into ``rep``)."""
    weights = [r.n_layouts if k < MAX_COUNTED else 0 for k, r in enumerate(readings)]
    if len(readings) > MAX_COUNTED:
        rep.notes.append(f"deals counted for the first {MAX_COUNTED} of {len(readings)} readings; "
                         f"the others are set aside")
    total = sum(weights)
    at_cut = count(readings[0].unseen) + len(readings[0].position.trick)
    limit = claim_layouts if claim_layouts is not None else default_claim_layouts(at_cut)
    rep.claim_limit, rep.claim_deals = limit, total
    rep.claims_sampled = bool(targets) and total > limit
    return weights


def _check_claims(rep: RecordReport, setup: Setup, readings: list, weights: list, targets: list,
                  solvers: Solvers, progress=None) -> dict:
    """Every claim on every deal (or the sample): {reading index: [its
    ClaimChecks, the deals where every claim holds, how many, the union and
    the intersection per seat of the cards held in those deals]}."""
    n = setup.variant.n_seats
    per = {}
    checked = 0
    total = min(rep.claim_deals, rep.claim_limit)
    if progress:
        progress("claims", 0, total)
    try:
        for k, extra in claim_deals(readings, weights, rep.claim_deals, rep.claim_limit, rep.seed):
            r = readings[k]
            if k not in per:
                per[k] = [[ClaimCheck(t) for t in targets], [], 0, [0] * n, [-1] * n]
            rc, match, n_match, union, inter = per[k]
            all_hold = True
            cache = {}
            for c in rc:
                vals = claim_values(setup, r, c.target, extra, solvers, cache,
                                    stop_on_mismatch=c.example_fail is not None and checked > 0)
                shown = {s + 1: v for s, v in vals.items()}
                c.layouts += 1
                if all(vals.get(s) == want for s, want in c.target.seats.items()):
                    c.holding += 1
                    if c.example_hold is None:
                        c.example_hold = {"layout": full_layout(r, extra), "values": shown}
                else:
                    all_hold = False
                    if c.example_fail is None:
                        c.example_fail = {"layout": full_layout(r, extra), "values": shown}
                if c.layouts == 1:
                    c.values = shown   # kept only when this is the one layout (see _keep_readings)
            if all_hold:
                per[k][2] += 1
                match.append(extra)
                for s in range(n):
                    union[s] |= r.played[s] | extra[s]
                    inter[s] &= r.played[s] | extra[s]
            checked += 1
            if progress:
                progress("claims", checked, total)
    except KeyboardInterrupt:
        rep.interrupted = True
    rep.claims_checked = checked
    if rep.interrupted:
        rep.notes.append(f"interrupted: the claims were checked on the {plural(checked, 'deal')} finished")
    return per


def _keep_readings(rep: RecordReport, readings: list, weights: list, targets: list, per: dict) -> bool:
    """The readings kept (those with a deal agreeing with the claims, when
    any), the claims' totals over them, each reading's weight and the reading
    shown (into ``rep``).  True when the deals agreeing with the claims are
    the ones that count (some agree)."""
    checks = [ClaimCheck(t, sampled=rep.claims_sampled, deals=rep.claim_deals,
                         truncated=rep.claims_sampled or rep.interrupted) for t in targets]
    matched = {k for k, x in per.items() if x[2]}
    if targets and matched:
        kept_idx = sorted(matched)
        ruled = len(readings) - len(kept_idx)
        if ruled:
            rep.notes.append(f"the claims rule out {ruled} of {len(readings)} readings of the play" if not
                             (rep.claims_sampled or rep.interrupted) else
                             f"no deal of {ruled} of the {len(readings)} readings agreed with the claims in the "
                             f"deals checked: those readings are set aside")
    else:
        kept_idx = list(range(len(readings)))
    rep.kept = [readings[k] for k in kept_idx]
    rep.layouts_total = sum(weights[k] for k in kept_idx)
    # A sample's share is over every deal drawn (it estimates the share of all the deals);
    # every deal checked, the shares are over the readings kept.
    for k in (sorted(per) if rep.claims_sampled else kept_idx):
        if k not in per:
            continue
        rc, match, n_match, _, _ = per[k]
        for tot, c in zip(checks, rc):
            tot.layouts += c.layouts
            tot.holding += c.holding
            tot.example_fail = tot.example_fail or c.example_fail
            tot.example_hold = tot.example_hold or c.example_hold
            if tot.values is None:
                tot.values = c.values
        if k in kept_idx:
            rep.n_matching += n_match
            rep.matching.extend((readings[k], e) for e in match)
    for tot in checks:
        if tot.layouts != 1:
            tot.values = {}
    rep.claims = checks
    # Each reading weighs the deals it allows (those agreeing with the claims, when any
    # do); the reading shown is the heaviest: the likeliest if every deal is equally likely.
    use_match = bool(targets) and rep.n_matching > 0
    rep.weights = {id(readings[k]): (per[k][2] if use_match and k in per else 0 if use_match else weights[k])
                   for k in kept_idx}
    rep.reading = max(rep.kept, key=lambda r: rep.weights[id(r)])
    return use_match


def _holdings(rep: RecordReport, setup: Setup, per: dict, use_match: bool) -> None:
    """What each seat held (into ``rep``): over every deal agreeing with the
    claims when every deal was checked and some agree; else over every deal
    the play allows, from the constraints (exact: never from a sample)."""
    n = setup.variant.n_seats
    certain, possible = [-1] * n, [0] * n
    if use_match and not (rep.claims_sampled or rep.interrupted):
        rep.certain_from = "claims"
        for x in per.values():   # the readings with such deals are the ones kept
            if x[2]:
                for s in range(n):
                    certain[s] &= x[4][s]
                    possible[s] |= x[3][s]
    else:
        for r in rep.kept:
            kc, kp = r.knowledge.certain(), r.knowledge.possible()
            for s in range(n):
                certain[s] &= r.played[s] | kc[s]
                possible[s] |= r.played[s] | kp[s]
    rep.certain = [certain[s] & setup.deck for s in range(n)]
    rep.possible = [possible[s] & ~rep.certain[s] for s in range(n)]


def _shown_deal(rep: RecordReport, use_match: bool) -> tuple:
    """The unseen cards' shares of the deal shown: the only layout the play
    and the claims allow (then also ``rep.layout``), else the first."""
    if use_match:
        r0, extra0 = next((r, e) for r, e in rep.matching if r is rep.reading)
        if rep.n_matching == 1 and not any(c.truncated for c in rep.claims):
            rep.layout = full_layout(r0, extra0)
    else:
        extra0 = next(rep.reading.knowledge.deals())
        if rep.layouts_total == 1:
            rep.layout = full_layout(rep.reading, extra0)
    return extra0


def _replay(rep: RecordReport, setup: Setup, extra0: tuple) -> bool:
    """Replay the reading shown by the engine (the authority on legality) and
    score it, a finished deal's debt settled (into ``rep``); False when a play
    is illegal (``rep.illegal``: the inference missed a rule — reported, never hidden)."""
    shown_layout = full_layout(rep.reading, extra0)
    try:
        rp = replay(setup.rules, Position(shown_layout.hands, setup.leader), list(rep.reading.cards))
    except IllegalPlayError as err:
        rep.illegal = err
        return False
    rep.raw_score = {"points": list(rp.points), "tricks": list(rp.tricks)}
    pts, trs = settle(setup, rp.points, rp.tricks) if rep.finished else (list(rp.points), list(rp.tricks))
    rep.score = {"points": pts, "tricks": trs}
    return True


def _mark_plays(rep: RecordReport, setup: Setup, solvers: Solvers, analysis_layouts: int, use_match: bool,
                progress=None) -> None:
    """The double-dummy marks of the reading shown, over its deals (those
    agreeing with the claims, if any)."""
    pool = [e for r, e in rep.matching if r is rep.reading] if use_match else None
    marks_out = analyse_plays(setup, rep.reading, solvers.main, analysis_layouts, pool, rep.seed, progress)
    rep.marks, rep.analysed_layouts, rep.marks_of, rep.marks_sampled, rep.marks_deals = marks_out
    rep.marks_from_claims = pool is not None


def _single_dummy(rep: RecordReport, setup: Setup, samples: int, progress=None) -> None:
    """The single-dummy marks: from the deal itself, or (the player's hand
    not known) over a few of the marks' deals, his hand from each."""
    if setup.end_position:
        rep.notes.append("single-dummy marks need the whole deal from its first trick (this [Layout] is an "
                         "end position)")
        return
    if rep.layout is not None:
        deals = [rep.layout.hands]
    else:
        deals = [full_layout(rep.reading, e).hands for e in rep.marks_deals[:SD_DEALS]]
    rep.single_samples, rep.single_deals = samples, len(deals)
    single_dummy_marks(setup, rep.reading.cards, deals, rep.marks, samples, rep.seed, progress)
