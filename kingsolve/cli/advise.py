"""``kingsolve advise``: which card to play, or which deal type to order, from what a seat can see."""
from __future__ import annotations

import click

from ..advise import advise_record, order_advice, parse_at, play_advice
from ..cards import parse_cards
from ..errors import KingsolveError
from ..kdn import parse_kdn
from ..layout import parse_hand
from ..reporting import advise as report
from ..reporting.text import plural
from ..records import holds_a_deal, setup_record
from ..solver import long_deal
from ..variants import VARIANT_IDS, get_variant, parse_contract
from .common import (PLOT_PATH, InputError, default_jobs, known_option, output_options, progress_option, read_text, run_time_limit_option,
                     run_sampled, seat_option)


def _record(path: str):
    records = [r for r in parse_kdn(read_text(path), source=path) if holds_a_deal(r)]
    if not records:
        raise InputError(f"{path}: no KDN records")
    if len(records) > 1:
        raise InputError(f"{path}: {len(records)} records; advise reads one (give a file with one record)")
    return records[0]


@click.command()
@click.option("--variant", "-V", "variant_id", type=click.Choice(VARIANT_IDS), default=None,
              help="The table (with -f: default the record's [Variant]).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A variant option (see `kingsolve rules --variant V`); repeatable.")
@click.option("--contract", "-c", "contract_name", default=None, metavar="CONTRACT",
              help="The deal type being played (play advice), e.g. no-hearts, erajlash, trump.")
@click.option("--trump", "-t", default=None, metavar="S|H|D|C|NT", help="The trump of a trump game.")
@click.option("--seat", "-s", default=None, metavar="SEAT",
              help="The seat asking (play advice: the seat to move; --order: the seat ordering, who leads).")
@click.option("--hand", "-H", default=None, metavar="CARDS",
              help="The seat's whole hand as dealt ('♠KQ ♥AQJ10 ♦AJ7 ♣10' or KQ.AQJT.AJ7.T).")
@click.option("--leader", "-l", default="1", show_default=True, metavar="SEAT",
              help="The seat that led the first trick (play advice).")
@click.option("--played", default="", metavar="CARDS",
              help="Every card played so far, in order from the first lead ('♠A ♠7 ♠9 ♠8 ♥K …').")
@click.option("--known", multiple=True, metavar="SEAT:CARDS",
              help="Cards the seat has seen in another hand as dealt (talon:CARDS for ru3's hidden talon); "
                   "repeatable.")
@click.option("--file", "-f", "record_path", default=None, type=click.Path(dir_okay=False), metavar="RECORD.kdn",
              help="Advise at a point of a KDN record (with --at): its variant, contract, leader and play.")
@click.option("--at", default=None, metavar="TRICK[.CARD]",
              help="With -f: the decision before card CARD (default 1, the lead) of trick TRICK; the seat to "
                   "move there asks, holding its hand from the record's [Layout] or play (or --hand).")
@click.option("--order", is_flag=True,
              help="Order advice for the long ('ordered') King: the expected points of the hand in every deal "
                   "type the seat may still order, the seat leading.")
@click.option("--left", default=None, metavar="TYPE,TYPE",
              help="--order: the deal types the seat has not ordered yet (default: all 14).")
@click.option("--samples", "-n", type=click.IntRange(1), default=None,
              help="Deals to sample (default: 500 for a play, 200 for an order).")
@click.option("--seed", type=click.IntRange(0, 2 ** 32 - 1), default=None,
              help="Random seed (default: a fresh one, printed with the result).")
