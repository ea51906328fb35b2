"""kingsolve: double-dummy solver and analysis toolkit for King (Кинг / Кінг,
"ladies' preference").

>>> from kingsolve import get_variant, Layout, solve
>>> contract = get_variant("ua3").contract("no-hearts")
>>> layout = Layout.from_str("1:J8.T87.J87.Q7 KQT.A9.Q.JT98 97.KQJ.AKT9.K")
"""
from .cards import card_str, card_symbol, parse_card
from .errors import (
    IllegalPlayError, InvalidCardError, InvalidLayoutError, InvalidRulesError, KingsolveError, ParseError,
)
from .layout import Layout, parse_seat, parse_side
from .variants import Contract, Variant, get_variant

__version__ = "0.1.0"


def __getattr__(name):
    # The solver needs the compiled core; import it lazily so that the pure
    # Python parts (rules, layouts, the reference engine) work without it.
    if name in ("solve", "Solver", "Deal"):
        from . import solver
        return getattr(solver, name)
    raise AttributeError(name)


__all__ = [
    "Contract", "Deal", "IllegalPlayError", "InvalidCardError", "InvalidLayoutError", "InvalidRulesError",
    "KingsolveError", "Layout", "ParseError", "Solver", "Variant", "card_str", "card_symbol", "get_variant",
    "parse_card", "parse_seat", "parse_side", "solve",
]
