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
