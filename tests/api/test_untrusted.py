"""Hostile input: loading variants you do not trust crashes nothing raw and executes nothing.

``load_variant(..., allow_plugins=False)`` (and ``variant_from_dict``) imports no plugin module but
tamalou's own, follows no path in ``extends`` or ``base``, and echoes no value in its errors. In every
mode, a file is resolved once per load, ``extends`` chains and TOML nesting are bounded, and a plugin
module that fails at import (even with ``SystemExit``) is a ``VariantError``. Every text of a ruleset is
bounded, those shown on one line refuse line breaks and control characters, and the stand-alone TOML written
of a variant (``variant_to_toml``) injects nothing through them.

The plugin modules are in ``tests/untrusted_plugins``.
"""

from __future__ import annotations

import sys
import time
import tomllib
from pathlib import Path

import pytest
import tomli_w

import tamalou
from tamalou import Variant, VariantError
from tamalou.rulesets.effective import variant_to_toml
from tamalou.rulesets.files import MAX_EXTENDS_DEPTH
from tamalou.schema import (
    MAX_ALIASES,
    MAX_BASE_LENGTH,
    MAX_DESCRIPTION_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SOURCE_LENGTH,
    MAX_SOURCES,
    MAX_TITLE_LENGTH,
)
from tiers import sized

TESTS_DIR = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fixture_plugins_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS_DIR))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def refused(spec: object, **kwargs: object) -> str:
    """The message of the ``VariantError`` that loading ``spec`` raises."""
    with pytest.raises(VariantError) as info:
        tamalou.load_variant(spec, **kwargs)  # type: ignore[arg-type]
    return str(info.value)


# --- 1. plugins: refused before anything is imported ------------------------------------------------


def test_an_untrusted_plugin_module_is_refused_and_never_imported(tmp_path: Path) -> None:
    from untrusted_plugins import TRACE

    path = write(tmp_path / "upload.toml", 'extends = "french"\nplugins = ["untrusted_plugins.trace"]\n')
    message = refused(path, allow_plugins=False)
    assert "plugins" in message
    assert "untrusted_plugins.trace" in message
    assert "untrusted_plugins.trace" not in sys.modules
    assert TRACE == []


def test_plugins_os_is_refused_in_untrusted_mode(tmp_path: Path) -> None:
    path = write(tmp_path / "upload.toml", 'extends = "french"\nplugins = ["os"]\n')
    message = refused(path, allow_plugins=False)
    assert "plugins" in message
    assert "'os'" in message


def test_a_plugin_named_by_any_file_of_a_composition_is_refused(tmp_path: Path) -> None:
    """Untrusted files extend only registered names, so the other way for a plugin to come in is a file
    of the caller's composition: it is refused too, naming the file."""
    first = write(tmp_path / "first.toml", 'extends = "french"\nplugins = ["untrusted_plugins.trace"]\n')
    second = write(tmp_path / "second.toml", 'base = "french"\n[rules.call]\nthreshold = 4\n')
    message = refused([second, first], allow_plugins=False)
    assert "first.toml: plugins" in message
    assert "untrusted_plugins.trace" not in sys.modules


def test_the_french_built_in_plugin_is_allowed_when_untrusted() -> None:
    v = tamalou.load_variant("french", allow_plugins=False)
    assert v.plugins == ("tamalou.plugins.french",)
    g = tamalou.new_game(v, players=2, seed=1)
    assert g.phase == "draw"


def test_a_composition_of_registered_names_loads_when_untrusted() -> None:
    v = tamalou.load_variant(["cartalogue", "gabo"], allow_plugins=False)
    assert v.name == "cartalogue+gabo"
    assert v == tamalou.load_variant(["cartalogue", "gabo"])


