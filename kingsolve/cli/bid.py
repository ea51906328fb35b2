import click

from ..bid import ROLES, analyse
from ..layout import parse_hand
from ..reporting import bid as report
from ..reporting.text import plural
from .common import (PLOT_PATH, TT_SIZE_BYTES, InputError, default_jobs, known_option, output_options, progress_option,
                     run_sampled, run_time_limit_option, seat_option, tt_size_default, variant_options)


@click.command()
@variant_options
@click.option("--hand", "-H", required=True, metavar="CARDS",
              help="The seat's cards, with suit markers ('♠KQ ♥AQJ10 ♦AJ7 ♣10') or dotted PBN (KQ.AQJT.AJ7.T). "
                   "A seller gives his first three cards (which game to name?) or his whole hand "
                   "(with --seller-trump: accept, play or write two?).")
@click.option("--seat", "-s", default=None, metavar="SEAT",
              help="The deciding seat (default: the seat after the seller; the seller himself with --role seller).")
@click.option("--role", "-r", type=click.Choice(ROLES), default=None,
              help="buyer: how many tricks to offer for the seller's game (ru4, ua3, ru3; default); "
                   "seller: which game to name (three cards), then accept an offer, play or write two tricks "
                   "each (whole hand); bidder: king52 auction, the best +N / -N bid (default in king52).")
@click.option("--seller", default=None, metavar="SEAT",
              help="The first hand, who names the trump and may sell (the dealer in king52).  "
                   "Default: seat 1 (with --role seller: --seat, if given).")
@click.option("--seller-trump", default=None, metavar="GAME",
              help="The game the seller named: S H D C misere (king52: S H D C NT minus-S … minus-NT).  "
                   "The seller with his whole hand must give it; the buyer and the bidder defend it when not "
                   "buying (default: one answer per game the seller could have named).")
@click.option("--games", default=None, metavar="GAME,GAME",
              help="Consider only these games, for every seat (the buyer's choice too); default: every game of the "
                   "variant.  Each game costs a double-dummy solve per deal.")
@click.option("--buyer", default=None, metavar="SEAT",
              help="--role seller: the seat that makes the offer (default: the seat after the seller).")
@click.option("--offer", type=click.IntRange(0), default=None, metavar="N",
              help="--role seller with --seller-trump: the tricks offered for the game; accept or refuse?")
@click.option("--known", multiple=True, metavar="SEAT:CARDS",
              help="Cards known to be in another hand (talon:CARDS for ru3's hidden talon); repeatable.")
@click.option("--samples", "-n", type=click.IntRange(1), default=1000, show_default=True,
              help="Deals to simulate (sample i is the same for any count: a larger run extends a smaller one).")
@click.option("--seed", type=click.IntRange(0), default=None,
              help="Random seed (default: a fresh one, printed with the result).")
@click.option("--jobs", "-j", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes, each with its own solver; 0 = every core.  Results never depend on it.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on an existing Dask cluster (tcp://host:8786) instead of --jobs; needs the 'cluster' "
                   "extra.  Results are the same.")
@click.option("--plot", "plot_path", type=PLOT_PATH, default=None, metavar="FILE.png",
              help="Also draw the trick distribution of every game to FILE.png.")
@click.option("--tt-size", default=None, type=click.IntRange(10, 28),
              help=f"Transposition table size per solver: {TT_SIZE_BYTES} (default: as solve sizes one table — "
                   f"{tt_size_default(False)}; a size given is fixed).")
@run_time_limit_option
@output_options
@progress_option
def bid(variant, hand, seat, role, seller, seller_trump, games, buyer, offer, known, samples, seed, jobs, scheduler,
        plot_path, tt_size, time_limit, fmt, progress):
    """Monte Carlo + double-dummy advice for a sold trump game (хваленки) or
    the king52 auction, each decision at the moment the game asks it.

    The cards the seat cannot see are dealt at random SAMPLES times (consistent
    with --hand and --known), every deal is solved double dummy for every game
    the seat could name, and the distribution is reported: mean tricks ± standard
    error, P(tricks ≥ k), expected points, and the answer with how sure it is:
    which game to name (seller, three cards); accept / play / write two tricks
    and the least offer worth accepting (seller, whole hand); the most tricks
    worth offering per seller's game (buyer); the best +N / -N bid (king52).
    Every report prints its seed and sample count and the model (each seat
    double dummy, alone against the others); the same seed gives the same
    result for any --jobs.

    Example: kingsolve bid -V ua3 --hand "97.KQJ.AKT9.K" --seat 3 --seller-trump C"""
    n = variant.n_seats
    hand_mask = parse_hand(hand, where="--hand")
    seller_seat = seat_option(seller, n, "--seller") if seller is not None else None
    seat_k = seat_option(seat, n, "--seat") if seat is not None else None
    buyer_k = seat_option(buyer, n, "--buyer") if buyer is not None else None
    known_pairs = known_option(known, n)
    if scheduler and jobs != 1:
        raise InputError("give --jobs or --scheduler, not both (the cluster decides its own workers)")
    workers = default_jobs() if jobs == 0 else jobs
    run_sampled(lambda update: analyse(
                    variant, hand_mask, seat=seat_k, role=role, seller=seller_seat, buyer=buyer_k, known=known_pairs,
                    offer=offer, seller_trump=seller_trump,
                    games=[g for g in games.split(',') if g.strip()] if games else None, samples=samples, seed=seed,
                    jobs=workers, progress=update, tt_log2=tt_size, scheduler=scheduler, time_limit=time_limit),
                samples=samples, progress=progress, report=report, fmt=fmt, plot_path=plot_path,
                interrupted=lambda r: (f"interrupted: the first {r.samples} of {plural(r.requested, 'sample')} "
                                       f"finished (--samples {r.samples} --seed {r.seed} gives the same)"))

