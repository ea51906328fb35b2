"""``kingsolve verify``: check annotated deals (KDN records)."""
from __future__ import annotations

import os
import sys

import click

from ..kdn import parse_kdn, write_kdn
from ..records import holds_a_deal
from ..reference import TIE_BREAKS
from ..reporting import verify as report
from ..variants import VARIANT_IDS, get_variant
from ..seeds import fresh_seed
from ..verify import DEFAULT_ANALYSIS_LAYOUTS, DEFAULT_MAX_COMPLETIONS, MAX_CLAIM_LAYOUTS, MODELS, verify_record
from .common import InputError, VerificationFailed, progress_option, read_text, show_progress
from .progress import TickingBar


def _sources(path: str):
    """(name, text) of each file to read: FILE, every *.kdn of DIR (sorted), or stdin for '-'."""
    if os.path.isdir(path):
        names = sorted(f for f in os.listdir(path) if f.endswith(".kdn"))
        if not names:
            raise InputError(f"{path}: no .kdn files in this directory")
        for f in names:
            yield from _sources(os.path.join(path, f))
        return
    yield path, read_text(path)


@click.command()
@click.argument("path", metavar="FILE|DIR|-")
@click.option("--variant", "-V", "variant_id", type=click.Choice(VARIANT_IDS), default=None,
              help="The table (default: each record's [Variant] tag).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A variant option (with --variant); repeatable.")
@click.option("--strict", is_flag=True, help="Treat the reader's warnings (garbled cards, unclosed brackets…) as errors.")
@click.option("--format", "-F", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="text for a player; json: one object per record, one a line; csv (--model each): a row a play "
                   "with every seat's points.")
@click.option("--max-completions", default=DEFAULT_MAX_COMPLETIONS, show_default=True, type=click.IntRange(0, None),
              help="List readings and deals up to this many; beyond, count them.")
@click.option("--layouts", "analysis_layouts", default=DEFAULT_ANALYSIS_LAYOUTS, show_default=True,
              type=click.IntRange(1, None),
              help="Play-by-play marks of an unfinished record over its possible deals: all of them when there "
                   "are no more than this many, else a uniform random sample of this many.")
@click.option("--claim-layouts", default=None, type=click.IntRange(1, None), metavar="N",
              help="Deals of an unfinished record checked against the claims: all of them when there are no more "
                   "than N, else a uniform random sample of N (the report says 'N sampled of M' with the share's "
                   f"standard error).  Default: {MAX_CLAIM_LAYOUTS:,} when 12 cards or fewer are left, half as "
                   "many for every 3 cards more.")
@click.option("--seed", type=click.IntRange(0, 2 ** 32 - 1), default=None,
              help="Seed of the random samples (default: a fresh one, printed when a sample is drawn).")
@click.option("--proof", is_flag=True,
              help="A claim must hold in every deal the record allows: one that holds in only some fails (exit 1).")
@click.option("--no-marks", is_flag=True, help="Skip the play-by-play double-dummy marks.")
@click.option("--single-dummy", type=click.IntRange(1, None), default=None, metavar="N",
              help="Also grade each play by what its player could see (his hand, the talon, the tricks so far), "
                   "the unseen cards dealt N ways a play (a record that stops early: holding his hand of each of "
                   "a few of the deals it allows).")
@click.option("--model", type=click.Choice(list(MODELS)), default="coalition", show_default=True,
              help="coalition: mark each play by its seat's value against all the others together; each: set the "
                   "book against every seat playing for its own points — the outcome, and the plays that departed "
                   "from it (see docs/each.md).")
@click.option("--tie-break", type=click.Choice(list(TIE_BREAKS)), default="neutral", show_default=True,
              help="--model each: what a seat indifferent between cards that change the others' points plays.")
@click.option("--write", "write_to", type=click.File("w", encoding="utf-8"), default=None, metavar="FILE",
              help="Write the records back as KDN (comments kept), with a canonical [Layout] where the deal is "
                   "reconstructed uniquely; - for stdout.")
@progress_option
@click.pass_context
def verify(ctx, path, variant_id, options, strict, fmt, max_completions, analysis_layouts, claim_layouts, seed, proof,
           no_marks, single_dummy, model, tie_break, write_to, progress):
    """Check annotated deals: legality, claims, lost cards, play-by-play marks.

    Reads KDN records (a file, every .kdn file of a directory, or - for
    stdin).  For each: fills in cards whose suit was lost or that are
    unreadable (reporting every consistent reading), reconstructs the hands,
    replays the play, checks each [Claim] (for a record that stops early:
    double-dummy, in every way the unseen cards can lie) and marks each play
    with ? / ?? when it loses points double-dummy.

    A claim is "holds" (in every deal the record allows), "possible" (in
    some: it does not follow from the printed play alone; the report shows
    a deal where it fails) or "fails" (in none).

    Exit 0 when every play is legal and no claim fails (with --proof: every
    claim holds), 1 when a play is illegal or a claim fails, 2 when a file
    cannot be read.  Ctrl-C while the claims are checked reports the deals
    finished.

    With --model each, a record whose deal is known is set against every
    seat playing for its own points: the outcome (one row of points adding
    up to the deal's), the book's result beside it, and each play that kept
    or departed from it."""
    given = lambda name: ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT  # noqa: E731
    if model != "each":
        if given("tie_break"):
            raise InputError("--tie-break decides the ties of --model each: give --model each")
        if fmt == "csv":
            raise InputError("--format csv is the play-by-play rows of --model each; use --format json")
    elif single_dummy:
        raise InputError("--single-dummy grades the coalition marks; --model each does not take it")
    if options and not variant_id:
        raise InputError("--option needs --variant")
    if single_dummy and no_marks:
        raise InputError("--single-dummy grades the plays next to the double-dummy marks: drop --no-marks")
    variant = get_variant(variant_id, options) if variant_id else None
    seed = fresh_seed() if seed is None else seed
    bad = []
    first = True
    written = []
    for name, text in _sources(path):
        records = parse_kdn(text, source=name, strict=strict)
        if not records:
            raise InputError(f"{name}: no KDN records")
        for rec in records:
            if not holds_a_deal(rec):
                continue  # a block of comments only
            bar = TickingBar(0, sys.stderr, unit="search") if show_progress(progress) else None
            where = f"{rec.source}:{rec.line}"
            try:
                rep = verify_record(rec, variant, max_completions=max_completions, seed=seed,
                                    analysis_layouts=analysis_layouts, marks=not no_marks,
                                    claim_layouts=claim_layouts, proof=proof, single_dummy=single_dummy or 0,
                                    model=model, tie_break=tie_break,
                                    progress=(lambda stage, done, total: bar.stage(f"{where} {stage}", done, total))
                                    if bar else None)
            finally:
                if bar:
                    bar.close()
            if fmt == "csv":
                if first:
                    click.echo(report.each_csv_header())
                click.echo(report.each_csv_rows(rep))
            elif fmt == "json":
                click.echo(report.to_json(rep, max_completions))
            else:
                if not first:
                    click.echo("")
                click.echo(report.to_text(rep, max_completions))
            first = False
            written.append((rec, rep.layout))
            if not rep.ok:
                bad.append(f"{rec.source}:{rec.line}")
    if write_to is not None:
        write_to.write(write_kdn([r for r, _ in written], [lay for _, lay in written]))
    if bad:
        raise VerificationFailed(f"verification failed: {', '.join(bad)}")