def test_an_uploaded_file_extending_a_registered_name_loads_when_untrusted(tmp_path: Path) -> None:
    path = write(tmp_path / "upload.toml", 'extends = "gabo"\n[rules.end]\nmax_turns = 90\n')
    v = tamalou.load_variant(path, allow_plugins=False)
    assert v.rules.end.max_turns == 90
    assert v.plugins == ("tamalou.plugins.french",)


def test_allow_plugins_as_a_list_allows_only_those_modules(tmp_path: Path) -> None:
    good = write(tmp_path / "good.toml", 'extends = "french"\nplugins = ["plugins_for_tests.card_values"]\n')
    v = tamalou.load_variant(good, allow_plugins=["plugins_for_tests.card_values"])
    assert tamalou.card_value(v, "2H") == 50
    bad = write(tmp_path / "bad.toml", 'extends = "french"\nplugins = ["untrusted_plugins.trace"]\n')
    message = refused(bad, allow_plugins=["plugins_for_tests.card_values"])
    assert "plugins" in message
    assert "untrusted_plugins.trace" in message
    assert "untrusted_plugins.trace" not in sys.modules


def test_a_trusted_load_does_not_open_the_cache_to_an_untrusted_one(tmp_path: Path) -> None:
    path = write(tmp_path / "house.toml", 'extends = "french"\nplugins = ["plugins_for_tests.card_values"]\n')
    assert tamalou.load_variant(path).plugins[-1] == "plugins_for_tests.card_values"
    assert "plugins_for_tests.card_values" in refused(path, allow_plugins=False)


def test_variant_from_dict_refuses_untrusted_plugins() -> None:
    data = tamalou.load_variant("french").model_dump(mode="json")
    assert tamalou.variant_from_dict(data, allow_plugins=False) == tamalou.load_variant("french")
    data["plugins"] = ["tamalou.plugins.french", "untrusted_plugins.trace"]
    with pytest.raises(VariantError) as info:
        tamalou.variant_from_dict(data, allow_plugins=False)
    assert "plugins" in str(info.value)
    assert "untrusted_plugins.trace" in str(info.value)
    assert "untrusted_plugins.trace" not in sys.modules


def test_extends_of_a_path_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = write(tmp_path / "upload.toml", 'extends = "/etc/passwd"\n')
    message = refused(path, allow_plugins=False)
    assert "extends" in message
    assert "root:" not in message
    lowered = message.lower()
    assert "cannot read" not in lowered
    assert "no such" not in lowered
    assert "not valid toml" not in lowered


def test_extends_of_a_path_says_nothing_of_whether_the_file_exists(tmp_path: Path) -> None:
    write(tmp_path / "secret.toml", 'name = "secret"\n[rules.call]\nthreshold = 7\n')
    there = write(tmp_path / "a.toml", 'extends = "secret.toml"\n')
    missing = write(tmp_path / "b.toml", 'extends = "nothing-here.toml"\n')
    message = refused(there, allow_plugins=False)
    assert "extends" in message
    assert message.replace("a.toml", "b.toml") == refused(missing, allow_plugins=False)
    # Trusted, the same file is followed.
    assert tamalou.load_variant(there).rules.call.threshold == 7


def test_a_modifier_base_path_is_refused_when_untrusted(tmp_path: Path) -> None:
    write(tmp_path / "secret.toml", 'name = "secret"\n')
    path = write(tmp_path / "mod.toml", 'base = "secret.toml"\n[rules.call]\nthreshold = 4\n')
    message = refused(path, allow_plugins=False)
    assert "mod.toml: extends" in message
    assert "secret" not in message


def test_untrusted_errors_name_the_key_and_the_expectation_not_the_value(tmp_path: Path) -> None:
    path = write(tmp_path / "upload.toml", 'extends = "french"\n[rules.end]\nmax_turns = "s3cr3t-value"\n')
    message = refused(path, allow_plugins=False)
    assert "rules.end.max_turns: expected an integer" in message
    assert "s3cr3t" not in message
    # A wrongly-typed extends is not echoed either.
    path = write(tmp_path / "ext.toml", "extends = { s3cr3t = 1 }\n")
    message = refused(path, allow_plugins=False)
    assert "extends" in message
    assert "s3cr3t" not in message
    # Trusted loads keep saying what they found.
    assert "s3cr3t" in refused(tmp_path / "upload.toml")


