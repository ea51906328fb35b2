"""Shared CLI pieces: the error-handling group and the option decorators."""
from __future__ import annotations

import functools
import io
import os
import sys
from dataclasses import dataclass

import click

from ..errors import KingsolveError
from ..variants import VARIANT_IDS, get_variant, parse_contract


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit code 2 (docs/cli.md, Exit codes)."""
    exit_code = 2


class VerificationFailed(click.ClickException):
    """A verification found an illegal play or a claim that does not hold: exit 1."""
    exit_code = 1

    def show(self, file=None):
        if self.message:
            click.echo(self.message, err=True)


class KingsolveGroup(click.Group):
    """Turns library errors into one-line messages with exit code 2, and loads
    each command's module only when that command is used (so that ``solve``
    does not pay for importing pandas and matplotlib)."""

    def __init__(self, *args, lazy_commands=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def get_command(self, ctx, name):
        if name not in self.commands and name in self.lazy_commands:
            import importlib
            module, func = self.lazy_commands[name].split(":")
            self.add_command(getattr(importlib.import_module(module), func), name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            # One line, not Click's three (usage, hint, error).
            where = f" (see '{err.ctx.command_path} --help')" if err.ctx is not None else ""
            raise InputError(" ".join(err.format_message().split()) + where) from err
        except KingsolveError as err:
            raise InputError(str(err)) from err
        except BrokenPipeError:
            # the reader went away (`kingsolve ... | head`): stop quietly, as
            # a pipeline's writer does, and keep the interpreter's last flush
            # of stdout from failing again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(141) from None
        except OSError as err:  # unreadable files
            name = getattr(err, "filename", None)
            raise InputError(f"{name}: {err.strerror}" if name else str(err)) from err
        except KeyboardInterrupt:
            # Ctrl-C stops the native search within milliseconds (it polls);
            # what was already written stays (solve prints each layout as
            # it is done), and the exit code is the shell's for SIGINT
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(130) from None


def variant_options(func=None, *, required=True):
    """``--variant V`` and ``-o/--option KEY=VALUE`` → ``variant`` (a Variant;
    None when ``required=False`` and not given)."""
    if func is None:
        return functools.partial(variant_options, required=required)

    @click.option("--variant", "-V", "variant_id", type=click.Choice(VARIANT_IDS), required=required,
                  help="The table: ru4 (4 × 8 cards), ua3 (3 × 10, black aces in the talon), "
                       "ru3 (3 × 10), king52 (4 × 13)." + ("" if required else " Default: a KDN record's [Variant]."))
    @click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                  help="A variant option (see `kingsolve rules --variant V`); repeatable.")
    @functools.wraps(func)
    def wrapper(*args, variant_id, options, **kwargs):
        if variant_id is None:
            if options:
                raise InputError("-o/--option needs --variant")
            return func(*args, variant=None, **kwargs)
        try:
            variant = get_variant(variant_id, options)
        except KingsolveError as err:
            raise InputError(str(err)) from err
        return func(*args, variant=variant, **kwargs)

    return wrapper


@dataclass(frozen=True)
class ContractSpelling:
    """``--contract`` and ``--trump`` as given, before a variant is known."""
    text: str
    trump: str | None

    def of(self, variant) -> "Contract":
        try:
            return parse_contract(variant, self.text, self.trump)
        except KingsolveError as err:
            raise InputError(str(err)) from err


def contract_options(func=None, *, required=True):
    """``--contract C`` and ``--trump T`` → ``contract`` (needs ``variant_options``
    above it).  The contract is spelt as everywhere (``trump:H`` or ``-c trump -t H``).
    With ``required=False`` both may be left out (a KDN record's tags stand in):
    the command gets a :class:`ContractSpelling`, or None."""
    if func is None:
        return functools.partial(contract_options, required=required)

    @click.option("--contract", "-c", "contract_name", required=required, metavar="CONTRACT",
                  help="The deal type, e.g. no-hearts, erajlash, plus-king, trump:H, misere, tricks"
                       + ("." if required else " (default: a KDN record's [Contract] and [Trump])."))
    @click.option("--trump", "-t", "trump", default=None, metavar="S|H|D|C|NT",
                  help="The trump of a trump game (or write trump:H); misere, minus and tricks are NT unless given.")
    @functools.wraps(func)
    def wrapper(*args, variant, contract_name, trump, **kwargs):
        if contract_name is None:
            if trump is not None:
                raise InputError("--trump needs --contract")
            return func(*args, variant=variant, contract=None, **kwargs)
        spelling = ContractSpelling(contract_name, trump)
        if required:
            return func(*args, variant=variant, contract=spelling.of(variant), **kwargs)
        if variant is not None:
            spelling.of(variant)        # a bad contract is refused before any work
        return func(*args, variant=variant, contract=spelling, **kwargs)

    return wrapper


def read_text(path: str) -> str:
    """The whole of a UTF-8 text file (``-``: stdin), for every command that
    reads one; a file that cannot be read or decoded is one line, exit 2."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text (byte {err.start})") from err
    except OSError as err:
        raise InputError(f"{path}: {err.strerror}") from err


