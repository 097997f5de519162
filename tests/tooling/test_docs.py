"""The documentation site: the reference pages are what scripts/gen_reference.py writes now, they name
everything they document, and the tutorials run.

The tutorials run as ``tests/tutorials.py`` says (a reader's steps, in an empty folder); the site's build
is ``tests/extras/test_docs_site.py`` (the ``docs`` extra).
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tamalou
import tamalou.engine
import tiers
from optional import require
from scenario import load_script
from tamalou import bots, hookspecs
from tamalou.schema import Rules, Variant
from tamalou.verify import random_playout
from tutorials import blocks, console_commands, run_page

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SCRIPT = ROOT / "scripts" / "gen_reference.py"
REGENERATE = "regenerate with `python scripts/gen_reference.py` (from the repository root) and commit the pages"
# Pages whose commands and scripts run here (testing.md runs in tests/properties/test_pytest_plugin.py, bots.md in
# tests/api/test_greedy_bot.py).
TUTORIALS = ("index.md", "getting-started.md", "house-rules.md", "verify.md", "simulate.md")
# The reference pages are written from the docstrings of the Python sources, which the compiled core does not
# keep (docs/compiled.md): against it, they are rendered from this checkout's src/ (the command-line test).
COMPILED = tamalou.engine.compiled()


# ----------------------------------------------------------------------------------- generated pages


@pytest.fixture(scope="module")
def script() -> ModuleType:
    # The API reference documents tamalou.ai, whose modules import the ai extra's packages.
    for module in ("numpy", "pettingzoo", "pyspiel"):
        require("ai", module)
    return load_script(SCRIPT)


@pytest.fixture(scope="module")
def pages(script: ModuleType) -> dict[str, str]:
    rendered: dict[str, str] = script.render()
    return rendered


def test_committed_pages_are_up_to_date(pages: dict[str, str]) -> None:
    if COMPILED:
        pytest.skip("the compiled core keeps no docstrings: test_script_runs_from_the_command_line renders src/")
    stale = [rel for rel, text in pages.items() if not (DOCS / rel).exists() or (DOCS / rel).read_text("utf-8") != text]
    assert not stale, f"stale or missing: {', '.join(stale)}: {REGENERATE}"


def test_output_is_deterministic(script: ModuleType, pages: dict[str, str]) -> None:
    assert script.render() == pages
    for text in pages.values():
        assert text.endswith("\n") and not text.endswith("\n\n")


def test_pictures_are_drawn_into_the_hand_written_pages(script: ModuleType, tmp_path: Path) -> None:
    # Each drawing is in one page, between its marks; the words around it are the page's own.
    drawn = script.render_drawn({})
    assert sorted(drawn) == [
        "architecture.md",
        "getting-started.md",
        "server.md",
        "train-a-bot.md",
        "write-a-mechanic.md",
    ]
    for rel, text in drawn.items():
        outside = re.sub(r"<!-- drawn: [\w-]+ -->\n.*?<!-- /drawn -->", "", text, flags=re.S)
        assert outside == re.sub(
            r"<!-- drawn: [\w-]+ -->\n.*?<!-- /drawn -->", "", (DOCS / rel).read_text("utf-8"), flags=re.S
        )
    assert "S->>G: game.apply(action)" in drawn["server.md"]
    assert "react turn: a match, or NOOP" in drawn["train-a-bot.md"]
    # A mark that names no drawing, and a drawing no page asks for, stop the script.
    (tmp_path / "page.md").write_text("# A page\n\n<!-- drawn: nothing -->\n<!-- /drawn -->\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="'nothing', which DRAWN does not know"):
        script.render_drawn({}, tmp_path)
    (tmp_path / "page.md").write_text("# A page\n\n<!-- drawn: table -->\n<!-- /drawn -->\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="unused \\['action-blocks'"):
        script.render_drawn({}, tmp_path)


def test_check_flag(script: ModuleType, tmp_path: Path) -> None:
    assert script.main(["--check", "--output", str(tmp_path)]) == 1  # missing
    assert script.main(["--output", str(tmp_path)]) == 0
    assert script.main(["--check", "--output", str(tmp_path)]) == 0
    page = tmp_path / "events.md"
    page.write_text("stale\n", encoding="utf-8")
    assert script.main(["--check", "--output", str(tmp_path)]) == 1
    assert page.read_text(encoding="utf-8") == "stale\n"  # --check changes nothing


def test_script_runs_from_the_command_line(script: ModuleType) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")} if COMPILED else None
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{done.stderr}\n{REGENERATE}"


def hook_specs() -> dict[str, dict[str, object]]:
    return {
        name: getattr(fn, f"{hookspecs.PROJECT}_spec")
        for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(fn, f"{hookspecs.PROJECT}_spec")
    }


def section_of(page: str, heading: str) -> str:
    """The text of a page from ``heading`` to the next heading of the same or a higher level."""
    level = heading.split(" ")[0]
    start = page.index(heading + "\n")
    rest = page[start + len(heading) :]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", rest, re.M)]
    return rest[: ends[0]] if ends else rest


def test_every_hook_is_documented(pages: dict[str, str]) -> None:
    page = pages["reference/hooks.md"]
    specs = hook_specs()
    assert len(specs) >= 15
    for name, opts in specs.items():
        text = section_of(page, f"### `{name}`")
        calling = "first result wins" if opts.get("firstresult") else "collected"
        assert f"**Calling:** {calling}" in text, name
        assert f"def {name}(" in text
        doc = inspect.getdoc(getattr(hookspecs, name)) or ""
        assert " ".join(doc.split()[:8]) in " ".join(text.split()), f"{name}: its docstring is missing"


def test_every_key_of_the_format_is_documented(script: ModuleType, pages: dict[str, str]) -> None:
    page = pages["reference/variant-file.md"]
    top = section_of(page, "## Top-level keys")
    for key in [*Variant.model_fields, "extends"]:
        if key != "rules":
            assert f"| `{key}` |" in top, key
    for section, info in Rules.model_fields.items():
        text = section_of(page, f"## `[rules.{section}]`")
        model = info.annotation
        assert model is not None
        for key, field in model.model_fields.items():
            row = next((line for line in text.splitlines() if line.startswith(f"| `{key}` |")), None)
            assert row is not None, f"rules.{section}.{key}"
            assert script.cell(field.description or "") in row, f"rules.{section}.{key}"


def test_variant_file_names_no_rule_text_by_number(pages: dict[str, str]) -> None:
    """The rule texts are cited by their titles, never by a number of a file outside the repository."""
    assert not re.search(r"\b00[0-9]\b", pages["reference/variant-file.md"])
    assert not re.search(r"\b00[0-9]\b", (DOCS / "rulesets.md").read_text("utf-8"))


def test_every_public_name_is_in_the_api_page(pages: dict[str, str]) -> None:
    page = pages["reference/api.md"]
    rows = {line.split("`")[1].split("(")[0] for line in page.splitlines() if line.startswith("| `")}
    missing = [n for n in tamalou.__all__ if n not in rows]
    assert not missing, f"not in docs/reference/api.md: {missing}"
    assert set(bots.__all__) <= rows
    for heading in ("### `tamalou.bots`", "### `tamalou.testing`", "### `tamalou.verify`"):
        assert heading in page


# ----------------------------------------------------------------------------------- the events catalogue


def test_every_event_type_has_an_entry(script: ModuleType, pages: dict[str, str]) -> None:
    page = pages["events.md"]
    for t, doc in script.EVENTS.items():
        text = section_of(page, f"### `{t}`")
        for f in [*doc.fields, *doc.secret]:
            assert f"| `{f}` |" in text, (t, f)


def test_events_of_real_games_are_in_the_catalogue(script: ModuleType) -> None:
    """Random games of every ruleset: each event's type, public and secret fields are catalogued, and
    ``for_player`` hides exactly the secret fields, from exactly the players who did not see them."""
    seen: set[str] = set()
    for name in tamalou.variant_names():
        v = tamalou.load_variant(name)
        lo, hi = v.rules.players.min, v.rules.players.max
        for seed in range(4):
            game = random_playout(v, players=lo + seed % (hi - lo + 1), seed=seed)
            for event in game.events_so_far():
                doc = script.EVENTS.get(event.type)
                assert doc is not None, f"{name} seed {seed}: event {event.type!r} is not in the catalogue"
                seen.add(event.type)
                assert set(event.data) <= set(doc.fields), (event.type, sorted(event.data))
                secret = set(event.secret or ())
                assert secret <= set(doc.secret), (event.type, sorted(secret))
                for p in range(game.players):
                    mine = event.for_player(p)
                    assert mine.data == event.data
                    if event.secret is None:
                        assert mine.secret is None
                    elif event.sees(p):
                        assert mine.secret == event.secret and mine.sees(p)
                    else:
                        assert mine.secret == dict.fromkeys(event.secret) and not mine.sees(p)
    assert {"dealt", "drew", "looked", "peeked", "matched", "round_over"} <= seen


# ----------------------------------------------------------------------------------- the site


def without_code(text: str) -> str:
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def test_links_stay_inside_the_docs() -> None:
    """Every relative link of every page points to a page or file of docs/ (the site has nothing else)."""
    bad = []
    for page in sorted(DOCS.rglob("*.md")):
        for target in re.findall(r"\]\(([^)\s]+)\)", without_code(page.read_text(encoding="utf-8"))):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.is_relative_to(DOCS) or not path.exists():
                bad.append(f"{page.relative_to(ROOT)}: {target}")
    assert not bad, "links outside docs/ or to nothing:\n" + "\n".join(bad)


# ----------------------------------------------------------------------------------- the tutorials


#: The fast tier runs the tutorials that play many games with fewer (tests/tiers.py): each pair is (as the page
#: writes it, as the fast tier runs it). The deep tier runs these again as written; the other pages, which the fast
#: tier runs as written already, it does not run twice.
FAST_SIZES: dict[str, list[tuple[str, str]]] = {
    # A game that never ends costs its time limit (the transcript's numbers are free: tests/tutorials.py).
    "verify.md": [("--games 8 --players 2 --timeout 3\n", "--games 8 --players 2 --timeout 1\n")],
    "simulate.md": [
        ("$ tamalou simulate french -n 500 ", "$ tamalou simulate french -n 100 "),
        ("\n500 games of french", "\n100 games of french"),
        ("-n 300 --bots cautious\n300 games of french", "-n 60 --bots cautious\n60 games of french"),
        ("\n300 games of easy-call", "\n60 games of easy-call"),
        ('games=200, backend="inline")', 'games=40, backend="inline")'),
        ("\n200 ['cautious'", "\n40 ['cautious'"),
    ],
}


#: The tutorials whose transcripts depend on wall-clock time (a game stopped by its time limit, a hook slow enough
#: to be named): run alone, in the timing tier (``pytest --timing``).
TIMED_PAGES = {"verify.md"}


def _tutorial(page: str) -> Any:
    return pytest.param(page, marks=pytest.mark.timing) if page in TIMED_PAGES else page


@pytest.mark.scaled
@pytest.mark.parametrize(
    "page", [_tutorial(p) for p in TUTORIALS if p in FAST_SIZES] if tiers.DEEP else [_tutorial(p) for p in TUTORIALS]
)
def test_tutorial_runs(page: str, tmp_path: Path) -> None:
    counts = run_page(page, tmp_path, () if tiers.DEEP else FAST_SIZES.get(page, ()))
    assert counts["python"] + counts["command"] > 0, f"docs/{page}: nothing was run"
    if page == "house-rules.md":
        # The tutorial's steps: files, scripts, outputs and commands (a change of markup must not skip them).
        expected = {"file": 5, "python": 5, "output": 4, "command": 4}
        assert all(counts[k] >= n for k, n in expected.items()), counts


def test_block_parser_reads_titles_and_commands() -> None:
    text = '# t\n\n```toml title="a.toml"\nx = 1\n```\n\n```console\n$ tamalou variants\nfrench\n$ pip install x\n```\n'
    found = list(blocks(text))
    assert [(b.lang, b.title, b.line) for b in found] == [("toml", "a.toml", 3), ("console", None, 7)]
    assert list(console_commands(found[1].body)) == [("tamalou variants", ["french"]), ("pip install x", [])]


def test_the_menu_puts_users_pages_before_builders_and_contributors() -> None:
    """mkdocs.yml's menu: the pages of people who play and write rules first (getting started, the rules, house
    rules, verify, simulate, bots), then those of people who build on the library (a server, powers, mechanics,
    training), then the reference, the contributors' pages last."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    order = [m.group(1) for m in re.finditer(r"([\w/.-]+\.md)\s*$", nav, flags=re.M)]
    users = ["getting-started.md", "rules/french.md", "house-rules.md", "verify.md", "simulate.md", "bots.md"]
    builders = ["server.md", "serve-a-table.md", "write-a-power.md", "write-a-mechanic.md", "train-a-bot.md"]
    contributors = ["architecture.md", "compiled.md", "mutation.md"]
    assert max(order.index(p) for p in users) < min(order.index(p) for p in builders)
    assert max(order.index(p) for p in builders) < min(order.index(p) for p in contributors)
    assert order[-len(contributors) :] == contributors
