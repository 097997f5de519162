"""Loading variants: names, aliases, paths, ``extends``, modifiers, composition, errors, schema.

The public contract (README, "Write house rules"; docs/reference/variant-file.md): a variant is an immutable
pydantic model; a file may ``extends`` others;
bad input raises ``VariantError`` naming the file, the key path and what was expected; an unknown
key is an error; nothing is half-loaded. House-rule files are written to ``tmp_path``.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pydantic
import pytest

import tamalou
from tamalou import Variant, VariantError, load_variant, variant_from_dict, variant_json_schema, variant_names
from tamalou.actions import MAX_TIME, Tick  # MAX_TIME: Game.from_json refuses a time (now, a deadline) from it on
from tamalou.cards import Card, deck_counter
from tamalou.engine.rulebook import rulebook
from tamalou.engine.snapshot import MAX_TEXT
from tamalou.plugins.defaults import builtin_variants_dir
from tamalou.schema import (
    MAX_DEAL,
    MAX_LIMIT,
    MAX_LOCKOUTS,
    MAX_MATCH_TURNS,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_RANKS,
    MAX_ROUNDS,
    MAX_SECONDS,
    MAX_TURNS,
    Rules,
)

TESTS_DIR = Path(__file__).resolve().parents[1]
FRENCH_TOML = builtin_variants_dir() / "french.toml"


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def rules_of(v: Variant) -> dict[str, Any]:
    return v.rules.model_dump()


def without(d: dict[str, Any], *paths: str) -> dict[str, Any]:
    """A deep copy of ``d`` without the dotted ``paths``."""
    out: dict[str, Any] = json.loads(json.dumps(d))
    for path in paths:
        *parents, last = path.split(".")
        node = out
        for part in parents:
            node = node[part]
        del node[last]
    return out


@pytest.fixture
def french() -> Variant:
    return load_variant("french")


@pytest.fixture
def test_plugins_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``plugins_for_tests.*`` importable (names that a loader may import at load time)."""
    monkeypatch.syspath_prepend(str(TESTS_DIR))


# --- by name, alias, path ------------------------------------------------------------------------


def test_load_french_by_name(french: Variant) -> None:
    assert isinstance(french, Variant)
    assert french.name == "french"
    assert "tamalou" in french.aliases
    # A few of 000's numbers, read from variants/french.toml.
    assert french.rules.call.threshold == 5
    assert french.rules.values.cards["KS"] == 15
    assert french.rules.values.cards["KH"] == 0
    assert french.rules.powers.cards["KC"] == "look_and_swap"
    assert french.rules.players.min == 2
    assert french.rules.players.max == 6
    assert "tamalou.plugins.french" in french.plugins


@pytest.mark.parametrize("spec", ["french", "French", "FRENCH", "fReNcH", "tamalou", "Tamalou", "TAMALOU"])
def test_names_and_aliases_are_case_insensitive(spec: str, french: Variant) -> None:
    v = load_variant(spec)
    assert v.name == "french"
    assert v.model_dump() == french.model_dump()


def test_every_alias_of_every_variant_loads_it() -> None:
    for name in variant_names():
        v = load_variant(name)
        assert v.name == name
        for alias in v.aliases:
            assert load_variant(alias).model_dump() == v.model_dump()
            assert load_variant(alias.upper()).model_dump() == v.model_dump()


@pytest.mark.parametrize("as_path", [True, False])
def test_load_by_path(as_path: bool, french: Variant) -> None:
    v = load_variant(FRENCH_TOML if as_path else str(FRENCH_TOML))
    assert v.model_dump() == french.model_dump()


def test_a_file_of_its_own_is_loaded_by_path(tmp_path: Path) -> None:
    path = write(
        tmp_path / "cosy.toml",
        """
        name = "cosy"
        aliases = ["snug"]
        [rules.call]
        threshold = 3
        """,
    )
    v = load_variant(path)
    assert v.name == "cosy"
    assert v.aliases == ("snug",)
    assert v.rules.call.threshold == 3
    # Keys the file does not give keep their documented defaults.
    assert v.rules.deal.cards == 4
    assert v.rules.matching.max_cards == 3


def test_a_file_without_a_name_is_named_after_the_file(tmp_path: Path) -> None:
    v = load_variant(write(tmp_path / "kitchen-table.toml", "[rules.call]\nthreshold = 4\n"))
    assert v.name == "kitchen-table"


def test_a_variant_given_is_returned_as_is(french: Variant) -> None:
    assert load_variant(french) is french


def test_variant_names_are_sorted_and_include_french() -> None:
    names = variant_names()
    assert isinstance(names, list)
    assert all(isinstance(n, str) for n in names)
    assert names == sorted(names)
    assert len(names) == len(set(names))
    assert "french" in names
    # Aliases are other ways to find a variant, not more variants.
    assert "tamalou" not in names


def test_every_built_in_file_is_a_listed_variant() -> None:
    names = set(variant_names())
    for f in builtin_variants_dir().glob("*.toml"):
        raw = tomllib.loads(f.read_text(encoding="utf-8"))
        assert str(raw.get("name", f.stem)) in names


def test_unknown_name_lists_the_known_names() -> None:
    with pytest.raises(VariantError) as info:
        load_variant("belote")
    message = str(info.value)
    assert "belote" in message
    for name in variant_names():
        assert name in message


def test_variant_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        load_variant("no-such-variant")


def test_a_missing_file_is_a_variant_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(VariantError, match=r"nowhere\.toml"):
        load_variant(missing)


def test_a_missing_file_deep_in_folders_is_still_named(tmp_path: Path) -> None:
    """A long path is cut in its middle: the file's name stays in the message."""
    missing = tmp_path.joinpath(*["folder-" + "x" * 30] * 4, "nowhere.toml")
    with pytest.raises(VariantError, match=r"nowhere\.toml' \(\d+ characters\)") as info:
        load_variant(missing)
    assert len(str(info.value)) < 300


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "broken.toml", "[rules.call\nthreshold = 7\n")
    with pytest.raises(VariantError, match=r"broken\.toml.*TOML"):
        load_variant(path)


@pytest.mark.parametrize("spec", [42, [], [42], None])
def test_a_spec_that_is_not_a_name_path_or_list_is_refused(spec: Any) -> None:
    with pytest.raises(VariantError):
        load_variant(spec)


# --- errors: file, key path, what was expected ---------------------------------------------------


def test_unknown_key_names_the_file_and_the_key_path(tmp_path: Path) -> None:
    path = write(
        tmp_path / "typo.toml",
        """
        extends = "french"
        [rules.call]
        threshhold = 7
        """,
    )
    with pytest.raises(VariantError) as info:
        load_variant(path)
    message = str(info.value)
    assert "typo.toml" in message
    assert "rules.call.threshhold" in message
    assert "unknown key" in message


