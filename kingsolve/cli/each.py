"""``solve --model each``: every seat's points when each plays for itself."""
from __future__ import annotations

import click

from ..each import EachSolver, solve_each
from ..errors import KingsolveError
from ..layout import Layout, parse_seat
from ..reporting import each as report
from .common import InputError


def solve_each_layouts(layouts, contract, *, leader, table, tie_break, show_cards, show_line, tt_size,
                       fmt) -> None:
    """Solve each (where, text, record leader) of ``layouts`` in the each-for-himself
    model and print it as it is done."""
    n = contract.variant.n_seats
    solver = EachSolver(tt_size or 18)
    if fmt == "csv":
        click.echo(report.csv_header())
    for where, text, record_leader in layouts:
        try:
            lay = Layout.from_str(text)
            lead = parse_seat(leader or record_leader, n) if (leader or record_leader) else lay.first
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
