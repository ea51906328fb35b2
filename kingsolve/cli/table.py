import sys

import click

from ..errors import SearchInterrupted
from ..layout import Layout, parse_seat
from ..reporting import table as report
from ..reporting.text import plural
from ..reference import ReferenceSolver
from ..table import make_table, parse_contracts
from .common import (PLOT_PATH, TT_SIZE_BYTES, InputError, default_jobs, emit, output_options, progress_option,
                     show_progress, time_limit_option, tt_size_default, variant_options)


@click.command()
@click.argument("layout", nargs=-1, required=True)
@variant_options
@click.option("--leader", "-l", default=None, metavar="SEAT", help="Seat on lead (default: the layout's first seat).")
@click.option("--contracts", "-C", "contracts", default=None, metavar="LIST",
              help="Only these contracts, comma-separated (trump games as trump:H; a bare trump game means every trump).")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", type=PLOT_PATH,
              help="Also draw the grid as a heatmap.")
@click.option("--tt-size", default=None, type=click.IntRange(10, 28),
              help=f"Transposition table size: {TT_SIZE_BYTES} (default: {tt_size_default(True)}; a size given is "
                   "fixed).")
@click.option("--jobs", "-j", type=click.IntRange(0), default=1, show_default=True,
              help="Solve this many cells at once, in threads (0: every core). Same table for any value.")
@click.option("--reference", "use_reference", is_flag=True,
              help="Use the pure-Python reference solver (small end positions only; slow).")
@click.option("--model", type=click.Choice(["coalition", "each"]), default="coalition", show_default=True,
              help="coalition: each seat against all the others together; each: every seat plays for its own "
                   "score, a row of points adding up to the contract's (see docs/each.md).")
@click.option("--tie-break", type=click.Choice(["neutral", "pessimistic"]), default="neutral", show_default=True,
              help="--model each: what a seat indifferent between cards that change the others' points plays.")
@time_limit_option("cell (one seat in one contract)")
@progress_option
@output_options
def table(layout, variant, leader, contracts, plot_path, tt_size, jobs, use_reference, model, tie_break, time_limit,
          progress, fmt):
    """Every contract (and every trump) × every seat for one layout.

    LAYOUT is FIRST:HAND HAND HAND [HAND] (dotted PBN, clockwise from seat
    FIRST).  Each value is the signed points that seat takes alone from the
    layout on, best play against all the others together."""
    lay = Layout.from_str(" ".join(layout))  # quoted as one argument or unquoted as several
    lay.check(variant)
    lead = parse_seat(leader, variant.n_seats) if leader else lay.first
    chosen = parse_contracts(variant, contracts)
    if model == "each":
        if plot_path or use_reference or time_limit is not None:
            raise InputError("--model each: --plot, --reference and --time-limit do not apply")
        from .each import each_table_command
        each_table_command(lay, chosen, leader=lead, tie_break=tie_break, tt_size=tt_size, progress=progress,
                           fmt=fmt)
        return
    if jobs == 0:
        jobs = default_jobs()
    solver = None
    if use_reference:
        solver, jobs = ReferenceSolver(), 1
    bar = None
    if show_progress(progress):
        from tqdm import tqdm
        bar = tqdm(total=len(chosen) * variant.n_seats, unit="cell", file=sys.stderr)
        bar.refresh()                  # at once, not with the first cell
    try:
        result = make_table(lay, variant, leader=lead, contracts=chosen, solver=solver, jobs=jobs,
                            tt_log2=tt_size, progress=(bar.update if bar is not None else None),
                            time_limit=time_limit)
    except SearchInterrupted as err:
        # Ctrl-C: the rows finished are printed as usual
        if bar is not None:
            bar.close()
            bar = None
        done = err.finished.rows if err.finished is not None else []
        if done:
            emit(report, err.finished, fmt)
        click.echo(f"interrupted: {len(done)} of {plural(len(chosen), 'row')} finished", err=True)
        raise click.exceptions.Exit(130) from None
    finally:
        if bar is not None:
            bar.close()
    if plot_path:
        report.plot(result, plot_path)
    emit(report, result, fmt)