# --- 2. bounded work in every mode -----------------------------------------------------------------


def test_an_extends_diamond_is_resolved_once_per_file(tmp_path: Path) -> None:
    """Level k's two files both extend both files of level k+1: 2**16 paths, 34 files."""
    levels = 16
    for k in range(levels, 0, -1):
        parents = '["french"]' if k == levels else f'["d{k + 1}a.toml", "d{k + 1}b.toml"]'
        for side in "ab":
            write(tmp_path / f"d{k}{side}.toml", f"extends = {parents}\n[rules.end]\nmax_turns = {k}\n")
    top = write(tmp_path / "top.toml", 'extends = ["d1a.toml", "d1b.toml"]\n')
    start = time.process_time()  # CPU time: a loaded host's stalls are not this code's
    v = tamalou.load_variant(top)
    assert time.process_time() - start < 2.0
    assert v.rules.end.max_turns == 1


def test_an_extends_diamond_of_seventeen_files_is_fast(tmp_path: Path) -> None:
    """The shape of the speed requirement: file k extends ["k+1a", "k+1b"], both extending k+2 (9 singles, 8 pairs)."""
    singles = 9
    write(tmp_path / f"s{singles - 1}.toml", 'extends = "french"\n')
    for k in range(singles - 2, -1, -1):
        for side in "ab":
            write(tmp_path / f"p{k}{side}.toml", f'extends = "s{k + 1}.toml"\n')
        write(tmp_path / f"s{k}.toml", f'extends = ["p{k}a.toml", "p{k}b.toml"]\n')
    start = time.process_time()  # CPU time: a loaded host's stalls are not this code's
    v = tamalou.load_variant(tmp_path / "s0.toml")
    assert time.process_time() - start < 2.0
    assert v.name == "s0"


def test_a_long_extends_chain_is_a_variant_error_not_a_recursion_error(tmp_path: Path) -> None:
    n = 1000
    write(tmp_path / f"c{n - 1}.toml", 'extends = "french"\n')
    for i in range(n - 1):
        write(tmp_path / f"c{i}.toml", f'extends = "c{i + 1}.toml"\n')
    message = refused(tmp_path / "c0.toml")
    assert "extends" in message
    assert str(MAX_EXTENDS_DEPTH) in message


def test_an_extends_chain_within_the_bound_loads(tmp_path: Path) -> None:
    n = MAX_EXTENDS_DEPTH - 2
    write(tmp_path / f"c{n - 1}.toml", 'extends = "french"\n[rules.end]\nmax_turns = 77\n')
    for i in range(n - 1):
        write(tmp_path / f"c{i}.toml", f'extends = "c{i + 1}.toml"\n')
    assert tamalou.load_variant(tmp_path / "c0.toml").rules.end.max_turns == 77


@pytest.mark.parametrize("module", ["untrusted_plugins.exits", "untrusted_plugins.divides"])
def test_a_plugin_module_failing_at_import_is_a_variant_error(tmp_path: Path, module: str) -> None:
    path = write(tmp_path / "house.toml", f'extends = "french"\nplugins = ["{module}"]\n')
    message = refused(path)
    assert "plugins" in message
    assert module in message
    assert ("SystemExit(3)" if module.endswith("exits") else "ZeroDivisionError") in message


