"""A ruleset's phases drawn from the code (``tamalou.verify.phase_diagram``, in ``verify/diagram.py``; ``tamalou show
RULESET --diagram``; the documentation's page of diagrams): Mermaid state diagrams of the steps seeded random games
take."""

from __future__ import annotations

from typer.testing import CliRunner

import tamalou
from tamalou.cli import app
from tamalou.verify import phase_diagram, phase_transitions


def test_french_goes_from_the_draw_to_the_hold_and_on_to_the_power_or_the_call() -> None:
    text = phase_diagram("french")
    lines = text.splitlines()
    assert lines[:2] == ["stateDiagram-v2", "    [*] --> draw"] and lines[-1] == "    over --> [*]"
    for step in ("draw --> hold : draw", "hold --> power : discard", "draw --> draw : match"):
        assert f"    {step}" in lines, text
    assert any(line.startswith("    call --> draw : ") and "call" in line.split(":")[1] for line in lines), text
    assert phase_diagram("french") == text  # seeded: the same diagram every time


def test_an_opening_a_clock_and_a_mechanic_s_own_phase_are_drawn() -> None:
    assert "    [*] --> peek" in phase_diagram("cartalogue", games=5).splitlines()
    assert "    opening --> draw : tick" in phase_diagram("tamalou-fun", games=5).splitlines()
    flip = tamalou.variant_from_toml(
        'name = "flip"\nextends = "french"\n[rules.draw]\ndiscard_turns_up = true\n[rules.powers]\nranks = {}\n'
    )
    steps = phase_transitions(flip, players=2, games=5)
    assert "discard" in steps["hold", "flip"] and steps["flip", "call"] == {"flip"}


def test_the_command_prints_the_diagram() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["show", "french", "gabo", "--diagram"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("stateDiagram-v2\n    [*] --> draw\n")
    refused = runner.invoke(app, ["show", "french", "--diagram", "--keys"])
    assert refused.exit_code == 2 and "--diagram goes alone" in refused.output
