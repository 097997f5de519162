"""``tamalou new`` (``tamalou.rulesets.authoring``): the files of a new ruleset load as they are, say the base's values,
and, with a plugin, make an installable package whose hook applies."""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou.cli import app
from tamalou.rulesets.authoring import NameError_, check_name, module_name, scaffold, write_files
from tamalou.rulesets.effective import effective_rules

runner = CliRunner()

BASES: list[str | tuple[str, ...]] = [*tamalou.variant_names(), ("french", "gabo"), ("cartalogue", "jokers")]

#: A commented-out key of the file: ``# key = value   # comment`` (not an example: "e.g.").
KEY_LINE = re.compile(r'^# ((?:"[^"]+"|[A-Za-z0-9_-]+) = .*?)(?:\s+# (.*))?$')


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def _ident(spec: str | tuple[str, ...]) -> str:
    return spec if isinstance(spec, str) else "+".join(spec)


def _base(spec: str | tuple[str, ...]) -> tamalou.Variant:
    return tamalou.load_variant(spec if isinstance(spec, str) else list(spec))


def _new(tmp_path: Path, name: str, spec: str | tuple[str, ...], *, plugin: bool = False) -> Path:
    parts = [spec] if isinstance(spec, str) else list(spec)
    write_files(scaffold(name, parts, plugin=plugin), tmp_path)
    return tmp_path / f"{name}.toml"


def _uncommented(text: str) -> str:
    """The file with every commented-out key line made a key (examples left commented)."""
    out = []
    for line in text.splitlines():
        m = KEY_LINE.match(line)
        if m and "e.g." not in (m.group(2) or ""):
            line = m.group(1)
        out.append(line)
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- names


def test_module_name_is_a_python_identifier() -> None:
    assert module_name("our-table") == "our_table_rules"
    assert module_name("Gabo_7") == "gabo_7_rules"
    assert module_name("2-players") == "house_2_players_rules"
    for name in ("our-table", "2-players", "x"):
        assert module_name(name).isidentifier()


@pytest.mark.parametrize("name", ["", "-x", "a b", "a/b", "../up", "a+b", "x" * 65, "é"])
def test_names_that_cannot_be_a_rulesets(name: str) -> None:
    with pytest.raises(NameError_, match="cannot name a ruleset"):
        check_name(name)


def test_a_toml_suffix_is_dropped() -> None:
    assert check_name("our-table.toml") == "our-table"


# ----------------------------------------------------------------------------- the TOML file


@pytest.mark.parametrize("spec", BASES, ids=_ident)
def test_the_new_file_loads_as_it_is_and_changes_nothing(spec: str | tuple[str, ...], tmp_path: Path) -> None:
    base = _base(spec)
    path = _new(tmp_path, "house", spec)
    v = tamalou.load_variant(str(path))
    assert v.name == "house"
    assert v.rules == base.rules
    assert v.plugins == base.plugins
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["extends"] == (spec if isinstance(spec, str) else list(spec))
    assert "rules" in data  # the tables are there, their keys commented out


@pytest.mark.parametrize("spec", BASES, ids=_ident)
def test_the_values_shown_are_the_bases(spec: str | tuple[str, ...], tmp_path: Path) -> None:
    """Uncommenting every key line (examples apart) changes nothing: each value shown is the base's."""
    base = _base(spec)
    path = _new(tmp_path, "house", spec)
    text = path.read_text(encoding="utf-8")
    shown = [line for line in text.splitlines() if KEY_LINE.match(line)]
    assert len(shown) > 20
    path.write_text(_uncommented(text), encoding="utf-8")
    v = tamalou.load_variant(str(path))
    # The keys are the base's, but for ranks the base values by their number (a deck without suits): the
    # file writes those values out. The cards score the same.
    ours, theirs = v.rules.model_dump(), base.rules.model_dump()
    ranks, base_ranks = ours["values"].pop("ranks"), theirs["values"].pop("ranks")
    assert ours == theirs
    assert {r: ranks[r] for r in base_ranks} == base_ranks
    assert effective_rules(v).cards == effective_rules(base).cards
    for key in ("threshold", "min", "max", "cards", "form"):
        assert re.search(rf"^# {key} = ", text, re.M), key


