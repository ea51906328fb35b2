"""The README's Python example runs and gives the values it states."""
from __future__ import annotations

import contextlib
import io
import pathlib

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def python_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1]
    return section.split("```python", 1)[1].split("```", 1)[0]


def test_readme_python_example_runs_and_matches_its_comments():
    code = python_example()
    env: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "README.md", "exec"), env)
    # the comments in the example state these; the seat-by-seat lines are printed
    solver, deal0 = env["solver"], env["Deal"].from_layout(env["contract"], env["layout"], leader=0)
    assert solver.value(deal0, 0b001) == -2
    assert solver.reaches(deal0, 0b001, -4) is True
    assert out.getvalue().splitlines()[0].startswith("(0,) -2 ")
    assert env["deal"].position.trick  # a card was played
    assert (env["grid"].rows[0].contract.name, env["grid"].rows[0].values) == ("no-tricks", (-4, -14, -14))


# ---------------------------------------------------------------- the commands the docs show

import re
import shlex
import subprocess

import click
import pytest
from click.testing import CliRunner

ROOT = README.parent
DOCS = ROOT / "docs"


def readme_commands() -> list[str]:
    """The `kingsolve …` lines of the README's ```sh blocks."""
    out = []
    for block in README.read_text(encoding="utf-8").split("```sh")[1:]:
        out += [x.strip() for x in block.split("```", 1)[0].splitlines() if x.strip().startswith("kingsolve ")]
    return out


def shown_commands() -> list[str]:
    """Every `kingsolve …` example: the README's, and docs/cli.md's indented lines."""
    cli = [x.strip() for x in (DOCS / "cli.md").read_text(encoding="utf-8").splitlines()
           if x.startswith("    kingsolve ")]
    return list(dict.fromkeys(readme_commands() + cli))


def test_the_docs_show_an_example_of_every_command():
    from kingsolve.cli import COMMANDS
    assert set(COMMANDS) <= {shlex.split(c)[1] for c in readme_commands()}
    assert set(COMMANDS) <= {shlex.split(c)[1] for c in shown_commands()}


@pytest.mark.parametrize("command", shown_commands())
def test_the_commands_the_docs_show_run(command, monkeypatch):
    pytest.importorskip("kingsolve._core")
    from kingsolve.cli import main
    monkeypatch.chdir(ROOT)                      # examples/… paths are relative to the checkout
    r = CliRunner().invoke(main, shlex.split(command)[1:])
    assert r.exit_code == 0, r.output


def test_the_readme_has_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert "pip install . && kingsolve solve " in text
    command = 'pip install ".[dev]" && pytest -n auto --dist worksteal\n'
    assert command in text
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _tracked_files():
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / n for n in names.splitlines()]


def test_no_path_outside_the_repository():
    # Users have only the repository: no development machine's paths, no files
    # the repository does not hold (the tests may use temporary paths).
    bad = re.compile(r"/work/|/tmp/|\.\./shared|RULES\.md|INTERFACE\.md|interface-extensions")
    found = []
    for path in _tracked_files():
        if path.parts[len(ROOT.parts)] == "tests" or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}:{k}" for k, line in enumerate(text.splitlines(), 1) if bad.search(line)]
    assert found == []


def test_every_command_and_option_is_documented():
    from kingsolve.cli import COMMANDS, main
    docs = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    ctx = click.Context(main)
    for name in COMMANDS:
        assert f"kingsolve {name}" in docs, name
        for param in main.get_command(ctx, name).params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in docs, f"{name} {opt}"


def test_rules_md_totals_are_the_implemented_ones():
    # docs/rules.md's penalty table: "| `contract` | … | −2 (−16) | …" per variant column
    from kingsolve.variants import get_variant
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    table = text.split("## Penalty deals", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| `")]
    assert len(rows) == 8
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = cells[0].split("`")[1]
        for vid, cell in zip(("ru4", "ua3", "ru3", "king52"), cells[2:]):
            v = get_variant(vid)
            if cell == "—":
                assert name not in v.contracts, (name, vid)
                continue
            total = int(re.search(r"\(([−-]\d+)\)", cell).group(1).replace("−", "-"))
            assert v.contract(name).total == total, (name, vid)


def test_rules_md_lists_every_option():
    from kingsolve.variants import OPTION_HELP
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    options = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    for key in OPTION_HELP:
        assert f"| `{key}` |" in options, key
