import itertools
import sys

import click

from ..cards import parse_cards
from ..errors import KingsolveError, SearchInterrupted
from ..layout import Layout, parse_seat, parse_side
from ..reporting import solve as report
from ..solver import solver_for, solver_lanes, solve as solve_layout
from .progress import SolveProgress
from .common import (TT_SIZE_BYTES, InputError, TextFile, contract_options, default_jobs, output_options,
                     progress_option, show_progress, time_limit_option, tt_size_default, variant_options)


def _layouts(layout, file, variant, contract, leader):
    """(where, layout, variant, contract, leader) for each layout to solve: the
    LAYOUT given, each line of a layout file, or each record of a .kdn file
    (its tags standing in for the options not given)."""
    if file is not None and layout:
        raise InputError("give a LAYOUT or -f FILE, not both")
    if file is None and not layout:
        raise InputError("no layout: give LAYOUT or -f FILE")
    if file is not None and str(file.name).endswith(".kdn"):
        from ..kdn import parse_kdn
        from ..records import holds_a_deal, record_deal
        records = [r for r in parse_kdn(file.read(), source=file.name) if holds_a_deal(r)]
        if not records:
            raise InputError(f"{file.name}: no KDN record")
        for rec in records:
            d = record_deal(rec, variant, contract and contract.text, contract and contract.trump, leader)
            yield f"{rec.source}:{rec.line}", d.layout, d.variant, d.contract, d.leader
        return
    if variant is None or contract is None:
        raise InputError("give --variant and --contract (only a .kdn file's records carry their own)")
    contract = contract.of(variant)
    if file is None:
        lines = [(None, layout)]
    else:
        lines = [(f"{file.name}:{k}", s) for k, line in enumerate(file.read().splitlines(), 1)
                 if (s := line.split("#", 1)[0].strip())]
        if not lines:
            raise InputError(f"{file.name}: no layout in the file")
    for where, text in lines:
        try:
            lay = Layout.from_str(text)
            lead = parse_seat(leader, variant.n_seats) if leader else lay.first
        except KingsolveError as err:
            raise InputError(f"{where}: {err}" if where else str(err)) from err
        yield where, lay, variant, contract, lead


@click.command()
@click.argument("layout", nargs=-1)
@click.option("-f", "--file", type=TextFile(),
              help="Layouts, one per line, or a .kdn file of records (each takes its [Variant], [Contract], [Trump], "
                   "[Leader] and [Layout] when the options are not given); - for stdin.")
@variant_options(required=False)
@contract_options(required=False)
@click.option("--leader", "-l", default=None, metavar="SEAT",
              help="Seat on lead (default: a KDN record's [Leader], else the layout's first seat).")
@click.option("--player", "-p", default=None, metavar="SEAT", help="Solve for this seat only.")
@click.option("--side", "-s", default=None, metavar="SEAT,SEAT", help="Solve for this coalition of seats.")
@click.option("--trick", default=None, metavar="CARDS",
              help="Cards already on the table in the current trick, from the leader on (mid-trick position).")
@click.option("--cards", "show_cards", is_flag=True, help="The value of every legal card of the seat to move.")
@click.option("--line", "show_line", is_flag=True, help="An optimal line of play.")
@click.option("--tt-size", default=None, type=click.IntRange(10, 28),
              help=f"Transposition table size: {TT_SIZE_BYTES} (default: {tt_size_default(True)}; a size given is "
                   "fixed).")
@click.option("--jobs", "-j", type=click.IntRange(0), default=1, show_default=True,
              help="Solve this many seats at once, in threads, each with its own table (0: every core). "
                   "Same results for any value.")
@click.option("--model", type=click.Choice(["coalition", "each"]), default="coalition", show_default=True,
              help="coalition: each seat (or the side) against all the others together, its guarantee; "
                   "each: every seat plays for its own score, one row of points adding up to the deal's "
                   "(see docs/each.md).")
@click.option("--tie-break", type=click.Choice(["neutral", "pessimistic"]), default="neutral", show_default=True,
              help="--model each: what a seat indifferent between cards that change the others' points "
                   "plays: neutral its lowest card, pessimistic the one that holds down the best-placed "
                   "other seat.")