def test_the_comments_explain_the_main_keys(tmp_path: Path) -> None:
    text = _new(tmp_path, "house", "french").read_text(encoding="utf-8")
    assert "# threshold = 5" in text and "a call is right at this total or less" in text
    assert "# KS = 15" in text and '# "7" = "peek_own"' in text
    assert "# min = 2" in text and "fewest players" in text
    assert "tamalou validate house.toml" in text
    assert "peek_own" in text and "look_and_swap" in text  # the powers one may give
    assert max(len(line) for line in text.splitlines()) <= 120


def test_a_base_with_no_single_card_values_gets_an_example(tmp_path: Path) -> None:
    text = _new(tmp_path, "house", "cabo").read_text(encoding="utf-8")
    assert re.search(r'^# "13" = 0 .*e\.g\. every 13 worth 0 instead of 13', text, re.M), text


# ----------------------------------------------------------------------------- with a plugin


def test_the_plugin_files(tmp_path: Path) -> None:
    files = scaffold("our-table", "french", plugin=True)
    assert sorted(files) == ["our-table.toml", "our_table_rules.py", "pyproject.toml"]
    assert tomllib.loads(files["our-table.toml"])["plugins"] == ["our_table_rules"]
    module = files["our_table_rules.py"]
    tree = ast.parse(module)
    hooks = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [h.name for h in hooks] == ["tamalou_card_value", "tamalou_variant_paths"]
    for hook in hooks:
        assert [ast.unparse(d) for d in hook.decorator_list] == ["tamalou.hookimpl"]
    doc = ast.get_docstring(hooks[0]) or ""
    assert "First result wins" in doc and "None" in doc and "no opinion" in doc
    assert 'CARD = "JH"' in module and "VALUE = 0" in module
    project = tomllib.loads(files["pyproject.toml"])
    assert project["build-system"]["build-backend"] == "hatchling.build"
    assert project["project"]["entry-points"]["tamalou"] == {"our-table": "our_table_rules"}
    wheel = project["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["only-include"] == ["our_table_rules.py"]
    assert wheel["force-include"] == {"our-table.toml": "our_table_rules_variants/our-table.toml"}
    assert "tamalou>=0.1" in project["project"]["dependencies"]


def test_the_plugin_beside_the_toml_applies(tmp_path: Path) -> None:
    """Loaded by its path, without PYTHONPATH: the module beside the TOML is imported and its hook decides
    the value of one card, the keys the others."""
    path = _new(tmp_path, "beside-plugin", "french", plugin=True)
    v = tamalou.load_variant(str(path))
    assert v.plugins == ("tamalou.plugins.french", "beside_plugin_rules")
    assert tamalou.card_value(v, "JH") == 0
    assert tamalou.card_value(v, "JS") == 10 and tamalou.card_value(v, "KS") == 15
    lines = {tuple(line.cards): line for line in effective_rules(v).cards if line.rank == "J"}
    assert lines[("JH",)].value == 0 and lines[("JH",)].value_from == "beside_plugin_rules"
    assert lines[("JS", "JD", "JC")].value_from is None
    game = tamalou.new_game(v, players=3, seed=1)
    assert not game.is_over


def test_the_plugin_ships_its_ruleset(tmp_path: Path) -> None:
    """Installed, the module is found through the entry point and gives the TOML (tamalou_variant_paths)."""
    _new(tmp_path, "shipped", "french", plugin=True)
    spec = importlib.util.spec_from_file_location("shipped_rules_copy", tmp_path / "shipped_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    paths = module.tamalou_variant_paths()
    assert paths[0] == tmp_path / "shipped.toml" and paths[0].is_file()
    assert paths[1] == tmp_path / "shipped_rules_variants"


# ----------------------------------------------------------------------------- writing


def test_write_files_refuses_to_overwrite(tmp_path: Path) -> None:
    files = scaffold("keep", "french", plugin=True)
    (tmp_path / "keep_rules.py").write_text("# mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError, match=r"keep_rules\.py already exists"):
        write_files(files, tmp_path)
    assert (tmp_path / "keep_rules.py").read_text(encoding="utf-8") == "# mine\n"
    assert not (tmp_path / "keep.toml").exists()  # nothing written
    write_files(files, tmp_path, force=True)
    assert (tmp_path / "keep_rules.py").read_text(encoding="utf-8") == files["keep_rules.py"]


# ----------------------------------------------------------------------------- tamalou new


def test_new_writes_a_ruleset_that_validates(tmp_path: Path) -> None:
    result = run("new", "our-table", "--extends", "french", "--dir", str(tmp_path / "rules"))
    assert result.exit_code == 0, result.output
    path = tmp_path / "rules" / "our-table.toml"
    assert f"wrote {path}" in result.output
    assert sorted(p.name for p in path.parent.iterdir()) == ["our-table.toml"]
    assert run("validate", str(path)).exit_code == 0
    shown = run("show", str(path))
    assert shown.exit_code == 0 and "call: right at 5 points or less" in shown.output


def test_new_with_a_plugin(tmp_path: Path) -> None:
    result = run("new", "cli-plugin", "--extends", "gabo", "--plugin", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli-plugin.toml", "cli_plugin_rules.py", "pyproject.toml"]
    assert run("validate", str(tmp_path / "cli-plugin.toml")).exit_code == 0
    shown = run("show", str(tmp_path / "cli-plugin.toml"))
    assert shown.exit_code == 0
    assert "cli_plugin_rules" in shown.output and "call: right at 7 points or less" in shown.output


def test_new_refuses_to_overwrite_unless_forced(tmp_path: Path) -> None:
    assert run("new", "twice", "--extends", "french", "--dir", str(tmp_path)).exit_code == 0
    path = tmp_path / "twice.toml"
    path.write_text(path.read_text(encoding="utf-8") + "# my change\n", encoding="utf-8")
    again = run("new", "twice", "--extends", "french", "--dir", str(tmp_path))
    assert again.exit_code == 2, again.output
    assert "twice.toml already exists" in again.output and "--force" in again.output
    assert "# my change" in path.read_text(encoding="utf-8")
    forced = run("new", "twice", "--extends", "french", "--dir", str(tmp_path), "--force")
    assert forced.exit_code == 0
    assert "# my change" not in path.read_text(encoding="utf-8")


def test_new_a_composition_and_a_path(tmp_path: Path) -> None:
    assert run("new", "composed", "--extends", "french+gabo", "--dir", str(tmp_path)).exit_code == 0
    composed = tmp_path / "composed.toml"
    assert tomllib.loads(composed.read_text(encoding="utf-8"))["extends"] == ["french", "gabo"]
    assert tamalou.load_variant(str(composed)).rules.call.threshold == 7
    # A base given as a path is written relative to the new file's folder.
    result = run("new", "on-top", "--extends", str(composed), "--dir", str(tmp_path / "sub"))
    assert result.exit_code == 0, result.output
    on_top = tmp_path / "sub" / "on-top.toml"
    assert tomllib.loads(on_top.read_text(encoding="utf-8"))["extends"] == "../composed.toml"
    assert tamalou.load_variant(str(on_top)).rules.call.threshold == 7


def test_new_into_a_file_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "afile"
    target.write_text("", encoding="utf-8")
    result = run("new", "mine", "--extends", "french", "--dir", str(target))
    assert result.exit_code == 2, result.output
    assert "is not a folder" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "bad name", "--extends", "french"], "cannot name a ruleset"),
        (["new", "french", "--extends", "french"], "'french' is the name of a known ruleset"),
        (["new", "tamalou", "--extends", "french"], "'tamalou' is the name of a known ruleset"),
        (["new", "mine", "--extends", "nosuch"], "unknown variant 'nosuch'"),
        (["new", "mine"], "--extends"),
    ],
)
def test_new_usage_errors(args: list[str], message: str, tmp_path: Path) -> None:
    result = run(*args, "--dir", str(tmp_path))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []
