"""Settings for powers as for mechanics (``CardPower.options_model``, the table ``[options.<power>]``), and the built-in
power that uses them: ``draw_up_to`` (Rat-a-Tat Cat's "Draw 2": draw up to N more cards from the stock, keep one and
stop, or throw it and draw the next).

The scenarios extend French (no power on 2 to 6) with a 4 that draws up to two cards. Seat 0 draws the 4 from the
stock and throws it: the power is offered; used, seat 0 draws again from the stock, and each card drawn is kept
(replacing one of seat 0's cards: the draws stop) or thrown (the next is drawn, while one is left).
"""

from __future__ import annotations

from typing import Any

import pytest

import scenario
import tamalou
from tamalou import Discard, Draw, Pass, Power, Replace, VariantError

DRAW_2 = tamalou.variant_from_toml(
    'name = "draw-two"\nextends = "french"\n[rules.powers.ranks]\n"4" = "draw_up_to"\n[options.draw_up_to]\ndraws = 2\n'
)
HANDS = [["2S", "3S", "5S", "6S"], ["2H", "3H", "5H", "6H"]]
STOCK = ["4C", "6D", "5D", "3D", "2D"]  # the 4 first, then the cards its draws give


def drawn_four(variant: tamalou.Variant = DRAW_2) -> tamalou.Round:
    """Seat 0 draws the 4 and throws it; the power is offered and used."""
    g = scenario.deal(HANDS, STOCK, ["2C"], variant=variant)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "power" and g.view(0).power == "draw_up_to"
    events = g.apply(Power(0))
    assert scenario.kinds(events) == ["draw_up_to"] and events[0].data == {"player": 0, "draws": 2}
    assert events[0].describe() == "player 0 may draw up to 2 cards"
    return g


def test_a_card_thrown_draws_the_next_until_none_is_left() -> None:
    g = drawn_four()
    draws = [a for a in g.legal_actions(0) if isinstance(a, Draw)]
    assert g.phase == "draw" and draws == [Draw(0, "stock")]  # from the stock only (matches are listed besides)
    assert g.view(1).extra["extra_draws"] == {"draws_left": 1}
    g.apply(Draw(0, "stock"))
    assert g.view(0).held == "6D"
    events = g.apply(Discard(0))  # thrown: the second draw
    assert "draw_again" in scenario.kinds(events) and g.phase == "draw" and g.current_player == 0
    assert g.view(1).extra["extra_draws"] == {"draws_left": 0}
    g.apply(Draw(0, "stock"))
    assert g.view(0).held == "5D"
    events = g.apply(Discard(0))  # thrown too: no draw is left, the turn goes on to its end
    assert "draw_again" not in scenario.kinds(events)
    while g.current_player == 0 and g.phase in ("call", "power"):
        g.apply(Pass(0))
    assert g.current_player == 1 and g.view(0).discard_top == "5D"


def test_a_card_kept_stops_the_draws() -> None:
    g = drawn_four()
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 3))  # 6D kept in slot 3: the 6S goes to the discard, no more draw
    assert "draw_again" not in scenario.kinds(events)
    assert g.layout(0)[3] == "6D" and g.view(0).extra["extra_draws"] == {"draws_left": 0}
    while g.current_player == 0 and g.phase in ("call", "power"):
        g.apply(Pass(0))
    assert g.current_player == 1


def test_the_number_of_draws_is_a_setting_with_a_default() -> None:
    three = tamalou.variant_from_toml(
        'name = "draw-three"\nextends = "french"\n[rules.powers.ranks]\n"4" = "draw_up_to"\n'
        "[options.draw_up_to]\ndraws = 3\n"
    )
    g = scenario.deal(HANDS, STOCK, ["2C"], variant=three)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.apply(Power(0))[0].data["draws"] == 3
    default = tamalou.variant_from_toml('name = "d"\nextends = "french"\n[rules.powers.ranks]\n"4" = "draw_up_to"\n')
    g = scenario.deal(HANDS, STOCK, ["2C"], variant=default)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.apply(Power(0))[0].data["draws"] == 2
    g = drawn_four()  # the draws left are in snapshots
    g.apply(Draw(0, "stock"))
    assert tamalou.Game.from_json(g.to_json()).to_json() == g.to_json()


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ("draws = 0", r"options\.draw_up_to\.draws: .*greater than or equal to 1"),
        ("drawz = 2", r"options\.draw_up_to\.drawz: unknown key"),
    ],
)
def test_a_wrong_setting_of_a_power_names_its_key(table: str, said: str) -> None:
    with pytest.raises(VariantError, match=said):
        tamalou.variant_from_toml(f'name = "d"\nextends = "french"\n[options.draw_up_to]\n{table}\n')


# ----------------------------------------------------------------------------------- an outside package's power

GLANCE_N = '''
from pydantic import BaseModel, Field

import tamalou


class GlanceOptions(BaseModel):
    cards: int = Field(1, ge=1, le=4)


class GlanceN(tamalou.CardPower):
    """Look at your first N cards (N a setting)."""

    name = "glance_n"
    options_model = GlanceOptions

    def uses(self, g, p):
        return [self.action(p)]

    def resolve(self, g, a, events):
        for s in g.occupied(a.player)[: self.options.cards]:
            g.look(a.player, a.player, s, events)


@tamalou.hookimpl
def tamalou_powers():
    return [GlanceN]
'''


def test_an_outside_power_reads_its_settings_from_the_variant_file(tmp_path: Any) -> None:
    (tmp_path / "glance_n.py").write_text(GLANCE_N, encoding="utf-8")
    (tmp_path / "glance.toml").write_text(
        'extends = "french"\nplugins = ["glance_n"]\n[rules.powers.ranks]\n"4" = "glance_n"\n'
        "[options.glance_n]\ncards = 3\n",
        encoding="utf-8",
    )
    variant = tamalou.load_variant(tmp_path / "glance.toml")
    g = scenario.deal(HANDS, STOCK, ["2C"], variant=variant)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    events = g.apply(Power(0))
    assert [e.data["slot"] for e in events if e.type == "looked"] == [0, 1, 2]
    (tmp_path / "glance-5.toml").write_text(
        'extends = "glance.toml"\n[options.glance_n]\ncards = 5\n', encoding="utf-8"
    )
    with pytest.raises(VariantError, match=r"glance-5.toml: options\.glance_n\.cards: .*less than or equal to 4"):
        tamalou.load_variant(tmp_path / "glance-5.toml")