@pytest.mark.parametrize(
    "value",
    [
        "[" + ".".join(f"t{i}" for i in range(2000)) + "]\nx = 1\n",  # 2,000 nested tables
        "x = " + "{ a = " * 2000 + "1" + " }" * 2000 + "\n",  # 2,000 nested inline tables
        "x = " + "[" * 2000 + "1" + "]" * 2000 + "\n",  # 2,000 nested lists
    ],
    ids=["tables", "inline-tables", "lists"],
)
@pytest.mark.parametrize("allow_plugins", [True, False])
def test_deeply_nested_toml_is_a_variant_error(tmp_path: Path, value: str, allow_plugins: bool) -> None:
    path = write(tmp_path / "deep.toml", 'extends = "french"\n' + value)
    message = refused(path, allow_plugins=allow_plugins)
    assert "deep.toml" in message
    assert "nested" in message


def test_deeply_nested_data_is_a_variant_error_in_variant_from_dict() -> None:
    data = tamalou.load_variant("french").model_dump(mode="json")
    deep: dict[str, object] = {}
    data["x"] = deep
    for _ in range(2000):
        deep["a"] = {}
        deep = deep["a"]  # type: ignore[assignment]
    with pytest.raises(VariantError, match="nested"):
        tamalou.variant_from_dict(data, allow_plugins=False)


# --- 3. a round cannot be made endless -------------------------------------------------------------


@pytest.mark.parametrize("allow_plugins", [True, False])
def test_max_turns_is_bounded(tmp_path: Path, allow_plugins: bool) -> None:
    path = write(tmp_path / "endless.toml", 'extends = "french"\n[rules.end]\nmax_turns = 1000000000\n')
    message = refused(path, allow_plugins=allow_plugins)
    assert "rules.end.max_turns" in message
    assert "10000" in message
    ok = write(tmp_path / "long.toml", 'extends = "french"\n[rules.end]\nmax_turns = 10000\n')
    assert tamalou.load_variant(ok, allow_plugins=allow_plugins).rules.end.max_turns == 10000


# --- 4. integers too long to write ------------------------------------------------------------------

#: More digits than Python converts between text and int (``sys.get_int_max_str_digits()``, 4300 by default).
LONG = "1" + "0" * (max(sys.get_int_max_str_digits(), 4300) + 700)


def _refused(path: Path, text: str, how: str, allow_plugins: bool) -> VariantError:
    """The ``VariantError`` of the ruleset ``text`` loaded as the file ``path`` (``how="file"``) or from its text
    under that file's name (``"text"``); the test fails if it loads."""
    with pytest.raises(VariantError) as info:
        if how == "file":
            tamalou.load_variant(write(path, text), allow_plugins=allow_plugins)
        else:
            tamalou.variant_from_toml(text, file=path.name, allow_plugins=allow_plugins)
    return info.value


@pytest.mark.parametrize(
    ("rules", "key", "expected"),
    [
        (f"[rules.end]\nmax_turns = {LONG}", "rules.end.max_turns", "expected a number less than or equal to 10000"),
        (f"[rules.end]\nmax_turns = -{LONG}", "rules.end.max_turns", "expected a number greater than or equal to 1"),
        (f"[rules.end]\nmax_turns = +{LONG[:99]}_{LONG[99:]}", "rules.end.max_turns", "less than or equal to 10000"),
        (f"[rules.call]\nthreshold = {LONG}", "rules.call.threshold", "less than or equal to 1000"),
        (f"[rules.values.cards]\nKH = -{LONG}", "rules.values.cards.KH", "greater than or equal to -1000"),
        (f"[rules.timing]\nturn_seconds = {LONG}", "rules.timing.turn_seconds", "less than or equal to 31536000"),
        (f"[rules.timing]\nturn_seconds = 5\nlockouts = [1, {LONG}]", "rules.timing.lockouts.1", "less than or equal"),
        (f"[rules.deal]\nfirst_player = {LONG}", "rules.deal.first_player", "'random' or a number less than or equal"),
        (f"[rules.end]\nwin_max = 0x{LONG}", "rules.end.win_max", "less than or equal to 1000 or one of 'threshold'"),
        (f"[rules.rounds]\nlimit = {LONG}", "rules.rounds.limit", "less than or equal to 1000000000"),
        (f"aliases = [{LONG}]", "aliases.0", "expected a string"),
    ],
    ids=[
        "max_turns",
        "negative",
        "underscores",
        "threshold",
        "card-value",
        "seconds",
        "in-a-list",
        "union",
        "hexadecimal",
        "limit",
        "string",
    ],
)
@pytest.mark.parametrize("allow_plugins", [True, False])
@pytest.mark.parametrize("how", ["file", "text"])
def test_an_integer_too_long_to_write_is_a_variant_error_naming_the_file_and_the_key(
    tmp_path: Path, rules: str, key: str, expected: str, allow_plugins: bool, how: str
) -> None:
    """A decimal integer of more digits than ``int()`` converts makes ``tomllib`` raise a bare ``ValueError``;
    a hexadecimal one is read whatever its size, but writing it in an error message raises. Either is a
    ``VariantError`` naming the file, the key and the expectation, like any other value out of bounds."""
    exc = _refused(tmp_path / "huge.toml", 'extends = "french"\n' + rules + "\n", how, allow_plugins)
    assert [(e.file, e.key) for e in exc.errors] == [("huge.toml", key)], str(exc)
    assert expected in exc.reason
    if sys.get_int_max_str_digits():
        assert "0" * 100 not in str(exc)  # told by its size, never written out
        assert ("an integer of about" in exc.reason) == allow_plugins  # a trusted load says what it found


def test_a_long_integer_is_told_by_its_size_and_nothing_else_of_the_file_changes(tmp_path: Path) -> None:
    """Digits in strings, comments and keys are left alone; a later syntax error keeps its line and column."""
    text = (
        f'extends = "french"\ndescription = "{LONG}"\n# {LONG}\n[rules.values.ranks]\n{LONG} = 1\n'
        f"[rules.end]\nmax_turns = {LONG}\n"
    )
    with pytest.raises(VariantError) as info:
        tamalou.load_variant(write(tmp_path / "long.toml", text))
    keys = [e.key for e in info.value.errors]
    assert keys == ["description", f"rules.values.ranks.{LONG}", "rules.end.max_turns"]
    # The string is read whole (its length told: it is past the bound of a description).
    assert f"at most {MAX_DESCRIPTION_LENGTH} characters, got {len(LONG)}" in info.value.errors[0].reason
    assert f"an integer of about {len(LONG)} digits" in info.value.errors[2].reason
    broken = write(tmp_path / "broken.toml", f"[rules.end]\nmax_turns = {LONG}\nbad = = 3\n")
    with pytest.raises(VariantError, match=r"broken.toml: not valid TOML: .*\(at line 3, column 7\)"):
        tamalou.load_variant(broken)


# --- 5. a long list of plugins is checked in linear time --------------------------------------------


def _plugin_list(folder: Path, n: int, *, distinct: bool) -> Path:
    """A file listing ``n`` plugin modules that do not exist: all different, or 7 names again and again."""
    names = ", ".join(f'"zq{i if distinct else i % 7}"' for i in range(n))
    return write(folder / f"plugins-{n}-{distinct}.toml", f'extends = "french"\nplugins = [{names}]\n')


def _refused_in(path: Path, allow_plugins: bool) -> tuple[float, VariantError]:
    """The CPU time a load of ``path`` takes to be refused (a loaded host's stalls are not this code's)."""
    start = time.process_time()
    with pytest.raises(VariantError) as info:
        tamalou.load_variant(path, allow_plugins=allow_plugins)
    return time.process_time() - start, info.value