@time_limit_option("seat (its value, card values and line)")
@progress_option
@output_options
def solve(layout, file, variant, contract, leader, player, side, trick, show_cards, show_line, tt_size, jobs,
          model, tie_break, time_limit, progress, fmt):
    """Double-dummy values of a layout under a contract.

    LAYOUT is FIRST:HAND HAND HAND [HAND], hands clockwise from seat FIRST in
    dotted PBN order (♠.♥.♦.♣), e.g. 1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K.
    Values are signed score-sheet points from this position on, each seat (or
    the side) against all the others.  Each seat's line is printed as soon
    as it is known, in seat order (JSON: each layout's object when it is
    whole)."""
    layout = " ".join(layout)  # the hands may come quoted as one argument or unquoted as several
    if player and side:
        raise InputError("give --player or --side, not both")
    jobs_of = _layouts(layout, file, variant, contract, leader)
    where, lay, variant, contract, lead = next(jobs_of)    # the first layout's errors before any work
    first = where                                           # the text says what a value is above it
    n = variant.n_seats
    sides = None
    if player:
        sides = [1 << parse_seat(player, n)]
    elif side:
        sides = [parse_side(side, n)]
    try:
        table = parse_cards(trick) if trick else ()
    except KingsolveError as err:
        raise InputError(f"--trick: {err}") from err
    if model == "each":
        if player or side:
            raise InputError("--model each gives every seat's points: --player and --side do not apply")
        if time_limit is not None:
            raise InputError("--time-limit bounds --model coalition's searches; --model each has no interval to give")
        from .each import solve_each_layouts
        solve_each_layouts(itertools.chain([(where, lay, variant, contract, lead)], jobs_of), table=table,
                           tie_break=tie_break, show_cards=show_cards, show_line=show_line, tt_size=tt_size, fmt=fmt)
        return
    if jobs == 0:
        jobs = default_jobs()
    if sides is not None:
        jobs = 1                       # one side: nothing to share out
    if jobs > 1:
        solver = solver_lanes(variant.hand_size, jobs, tt_log2=tt_size)
    else:
        solver = solver_for(variant.hand_size, tt_size)
    if fmt == "csv":
        click.echo(report.csv_header())
    for where, lay, variant, contract, lead in itertools.chain([(where, lay, variant, contract, lead)], jobs_of):
        shown = []                     # the results printed so far
        bar = None
        explain = where is None or where == first
        try:
            if show_progress(progress):
                bar = SolveProgress(len(sides) if sides else n, file=sys.stderr)
            res = solve_layout(lay, contract, leader=lead, trick=table, sides=sides,
                               cards=show_cards, line=show_line, solver=solver, jobs=jobs,
                               time_limit=time_limit, on_start=bar.started if bar else None,
                               on_result=lambda res, r: _emit(res, fmt, r, shown, bar, explain))
        except KingsolveError as err:
            raise InputError(f"{where}: {err}" if where else str(err)) from err
        except SearchInterrupted as err:
            # Ctrl-C: the seats this layout had finished are printed as
            # usual, and what the search had proven of the next one is said
            if bar is not None:
                bar.close()
                bar = None
            done = err.finished.results if err.finished is not None else []
            if fmt == "json" and done:
                click.echo(report.to_json(err.finished))
            for r in done:
                if fmt != "json" and r not in shown:
                    _emit(err.finished, fmt, r, shown, explain=explain)
            said = "; ".join(", ".join(x for x in (report.side_label(e.side) if e.side is not None else "",
                                                   str(e)) if x)
                             for e in [err] + err.also)
            click.echo("interrupted: " + ", ".join(x for x in (where, said) if x), err=True)
            raise click.exceptions.Exit(130) from None
        finally:
            if bar is not None:
                bar.close()
        if fmt == "json":
            click.echo(report.to_json(res))


def _emit(res, fmt: str, r, shown: list, bar=None, explain: bool = False) -> None:
    # One side's result `r` of `res`, as soon as it is known: its text lines
    # (the head line before the first, and what a value is when `explain`) or
    # CSV row; JSON waits for the whole layout.  `shown`: the results of `res`
    # printed so far.
    if fmt == "json":
        shown.append(r)
        if bar is not None:
            bar.finished(r.side)
        return
    if fmt == "csv":
        text = report.to_csv_rows(res, [r])
    else:
        text = "\n".join(([] if shown else [report.text_head(res)] + ([report.value_note(res)] if explain else []))
                         + [report.side_text(res, r)])
    shown.append(r)
    if bar is not None:
        bar.finished(r.side)
        bar.echo(text)
    else:
        click.echo(text)
