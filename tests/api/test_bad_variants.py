"""A corpus of malformed variants (``tests/data/bad_variants``): each is refused with one ``VariantError``
that names the file, the key and what was expected, lists every problem of the file, and leaves nothing
behind (no registered name, no cache entry, no plugin module, no action type, ``sys.path`` as it was).

Each ``*.toml`` of the folder is a case; its first comment lines say what it must raise:

- ``# expect: <key>: <text>``: a line ``<case>.toml: <key>: <text>...`` of the message, and one of the
  error's ``errors`` with that file and key whose reason contains ``<text>``. ``-`` stands for no key (a
  file that is not TOML at all);
- ``# expect (<file>): <key>: <text>``: the same, for an error that names another file (a file the case
  extends, in ``support/``);
- ``# errors: <n>``: the error lists exactly ``n`` problems.

``support/`` holds what the cases use (files they extend, plugin modules): not cases themselves. The
plugin modules named by the cases are beside them (``bv_*.py``), found without ``PYTHONPATH``.
"""

from __future__ import annotations

import pickle
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import tamalou
from tamalou import VariantError, load_variant, variant_names
from tamalou.actions import ACTION_TYPES
from tamalou.plugin_managers import discovery_manager
from tamalou.rulesets.registry import LOADED, name_table

CORPUS = Path(__file__).resolve().parents[1] / "data" / "bad_variants"
CASES = sorted(CORPUS.glob("*.toml"))
SUPPORT = CORPUS / "support"

_EXPECT = re.compile(r"# expect(?: \((?P<file>[^)]+)\))?: (?P<key>\S+): (?P<text>.+)")
_COUNT = re.compile(r"# errors: (?P<n>\d+)")


@dataclass(frozen=True)
class Expected:
    file: str
    key: str | None
    text: str

    @property
    def line(self) -> str:
        """How the problem starts in the message: ``file: key: text``."""
        return "".join(f"{x}: " for x in (self.file, self.key) if x) + self.text


def expectations(case: Path) -> tuple[list[Expected], int | None]:
    """The ``# expect`` lines of a case's leading comments, and its ``# errors`` count if it has one."""
    found: list[Expected] = []
    count = None
    for line in case.read_bytes().decode("utf-8", errors="replace").splitlines():
        if not line.startswith("#"):
            break
        if m := _EXPECT.fullmatch(line.strip()):
            key = None if m["key"] == "-" else m["key"]
            found.append(Expected(m["file"] or case.name, key, m["text"]))
        elif m := _COUNT.fullmatch(line.strip()):
            count = int(m["n"])
    return found, count


def state() -> dict[str, object]:
    """Everything a load could leave behind."""
    return {
        "names": variant_names(),
        "registry": dict(name_table()),
        "cache": set(LOADED),
        "modules": set(sys.modules),
        "actions": dict(ACTION_TYPES),
        "discovery": sorted(name for name, _ in discovery_manager().list_name_plugin()),
        "sys.path": list(sys.path),
        "meta_path": list(sys.meta_path),
    }