@pytest.mark.scaled
@pytest.mark.parametrize("distinct", [True, False], ids=["distinct", "repeated"])
@pytest.mark.parametrize("allow_plugins", [False, True], ids=["untrusted", "trusted"])
def test_a_long_plugin_list_is_checked_in_linear_time(tmp_path: Path, allow_plugins: bool, distinct: bool) -> None:
    """8,000 names (a 64 KB file of short ones) cost about 4 times 2,000: every name is checked once,
    against sets, whether it is refused (untrusted) or imported (trusted: 1,000 and 4,000 in the deep tier,
    500 and 2,000 in the fast one, each a real import attempt), however often it is listed."""
    n = sized(fast=500, deep=1000) if allow_plugins else 2000  # trusted: each name is a real import attempt
    _refused_in(_plugin_list(tmp_path, 50, distinct=distinct), allow_plugins)  # what a first load imports
    # The best of three runs of each size: a collection of the garbage or the other tests of a busy host can
    # stretch one run (it made this test fail once in a full run on two workers), not the three.
    small = min(_refused_in(_plugin_list(tmp_path, n, distinct=distinct), allow_plugins)[0] for _ in range(3))
    big = min(_refused_in(_plugin_list(tmp_path, 4 * n, distinct=distinct), allow_plugins)[0] for _ in range(3))
    _, exc = _refused_in(_plugin_list(tmp_path, 4 * n, distinct=distinct), allow_plugins)
    # Linear: 4 times the names, about 4 times the time (allowed 10 times, and 0.1 s: a host loaded by other
    # work stretched a best of three to 13 times once). The quadratic check it replaced took 16 times, and
    # 2.5 s for 8,326 names.
    assert big < 10 * small + 0.1, f"{n} names: {small:.3f} s, {4 * n}: {big:.3f} s"
    # One problem per module, however often it is listed.
    assert len(exc.errors) == (4 * n if distinct else 7)
    assert {e.key for e in exc.errors} == {"plugins"}


def test_plugin_lists_merged_by_extends_and_compositions_keep_their_order_once_each(tmp_path: Path) -> None:
    base = write(tmp_path / "base.toml", 'extends = "french"\nplugins = ["tamalou.plugins.cabo"]\n')
    top = write(
        tmp_path / "top.toml",
        f'extends = "{base.as_posix()}"\nplugins = ["tamalou.plugins.french", "tamalou.plugins.cabo"]\n',
    )
    assert tamalou.load_variant(top).plugins == ("tamalou.plugins.french", "tamalou.plugins.cabo")


# --- 6. documented --------------------------------------------------------------------------------


def test_load_variant_documents_allow_plugins() -> None:
    doc = tamalou.load_variant.__doc__ or ""
    assert "allow_plugins=False" in doc
    assert "server" in doc


# --- 7. bounded texts, and nothing injected through them --------------------------------------------

BIG = 100_000  # characters: far past every bound


