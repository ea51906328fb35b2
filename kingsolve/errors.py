"""Exceptions.  Every error kingsolve raises on bad input is a ``KingsolveError``
(a ``ValueError``) whose message says what was wrong and where, in one line.
A search stopped by Ctrl-C is a ``SearchInterrupted`` (a ``KeyboardInterrupt``)."""


class KingsolveError(ValueError):
    """Base class: bad input or an impossible request."""


class InvalidCardError(KingsolveError):
    """A token that is not a card, or a card outside the variant's deck."""


class InvalidLayoutError(KingsolveError):
    """A layout that cannot be read, or whose hands do not make a position."""


class InvalidRulesError(KingsolveError):
    """An unknown variant, contract, trump or option, or one the variant lacks."""


class IllegalPlayError(KingsolveError):
    """A play that breaks the rules: the card is not held, a revoke, a forbidden
    lead, the King of hearts withheld.  ``trick`` is 1-based, ``seat`` 1-based."""

    def __init__(self, message, *, trick=None, seat=None, card=None, reason=None):
        super().__init__(message)
        self.trick = trick
        self.seat = seat
        self.card = card
        self.reason = reason


class ParseError(KingsolveError):
    """A file that cannot be read: carries the file name, line and column."""

    def __init__(self, message, *, file=None, line=None, col=None, token=None):
        where = ":".join(str(p) for p in (file, line, col) if p is not None)
        super().__init__(f"{where}: {message}" if where else message)
        self.file = file
        self.line = line
        self.col = col
        self.token = token


class SearchInterrupted(KeyboardInterrupt):
    """A solve stopped (Ctrl-C, or :func:`~kingsolve.solver.abort_searches`)
    before it finished; not an input error.  ``low`` and ``high``: what had
    been proven of the value being searched (the side's points, the units of
    the value), or None when nothing was; ``side``: the 0-based seats of that
    side, when known; ``finished``: what the query had finished before it (a
    :class:`~kingsolve.solver.SolveResult` holding the sides ``solve`` had
    solved, or a :class:`~kingsolve.table.Table` of the rows ``make_table`` had
    finished), or None; ``also``: the same for the other sides stopped with
    this one (``solve`` in lanes: each running lane's side), a list of
    SearchInterrupted."""

    def __init__(self, low=None, high=None, *, side=None, finished=None, also=()):
        super().__init__(low, high)
        self.low = low
        self.high = high
        self.side = side
        self.finished = finished
        self.also = list(also)

    def __str__(self):
        if self.low is None:
            return "stopped before the value was narrowed"
        if self.low == self.high:
            return f"value {self.low:+d}"
        return f"value between {self.low:+d} and {self.high:+d} (proven so far)"


class SearchTimedOut(SearchInterrupted):
    """A search stopped by its time limit (``deadline``), the way Ctrl-C stops
    one, with the same ``low`` and ``high``: the interval its finished probes
    had proven.  ``solve`` and ``make_table`` with a time limit catch it and
    report that interval as the answer."""

    def __str__(self):
        return super().__str__().replace("(proven so far)", "(time limit)")