class TextSource(io.StringIO):
    """A text file read whole by :class:`TextFile`: ``.read()`` and ``.name`` like an open file."""

    def __init__(self, name: str, text: str):
        super().__init__(text)
        self.name = name


class TextFile(click.ParamType):
    """A UTF-8 text file or ``-`` (stdin), read whole when the command line is
    parsed (so a bad file is refused before any work) by :func:`read_text`."""
    name = "file"

    def convert(self, value, param, ctx):
        if isinstance(value, TextSource):
            return value
        value = str(value)
        return TextSource("<stdin>" if value == "-" else value, read_text(value))


class PlotPath(click.ParamType):
    """``--plot FILE``: a file matplotlib can write (by its extension) in a
    directory that exists; refused before any work is done."""
    name = "FILE.png"

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        from matplotlib.figure import Figure
        kinds = Figure().canvas.get_supported_filetypes()
        ext = os.path.splitext(path)[1].lstrip(".").lower()
        if ext not in kinds:
            self.fail(f"{path!r}: matplotlib cannot write {('.' + ext) if ext else 'a file without an extension'}"
                      f" (use one of {', '.join('.' + k for k in sorted(kinds))})", param, ctx)
        if os.path.isdir(path):
            self.fail(f"{path!r} is a directory", param, ctx)
        where = os.path.dirname(path) or "."
        if not os.path.isdir(where):
            self.fail(f"{path!r}: no directory {where!r}", param, ctx)
        return path


PLOT_PATH = PlotPath()


def output_options(func):
    """``--format text|json|csv``."""
    return click.option("--format", "-F", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
                        show_default=True, help="Output format.")(func)


def emit(report, result, fmt: str) -> None:
    """Write ``result`` to stdout through a reporting module's ``to_json``,
    ``to_csv`` or ``to_text``."""
    click.echo({"json": report.to_json, "csv": report.to_csv}.get(fmt, report.to_text)(result))


def progress_option(func):
    return click.option("--progress/--no-progress", default=None,
                        help="Show a progress bar on stderr (default: only on a terminal).")(func)


def time_limit_option(unit: str):
    """``--time-limit SECONDS``, for each ``unit`` (a seat, a cell)."""
    return click.option(
        "--time-limit", default=None, type=click.FloatRange(0, min_open=True), metavar="SECONDS",
        help=f"At most this long for each {unit}: when it runs out, the answer is the interval "
             "the search has proven ('value between L and H'; JSON/CSV low, high, exact false). "
             "Default: no limit.")


def run_time_limit_option(func):
    """``--time-limit SECONDS`` for a whole sampled run (bid, advise)."""
    return click.option(
        "--time-limit", default=None, type=click.FloatRange(0, min_open=True), metavar="SECONDS",
        help="Stop sampling after this long and answer from the deals finished, as Ctrl-C does (the report "
             "says how many; exit 1 if none finished).  Default: no limit.")(func)