@pytest.mark.parametrize(
    ("text", "key", "bound"),
    [
        (f'title = "{"t" * (MAX_TITLE_LENGTH + 1)}"', "title", f"at most {MAX_TITLE_LENGTH} characters"),
        (f'description = "{"d" * BIG}"', "description", f"at most {MAX_DESCRIPTION_LENGTH} characters"),
        (f'name = "{"n" * (MAX_NAME_LENGTH + 1)}"', "name", f"at most {MAX_NAME_LENGTH} characters"),
        (f'aliases = ["{"a" * (MAX_NAME_LENGTH + 1)}"]', "aliases.0", f"at most {MAX_NAME_LENGTH} characters"),
        (
            "aliases = [" + ", ".join(f'"alias{i}"' for i in range(MAX_ALIASES + 1)) + "]",
            "aliases",
            f"at most {MAX_ALIASES} items",
        ),
        (f'sources = ["ok", "{"s" * BIG}"]', "sources.1", f"at most {MAX_SOURCE_LENGTH} characters"),
        (
            "sources = [" + ", ".join(f'"source {i}"' for i in range(MAX_SOURCES + 1)) + "]",
            "sources",
            f"at most {MAX_SOURCES} items",
        ),
        (f'base = "{"b" * BIG}"', "base", f"at most {MAX_BASE_LENGTH} characters"),
        (f'[rules.powers.ranks]\nK = "{"p" * BIG}"', "rules.powers.ranks.K", f"at most {MAX_NAME_LENGTH} characters"),
        (f'[rules.powers.cards]\nKS = "{"p" * BIG}"', "rules.powers.cards.KS", f"at most {MAX_NAME_LENGTH} characters"),
    ],
    ids=["title", "description", "name", "alias", "aliases", "source", "sources", "base", "power", "card-power"],
)
@pytest.mark.parametrize("allow_plugins", [True, False])
@pytest.mark.parametrize("how", ["file", "text"])
def test_a_text_past_its_bound_is_a_variant_error_naming_the_file_the_key_and_the_bound(
    tmp_path: Path, text: str, key: str, bound: str, allow_plugins: bool, how: str
) -> None:
    """Every text of a ruleset has a bound its schema states (``schema.MAX_TITLE_LENGTH``...): past it, the
    ruleset is refused by one ``VariantError`` naming the file, the key and the bound, never the text."""
    exc = _refused(tmp_path / "long.toml", 'extends = "french"\n' + text + "\n", how, allow_plugins)
    assert [(e.file, e.key) for e in exc.errors] == [("long.toml", key)], str(exc)
    assert bound in exc.reason
    assert len(str(exc)) < 300  # the text itself is never written out


def test_every_bound_of_a_text_is_reached_and_no_further() -> None:
    """At its bound, each text is accepted (the bounds refuse only what is past them)."""
    data = tamalou.load_variant("french").model_dump(mode="json")
    data.update(
        name="n" * MAX_NAME_LENGTH,
        aliases=[f"{i:02d}" + "a" * (MAX_NAME_LENGTH - 2) for i in range(MAX_ALIASES)],
        title="t" * MAX_TITLE_LENGTH,
        description="d" * MAX_DESCRIPTION_LENGTH,
        sources=["s" * MAX_SOURCE_LENGTH] * MAX_SOURCES,
    )
    v = tamalou.variant_from_dict(data, allow_plugins=False)
    assert (len(v.name), len(v.aliases), len(v.title), len(v.description)) == (
        MAX_NAME_LENGTH,
        MAX_ALIASES,
        MAX_TITLE_LENGTH,
        MAX_DESCRIPTION_LENGTH,
    )


def test_the_schema_states_the_bounds_of_the_texts() -> None:
    """The documentation of the keys (generated from the schema's descriptions) says each bound."""
    fields = Variant.model_fields
    for key, bound in [
        ("name", MAX_NAME_LENGTH),
        ("aliases", MAX_ALIASES),
        ("aliases", MAX_NAME_LENGTH),
        ("title", MAX_TITLE_LENGTH),
        ("description", MAX_DESCRIPTION_LENGTH),
        ("sources", MAX_SOURCES),
        ("sources", MAX_SOURCE_LENGTH),
        ("base", MAX_BASE_LENGTH),
    ]:
        assert str(bound) in (fields[key].description or ""), key
    schema = tamalou.variant_json_schema()["properties"]
    assert schema["title"]["maxLength"] == MAX_TITLE_LENGTH
    assert schema["description"]["maxLength"] == MAX_DESCRIPTION_LENGTH
    assert schema["sources"]["maxItems"] == MAX_SOURCES


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("name", "house\n[rules.call]\nthreshold = 99"),
        ("name", "house\rrules"),
        ("name", "house\x1b[2Jrules"),
        ("name", "house\u2028rules"),
        ("aliases", ["ok", "our\nhouse"]),
        ("title", "Our house\n[rules.call]\nthreshold = 99"),
        ("title", "Our\x07house"),
        ("sources", ["a book\nfoo = 1"]),
        ("description", "A bell\x07, an escape \x1b[2J"),
        ("base", "french\nfoo = 1"),
    ],
    ids=[
        "name-newline",
        "name-cr",
        "name-escape",
        "name-separator",
        "alias",
        "title",
        "title-bell",
        "source",
        "description",
        "base",
    ],
)
@pytest.mark.parametrize("allow_plugins", [True, False])
def test_control_characters_and_line_breaks_are_refused_in_one_line_texts(
    key: str, value: object, allow_plugins: bool
) -> None:
    """A name, an alias, the title, a source and the base are shown on one line: a line break or a control
    character there is refused, naming the key and the character's code (nothing else of the value)."""
    text = 'extends = "french"\n' + tomli_w.dumps({key: value})
    with pytest.raises(VariantError) as info:
        tamalou.variant_from_toml(text, file="upload.toml", allow_plugins=allow_plugins)
    exc = info.value
    assert len(exc.errors) == 1, str(exc)
    assert exc.file == "upload.toml"
    assert exc.key is not None and exc.key.split(".")[0] == key
    assert "control characters" in exc.reason
    assert "U+" in exc.reason
    assert "threshold" not in str(exc) and "\x1b" not in str(exc) and "\n" not in str(exc)


