"""Exceptions.  Every error kingsolve raises on bad input is a ``KingsolveError``
(a ``ValueError``) whose message says what was wrong and where, in one line."""


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