@pytest.mark.parametrize(
    ("toml", "key_path"),
    [
        ('nmae = "x"', "nmae"),
        ("[rules.calls]\nthreshold = 7", "rules.calls"),
        ("[rules.deck]\njokerz = 2", "rules.deck.jokerz"),
        ("[rulez.call]\nthreshold = 7", "rulez"),
    ],
)
def test_unknown_keys_anywhere_are_errors(tmp_path: Path, toml: str, key_path: str) -> None:
    path = write(tmp_path / "house.toml", f'extends = "french"\n{toml}\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    message = str(info.value)
    assert "house.toml" in message
    assert key_path in message
    assert "unknown key" in message


def test_wrong_type_message_names_file_key_and_expectation(tmp_path: Path) -> None:
    path = write(
        tmp_path / "gabo.toml",
        """
        extends = "french"
        [rules.call]
        threshold = "seven"
        """,
    )
    with pytest.raises(VariantError) as info:
        load_variant(path)
    message = str(info.value)
    assert "gabo.toml" in message
    assert "rules.call.threshold" in message
    assert "expected an integer" in message
    assert '"seven"' in message
    # The exact form the README shows.
    assert 'gabo.toml: rules.call.threshold: expected an integer, got "seven"' in message


@pytest.mark.parametrize(
    ("toml", "key_path", "expected"),
    [
        ('[rules.end]\nties = "fewer_cards"', "rules.end.ties", "expected a list"),
        ('aliases = "x"', "aliases", "expected a list"),
        ('plugins = "x"', "plugins", "expected a list"),
        ("[rules]\ncall = 5", "rules.call", "expected a table"),
        ("extends = 5", "extends", "expected a variant name"),
        ("[rules.deal]\ncards = 0", "rules.deal.cards", "greater than or equal to 1"),
        ("[rules.deck]\njokers = 3", "rules.deck.jokers", "less than or equal to 2"),
        ('[rules.peek]\nmode = "all"', "rules.peek.mode", "expected one of"),
        (
            '[rules.powers.ranks]\n"7" = "fly"',
            "rules.powers.ranks.7",
            "unknown power 'fly' (powers: none, blind_swap, draw_up_to, give_stock_card, look_and_swap, "
            "look_any_two_and_swap, look_both_and_swap, peek_opponent, peek_own, play_again, swap_any_blind, "
            "swap_then_look)",
        ),
        ('[rules.powers.ranks]\nZ = "peek_own"', "rules.powers.ranks.Z", "expected one of"),
        ("[rules.values.ranks]\nA = 1.5", "rules.values.ranks.A", "expected an integer"),
        ('[rules.end]\nwin_max = "x"', "rules.end.win_max", "expected an integer"),
        ("name = 3", "name", "expected a string"),
    ],
)
def test_wrong_values_name_file_key_and_expectation(tmp_path: Path, toml: str, key_path: str, expected: str) -> None:
    assert_house_rule_error(tmp_path, toml, key_path, expected)


def assert_house_rule_error(tmp_path: Path, toml: str, key_path: str, expected: str) -> None:
    """A house-rule file (extending french unless it says otherwise) with ``toml`` fails to load,
    and the message names the file, the key path and the expectation."""
    body = toml if toml.startswith("extends") else f'extends = "french"\n{toml}'
    path = write(tmp_path / "house.toml", body + "\n")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    message = str(info.value)
    assert "house.toml" in message
    assert key_path in message
    assert expected in message


@pytest.mark.parametrize(
    ("toml", "key_path", "expected"),
    [
        ('[rules.call]\nthreshold = "7"', "rules.call.threshold", "expected an integer"),
        ("[rules.call]\nthreshold = true", "rules.call.threshold", "expected an integer"),
        ('[rules.call]\nverified = "yes"', "rules.call.verified", "expected true or false"),
        ("[rules.call]\nverified = 1", "rules.call.verified", "expected true or false"),
        ('[rules.peek]\nslots = [0, "1"]', "rules.peek.slots", "expected an integer"),
    ],
)
def test_a_value_of_another_toml_type_is_not_coerced(tmp_path: Path, toml: str, key_path: str, expected: str) -> None:
    """TOML has typed values: a string or a boolean where a number is expected is a wrong type
    (the JSON Schema says so too), not something to guess at (``threshold = true`` is not 1)."""
    assert_house_rule_error(tmp_path, toml, key_path, expected)


def test_an_error_in_a_base_names_the_base_file(tmp_path: Path) -> None:
    base = write(tmp_path / "base.toml", '[rules.call]\nthreshold = "seven"\n')
    child = write(tmp_path / "child.toml", f'extends = "{base.as_posix()}"\n[rules.call]\nverified = true\n')
    with pytest.raises(VariantError) as info:
        load_variant(child)
    message = str(info.value)
    assert "base.toml" in message
    assert "rules.call.threshold" in message


def test_a_check_across_files_is_made_on_the_merged_variant(tmp_path: Path) -> None:
    base = write(tmp_path / "base.toml", "[rules.players]\nmin = 2\nmax = 3\n")
    child = write(tmp_path / "child.toml", f'extends = "{base.as_posix()}"\n[rules.players]\nmin = 4\n')
    # Each file is fine on its own...
    assert load_variant(base).rules.players.max == 3
    # ...but together min > max.
    with pytest.raises(VariantError) as info:
        load_variant(child)
    message = str(info.value)
    assert "rules.players" in message
    assert "min" in message
    assert "max" in message


def test_unknown_name_in_extends_names_the_file_and_extends(tmp_path: Path) -> None:
    path = write(tmp_path / "house.toml", 'extends = "belote"\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    message = str(info.value)
    assert "house.toml" in message
    assert "extends" in message
    assert "belote" in message
    assert "french" in message


# --- extends: deep merge -------------------------------------------------------------------------


def test_extends_french_overrides_only_the_keys_given(tmp_path: Path, french: Variant) -> None:
    path = write(
        tmp_path / "sevens.toml",
        """
        extends = "french"
        [rules.call]
        threshold = 7
        """,
    )
    v = load_variant(path)
    assert v.rules.call.threshold == 7
    assert without(rules_of(v), "call.threshold") == without(rules_of(french), "call.threshold")
    assert v.plugins == french.plugins


def test_extends_by_alias_in_any_case(tmp_path: Path, french: Variant) -> None:
    path = write(tmp_path / "house.toml", 'extends = "TaMaLoU"\n[rules.call]\nthreshold = 6\n')
    v = load_variant(path)
    assert without(rules_of(v), "call.threshold") == without(rules_of(french), "call.threshold")


def test_name_aliases_title_and_description_are_not_inherited(tmp_path: Path, french: Variant) -> None:
    v = load_variant(write(tmp_path / "house.toml", 'extends = "french"\n'))
    assert v.name == "house"
    assert v.aliases == ()
    assert v.title != french.title
    assert v.description != french.description
    assert rules_of(v) == rules_of(french)


def test_tables_merge_scalars_and_lists_replace_plugins_add_up(tmp_path: Path, test_plugins_importable: None) -> None:
    base = write(
        tmp_path / "base.toml",
        """
        name = "base"
        aliases = ["basic"]
        plugins = ["plugins_for_tests.card_values"]
        [rules.call]
        threshold = 7
        verified = true
        [rules.values.cards]
        QH = -2
        [rules.values.ranks]
        A = 11
        [rules.end]
        ties = ["fewer_cards", "caller_ahead"]
        max_turns = 90
        """,
    )
    child = write(
        tmp_path / "child.toml",
        f"""
        extends = "{base.as_posix()}"
        plugins = ["plugins_for_tests.card_values", "plugins_for_tests.powers"]
        [rules.call]
        threshold = 3
        [rules.values.cards]
        QD = -3
        [rules.end]
        ties = ["caller_behind"]
        """,
    )
    v = load_variant(child)
    assert v.name == "child"
    assert v.aliases == ()
    assert v.rules.call.threshold == 3  # scalar: replaced
    assert v.rules.call.verified is True  # same table, key not given: kept
    assert v.rules.values.cards == {"QH": -2, "QD": -3}  # tables merge key by key
    assert v.rules.values.ranks["A"] == 11
    assert v.rules.values.ranks["K"] == 10
    assert v.rules.end.ties == ("caller_behind",)  # a list is a value: replaced, not appended
    assert v.rules.end.max_turns == 90
    # plugins add up, in order, each once.
    assert v.plugins == ("plugins_for_tests.card_values", "plugins_for_tests.powers")


def test_a_child_of_french_keeps_french_card_values(tmp_path: Path) -> None:
    path = write(
        tmp_path / "house.toml",
        """
        extends = "french"
        [rules.values.cards]
        QH = -1
        [rules.values.ranks]
        "10" = 0
        """,
    )
    v = load_variant(path)
    assert v.rules.values.cards == {"KS": 15, "KC": 15, "KH": 0, "KD": 0, "QH": -1}
    assert v.rules.values.ranks["10"] == 0
    assert v.rules.values.ranks["9"] == 9


def test_plugins_of_french_and_of_the_child_add_up(tmp_path: Path, test_plugins_importable: None) -> None:
    path = write(tmp_path / "house.toml", 'extends = "french"\nplugins = ["plugins_for_tests.powers"]\n')
    v = load_variant(path)
    assert v.plugins == (*load_variant("french").plugins, "plugins_for_tests.powers")


def test_extends_a_list_merges_in_order(tmp_path: Path) -> None:
    a = write(
        tmp_path / "a.toml",
        """
        [rules.call]
        threshold = 7
        [rules.end]
        max_turns = 50
        """,
    )
    b = write(
        tmp_path / "b.toml",
        """
        [rules.call]
        threshold = 9
        [rules.deal]
        cards = 5
        """,
    )
    ab = load_variant(write(tmp_path / "ab.toml", f'extends = ["{a.as_posix()}", "{b.as_posix()}"]\n'))
    assert ab.rules.call.threshold == 9  # the later base wins
    assert ab.rules.end.max_turns == 50  # keys of the earlier one stay
    assert ab.rules.deal.cards == 5
    ba = load_variant(write(tmp_path / "ba.toml", f'extends = ["{b.as_posix()}", "{a.as_posix()}"]\n'))
    assert ba.rules.call.threshold == 7
    assert ba.rules.deal.cards == 5
    own = load_variant(
        write(
            tmp_path / "own.toml",
            f'extends = ["{a.as_posix()}", "{b.as_posix()}"]\n[rules.call]\nthreshold = 2\n',
        )
    )
    assert own.rules.call.threshold == 2  # the file's own keys come last
    assert own.rules.end.max_turns == 50


def test_extends_french_and_a_file(tmp_path: Path, french: Variant) -> None:
    extra = write(tmp_path / "extra.toml", "[rules.matching]\nmax_cards = 1\n")
    v = load_variant(write(tmp_path / "house.toml", f'extends = ["french", "{extra.as_posix()}"]\n'))
    assert v.rules.matching.max_cards == 1
    assert v.rules.values.cards == french.rules.values.cards
    assert v.plugins == french.plugins


def test_extends_is_transitive(tmp_path: Path, french: Variant) -> None:
    mid = write(tmp_path / "mid.toml", 'extends = "french"\n[rules.call]\nthreshold = 7\n')
    top = write(tmp_path / "top.toml", f'extends = "{mid.as_posix()}"\n[rules.deal]\ncards = 6\n')
    v = load_variant(top)
    assert v.name == "top"
    assert v.rules.call.threshold == 7
    assert v.rules.deal.cards == 6
    assert v.rules.values.cards == french.rules.values.cards
    assert v.plugins == french.plugins


def test_extends_a_path_relative_to_the_extending_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A house-rule folder moves as a whole: ``extends = "base.toml"`` means the file next to it,
    wherever the program runs from."""
    folder = tmp_path / "house-rules"
    folder.mkdir()
    write(folder / "base.toml", "[rules.call]\nthreshold = 8\n")
    child = write(folder / "child.toml", 'extends = "base.toml"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_variant(child).rules.call.threshold == 8


# --- extends: cycles -----------------------------------------------------------------------------


def test_a_file_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    a = tmp_path / "a.toml"
    write(a, f'extends = "{a.as_posix()}"\n')
    with pytest.raises(VariantError) as info:
        load_variant(a)
    message = str(info.value)
    assert "cycle" in message
    assert "a.toml -> a.toml" in message


def test_two_files_extending_each_other_is_a_cycle(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    write(a, f'extends = "{b.as_posix()}"\n')
    write(b, f'extends = "{a.as_posix()}"\n')
    with pytest.raises(VariantError) as info:
        load_variant(a)
    message = str(info.value)
    assert "cycle" in message
    assert "extends" in message
    assert "a.toml -> b.toml -> a.toml" in message
    with pytest.raises(VariantError, match=r"b\.toml -> a\.toml -> b\.toml"):
        load_variant(b)


def test_a_longer_cycle_is_named_whole(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.toml", tmp_path / "b.toml", tmp_path / "c.toml"
    write(a, f'extends = "{b.as_posix()}"\n')
    write(b, f'extends = ["french", "{c.as_posix()}"]\n')
    write(c, f'extends = "{a.as_posix()}"\n')
    with pytest.raises(VariantError, match=r"a\.toml -> b\.toml -> c\.toml -> a\.toml"):
        load_variant(a)


def test_a_shared_base_is_not_a_cycle(tmp_path: Path) -> None:
    root = write(tmp_path / "root.toml", 'extends = "french"\n[rules.call]\nthreshold = 7\n')
    left = write(tmp_path / "left.toml", f'extends = "{root.as_posix()}"\n[rules.deal]\ncards = 5\n')
    right = write(tmp_path / "right.toml", f'extends = "{root.as_posix()}"\n[rules.end]\nmax_turns = 60\n')
    top = write(tmp_path / "top.toml", f'extends = ["{left.as_posix()}", "{right.as_posix()}"]\n')
    v = load_variant(top)  # root is reached twice, but never from itself
    assert v.rules.call.threshold == 7
    assert v.rules.end.max_turns == 60
    assert load_variant([left, left]).rules.deal.cards == 5


# --- modifiers and composition -------------------------------------------------------------------


@pytest.fixture
def modifier(tmp_path: Path) -> Path:
    """A modifier in the way of gabo: a few keys over a base."""
    return write(
        tmp_path / "sevens.toml",
        """
        name = "sevens"
        base = "french"
        [rules.call]
        threshold = 7
        [rules.matching]
        enabled = false
        """,
    )


@pytest.fixture
def other_base(tmp_path: Path) -> Path:
    """A full variant with values that differ from french's everywhere the test looks."""
    return write(
        tmp_path / "house.toml",
        """
        name = "house"
        aliases = ["maison"]
        [rules.call]
        threshold = 9
        verified = true
        [rules.deal]
        cards = 5
        [rules.matching]
        max_cards = 1
        [rules.end]
        max_turns = 50
        [rules.values.cards]
        QH = -2
        """,
    )


def test_a_modifier_loaded_alone_applies_to_its_base(modifier: Path, french: Variant) -> None:
    v = load_variant(modifier)
    assert v.name == "sevens"
    assert v.rules.call.threshold == 7
    assert v.rules.matching.enabled is False
    rest = without(rules_of(v), "call.threshold", "matching.enabled")
    assert rest == without(rules_of(french), "call.threshold", "matching.enabled")
    assert v.plugins == french.plugins


def test_a_modifier_composed_adds_only_its_own_keys(modifier: Path, other_base: Path) -> None:
    house = load_variant(other_base)
    v = load_variant([other_base, modifier])
    # The modifier's own keys...
    assert v.rules.call.threshold == 7
    assert v.rules.matching.enabled is False
    # ...and everything else from the base it is composed with, not from french.
    assert v.rules.call.verified is True
    assert v.rules.deal.cards == 5
    assert v.rules.matching.max_cards == 1
    assert v.rules.end.max_turns == 50
    assert v.rules.values.cards == {"QH": -2}
    assert v.plugins == house.plugins == ()
    rest = without(rules_of(v), "call.threshold", "matching.enabled")
    assert rest == without(rules_of(house), "call.threshold", "matching.enabled")


def test_a_modifier_over_its_own_base_is_the_modifier_alone(modifier: Path) -> None:
    assert rules_of(load_variant(["french", modifier])) == rules_of(load_variant(modifier))


def test_a_composition_is_named_after_its_parts(modifier: Path, other_base: Path) -> None:
    v = load_variant([other_base, modifier])
    assert v.name == "house+sevens"
    assert v.aliases == ()


def test_modifiers_compose_in_order(tmp_path: Path, modifier: Path, other_base: Path) -> None:
    eights = write(tmp_path / "eights.toml", 'base = "french"\n[rules.call]\nthreshold = 8\n')
    v = load_variant([other_base, modifier, eights])
    assert v.rules.call.threshold == 8
    assert v.rules.matching.enabled is False
    assert v.rules.deal.cards == 5
    w = load_variant([other_base, eights, modifier])
    assert w.rules.call.threshold == 7


def test_a_full_variant_later_in_a_composition_overrides_earlier(
    tmp_path: Path, other_base: Path, french: Variant
) -> None:
    v = load_variant([other_base, "french"])
    # Every key french gives replaces the earlier one; tables still merge (QH is french's silence).
    assert (v.rules.call.threshold, v.rules.call.verified, v.rules.deal.cards) == (5, False, 4)
    assert (v.rules.matching.max_cards, v.rules.end.max_turns) == (3, 400)
    assert v.rules.values.cards == {"QH": -2, **french.rules.values.cards}
    assert v.plugins == french.plugins
    w = load_variant(["french", other_base])
    assert w.rules.call.threshold == 9
    assert w.rules.values.cards["QH"] == -2


def test_a_file_extending_a_modifier_is_a_full_variant(tmp_path: Path, modifier: Path, french: Variant) -> None:
    child = write(tmp_path / "child.toml", f'extends = "{modifier.as_posix()}"\n[rules.deal]\ncards = 6\n')
    v = load_variant(child)
    assert v.base is None  # base is not inherited: this file is not a modifier
    assert v.rules.call.threshold == 7
    assert v.rules.deal.cards == 6
    assert v.rules.values.cards == french.rules.values.cards


def test_an_error_in_a_composition_names_the_file(tmp_path: Path, modifier: Path) -> None:
    bad = write(tmp_path / "bad.toml", 'base = "french"\n[rules.call]\nthreshold = "seven"\n')
    with pytest.raises(VariantError, match=r"bad\.toml.*rules\.call\.threshold"):
        load_variant(["french", modifier, bad])


# --- nothing half-loaded -------------------------------------------------------------------------


def test_a_failed_load_leaves_nothing_behind(tmp_path: Path, french: Variant) -> None:
    names = variant_names()
    before = french.model_dump()
    good = write(tmp_path / "good.toml", 'extends = "french"\n[rules.call]\nthreshold = 7\n')
    bad = write(
        tmp_path / "bad.toml",
        f'extends = "{good.as_posix()}"\n[rules.deal]\ncards = 5\n[rules.call]\nverified = "sometimes"\n',
    )
    with pytest.raises(VariantError):
        load_variant(bad)
    with pytest.raises(VariantError):
        load_variant(["french", good, bad])
    # No cache, registry or base was changed by the failed attempts.
    assert variant_names() == names
    assert load_variant("french").model_dump() == before
    g = load_variant(good)
    assert g.rules.call.threshold == 7
    assert g.rules.deal.cards == 4
    assert g.rules.call.verified is False


def test_load_variant_returns_a_variant_or_raises(tmp_path: Path) -> None:
    results: list[Variant] = []
    bad = write(tmp_path / "bad.toml", 'extends = "french"\n[rules.end]\nties = ["coin_toss"]\n')
    with pytest.raises(VariantError):
        results.append(load_variant(bad))
    assert results == []


# --- round trip, immutability --------------------------------------------------------------------


@pytest.mark.parametrize("name", variant_names())
def test_model_dump_round_trips(name: str) -> None:
    v = load_variant(name)
    again = variant_from_dict(v.model_dump())
    assert again.model_dump() == v.model_dump()
    via_json = variant_from_dict(json.loads(v.model_dump_json()))
    assert via_json.model_dump() == v.model_dump()
    assert via_json.model_dump_json() == v.model_dump_json()


def test_a_composed_variant_round_trips(modifier: Path, other_base: Path) -> None:
    v = load_variant([other_base, modifier])
    assert variant_from_dict(json.loads(v.model_dump_json())).model_dump() == v.model_dump()


def test_a_round_tripped_variant_is_equal_to_the_original(french: Variant) -> None:
    assert variant_from_dict(french.model_dump()) == french


def test_equal_variants_stay_equal_after_a_game(french: Variant) -> None:
    other = load_variant("french")
    assert other == french
    tamalou.new_game(french, players=2, seed=1)
    assert other == french


def test_variant_from_dict_names_the_file_in_errors() -> None:
    with pytest.raises(VariantError, match=r"mine\.toml: rules\.call\.threshold"):
        variant_from_dict({"name": "x", "rules": {"call": {"threshold": "seven"}}}, file="mine.toml")
    with pytest.raises(VariantError, match="extends"):
        variant_from_dict({"name": "x", "extends": "french"})


def test_a_variant_is_immutable(french: Variant) -> None:
    with pytest.raises(pydantic.ValidationError):
        french.name = "german"  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        french.rules.call.threshold = 7  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        french.rules = french.rules.model_copy()  # type: ignore[misc]
    with pytest.raises(pydantic.ValidationError):
        french.rules.deck.jokers = 2  # type: ignore[misc]
    assert isinstance(french.plugins, tuple)
    assert isinstance(french.aliases, tuple)
    assert isinstance(french.rules.end.ties, tuple)
    assert french.name == "french"
    assert french.rules.call.threshold == 5


def test_the_tables_inside_a_variant_are_immutable(french: Variant) -> None:
    """A frozen model holding plain dicts is not immutable: these tables must refuse changes too."""
    with pytest.raises((TypeError, AttributeError, ValueError)):
        french.rules.values.ranks["A"] = 99
    with pytest.raises((TypeError, AttributeError, ValueError)):
        french.rules.values.cards["KS"] = 0
    with pytest.raises((TypeError, AttributeError, ValueError)):
        french.rules.powers.ranks["7"] = "none"
    assert french.rules.values.ranks["A"] == 1
    assert french.rules.values.cards["KS"] == 15


# --- the JSON Schema -----------------------------------------------------------------------------

_ANNOTATIONS = {"title", "description", "default", "examples", "$schema", "$id", "$comment", "deprecated"}
_TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


class _Invalid(Exception):
    pass


class MiniValidator:
    """Enough of JSON Schema (2020-12) for what pydantic emits, to check files against the schema
    without a dependency. Any keyword it does not know makes it fail loudly."""

    KNOWN = _ANNOTATIONS | {
        "$defs", "$ref", "type", "enum", "const", "anyOf", "oneOf", "allOf", "properties",
        "additionalProperties", "required", "items", "prefixItems", "minItems", "maxItems",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "propertyNames", "uniqueItems",
        "minLength", "maxLength", "maxProperties",
    }  # fmt: skip

    def __init__(self, schema: dict[str, Any]) -> None:
        self.root = schema

    def keywords(self, node: Any) -> Iterator[tuple[str, Any]]:
        if isinstance(node, dict):
            for k, v in node.items():
                yield k, v
                if k in ("properties", "$defs"):
                    for sub in v.values():
                        yield from self.keywords(sub)
                elif k not in ("default", "examples", "enum", "const"):
                    yield from self.keywords(v)
        elif isinstance(node, list):
            for item in node:
                yield from self.keywords(item)

    def resolve(self, ref: str) -> dict[str, Any]:
        assert ref.startswith("#/"), ref
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        assert isinstance(node, dict)
        return node

    def errors(self, value: Any, node: dict[str, Any] | None = None, where: str = "") -> list[str]:
        try:
            self.check(value, self.root if node is None else node, where)
        except _Invalid as exc:
            return [str(exc)]
        return []

    def check(self, value: Any, node: dict[str, Any], where: str) -> None:
        def fail(why: str) -> None:
            raise _Invalid(f"{where or '<root>'}: {why}")

        if "$ref" in node:
            self.check(value, self.resolve(node["$ref"]), where)
        if "type" in node:
            types = node["type"] if isinstance(node["type"], list) else [node["type"]]
            if not any(self.is_type(value, t) for t in types):
                fail(f"{value!r} is not {types}")
        if "enum" in node and value not in node["enum"]:
            fail(f"{value!r} not in {node['enum']}")
        if "const" in node and value != node["const"]:
            fail(f"{value!r} != {node['const']!r}")
        if "anyOf" in node and not any(not self.errors(value, sub, where) for sub in node["anyOf"]):
            fail(f"{value!r} matches none of anyOf")
        if "oneOf" in node and sum(not self.errors(value, sub, where) for sub in node["oneOf"]) != 1:
            fail(f"{value!r} does not match exactly one of oneOf")
        for sub in node.get("allOf", []):
            self.check(value, sub, where)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if "minimum" in node and value < node["minimum"]:
                fail(f"{value} < {node['minimum']}")
            if "maximum" in node and value > node["maximum"]:
                fail(f"{value} > {node['maximum']}")
            if "exclusiveMinimum" in node and value <= node["exclusiveMinimum"]:
                fail(f"{value} <= {node['exclusiveMinimum']}")
            if "exclusiveMaximum" in node and value >= node["exclusiveMaximum"]:
                fail(f"{value} >= {node['exclusiveMaximum']}")
        if isinstance(value, str):
            if "minLength" in node and len(value) < node["minLength"]:
                fail("too short")
            if "maxLength" in node and len(value) > node["maxLength"]:
                fail("too long")
        if isinstance(value, list):
            prefix = node.get("prefixItems", [])
            for i, item in enumerate(value):
                if i < len(prefix):
                    self.check(item, prefix[i], f"{where}[{i}]")
                elif isinstance(node.get("items"), dict):
                    self.check(item, node["items"], f"{where}[{i}]")
                elif node.get("items") is False:
                    fail("too many items")
            if "minItems" in node and len(value) < node["minItems"]:
                fail("too few items")
            if "maxItems" in node and len(value) > node["maxItems"]:
                fail("too many items")
        if isinstance(value, dict):
            if "maxProperties" in node and len(value) > node["maxProperties"]:
                fail("too many keys")
            props = node.get("properties", {})
            for key in node.get("required", []):
                if key not in value:
                    fail(f"required key {key!r} is missing")
            for key, item in value.items():
                path = f"{where}.{key}" if where else key
                if "propertyNames" in node:
                    self.check(key, node["propertyNames"], path)
                if key in props:
                    self.check(item, props[key], path)
                elif node.get("additionalProperties") is False:
                    fail(f"unknown key {key!r}")
                elif isinstance(node.get("additionalProperties"), dict):
                    self.check(item, node["additionalProperties"], path)

    @staticmethod
    def is_type(value: Any, t: str) -> bool:
        if t == "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        if t == "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        return {
            "object": dict,
            "array": list,
            "string": str,
            "boolean": bool,
            "null": type(None),
        }[t] is type(value) or (t == "object" and isinstance(value, dict))


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return variant_json_schema()


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> MiniValidator:
    return MiniValidator(schema)


def schema_node(schema: dict[str, Any], dotted: str) -> dict[str, Any]:
    """The schema of the key at ``dotted`` (following ``$ref`` and ``anyOf`` of one object)."""
    v = MiniValidator(schema)
    node: dict[str, Any] = schema
    for part in dotted.split("."):
        while "$ref" in node:
            node = v.resolve(node["$ref"])
        assert part in node.get("properties", {}), f"{dotted}: no {part!r} in the schema"
        node = node["properties"][part]
    while "$ref" in node:
        node = v.resolve(node["$ref"])
    return node


def model_key_paths(model: type[pydantic.BaseModel], prefix: str = "") -> list[str]:
    out = []
    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        out.append(path)
        ann = field.annotation
        if isinstance(ann, type) and issubclass(ann, pydantic.BaseModel):
            out.extend(model_key_paths(ann, path + "."))
    return out


def test_the_schema_is_json_and_an_object_schema(schema: dict[str, Any]) -> None:
    assert json.loads(json.dumps(schema)) == schema
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert schema["title"]


def test_the_schema_uses_only_known_keywords_and_valid_references(
    schema: dict[str, Any], validator: MiniValidator
) -> None:
    for key, value in validator.keywords(schema):
        assert key in MiniValidator.KNOWN, f"unexpected keyword {key!r}"
        if key == "$ref":
            validator.resolve(value)
        if key == "type":
            types = value if isinstance(value, list) else [value]
            assert set(types) <= _TYPES
        if key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            assert isinstance(value, list)
            assert value
        if key == "required":
            assert isinstance(value, list)


def test_the_schema_covers_every_key(schema: dict[str, Any]) -> None:
    paths = model_key_paths(Variant)
    assert "rules.call.threshold" in paths
    assert "rules.values.cards" in paths
    for path in paths:
        schema_node(schema, path)
    assert schema_node(schema, "rules.call.threshold")["type"] == "integer"
    assert schema_node(schema, "rules.call")["additionalProperties"] is False
    assert "extends" in schema["properties"]


def test_the_schema_of_extends_is_a_name_or_a_list(schema: dict[str, Any], validator: MiniValidator) -> None:
    node = schema["properties"]["extends"]
    assert node.get("description")
    assert not validator.errors("french", node)
    assert not validator.errors(["french", "jokers"], node)
    assert validator.errors(5, node)
    assert validator.errors([5], node)


def test_every_built_in_file_validates_against_the_schema(validator: MiniValidator) -> None:
    files = sorted(builtin_variants_dir().glob("*.toml"))
    assert FRENCH_TOML in files
    for f in files:
        raw = tomllib.loads(f.read_text(encoding="utf-8"))
        assert validator.errors(raw) == [], f.name


def test_a_house_rule_file_the_loader_accepts_validates(tmp_path: Path, validator: MiniValidator) -> None:
    text = 'extends = "french"\n[rules.call]\nthreshold = 7\n'
    load_variant(write(tmp_path / "gabo.toml", text))  # the loader takes it: so must an editor
    assert validator.errors(tomllib.loads(text)) == []


@pytest.mark.parametrize(
    "text",
    [
        'name = "x"\n[rules.call]\nthreshhold = 7\n',
        'name = "x"\n[rules.call]\nthreshold = "seven"\n',
        'name = "x"\n[rules.peek]\nmode = "all"\n',
        'name = "x"\n[rules.deck]\njokers = 3\n',
        'name = "x"\nextends = 5\n',
        'name = "x"\nnmae = "y"\n',
    ],
)
def test_the_schema_rejects_what_the_loader_rejects(tmp_path: Path, validator: MiniValidator, text: str) -> None:
    with pytest.raises(VariantError):
        load_variant(write(tmp_path / "bad.toml", text))
    assert validator.errors(tomllib.loads(text)) != []


def test_power_names_are_checked_by_the_loader_against_the_registered_powers(
    tmp_path: Path, validator: MiniValidator
) -> None:
    """Which powers exist depends on the plugins a variant names (``tamalou_powers``), so the JSON
    Schema says only "a power name" (a string) and the loader checks the name against the powers
    registered for that variant."""
    text = 'name = "x"\n[rules.powers.ranks]\n"7" = "fly"\n'
    with pytest.raises(VariantError) as info:
        load_variant(write(tmp_path / "bad.toml", text))
    assert (
        "bad.toml: rules.powers.ranks.7: unknown power 'fly' (powers: none, blind_swap, draw_up_to, give_stock_card, "
        in str(info.value)
    )
    assert validator.errors(tomllib.loads(text)) == []  # a plugin might register "fly"
    assert validator.errors({"name": "x", "rules": {"powers": {"ranks": {"7": 7}}}}) != []  # not a name


def test_a_dumped_variant_validates_against_the_schema(validator: MiniValidator, french: Variant) -> None:
    assert validator.errors(french.model_dump(mode="json")) == []


def test_the_schema_has_the_documentation_of_each_key(schema: dict[str, Any]) -> None:
    for path in model_key_paths(Variant):
        if path.count(".") >= 2:  # every key inside a [rules.*] table
            assert schema_node(schema, path).get("description"), path


# --- decks without suits (Cabo's 52 cards valued 0 to 13) ----------------------------------------

CABO_DECK = """
name = "cabo-deck"
[rules.deck]
ranks = ["0","1","2","3","4","5","6","7","8","9","10","11","12","13"]
suits = []
counts = { "0" = 2, "13" = 2 }
[rules.powers.ranks]
"7" = "peek_own"
"""


def test_a_suitless_deck_loads_and_its_cards_are_worth_their_number(tmp_path: Path) -> None:
    v = load_variant(write(tmp_path / "cabo.toml", CABO_DECK))
    deck = v.rules.deck
    assert deck.suits == ()
    assert deck.ranks == tuple(str(n) for n in range(14))
    assert deck.counts == {"0": 2, "13": 2}
    rb = rulebook(v)
    assert len(rb.deck_for(2)) == 52
    assert all(c.suit == "" for c in rb.deck_for(2))
    counts = deck_counter(rb.deck_for(2))
    assert counts["0"] == counts["13"] == 2
    assert {counts[str(n)] for n in range(1, 13)} == {4}
    assert [rb.value(Card(str(n), "")) for n in range(14)] == list(range(14))
    assert rb.value(Card("13", "")) == 13
    assert v.rules.powers.ranks == {"7": "peek_own"}


def test_values_of_a_suitless_deck_may_be_set_by_rank_and_a_file_may_extend_it(tmp_path: Path) -> None:
    base = write(tmp_path / "cabo.toml", CABO_DECK)
    child = write(
        tmp_path / "house.toml",
        f"""
        extends = "{base.as_posix()}"
        [rules.deck]
        counts = {{ "13" = 1 }}
        [rules.values.ranks]
        "13" = -1
        [rules.values.cards]
        "12" = 0
        """,
    )
    v = load_variant(child)
    rb = rulebook(v)
    assert len(rb.deck_for(2)) == 51
    assert rb.value(Card("13", "")) == -1
    assert rb.value(Card("12", "")) == 0
    assert rb.value(Card("11", "")) == 11


def test_a_suitless_deck_of_named_ranks_needs_their_values(tmp_path: Path) -> None:
    text = (
        'name = "x"\n[rules.players]\nmax = 2\n[rules.deal]\ncards = 2\n[rules.deck]\nranks = ["X", "1"]\nsuits = []\n'
    )
    with pytest.raises(VariantError, match="no value for card X"):
        load_variant(write(tmp_path / "named.toml", text))
    v = load_variant(write(tmp_path / "valued.toml", text + "[rules.values.ranks]\nx = 50\n"))
    assert rulebook(v).value(Card("X", "")) == 50
    assert len(rulebook(v).deck_for(2)) == 8


def test_ranks_and_counts_of_the_standard_variants_are_unchanged(french: Variant) -> None:
    assert french.rules.deck.suits == ("S", "H", "D", "C")
    assert french.rules.deck.counts == {}
    assert load_variant("jokers").rules.deck.counts == {}


@pytest.mark.parametrize(
    ("edit", "key_path", "expected"),
    [
        (('"13" = 2', '"14" = 2'), "rules.deck.counts", "rank '14' is not in the deck"),
        (('"13" = 2', '"13" = 0'), "rules.deck.counts.13", "greater than or equal to 1"),
        (('"7" = "peek_own"', '"14" = "peek_own"'), "rules.powers.ranks", "rank '14' is not in the deck"),
        (("suits = []", ""), "rules.deck.ranks", "not a standard rank"),
        (("suits = []", 'suits = ["S", "H"]'), "rules.deck.counts", "deck without suits"),
        (('"0","1"', '"A","1"'), "rules.deck.ranks", "cannot be written alone"),
        (('"0","1"', '"JK","1"'), "rules.deck.ranks", "jokers"),
        (('"0","1"', '"0","0"'), "rules.deck.ranks", "more than once"),
        (('"0","1"', '"ABCD","1"'), "rules.deck.ranks", "rank name of 1 to 3 letters or digits"),
        (('counts = { "0" = 2', 'counts = { "#" = 2'), "rules.deck.counts", "rank name"),
    ],
)
def test_a_wrong_suitless_deck_names_the_file_the_key_and_the_expectation(
    tmp_path: Path, edit: tuple[str, str], key_path: str, expected: str
) -> None:
    old, new = edit
    assert old in CABO_DECK
    path = write(tmp_path / "cabo.toml", CABO_DECK.replace(old, new, 1))
    with pytest.raises(VariantError) as info:
        load_variant(path)
    message = str(info.value)
    assert "cabo.toml" in message
    assert key_path in message
    assert expected in message


@pytest.mark.parametrize(
    ("toml", "key_path", "expected"),
    [
        ('[rules.deck]\nranks = ["0", "1"]', "rules.deck.ranks", "not a standard rank"),
        ('[rules.deck]\ncounts = { "A" = 2 }', "rules.deck.counts", "deck without suits"),
        ('[rules.powers.ranks]\n"13" = "peek_own"', "rules.powers.ranks.13", "rank '13' is not in the deck"),
        ('[rules.draw]\ndiscard_forbidden = ["K", "C"]', "rules.draw.discard_forbidden", "rank 'C' is not in"),
        ('[rules.values.ranks]\n"13" = 3', "rules.values.ranks.13", "rank '13' is not in the deck"),
        ('[rules.values.cards]\n"7" = 3', "rules.values.cards.7", "no suit"),
        ('[rules.powers.ranks]\n"7777" = "peek_own"', "rules.powers.ranks", "rank name of 1 to 3"),
    ],
)
def test_ranks_outside_a_standard_deck_name_the_file_and_key(
    tmp_path: Path, toml: str, key_path: str, expected: str
) -> None:
    assert_house_rule_error(tmp_path, toml, key_path, expected)


def test_rank_keys_may_be_written_in_lower_case(tmp_path: Path) -> None:
    v = load_variant(write(tmp_path / "house.toml", 'extends = "french"\n[rules.values.ranks]\nq = 12\n'))
    assert v.rules.values.ranks["Q"] == 12
    assert "q" not in v.rules.values.ranks


def test_a_rank_outside_a_restricted_suited_deck_is_refused_but_default_values_are_kept(tmp_path: Path) -> None:
    deck = '[rules.deck]\nranks = ["A", "2", "3"]\nsuits = ["H", "D", "S", "C"]\n'
    text = f'name = "small"\n[rules.players]\nmax = 2\n{deck}'
    v = load_variant(write(tmp_path / "small.toml", text))
    assert v.rules.values.ranks["K"] == 10  # a default for a rank the deck lacks: no error
    with pytest.raises(VariantError, match=r"rules\.powers\.ranks\.K: rank 'K' is not in the deck"):
        load_variant(write(tmp_path / "small2.toml", text + '[rules.powers.ranks]\nK = "peek_own"\n'))


def test_the_schema_knows_the_counts_of_a_deck(schema: dict[str, Any], validator: MiniValidator) -> None:
    assert schema_node(schema, "rules.deck.counts").get("description")
    assert validator.errors(tomllib.loads(CABO_DECK)) == []
    assert validator.errors(tomllib.loads(CABO_DECK.replace('"13" = 2', '"13" = 0'))) != []


# --- plugin modules beside the file ---------------------------------------------------------------

HOUSE_VALUE = """
import tamalou
{imports}

@tamalou.hookimpl
def tamalou_card_value(variant, card):
    return {value} if str(card) == "2H" else None
"""


@pytest.fixture
def module_name(request: pytest.FixtureRequest) -> Iterator[str]:
    """A module name of this test's own (``sys.modules`` is shared by the whole run), forgotten after."""
    name = f"house_{request.node.name.split('[')[0][5:45]}"
    yield name
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".") or k.startswith(name + "_")]:
        del sys.modules[key]


