"""Analysis of the plays: double-dummy marks (? / ??), single-dummy marks,
and what the readings say about each unsure card."""
from __future__ import annotations

import numpy as np

from ..cards import rank_of, suit_of
from ..engine import Position, play as play_card, trick_winner
from ..knowledge import rng_for
from ..records import Setup
from .inference import Reading, full_layout
from .report import PlayMark, RecordReport, SingleDummy
from .sampling import MARK_STREAM
from .solvers import deal_at


SD_MARK_CONFIDENCE = 0.95
SD_DEALS = 3
"""Deals of an unfinished record (the first of the marks' deals) whose hands the
single-dummy marks are taken over, when the record does not fix the deal."""


def single_dummy_marks(setup: Setup, cards, deals: list, marks: list, samples: int, seed: int,
                       progress=None) -> None:
    """Fill each mark's :class:`SingleDummy` (``marks[i]`` is play ``i``): the
    seat's view before the play, holding its hand of each deal in ``deals``
    (the deal itself, or a few the record allows), ``samples`` deals of what
    it could not see, every legal card valued on each (the same seed for
    every play).  Over several deals, the values and the paired differences
    of all their samples are pooled (as many from each deal).
    ``progress("single-dummy", done, total)`` after each of them."""
    from ..advise import paired_p_better, play_advice, standard_error
    v = setup.variant
    seats, _ = seats_of(setup, cards)
    if progress:
        progress("single-dummy", 0, len(cards) * len(deals))
    for i, c in enumerate(cards):
        seat = seats[i]
        mine, top, bests, best_cards = [], [], [], []
        for hands in deals:
            a = play_advice(v, setup.contract, seat, hands[seat], leader=setup.leader, played=list(cards[:i]),
                            samples=samples, seed=seed)
            col = {x: j for j, x in enumerate(a.options)}
            means = a.values.mean(axis=0)
            best = float(means.max())
            these = [x for x in a.options if means[col[x]] == best]
            if c not in these:   # the cards it lost to
                best_cards += [x for x in these if x not in best_cards]
            bests.append(best)
            mine.append(a.values[:, col[c]])
            top.append(a.values[:, col[c if c in these else these[0]]])
            if progress:
                progress("single-dummy", i * len(deals) + len(mine), len(cards) * len(deals))
        mine, top = np.concatenate(mine), np.concatenate(top)
        d = (top - mine).astype(float)
        # one deal in all: no spread, so no standard error and no chance (NaN): never a mark
        se = standard_error(d)
        loss = float(d.mean())
        p = 1.0 if loss == 0 else paired_p_better(top, mine)
        sd = SingleDummy(float(mine.mean()), float(np.mean(bests)), tuple(best_cards) or (c,), loss, se, p, samples,
                         deals=len(deals))
        if sd.loss > 0 and p < 1 - SD_MARK_CONFIDENCE:
            sd.mark = "?"
        marks[i].single = sd


def analyse_plays(setup: Setup, reading: Reading, solver, max_layouts: int, pool=None, seed: int = 0,
                  progress=None):
    """Marks for every play of ``reading`` over up to ``max_layouts`` of its
    deals: all of them when there are no more, else a uniform random sample
    (stream :data:`MARK_STREAM` of ``seed``) — of ``pool`` (the deals
    agreeing with the claims) if given, else of every deal the reading allows.
    A play's loss is the least over the deals analysed, so a mark means it
    lost in every one; ``??`` when it was the worst card in each;
    ``progress("marks", done, total)`` after each search.  Returns (marks,
    deals analysed, deals they were drawn from, sampled, those deals)."""
    n = setup.variant.n_seats
    know = reading.knowledge
    of = len(pool) if pool is not None else know.count
    sampled = of > max_layouts
    if pool is not None:
        if sampled:
            pick = rng_for(seed, MARK_STREAM).choice(len(pool), size=max_layouts, replace=False)
            layouts = [pool[i] for i in sorted(int(i) for i in pick)]
        else:
            layouts = list(pool)
    elif sampled:
        layouts = [know.sample(seed, i, (MARK_STREAM,)) for i in range(max_layouts)]
    else:
        layouts = list(know.deals())
    runs = []
    if progress:
        progress("marks", 0, len(layouts) * len(reading.cards))
    for extra in layouts:
        pos = Position(full_layout(reading, extra).hands, setup.leader)
        marks = []
        for i, c in enumerate(reading.cards):
            seat = pos.to_move
            vals = solver.card_values(deal_at(setup, pos), 1 << seat)
            v = vals[c]
            best, worst = max(vals.values()), min(vals.values())
            bc = tuple(x for x in sorted(vals, key=lambda x: (suit_of(x), -rank_of(x))) if vals[x] == best)
            marks.append(PlayMark(i, pos.trick_index + 1, seat + 1, c, v, best, worst, bc, best - v, best - v))
            pos = play_card(setup.rules, pos, c).position
            if progress:
                progress("marks", len(runs) * len(reading.cards) + i + 1, len(layouts) * len(reading.cards))
        runs.append(marks)
    per_play = []
    for i in range(len(runs[0]) if runs else 0):
        alts = [run[i] for run in runs]
        m = min(alts, key=lambda x: x.loss)
        m.loss_max = max(x.loss for x in alts)
        m.layouts = len(alts)
        if m.loss > 0:
            m.mark = "??" if all(x.value == x.worst for x in alts) else "?"
        per_play.append(m)
    return per_play, len(layouts), of, sampled, layouts


def seats_of(setup: Setup, cards) -> tuple[list, list]:
    """The seat (0-based) of each printed card and the winner of each completed trick."""
    n = setup.variant.n_seats
    seats, winners = [], []
    leader = setup.leader
    for t in range(0, len(cards), n):
        trick = list(cards[t:t + n])
        seats.extend((leader + k) % n for k in range(len(trick)))
        if len(trick) == n:
            leader = trick_winner(setup.rules, leader, trick)
            winners.append(leader)
    return seats, winners


def slot_choices(rep: RecordReport) -> list:
    """For each ambiguous slot: {card: number of kept readings that read it so},
    the most frequent first (by the deals those readings stand for, then by count)."""
    out = []
    for sl in rep.slots:
        if not sl.ambiguous:
            continue
        tally, deals = {}, {}
        for r in rep.kept:
            x = r.cards[sl.index]
            tally[x] = tally.get(x, 0) + 1
            deals[x] = deals.get(x, 0) + rep.weights.get(id(r), 0)
        out.append((sl, dict(sorted(tally.items(), key=lambda kv: (-deals[kv[0]], -kv[1], kv[0])))))
    return out


def slot_deal_shares(rep: RecordReport, sl) -> dict:
    """{card: share of the deals (of the kept readings) in which ``sl`` is that card}."""
    deals = {}
    for r in rep.kept:
        x = r.cards[sl.index]
        deals[x] = deals.get(x, 0) + rep.weights.get(id(r), 0)
    total = sum(deals.values()) or 1
    return {x: w / total for x, w in deals.items()}
