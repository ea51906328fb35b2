"""Shared CLI pieces: the error-handling group and the option decorators."""
from __future__ import annotations

import functools
import os
import sys

import click

from ..errors import KingsolveError
from ..variants import VARIANT_IDS, get_variant, parse_trump


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit code 2 (INTERFACE.md)."""
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
        except OSError as err:  # unreadable files
            name = getattr(err, "filename", None)
            raise InputError(f"{name}: {err.strerror}" if name else str(err)) from err
        except KeyboardInterrupt:
            # Ctrl-C stops the native search within milliseconds (it polls);
            # what was already written stays (solve prints each layout as
            # it is done), and the exit code is the shell's for SIGINT
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(130) from None


def variant_options(func):
    """``--variant V`` and ``-o/--option KEY=VALUE`` → ``variant`` (a Variant)."""

    @click.option("--variant", "-V", "variant_id", type=click.Choice(VARIANT_IDS), required=True,
                  help="The table: ru4 (4 × 8 cards), ua3 (3 × 10, black aces in the talon), "
                       "ru3 (3 × 10), king52 (4 × 13).")
    @click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                  help="A variant option (see `kingsolve rules --variant V`); repeatable.")
    @functools.wraps(func)
    def wrapper(*args, variant_id, options, **kwargs):
        try:
            variant = get_variant(variant_id, options)
        except KingsolveError as err:
            raise InputError(str(err)) from err
        return func(*args, variant=variant, **kwargs)

    return wrapper


def contract_options(func):
    """``--contract C`` and ``--trump T`` → ``contract`` (needs ``variant_options`` above it)."""

    @click.option("--contract", "-c", "contract_name", required=True, metavar="CONTRACT",
                  help="The deal type, e.g. no-hearts, erajlash, plus-king, trump, misere, tricks.")
    @click.option("--trump", "-t", "trump", default=None, metavar="S|H|D|C|NT",
                  help="The trump of a trump game (trump, misere, minus, tricks).")
    @functools.wraps(func)
    def wrapper(*args, variant, contract_name, trump, **kwargs):
        try:
            contract = variant.contract(contract_name, "default" if trump is None else parse_trump(trump))
        except KingsolveError as err:
            raise InputError(str(err)) from err
        return func(*args, variant=variant, contract=contract, **kwargs)

    return wrapper


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


def show_progress(flag) -> bool:
    return sys.stderr.isatty() if flag is None else flag


TT_SIZE_BYTES = "about 140 x 2^N bytes (175 x 2^N in penalty contracts with point cards in several suits)"


def default_jobs() -> int:
    """The cores this process may run on (what ``--jobs 0`` means)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
