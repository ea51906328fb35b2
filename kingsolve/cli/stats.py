import sys

import click

from ..reporting import stats as report
from ..seeds import fresh_seed
from ..stats import make_sink, make_spec, peek_seed, run_stats, summarise
from ..table import parse_contracts
from .common import (
    PLOT_PATH, TT_SIZE_BYTES, InputError, default_jobs, emit, output_options, progress_option, show_progress,
    tt_size_default, variant_options,
)
from .progress import TickingBar


@click.command()
@variant_options
@click.option("--contracts", "-C", "contracts", default=None, metavar="LIST",
              help="Contracts to solve, comma-separated (trump games as trump:H; a bare trump game means every "
                   "trump). Default: every contract of the variant but 'tricks' (the raw trick count, an exact "
                   "rescaling of the trump games and plus-tricks: name it to have it).")
@click.option("--deals", "-n", "n_deals", default=100, show_default=True, type=click.IntRange(1, None),
              help="Number of random deals.")
@click.option("--seed", default=None, type=click.IntRange(0, None),
              help="Seed of the run (deal k is the same for a seed whatever --jobs). Default: a random one, printed.")
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(0, 256),
              help="Worker processes on this machine (0: every core).")
@click.option("--out", "out", default=None, metavar="FILE.csv|FILE.parquet",
              help="Stream every row (deal × contract × seat) as it is computed: FILE.csv is one file; "
                   "FILE.parquet is a dataset DIRECTORY of part files, one per chunk (read it with "
                   "pandas.read_parquet(DIR)); needs pyarrow. Columns: see docs/stats.md.")
@click.option("--resume", is_flag=True, help="Continue the run in --out: solve only the deals it lacks.")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", type=PLOT_PATH,
              help="Box plots of every contract's values by seat position.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on an existing Dask cluster (tcp://host:8786); needs the 'cluster' extra.")
@click.option("--leader", "-l", default="1", show_default=True, metavar="SEAT|rotate",
              help="Seat on lead in every deal, or 'rotate' (deal k: seat k mod N + 1).")
@click.option("--hand-size", default=None, type=click.IntRange(1, None), metavar="K",
              help="Deal K cards a hand instead of the full hand (end positions; faster).")
@click.option("--chunk-size", default=None, type=click.IntRange(1, None), metavar="D",
              help="Deals per task and per write (default: one for 13-card hands, else up to 25, about 4 "
                   "tasks a job).")
@click.option("--tt-size", default=None, type=click.IntRange(10, 28),
              help=f"Transposition table size 2^N of each worker, fixed: {TT_SIZE_BYTES}. Default: as solve "
                   f"sizes one table ({tt_size_default(False)}).")
@progress_option
@output_options
def stats(variant, contracts, n_deals, seed, jobs, out, resume, plot_path, scheduler, leader, hand_size,
          chunk_size, tt_size, progress, fmt):
    """Double-dummy statistics over random deals.

    Every deal is solved for every contract and every seat: each value is one
    seat alone against all the others together, so the positions' means need
    not add up to a deal's total.  The report gives the mean (± its standard
    error) and the distribution per contract and seat position, how much being
    on lead is worth, and how often the holder of the ♥K can be forced to take
    it in no-King (with a 95% interval); figures from fewer than 30 deals are
    flagged.  The seed and the number of deals are printed with every report.
    See docs/stats.md."""
    if resume and not out:
        raise InputError("--resume needs --out FILE (the run to continue)")
    if scheduler and jobs != 1:
        raise InputError("give --jobs or --scheduler, not both (the cluster decides its own workers)")
    if out:
        make_sink(out)       # FILE.csv or FILE.parquet (with pyarrow): checked before any work
    if jobs == 0:
        jobs = default_jobs()
    if seed is None and resume:
        seed = peek_seed(out)
    if seed is None:
        seed = fresh_seed()
    chosen = parse_contracts(variant, contracts)
    if not contracts:
        chosen = [c for c in chosen if c.name != "tricks"]
    spec = make_spec(variant, _options(), chosen, seed=seed, hand_size=hand_size, leader=leader,
                     tt_log2=tt_size)
    from ..solver import long_deal
    if long_deal(spec.hand_size):
        searches = n_deals * spec.rows_per_deal
        click.echo(f"warning: {variant.id} with {spec.hand_size} cards a hand: every deal × contract × seat is a "
                   f"full double-dummy search, from seconds to many minutes each (the penalty contracts the "
                   f"longest): {searches:,} searches here. --hand-size 8 studies end positions in a fraction "
                   f"of the time; -C picks fewer contracts.", err=True)
    bar = TickingBar(n_deals, sys.stderr) if show_progress(progress) else None
    try:
        run = run_stats(spec, n_deals, jobs=jobs, out=out, resume=resume, scheduler=scheduler,
                        chunk_size=chunk_size, progress=(bar.update if bar is not None else None))
    finally:
        if bar is not None:
            bar.close()
    summary = summarise(run)
    if plot_path:
        report.plot(summary, plot_path)
    emit(report, summary, fmt)
    if run.interrupted:
        for line in report.notes(summary):
            if line.startswith("interrupted"):
                click.echo(line, err=True)
        raise SystemExit(130)


def _options():
    """The -o options as given (kept with the rows, checked on --resume)."""
    ctx = click.get_current_context()
    return tuple(ctx.params.get("options", ()) or ())
