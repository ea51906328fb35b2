"""Every registered command has help text; ``-h`` and ``--version`` work
(after sqlite-utils' tests/test_docs.py)."""
import click
import pytest
from click.testing import CliRunner

import kingsolve
from kingsolve.cli import main

# Commands load lazily; list and load every one as `kingsolve --help` does.
_CTX = click.Context(main)
COMMANDS = sorted(main.list_commands(_CTX))
for _name in COMMANDS:
    main.get_command(_CTX, _name)


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_the_group_registers_the_core_commands():
    # rules and solve exist from the start (INTERFACE.md); the others as they are written
    assert {"rules", "solve"} <= set(COMMANDS)
    assert set(COMMANDS) == {"rules", "solve", "table", "verify", "bid", "stats", "score", "advise"}


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_text(name):
    cmd = main.commands[name]
    assert cmd.help and cmd.help.strip(), f"{name} has no docstring"
    assert cmd.get_short_help_str().strip()
    for param in cmd.params:
        if param.param_type_name == "option" and not getattr(param, "hidden", False):
            assert param.help, f"{name} {param.opts} has no help"


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("name", COMMANDS)
def test_help_flags(name, flag):
    r = run(name, flag)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"Usage: main {name} ")
    assert "-h, --help" in r.stdout
    assert main.commands[name].help.strip().splitlines()[0] in r.stdout


def test_group_help_lists_every_command():
    for args in (["-h"], ["--help"]):
        r = run(*args)
        assert r.exit_code == 0
        assert r.stdout.startswith("Usage: main [OPTIONS] COMMAND [ARGS]...")
        assert "Double-dummy solver and analysis toolkit for King" in r.stdout
        assert "--version" in r.stdout
        for name in COMMANDS:
            assert f"\n  {name} " in r.stdout
    # no command at all: the usage, not a traceback
    r = run()
    assert "Usage: main [OPTIONS] COMMAND [ARGS]..." in r.output and "Traceback" not in r.output


def test_version():
    r = run("--version")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"kingsolve, version {kingsolve.__version__}\n"


def test_unknown_command_is_one_line_exit_2():
    r = run("frobnicate")
    assert r.exit_code == 2
    assert "No such command 'frobnicate'" in r.stderr
    assert "Traceback" not in r.output
