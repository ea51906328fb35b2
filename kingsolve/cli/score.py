import click

from ..reporting import score as report
from ..score import GAMES, score_read_sheet, score_sheet, sheet_from_kdn
from ..variants import VARIANT_IDS, get_variant
from .common import PLOT_PATH, TextFile, InputError, VerificationFailed, emit


@click.command()
@click.argument("sheet", required=False, type=TextFile())
@click.option("--game", "-g", type=click.Choice(GAMES), default=None,
              help="ua12 (12 deals), ru14 (7 + 7), ru12 (Russian short King: 6 + 6, no erajlash), short (14), "
                   "long (14 a player, ordered in turn), king52. Default: told from the contract names (trump "
                   "games ua12, an erajlash short, mirror deals without erajlash ru12, more than 14 deals long).")
@click.option("--variant", "-V", "variant_id", type=click.Choice(VARIANT_IDS), default=None,
              help="The table. Default: told from the number of players and the rows' point scale "
                   "(ru4 or king52 for four, ua3 or ru3 for three).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A variant option, e.g. king-points=20; repeatable.")
@click.option("--partial", is_flag=True,
              help="A game in progress: check the rows so far (no deal is missing yet), the stages against the "
                   "totals of those rows.")
@click.option("--from-kdn", "kdn_file", type=TextFile(), default=None, metavar="FILE.kdn",
              help="Build the sheet from a KDN file of played deals (a record per deal, replayed) and check it.")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", type=PLOT_PATH,
              help="Plot the running totals: contract names along the deals, the stage divider, bad rows marked.")
@click.option("--format", "-F", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="Output format.")
def score(sheet, game, variant_id, options, partial, kdn_file, plot_path, fmt):
    """Check a score sheet (бланк) and print its totals.

    SHEET is a CSV file (- for stdin): a header `contract,PLAYER,PLAYER,…`
    (optional columns deal, trump, by) and a row per deal with each player's
    points (a blank cell is 0; Excel's `;`-separated exports with a BOM are
    read as they are; totals rows РАЗОМ (-), РАЗОМ (+), РАЗОМ are checked).
    Every row must add up to its deal's total, every entry must be one a
    player can score in that deal, the deals must be the game's, and the game
    must sum to zero; the first row that does not is named (exit 1).  The
    `-F csv` output reads back as a sheet.  See docs/score.md."""
    if kdn_file is not None:
        if sheet is not None:
            raise InputError("give a SHEET or --from-kdn FILE, not both")
        name = getattr(kdn_file, "name", "-")
        variant = get_variant(variant_id, options) if variant_id else None
        if options and variant is None:
            raise InputError("-o needs --variant with --from-kdn (the records name their table)")
        parsed, v = sheet_from_kdn(kdn_file.read().lstrip("\ufeff"), name, variant)
        result = score_read_sheet(parsed, game=game, variant=v, partial=partial)
    else:
        if sheet is None:
            raise InputError("no sheet: give SHEET (a CSV file, - for stdin) or --from-kdn FILE")
        name = getattr(sheet, "name", "-")
        result = score_sheet(sheet.read(), name, game=game, variant=variant_id, options=options, partial=partial)
    if plot_path:
        report.plot(result, plot_path)
    emit(report, result, fmt)
    if not result.ok:
        raise VerificationFailed(result.problems[0].text(result.sheet.file))
