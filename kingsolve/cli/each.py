"""``solve --model each`` and ``table --model each``: every seat's points when each plays for itself."""
from __future__ import annotations

import sys

import click

from ..each import EachSolver, each_table, solve_each
from ..errors import KingsolveError
from ..reporting import each as report
from .common import InputError, show_progress


def solve_each_layouts(layouts, *, table, tie_break, show_cards, show_line, tt_size, fmt) -> None:
    """Solve each (where, layout, variant, contract, leader) of ``layouts`` in the
    each-for-himself model and print it as it is done."""
    solver = EachSolver(tt_size or 18)
    if fmt == "csv":
        click.echo(report.csv_header())
    for where, lay, variant, contract, lead in layouts:
        try:
            res = solve_each(lay, contract, leader=lead, trick=table, tie_break=tie_break, cards=show_cards,
                             solver=solver)
        except KingsolveError as err:
            raise InputError(f"{where}: {err}" if where else str(err)) from err
        if fmt == "json":
            click.echo(report.to_json(res, show_line))
        elif fmt == "csv":
            click.echo(report.to_csv_rows(res, show_line))
        else:
            click.echo(report.to_text(res, show_line))


def each_table_command(layout, contracts, *, leader, tie_break, tt_size, progress, fmt) -> None:
    """``table --model each``: every contract's row of points for one layout."""
    bar = None
    if show_progress(progress):
        from tqdm import tqdm
        bar = tqdm(total=len(contracts), unit="contract", file=sys.stderr)
    try:
        result = each_table(layout, contracts, leader=leader, tie_break=tie_break, solver=EachSolver(tt_size or 18),
                            progress=(bar.update if bar is not None else None))
    finally:
        if bar is not None:
            bar.close()
    click.echo({"json": report.table_to_json, "csv": report.table_to_csv}.get(fmt, report.table_to_text)(result))