def show_progress(flag) -> bool:
    return sys.stderr.isatty() if flag is None else flag


TT_SIZE_BYTES = "about 140 x 2^N bytes (175 x 2^N in penalty contracts with point cards in several suits)"


def tt_size_default(lanes: bool) -> str:
    """The default table size in words, from the one policy
    (:func:`kingsolve.solver.solver_for`), for ``--tt-size``'s help; ``lanes``:
    the command's ``--jobs`` are threads sharing one memory budget.  Called by
    the commands that search (it loads the native core; ``rules`` must not)."""
    from ..solver import DEFAULT_MAX_TT_LOG2, DEFAULT_TT_LOG2, SHORT_DEAL, default_max_tt_log2, default_tt_log2
    short = f"{default_tt_log2(SHORT_DEAL)} for hands of up to {SHORT_DEAL} cards"
    if lanes:
        short += f", {default_tt_log2(SHORT_DEAL, 2)} a thread with --jobs 2 or more"
    long = f"{DEFAULT_TT_LOG2} for 13, growing up to {DEFAULT_MAX_TT_LOG2} as a long search fills it"
    if lanes:
        long += (f" (the threads of --jobs share that: one power of two less for each doubling, "
                 f"{default_max_tt_log2(SHORT_DEAL + 1, 2)} each with --jobs 2)")
    return f"{short}; {long}"


def default_jobs() -> int:
    """The cores this process may run on (what ``--jobs 0`` means)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def seat_option(text, n_seats: int, what: str) -> int:
    """A seat given on the command line (``--seat``, ``--leader`` …), 0-based;
    a bad one is an :class:`InputError` naming the option."""
    from ..errors import InvalidLayoutError
    from ..layout import parse_seat
    try:
        return parse_seat(text, n_seats)
    except InvalidLayoutError as err:
        raise InputError(f"{what}: {err}") from err


def known_option(items, n_seats: int) -> list:
    """``--known SEAT:CARDS`` items (``talon:CARDS`` for a hidden talon) as
    (0-based seat or "talon", mask) pairs."""
    from ..layout import parse_hand
    out = []
    for item in items:
        who, sep, cards = item.partition(":")
        if not sep or not cards.strip():
            raise InputError(f"--known {item!r}: write SEAT:CARDS, e.g. 3:♠K ♥7 (or talon:CARDS)")
        seat = "talon" if who.strip().lower() == "talon" else seat_option(who, n_seats, f"--known {item!r}")
        out.append((seat, parse_hand(cards, where=f"--known {item!r}")))
    return out


def run_sampled(run, *, samples: int, progress, report, fmt: str, plot_path, interrupted) -> None:
    """A simulation command's run and report: ``run(update)`` does the work
    (``update(k)`` after each k samples; a progress bar on stderr when
    ``progress`` says so), then the report in ``fmt`` and the plot.  A result
    that Ctrl-C cut short is reported as it stands, then ``interrupted(result)``
    (the line saying what finished) on stderr and exit 130.  A run stopped by
    its time limit is reported the same way (its report says so) with exit 0;
    if no deal finished in time, one line and exit 1."""
    from ..workers import TimeLimitReached
    from .progress import TickingBar
    bar = TickingBar(samples, sys.stderr) if show_progress(progress) else None
    try:
        try:
            result = run(bar.update if bar else None)
        finally:
            if bar:
                bar.close()
    except KeyboardInterrupt:
        click.echo("interrupted before the first samples were finished", err=True)
        raise click.exceptions.Exit(130)
    except TimeLimitReached as err:
        click.echo(f"{err}: nothing to report (a deal of 13-card hands early in a penalty contract can take "
                   f"minutes; give more time, or ask later in the deal)", err=True)
        raise click.exceptions.Exit(1)
    emit(report, result, fmt)
    if plot_path:
        report.plot(result, plot_path)
        click.echo(f"plot written to {plot_path}", err=True)
    if result.interrupted:
        click.echo(interrupted(result), err=True)
        raise click.exceptions.Exit(130)