HOSTILE_DESCRIPTION = 'Lines\n[rules.call]\nthreshold = 99\n# """\n\ttab \\ "quote" \'single\' \u2028 ]] é'


def test_a_description_may_hold_newlines_and_tabs_and_writes_back_the_same() -> None:
    """A description is shown to people and may span lines: newlines and tabs are kept, and the stand-alone
    TOML of the variant (``variant_to_toml``) reads back to the same variant, nothing injected."""
    base = tamalou.load_variant("french")
    text = 'extends = "french"\n' + tomli_w.dumps(
        {"title": "Our table # [rules] é ]]", "description": HOSTILE_DESCRIPTION, "sources": ['"a" # b']}
    )
    v = tamalou.variant_from_toml(text, file="house.toml", allow_plugins=False)
    assert v.description == HOSTILE_DESCRIPTION
    assert v.rules == base.rules
    written = variant_to_toml(v)
    again = tamalou.variant_from_toml(written, file="again.toml", allow_plugins=False)
    assert again == v
    assert again.rules.call.threshold == base.rules.call.threshold
    assert tomllib.loads(written).keys() == {"name", "title", "description", "sources", "plugins", "rules"}


@pytest.mark.parametrize(
    "name",
    [
        "x\n[rules.call]\nthreshold = 99",
        "x\r\nfoo = 1",
        "x\x00y",
        "x\x1b[2J\x07",
        "x\u2028foo = 1",
        "x\u0085foo = 1",
        "x\u202eevil",
    ],
    ids=["newline", "crlf", "nul", "escape", "line-separator", "next-line", "bidi"],
)
def test_the_comment_of_the_stand_alone_toml_injects_nothing(name: str) -> None:
    """``variant_to_toml`` writes the name in a comment: whatever the name holds (here a variant that was
    never validated, ``model_construct``), the comment stays one line of the file and its keys are the variant's."""
    v = tamalou.load_variant("french")
    unchecked = Variant.model_construct(**{**dict(v), "name": name})
    written = variant_to_toml(unchecked)
    head = written.split("\n")[:2]
    assert all(line.startswith("# ") for line in head), head
    assert all(c.isprintable() for line in head for c in line), head
    assert "\n".join(written.split("\n")[2:]) == variant_to_toml(v).split("\n", 2)[2].replace(
        'name = "french"', "name = " + tomli_w.dumps({"n": name})[4:-1], 1
    )
    data = tomllib.loads(written)  # valid TOML: the comment holds no character TOML refuses there
    assert data["name"] == name
    assert data["rules"]["call"] == v.rules.call.model_dump(mode="json")
    assert set(data) == {"name", "title", "description", "sources", "plugins", "rules"}
