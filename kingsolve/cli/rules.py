import click

from ..reporting.rules import rules_json, rules_text
from .common import variant_options


@click.command()
@variant_options
@click.option("--format", "-F", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format.")
def rules(variant, fmt):
    """The contracts of a variant with their prices, totals, lead rules and options."""
    click.echo(rules_json(variant) if fmt == "json" else rules_text(variant))