@click.option("--jobs", "-j", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes, each with its own solver; 0 = every core.  Results never depend on it.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Solve on an existing Dask cluster (tcp://host:8786) instead of local processes.")
@click.option("--plot", "plot_path", type=PLOT_PATH, default=None, metavar="FILE.png",
              help="Also draw each option's points over the sampled deals to FILE.png.")
@run_time_limit_option
@output_options
@progress_option
def advise(variant_id, options, contract_name, trump, seat, hand, leader, played, known, record_path, at, order, left,
           samples, seed, jobs, scheduler, plot_path, time_limit, fmt, progress):
    """What to play, or which deal to order, from what the seat can see.

    The cards the seat cannot see are dealt at random, uniformly among the
    deals consistent with its hand, the talon, the cards played and what the
    play showed (a seat that did not follow suit is void; a K♥ not discarded
    when it had to be is not held; a heart led under the heart-lead ban means
    the leader held only hearts).  Every deal is solved double dummy; for
    every legal card (or deal type, with --order) the report gives the mean
    points ± standard error, how often it is the best, its mean loss against
    each deal's best, and the recommendation with the chance that the
    runner-up is really better.  Its blind spot: each deal is solved as if
    the unseen cards were visible.

    \b
    Examples:
      kingsolve advise -V ru4 -c no-tricks -s 1 -H "♠AK7 ♥Q9 ♦J8 ♣7"
      kingsolve advise -V ua3 -c no-hearts -s 2 -H "…" --played "♠K ♠Q"
      kingsolve advise -f examples/3_bought_trump.kdn --at 4
      kingsolve advise --order -V ru4 -s 1 -H "♠AK7 ♥Q9 ♦J8 ♣7" --left no-king,plus-tricks"""
    if scheduler and jobs != 1:
        raise InputError("give --jobs or --scheduler, not both (the cluster decides its own workers)")
    try:
        variant = get_variant(variant_id, options) if variant_id else None
    except KingsolveError as err:
        raise InputError(str(err)) from err
    if options and not variant_id:
        raise InputError("--option needs --variant")
    workers = default_jobs() if jobs == 0 else jobs
    common = {"seed": seed, "jobs": workers, "scheduler": scheduler, "time_limit": time_limit}
    if order:
        for flag, val in (("--contract", contract_name), ("--trump", trump), ("--played", played),
                          ("-f", record_path), ("--at", at)):
            if val:
                raise InputError(f"--order takes no {flag}: the seat orders before the deal is played")
        if variant is None or seat is None or hand is None:
            raise InputError("--order needs --variant, --seat and --hand")
        n = variant.n_seats
        samples = samples or 200
        types = [t.strip() for t in left.split(",") if t.strip()] if left else None
        seat_k = seat_option(seat, n, "--seat")
        hand_mask = parse_hand(hand, where="--hand")
        known_pairs = known_option(known, n)
        run = lambda bar: order_advice(variant, seat_k, hand_mask, left=types, known=known_pairs,  # noqa: E731
                                       samples=samples, progress=bar, **common)
        trick = None          # (king52, the one variant of 13-card hands, has no order advice)
    elif record_path:
        if at is None:
            raise InputError("-f RECORD needs --at TRICK[.CARD]: the point of the record to advise at")
        for flag, val in (("--contract", contract_name), ("--trump", trump), ("--played", played),
                          ("--seat", seat), ("--left", left)):
            if val:
                raise InputError(f"-f takes no {flag}: the record gives it")
        rec = _record(record_path)
        samples = samples or 500
        hand_mask = parse_hand(hand, where="--hand") if hand else None
        n = (variant or _record_variant(rec)).n_seats
        known_pairs = known_option(known, n)
        run = lambda bar: advise_record(rec, at, variant=variant, hand=hand_mask, known=known_pairs,  # noqa: E731
                                        samples=samples, progress=bar, **common)
        trick = parse_at(at, n)[0]
    else:
        if at is not None:
            raise InputError("--at needs -f RECORD.kdn")
        if left:
            raise InputError("--left is for --order")
        if variant is None or contract_name is None or seat is None or hand is None:
            raise InputError("play advice needs --variant, --contract, --seat and --hand (or -f RECORD --at T)")
        n = variant.n_seats
        try:
            contract = parse_contract(variant, contract_name, trump)
        except KingsolveError as err:
            raise InputError(str(err)) from err
        samples = samples or 500
        seat_k = seat_option(seat, n, "--seat")
        lead_k = seat_option(leader, n, "--leader")
        hand_mask = parse_hand(hand, where="--hand")
        cards = parse_cards(played) if played.strip() else []
        known_pairs = known_option(known, n)
        run = lambda bar: play_advice(variant, contract, seat_k, hand_mask, leader=lead_k,  # noqa: E731
                                      played=cards, known=known_pairs, samples=samples, progress=bar, **common)
        trick = len(cards) // n
    _warn_if_long(variant or _record_variant(rec), trick, samples, time_limit)
    run_sampled(run, samples=samples, progress=progress, report=report, fmt=fmt, plot_path=plot_path,
                interrupted=lambda r: (f"interrupted: the first {r.samples} of {plural(r.requested, 'sample')} "
                                       f"finished (--samples {r.samples} --seed {r.seed} gives the same)"))


LONG_UNTIL_TRICK = 4
"""With 13-card hands, a decision before this trick warns of its cost."""


def _warn_if_long(variant, trick: int, samples: int, time_limit) -> None:
    # one line before a run of hours: 13-card hands early in the deal, no time limit
    if trick is not None and long_deal(variant.hand_size) and trick + 1 < LONG_UNTIL_TRICK and time_limit is None:
        click.echo(f"warning: {variant.id} with {variant.hand_size} cards a hand: every card of every sampled deal "
                   f"is a full double-dummy search, seconds a deal in a trump game, up to minutes early in a "
                   f"penalty deal ({samples:,} deals here); --time-limit SECONDS answers from the deals "
                   f"finished in time, -n fewer deals (docs/advise.md, Speed).", err=True)


def _record_variant(rec):
    return setup_record(rec).variant

