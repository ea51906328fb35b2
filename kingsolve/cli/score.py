import click

from ..reporting import score as report
from ..score import GAMES, check_sheet, guess_game, make_game, score_sheet, sheet_from_kdn
from ..variants import VARIANT_IDS, get_variant
from .common import PLOT_PATH, TextFile, InputError, VerificationFailed, emit


@click.command()
@click.argument("sheet", required=False, type=TextFile())
@click.option("--game", "-g", type=click.Choice(GAMES), default=None,
              help="ua12 (12 deals), ru14 (7 + 7), short (14), long (14 a player, ordered), king52. "
                   "Default: told from the sheet (12 rows ua12, 14 short, a 'by' column long, king52 variant king52).")
@click.option("--variant", "-V", "variant_id", type=click.Choice(VARIANT_IDS), default=None,
              help="The table (default: ru4 for four players, ua3 for three — ru3 in ru14 — king52 for king52).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A variant option, e.g. king-points=20; repeatable.")
@click.option("--partial", is_flag=True, help="A game in progress: check the rows so far, not the whole game.")
@click.option("--from-kdn", "kdn_file", type=TextFile(), default=None, metavar="FILE.kdn",
              help="Build the sheet from a KDN file of played deals (a record per deal, replayed) and check it.")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", type=PLOT_PATH,
              help="Plot the running totals.")
@click.option("--format", "-F", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="Output format.")
def score(sheet, game, variant_id, options, partial, kdn_file, plot_path, fmt):
    """Check a score sheet (бланк) and print its totals.

    SHEET is a CSV file (- for stdin): a header `contract,PLAYER,PLAYER,…`
    (optional columns deal, trump, by) and a row per deal with each player's
    points.  Every row must add up to its deal's total, the deals must be the
    game's, and the game must sum to zero; the first row that does not is
    named (exit 1).  See examples/sheets/README.md."""
    variant = get_variant(variant_id, options) if variant_id else None
    if options and variant is None:
        raise InputError("-o needs --variant")
    if kdn_file is not None:
        if sheet is not None:
            raise InputError("give a SHEET or --from-kdn FILE, not both")
        name = getattr(kdn_file, "name", "-")
        parsed, v = sheet_from_kdn(kdn_file.read(), name, variant)
        g = game or (None if partial else guess_game(parsed, v))
        if g is None:
            raise InputError(f"{name}: --partial needs --game ({'|'.join(GAMES)})")
        result = check_sheet(parsed, make_game(g, v), partial=partial)
    else:
        if sheet is None:
            raise InputError("no sheet: give SHEET (a CSV file, - for stdin) or --from-kdn FILE")
        name = getattr(sheet, "name", "-")
        result = score_sheet(sheet.read(), name, game=game, variant=variant, partial=partial)
    if plot_path:
        report.plot(result, plot_path)
    emit(report, result, fmt)
    if not result.ok:
        raise VerificationFailed(result.problems[0].text(result.sheet.file))