def corpus_modules() -> list[str]:
    """The modules of ``sys.modules`` that come from the corpus."""
    out = []
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None) or ""
        if name.startswith("bv_") or str(CORPUS) in where:
            out.append(name)
    return out


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Import, once, what any load imports lazily, so that ``sys.modules`` shows only what a case leaves."""
    for name in variant_names():
        load_variant(name)
    for bad in ({"name": "x", "rules": {"deal": {"cards": "x"}}}, {"name": "x", "rules": {"deal": 5}}):
        with pytest.raises(VariantError):
            tamalou.variant_from_dict(bad)


def test_the_corpus_has_thirty_cases_or_more_each_with_its_expectations() -> None:
    assert len(CASES) >= 30
    for case in CASES:
        expected, _ = expectations(case)
        assert expected, f"{case.name}: no '# expect: <key>: <text>' line"
        for e in expected:
            assert e.file == case.name or (SUPPORT / e.file).is_file(), f"{case.name}: {e.file} is not in support/"


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_a_bad_variant_is_refused_naming_file_key_and_expectation(case: Path) -> None:
    expected, count = expectations(case)
    before = state()
    with pytest.raises(VariantError) as info:
        load_variant(case)
    exc = info.value
    message = str(exc)
    problems = [(e.file, e.key, e.reason) for e in exc.errors]
    for e in expected:
        assert e.line in message, f"{case.name}: {e.line!r} not in:\n{message}"
        assert any(f == e.file and k == e.key and e.text in r for f, k, r in problems), (case.name, e, problems)
    if count is not None:
        assert len(exc.errors) == count, f"{case.name}: {len(exc.errors)} problems, expected {count}:\n{message}"
    # The first problem is the error's own file, key and reason (as for an error of one problem).
    first = exc.errors[0]
    assert (exc.file, exc.key, exc.reason) == (first.file, first.key, first.reason)
    assert message.splitlines()[0] == first.line
    assert len(message.splitlines()) == len(exc.errors)
    # Nothing was half-registered...
    assert state() == before, case.name
    assert corpus_modules() == []
    # ...so that loading it again fails the same way.
    with pytest.raises(VariantError) as again:
        load_variant(case)
    assert str(again.value) == message
    assert state() == before


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_an_untrusted_load_refuses_the_case_too_and_imports_nothing(case: Path) -> None:
    before = state()
    with pytest.raises(VariantError):
        load_variant(case, allow_plugins=False)
    assert state() == before
    assert corpus_modules() == []


def test_every_problem_is_listed_with_its_file_and_key() -> None:
    with pytest.raises(VariantError) as info:
        load_variant(CORPUS / "every_error_at_once.toml")
    exc = info.value
    # In the order of the file's own checks, then the checks across sections, then the plugins.
    assert [e.key for e in exc.errors] == [
        "aliases",
        "rules.values.cards",
        "rules.call.verified",
        "rules.call.threshhold",
        "rules.players.max",
        "rules.peek.slots",
        "plugins",
    ]
    assert {e.file for e in exc.errors} == {"every_error_at_once.toml"}
    assert all(isinstance(e, VariantError) and e.errors == [e] for e in exc.errors)


def test_a_variant_error_with_every_problem_pickles_whole() -> None:
    with pytest.raises(VariantError) as info:
        load_variant(CORPUS / "powers_unknown_several.toml")
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value)
    assert [(e.file, e.key, e.reason) for e in again.errors] == [(e.file, e.key, e.reason) for e in info.value.errors]
    one = VariantError("expected an integer", file="x.toml", key="rules.call.threshold")
    copy = pickle.loads(pickle.dumps(one))
    assert (copy.file, copy.key, copy.reason, str(copy)) == (one.file, one.key, one.reason, str(one))


def test_combine_keeps_one_error_as_it_is() -> None:
    one = VariantError("unknown key", file="x.toml", key="nmae")
    assert VariantError.combine([one]) is one
    two = VariantError.combine([one, VariantError("expected a list", file="y.toml", key="aliases")])
    assert str(two) == "x.toml: nmae: unknown key\ny.toml: aliases: expected a list"
    assert (two.file, two.key, two.reason) == ("x.toml", "nmae", "unknown key")
    assert [e.line for e in VariantError.combine([two, one]).errors] == [
        "x.toml: nmae: unknown key",
        "y.toml: aliases: expected a list",
        "x.toml: nmae: unknown key",
    ]
    with pytest.raises(ValueError):
        VariantError.combine([])


def test_a_long_list_of_problems_is_cut_in_the_message_but_kept_whole(tmp_path: Path) -> None:
    rows = "\n".join(f'"{n}" = "fly{n}"' for n in ["A", *map(str, range(2, 11)), "J", "Q", "K"])
    ranks = "\n".join(f"{r} = {i}.5" for i, r in enumerate(["A", *map(str, range(2, 11)), "J", "Q", "K"]))
    path = tmp_path / "long.toml"
    path.write_text(f'extends = "french"\n[rules.values.ranks]\n{ranks}\n[rules.powers.ranks]\n{rows}\n', "utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    exc = info.value
    assert len(exc.errors) == 26  # 13 values that are no integer, 13 unknown powers
    assert len(str(exc).splitlines()) == 26
    path.write_text(f'extends = "french"\n[rules.powers.ranks]\n{rows}\n', "utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert len(info.value.errors) == 13
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert {e.key for e in info.value.errors} == {f"rules.powers.ranks.{r}" for r in ranks}
    many = VariantError.combine([VariantError(f"problem {i}", key=f"k{i}") for i in range(VariantError.MAX_LISTED + 5)])
    lines = str(many).splitlines()
    assert len(lines) == VariantError.MAX_LISTED + 1
    assert lines[-1] == "... and 5 more"
    assert len(many.errors) == VariantError.MAX_LISTED + 5