def plugin_file(folder: Path, name: str, value: int = 40, imports: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write(folder / f"{name}.py", HOUSE_VALUE.format(value=value, imports=imports))


def test_a_plugin_module_beside_the_file_is_found_without_pythonpath(tmp_path: Path, module_name: str) -> None:
    plugin_file(tmp_path, module_name)
    path = write(tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    before = list(sys.path)
    v = load_variant(path)
    assert tamalou.card_value(v, "2H") == 40
    assert tamalou.card_value(v, "3H") == 3
    assert sys.path == before
    assert Path(sys.modules[module_name].__file__ or "").parent == tmp_path
    # Loaded again (a new file, the same folder): the module already imported is the one used.
    again = write(tmp_path / "house2.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    assert tamalou.card_value(load_variant(again), "2H") == 40


def test_a_plugin_module_beside_a_file_reached_by_extends_is_found_and_may_import_its_neighbours(
    tmp_path: Path, module_name: str
) -> None:
    sub = tmp_path / "rules"
    sub.mkdir()
    write(sub / f"{module_name}_helper.py", "BONUS = 33\n")
    plugin_file(sub, module_name, value="BONUS", imports=f"from {module_name}_helper import BONUS")  # type: ignore[arg-type]
    write(sub / "base.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    top = write(tmp_path / "top.toml", 'extends = "rules/base.toml"\n[rules.call]\nthreshold = 3\n')
    before = list(sys.path)
    v = load_variant(top)
    assert tamalou.card_value(v, "2H") == 33
    assert v.rules.call.threshold == 3
    assert sys.path == before


def test_a_package_beside_the_file_is_found(tmp_path: Path, module_name: str) -> None:
    package = tmp_path / module_name
    plugin_file(package, "rules", value=21)
    write(package / "__init__.py", "")
    path = write(tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module_name}.rules"]\n')
    assert tamalou.card_value(load_variant(path), "2H") == 21


def test_the_folder_of_the_file_is_searched_before_sys_path(
    tmp_path: Path, module_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin_file(tmp_path / "elsewhere", module_name, value=1)
    monkeypatch.syspath_prepend(str(tmp_path / "elsewhere"))
    plugin_file(tmp_path / "here", module_name, value=2)
    path = write(tmp_path / "here" / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    assert tamalou.card_value(load_variant(path), "2H") == 2


def test_a_module_of_the_same_name_imported_from_elsewhere_is_an_error(tmp_path: Path, module_name: str) -> None:
    plugin_file(tmp_path / "a", module_name, value=1)
    plugin_file(tmp_path / "b", module_name, value=2)
    first = write(tmp_path / "a" / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    second = write(tmp_path / "b" / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    assert tamalou.card_value(load_variant(first), "2H") == 1
    with pytest.raises(VariantError) as info:
        load_variant(second)
    assert info.value.key == "plugins"
    message = str(info.value)
    assert "house.toml: plugins:" in message
    assert str(tmp_path / "a") in message
    assert str(tmp_path / "b") in message
    assert Path(sys.modules[module_name].__file__ or "").parent == tmp_path / "a"


def test_a_plugin_beside_the_file_keeps_working_in_snapshots(tmp_path: Path, module_name: str) -> None:
    plugin_file(tmp_path, module_name, value=40)
    v = load_variant(write(tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n'))
    g = tamalou.new_game(v, players=2, seed=3)
    again = tamalou.Game.from_json(g.to_json())
    assert again.to_json() == g.to_json()
    assert tamalou.card_value(again.variant, "2H") == 40


def test_an_untrusted_load_never_imports_a_module_beside_the_file(tmp_path: Path, module_name: str) -> None:
    plugin_file(tmp_path, module_name)
    path = write(tmp_path / "upload.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    with pytest.raises(VariantError, match="not allowed in an untrusted variant"):
        load_variant(path, allow_plugins=False)
    # Allowed by name, the module is looked for on sys.path only: an uploaded neighbour is never run.
    with pytest.raises(VariantError, match=f"cannot import plugin module '{module_name}'"):
        load_variant(path, allow_plugins=[module_name])
    assert module_name not in sys.modules


def test_a_failed_load_forgets_the_modules_it_imported_beside_the_file(tmp_path: Path, module_name: str) -> None:
    write(tmp_path / f"{module_name}_helper.py", "BONUS = 9\n")
    plugin_file(tmp_path, module_name, imports=f"from {module_name}_helper import BONUS")
    path = write(
        tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n[rules.peek]\nslots = [9]\n'
    )
    modules, before = set(sys.modules), list(sys.path)
    with pytest.raises(VariantError, match=r"house\.toml: rules\.peek\.slots: expected slots from 0 to 3"):
        load_variant(path)
    assert set(sys.modules) == modules
    assert sys.path == before
    # A plugin that fails its checks is forgotten too, so the file fixed loads the module fixed.
    write(tmp_path / f"{module_name}.py", HOUSE_VALUE.format(value=5, imports="").replace("card_value", "card_valu"))
    write(tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n')
    with pytest.raises(VariantError, match="tamalou_card_valu is not a tamalou hook"):
        load_variant(path)
    assert set(sys.modules) == modules
    plugin_file(tmp_path, module_name, value=6)
    assert tamalou.card_value(load_variant(path), "2H") == 6


# --- every problem at once, and checks of meaning ----------------------------------------------------


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    path = write(
        tmp_path / "house.toml",
        """
        extends = "french"
        [rules.call]
        threshold = "seven"
        threshhold = 7
        [rules.peek]
        slots = [0, 5]
        [rules.powers.ranks]
        "7" = "fly"
        """,
    )
    with pytest.raises(VariantError) as info:
        load_variant(path)
    exc = info.value
    assert [(e.file, e.key) for e in exc.errors] == [
        ("house.toml", "rules.call.threshold"),
        ("house.toml", "rules.call.threshhold"),
        ("house.toml", "rules.peek.slots"),
        ("house.toml", "rules.powers.ranks.7"),
    ]
    assert (exc.file, exc.key) == ("house.toml", "rules.call.threshold")
    assert exc.reason == 'expected an integer, got "seven"'
    assert str(exc).splitlines() == [e.line for e in exc.errors]


def test_the_errors_of_several_files_each_name_their_file(tmp_path: Path) -> None:
    base = write(tmp_path / "base.toml", 'extends = "french"\n[rules.call]\nthreshold = "seven"\n')
    child = write(tmp_path / "child.toml", f'extends = "{base.as_posix()}"\n[rules.end]\nties = "x"\n')
    with pytest.raises(VariantError) as info:
        load_variant(child)
    assert [(e.file, e.key) for e in info.value.errors] == [
        ("child.toml", "rules.end.ties"),
        ("base.toml", "rules.call.threshold"),
    ]


def test_a_check_of_meaning_names_the_file_loaded(tmp_path: Path) -> None:
    base = write(tmp_path / "base.toml", 'extends = "french"\n[rules.peek]\nslots = [0, 3]\n')
    child = write(tmp_path / "child.toml", f'extends = "{base.as_posix()}"\n[rules.deal]\ncards = 3\n')
    assert load_variant(base).rules.peek.slots == (0, 3)
    with pytest.raises(VariantError) as info:
        load_variant(child)
    assert str(info.value) == "child.toml: rules.peek.slots: expected slots from 0 to 2 (rules.deal.cards = 3), got 3"


@pytest.mark.parametrize(
    ("rules", "key", "expected"),
    [
        ({"peek": {"slots": [2, 7]}}, "rules.peek.slots", "expected slots from 0 to 3 (rules.deal.cards = 4), got 7"),
        ({"peek": {"mode": "choose", "count": 9}}, "rules.peek.count", "expected at most 4"),
        ({"deck": {"ranks": []}}, "rules.deck", "the deck has no cards"),
        ({"players": {"max": 12}, "deal": {"cards": 6}}, "rules.players.max", "12 players need 74 cards"),
        ({"values": {"cards": {"kh": 1, "KH ": 2}}}, "rules.values.cards", "'kh' and 'KH ' both name the card KH"),
        ({"powers": {"ranks": {"a": "peek_own", "A": "peek_own"}}}, "rules.powers.ranks", "both name the rank A"),
        ({"deck": {"suits": [], "ranks": ["X"], "counts": {"x": 9, "X": 2}}}, "rules.deck.counts", "rank X"),
        ({"deal": {"first_player": 6}}, "rules.deal.first_player", "expected 'random' or a seat from 0 to 5"),
        ({"deal": {"first_player": -1}}, "rules.deal.first_player", "'random' or a number greater than or equal to 0"),
        ({"draw": {"discard_forbidden": ["J", "j"]}}, "rules.draw.discard_forbidden", "'J' listed more than once"),
    ],
)
def test_variant_from_dict_checks_meaning_too(rules: dict[str, Any], key: str, expected: str) -> None:
    data = load_variant("french").model_dump()
    for section, keys in rules.items():
        data["rules"][section] = {**data["rules"][section], **keys}
    with pytest.raises(VariantError) as info:
        variant_from_dict(data, file="snap.toml")
    assert f"snap.toml: {key}: " in str(info.value)
    assert expected in str(info.value)


def test_card_and_rank_keys_written_differently_override_the_file_extended(tmp_path: Path) -> None:
    a = write(tmp_path / "a.toml", 'extends = "french"\n[rules.values.cards]\nKH = 15\n[rules.values.ranks]\nQ = 1\n')
    b = write(
        tmp_path / "b.toml", f'extends = "{a.as_posix()}"\n[rules.values.cards]\nkh = 20\n[rules.values.ranks]\nq = 2\n'
    )
    c = write(tmp_path / "c.toml", f'extends = "{b.as_posix()}"\n[rules.values.cards]\n"K h" = 1\n')
    v = load_variant(b)
    assert v.rules.values.cards["KH"] == 20
    assert v.rules.values.ranks["Q"] == 2
    assert tamalou.card_value(v, "KH") == 20
    # "K h" is no card: the error is c.toml's own.
    with pytest.raises(VariantError, match=r"c\.toml: rules\.values\.cards\.K h: 'K h' is not a card"):
        load_variant(c)
    d = write(tmp_path / "d.toml", f'extends = "{b.as_posix()}"\n[rules.values.cards]\nKH = 30\n')
    assert load_variant(d).rules.values.cards["KH"] == 30


def test_an_alias_of_another_registered_ruleset_is_an_error_but_a_copy_of_a_file_loads(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match=r"house\.toml: aliases: alias 'FUN' is already a name of the registered"):
        load_variant(write(tmp_path / "house.toml", 'extends = "french"\naliases = ["FUN"]\n'))
    copy = tmp_path / "french.toml"
    copy.write_text(FRENCH_TOML.read_text(encoding="utf-8").replace('aliases = ["tamalou", "tamalou-fr"]', ""))
    assert load_variant(copy).name == "french"


def test_a_variant_with_a_plugin_beside_its_file_unpickles_in_another_process(tmp_path: Path, module_name: str) -> None:
    plugin_file(tmp_path, module_name, value=44)
    v = load_variant(write(tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module_name}"]\n'))
    code = "import pickle, sys, tamalou; v = pickle.loads(sys.stdin.buffer.read()); print(tamalou.card_value(v, '2H'))"
    done = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(v), capture_output=True, check=True, cwd=Path.home()
    )
    assert done.stdout.decode().strip() == "44"


def test_a_name_and_a_list_of_that_name_keep_their_own_spec() -> None:
    """Loaded in either order, ``"jokers"`` and ``["jokers"]`` are the rules of the same file, each with
    the spec it was asked by, which a snapshot names its variant with (the cache of loaded variants keeps
    them apart: a process's history must not change a snapshot's text)."""
    as_list = load_variant(["jokers"])
    as_name = load_variant("jokers")
    assert as_list.spec == ["jokers"] and as_name.spec == "jokers"
    assert load_variant(["jokers"]) is as_list and load_variant("jokers") is as_name
    assert json.loads(tamalou.new_game(as_name, players=2, seed=0).to_json())["variant"] == "jokers"
    assert json.loads(tamalou.new_game(as_list, players=2, seed=0).to_json())["variant"] == ["jokers"]


# --- every number is bounded by the schema, so that whatever is accepted can be restored ---------------


def number_nodes(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer or number of the variant's JSON Schema, with its dotted path (lists' items and tables'
    values included; ``$ref`` and unions followed)."""
    v = MiniValidator(schema)
    todo: list[tuple[str, Any]] = [("", schema)]
    while todo:
        path, node = todo.pop()
        while "$ref" in node:
            node = v.resolve(node["$ref"])
        if node.get("type") in ("integer", "number"):
            yield path, node
        for key, sub in node.get("properties", {}).items():
            todo.append((f"{path}.{key}".lstrip("."), sub))
        todo += [(path, sub) for sub in node.get("anyOf", [])]
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                todo.append((f"{path}.*", node[key]))


def test_every_number_a_ruleset_may_hold_has_both_bounds_in_the_schema(schema: dict[str, Any]) -> None:
    found = dict(number_nodes(schema))
    assert len(found) >= 30
    unbounded = [path for path, node in found.items() if "minimum" not in node or "maximum" not in node]
    assert unbounded == []
    assert found["rules.timing.turn_seconds"]["maximum"] == MAX_SECONDS == 86_400 * 365
    assert found["rules.end.max_turns"]["maximum"] == MAX_TURNS
    assert found["rules.rounds.max_rounds"]["maximum"] == found["rules.rounds.count"]["maximum"] == MAX_ROUNDS
    # The lists of numbers are bounded too (their length: a variant is put whole in the snapshots of its games).
    assert schema_node(schema, "rules.timing.lockouts")["maxItems"] == MAX_LOCKOUTS
    assert schema_node(schema, "rules.deck.ranks")["maxItems"] == MAX_RANKS


def test_the_description_of_every_number_says_its_bounds() -> None:
    for section, info in Rules.model_fields.items():
        model = info.annotation
        assert isinstance(model, type) and issubclass(model, pydantic.BaseModel)
        props = model.model_json_schema(ref_template="{model}")["properties"]
        for key, field in model.model_fields.items():
            for _, node in number_nodes(props[key]):
                top = node["maximum"]
                text = str(int(top)) if float(top).is_integer() else str(top)
                assert text in (field.description or ""), f"rules.{section}.{key}: {field.description!r}"


TIMES = ["turn_seconds", "absent_turn_seconds", "peek_seconds", "swap_show_seconds", "countdown_seconds"]


@pytest.mark.parametrize("key", [*TIMES, "lockouts"])
@pytest.mark.parametrize("value", ["1e13", "63072000.0", "inf", "-inf", "nan", "-1.0", "100000000000"])
def test_times_are_finite_numbers_of_seconds_from_0_to_a_year(tmp_path: Path, key: str, value: str) -> None:
    """``turn_seconds = 1e13`` or ``peek_seconds = inf`` were accepted, but a game of them could not be
    restored (``Game.from_json`` refuses times from 1e12 s on)."""
    setting = f"lockouts = [5.0, {value}]" if key == "lockouts" else f"{key} = {value}"
    path = write(tmp_path / "clock.toml", f'extends = "tamalou-fun"\n[rules.timing]\n{setting}\n')
    for allow_plugins in (True, False):
        with pytest.raises(VariantError) as info:
            load_variant(path, allow_plugins=allow_plugins)
        where = f"rules.timing.{key}" + (".1" if key == "lockouts" else "")
        assert [(e.file, e.key) for e in info.value.errors] == [("clock.toml", where)]
        assert info.value.reason.startswith(("expected a finite number", "expected a number"))


def test_a_game_at_the_longest_times_restores_even_when_every_turn_runs_out(tmp_path: Path) -> None:
    """Every time at ``MAX_SECONDS`` and every one of ``MAX_TURNS`` turns running out: the clock reaches
    (MAX_TURNS + 1) x MAX_SECONDS, still far under what a snapshot restores."""
    assert (MAX_TURNS + 2) * MAX_SECONDS < MAX_TIME / 3
    most = repr(MAX_SECONDS)
    path = write(
        tmp_path / "slow.toml",
        f"""
        extends = "tamalou-fun"
        [rules.end]
        max_turns = {MAX_TURNS}
        [rules.timing]
        turn_seconds = {most}
        absent_turn_seconds = {most}
        absent_turns_to_leave = 0
        peek_seconds = {most}
        swap_show_seconds = {most}
        countdown_seconds = {most}
        lockouts = [{", ".join([most] * MAX_LOCKOUTS)}]
        """,
    )
    game = tamalou.new_game(load_variant(path), players=5, seed=1)
    while not game.is_over:
        if game.turn in (1, MAX_TURNS // 2):
            assert tamalou.Game.from_json(game.to_json()).to_json() == game.to_json()
        deadline = game.deadline
        assert deadline is not None
        game.apply(Tick(at=deadline))
    assert game.turn == MAX_TURNS and game.result().reason == "turn_limit"
    assert MAX_TURNS * MAX_SECONDS <= game.now < MAX_TIME
    again = tamalou.Game.from_json(game.to_json())
    assert again.now == game.now and again.to_json() == game.to_json()


@pytest.mark.parametrize(
    ("setting", "key"),
    [
        ("[rules.values.ranks]\nK = 1001", "rules.values.ranks.K"),
        ("[rules.values.cards]\nKH = -1001", "rules.values.cards.KH"),
        ("[rules.call]\nthreshold = 1001", "rules.call.threshold"),
        ("[rules.end]\nwin_max = -1001", "rules.end.win_max"),
        ("[rules.scoring]\ncaller_lost_penalty = 1001", "rules.scoring.caller_lost_penalty"),
        ("[rules.rounds]\nlimit = 1000000001", "rules.rounds.limit"),
        ("[rules.deal]\nfirst_player = 12", "rules.deal.first_player"),
        ("[rules.peek]\nslots = [0, 12]", "rules.peek.slots.1"),
        ("[rules.peek]\nmode = 'choose'\ncount = 13", "rules.peek.count"),
        ("[rules.timing]\nabsent_turns_to_leave = 10001", "rules.timing.absent_turns_to_leave"),
        ("[rules.deck]\nsuits = []\nranks = [" + ", ".join(f'"{i}"' for i in range(65)) + "]", "rules.deck.ranks"),
    ],
)
def test_points_seats_slots_and_counts_are_bounded(tmp_path: Path, setting: str, key: str) -> None:
    path = write(tmp_path / "big.toml", f'extends = "french"\n{setting}\n')
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert key in [e.key for e in info.value.errors], str(info.value)


def test_points_at_their_bounds_load_and_a_game_of_them_restores(tmp_path: Path) -> None:
    """A variant that is not registered is put whole in its games' snapshots, and checked again by
    ``from_json``: the largest legal values come back."""
    path = write(
        tmp_path / "extreme.toml",
        f"""
        extends = "french"
        [rules.players]
        max = {MAX_PLAYERS}
        [rules.deck]
        copies = 4
        jokers = 2
        [rules.deal]
        cards = {MAX_DEAL}
        first_player = {MAX_PLAYERS - 1}
        [rules.values.ranks]
        K = {MAX_POINTS}
        Q = -{MAX_POINTS}
        [rules.values.cards]
        KH = -{MAX_POINTS}
        [rules.call]
        threshold = {MAX_POINTS}
        [rules.end]
        win_max = -{MAX_POINTS}
        [rules.scoring]
        caller_lost_penalty = {MAX_POINTS}
        [rules.rounds]
        form = "points"
        limit = {MAX_LIMIT}
        max_rounds = {MAX_MATCH_TURNS // 400}
        """,
    )
    v = load_variant(path)
    match = tamalou.new_match(v, MAX_PLAYERS, seed=2)
    for _ in range(30):
        game = match.game
        game.apply(game.legal_actions(game.current_player)[-1])
    again = tamalou.Match.from_json(match.to_json())
    assert again.to_json() == match.to_json() and again.variant == v


def test_a_match_lasts_at_most_max_match_turns_turns(tmp_path: Path) -> None:
    """Its most rounds (1, ``count`` or ``max_rounds``, by its form) times ``end.max_turns``."""

    def problems(rounds: str, max_turns: int = 400) -> list[tuple[str | None, str]]:
        text = f'extends = ["french", "multi-round"]\n[rules.end]\nmax_turns = {max_turns}\n[rules.rounds]\n{rounds}\n'
        try:
            load_variant(write(tmp_path / "match.toml", text))
        except VariantError as exc:
            return [(e.key, e.reason) for e in exc.errors]
        return []

    per_round = MAX_MATCH_TURNS // 400
    assert problems(f"form = 'points'\nmax_rounds = {per_round}") == []
    assert problems(f"form = 'fixed'\ncount = {per_round}\nmax_rounds = {per_round}") == []
    assert problems("form = 'single'\nmax_rounds = 1000", max_turns=MAX_TURNS) == []  # one round, however long
    ((key, reason),) = problems(f"form = 'points'\nmax_rounds = {per_round + 1}")
    assert key == "rules.rounds.max_rounds"
    assert f"may last {(per_round + 1) * 400} turns: expected at most {MAX_MATCH_TURNS} turns in all" in reason
    ((key, reason),) = problems(f"form = 'wins'\ncount = {MAX_MATCH_TURNS // MAX_TURNS + 1}", max_turns=MAX_TURNS)
    assert key == "rules.rounds.count" and f"expected at most {MAX_MATCH_TURNS} turns" in reason
    # Every form ends by ``max_rounds`` (a match snapshot of more rounds is refused by ``Match.from_json``).
    most = Rules().rounds.max_rounds  # the default
    ((key, reason),) = problems(f"form = 'fixed'\ncount = {most + 1}", max_turns=10)
    assert (key, reason) == (
        "rules.rounds.count",
        f"expected at most {most} rounds (rounds.max_rounds: the most rounds of a match), got {most + 1}",
    )


@pytest.mark.deep  # 40,000 turns: a few seconds
def test_the_longest_legal_points_match_restores() -> None:
    """A 'points' match whose limit is never passed lasts ``rounds.max_rounds`` rounds (by default, at the
    default ``end.max_turns``: ``MAX_MATCH_TURNS`` turns in all). The player to move trying every match they
    may, each round to the turn limit, its snapshot stays far under what ``Match.from_json`` reads."""
    v = tamalou.variant_from_toml(
        f'name = "longest"\nextends = ["french", "multi-round"]\n[rules.rounds]\nform = "points"\nlimit = {MAX_LIMIT}\n'
    )
    match = tamalou.new_match(v, 2, seed=1)
    turns = 0
    while not match.is_over:
        game = match.game
        while not game.is_over:
            game.apply([a for a in game.legal_actions(game.current_player) if a.type != "call"][-1])
        turns += game.turn
        match.next_round()
    text = match.to_json()
    assert len(text) < MAX_TEXT / 2, f"{len(match.scores)} rounds, {turns} turns: {len(text)} characters"
    assert tamalou.Match.from_json(text).result() == match.result()
    assert turns == v.rules.rounds.max_rounds * v.rules.end.max_turns == MAX_MATCH_TURNS  # every round to its end


def test_a_variant_copies_as_itself() -> None:
    """``copy.copy`` and ``copy.deepcopy`` of a variant (inside a server's state, say) give the variant itself:
    it is immutable, and its rulebook holds plugin modules, which cannot be copied (a ``TypeError`` before)."""
    import copy

    for spec in ("french", ["cabo", "jokers"]):
        v = tamalou.load_variant(spec)
        assert copy.copy(v) is v
        assert copy.deepcopy(v) is v
        assert copy.deepcopy({"rules": v})["rules"] is v
