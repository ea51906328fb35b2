"""The ``kingsolve`` command: a thin Click layer.

Commands parse and validate their options, call the library, and hand the
result to :mod:`kingsolve.reporting`.  Library errors (``KingsolveError``)
become one line on stderr and exit code 2; a verification that fails exits 1.
"""
from __future__ import annotations

import click

from .. import __version__

from .common import KingsolveGroup

# name -> "module:function" (each command lives in its own module)
COMMANDS = {
    "rules": "kingsolve.cli.rules:rules",
    "solve": "kingsolve.cli.solve:solve",
    "table": "kingsolve.cli.table:table",
    "verify": "kingsolve.cli.verify:verify",
    "bid": "kingsolve.cli.bid:bid",
    "stats": "kingsolve.cli.stats:stats",
    "score": "kingsolve.cli.score:score",
    "advise": "kingsolve.cli.advise:advise",
}


@click.group(cls=KingsolveGroup, lazy_commands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kingsolve")
def main():
    """Double-dummy solver and analysis toolkit for King (Кинг / Кінг).

    Solve layouts of every contract, verify annotated textbook deals, estimate
    bids for trump games, advise on a play or on the deal type to order from
    what a seat can see, and check score sheets."""

