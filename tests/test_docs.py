"""The documentation site: the reference pages are what scripts/gen_reference.py writes now, they name
everything they document, the site builds with ``mkdocs --strict``, and the tutorials run.

The tutorials (docs/index.md, docs/getting-started.md, docs/house-rules.md) are run block by block, in
order, in an empty temporary folder, as a reader would:

- a fenced block with a file name (```` ```toml title="our-table.toml" ````) is written to that file;
- a ```` ```python ```` block without a name is a complete script, run from that folder in a fresh
  ``python -I`` (no ``PYTHONPATH``, not even the folder itself on ``sys.path``); it must succeed;
- a ```` ```text title="Output" ```` block right after it lists lines that script must print (``...``
  stands for anything);
- a ```` ```console ```` block holds ``$ command`` lines, each followed by lines its output must contain;
  ``tamalou`` commands are run with this Python's ``tamalou`` and must succeed, others (``pip``...) are
  shown only.
"""

from __future__ import annotations

import inspect
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

import tamalou
import tamalou.engine
from scenario import load_script
from tamalou import bots, hookspecs
from tamalou.invariants import random_playout
from tamalou.schema import Rules, Variant

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SCRIPT = ROOT / "scripts" / "gen_reference.py"
REGENERATE = "regenerate with `python scripts/gen_reference.py` (from the repository root) and commit the pages"
# Pages whose commands and scripts run here (testing.md runs in tests/test_pytest_plugin.py, bots.md in
# tests/test_greedy_bot.py).
TUTORIALS = ("index.md", "getting-started.md", "house-rules.md", "verify.md", "simulate.md")
TIMEOUT = 300
# The reference pages are written from the docstrings of the Python sources, which the compiled core does not
# keep (docs/compiled.md): against it, they are rendered from this checkout's src/ (the command-line test).
COMPILED = tamalou.engine.compiled()


# ----------------------------------------------------------------------------------- generated pages


@pytest.fixture(scope="module")
def script() -> ModuleType:
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


def test_check_flag(script: ModuleType, tmp_path: Path) -> None:
    assert script.main(["--check", "--output", str(tmp_path)]) == 1  # missing
    assert script.main(["--output", str(tmp_path)]) == 0
    assert script.main(["--check", "--output", str(tmp_path)]) == 0
    page = tmp_path / "events.md"
    page.write_text("stale\n", encoding="utf-8")
    assert script.main(["--check", "--output", str(tmp_path)]) == 1
    assert page.read_text(encoding="utf-8") == "stale\n"  # --check changes nothing


def test_script_runs_from_the_command_line() -> None:
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
    for heading in ("### `tamalou.bots`", "### `tamalou.testing`", "### `tamalou.invariants`"):
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


def nav_pages() -> list[str]:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    found: list[str] = []

    def walk(item: object) -> None:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, list):
            for x in item:
                walk(x)
        elif isinstance(item, dict):
            for x in item.values():
                walk(x)

    walk(config["nav"])
    return found


def test_nav_pages_exist_and_every_page_is_in_the_nav() -> None:
    nav = nav_pages()
    missing = [p for p in nav if not (DOCS / p).is_file()]
    assert not missing, f"in mkdocs.yml's nav but not in docs/: {missing}"
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    left_out = [p for p in pages if p not in nav]
    assert not left_out, f"pages not in mkdocs.yml's nav: {left_out}"


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


def test_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


# ----------------------------------------------------------------------------------- the tutorials


@dataclass(frozen=True)
class Block:
    lang: str
    title: str | None
    body: str
    line: int  # of the opening fence, 1-based

    def where(self, page: str) -> str:
        return f"docs/{page}, block at line {self.line} ({self.lang}{' ' + self.title if self.title else ''})"


def blocks(text: str) -> Iterator[Block]:
    for m in re.finditer(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", text, re.M | re.S):
        title = re.search(r'title="([^"]*)"', m.group(2))
        yield Block(m.group(1), title.group(1) if title else None, m.group(3), text.count("\n", 0, m.start()) + 1)


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update({"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", "PYTHONIOENCODING": "utf-8"})
    return env


def tamalou_command() -> list[str]:
    script = Path(sys.executable).with_name("tamalou")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-I", "-c", "from tamalou.cli import main; main()"]


def normalised(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


def assert_shows(output: str, expected: list[str], where: str) -> None:
    lines = normalised(output)
    for want in normalised("\n".join(expected)):
        if want and want != "...":
            assert any(want in line for line in lines), f"{where}: the output has no line with {want!r}:\n{output}"


def run(args: list[str], cwd: Path, where: str, status: int = 0) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=clean_env(), timeout=TIMEOUT, check=False)
    assert done.returncode == status, (
        f"{where}: exit status {done.returncode}, expected {status}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def run_page(page: str, folder: Path) -> dict[str, int]:
    counts = {"file": 0, "python": 0, "output": 0, "command": 0}
    last: tuple[str, Block] | None = None  # the output of the previous block, if it was a script
    for block in blocks((DOCS / page).read_text(encoding="utf-8")):
        where = block.where(page)
        if block.title == "Output":
            assert last is not None, f"{where}: an Output block must follow a python block"
            assert_shows(last[0], block.body.splitlines(), where)
            counts["output"] += 1
        elif block.title is not None:
            target = folder / block.title
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
            counts["file"] += 1
        elif block.lang == "python":
            last = (run([sys.executable, "-I", "-c", block.body], folder, where), block)
            counts["python"] += 1
            continue
        elif block.lang == "console":
            commands = list(console_commands(block.body))
            for i, (command, expected) in enumerate(commands):
                argv = shlex.split(command)
                if argv[0] != "tamalou":
                    continue  # shown only: pip, `echo $?` (read below) and the like
                status = 0  # a command followed by `$ echo $?` must exit with the status shown
                if i + 1 < len(commands) and commands[i + 1][0] == "echo $?":
                    status = int(commands[i + 1][1][0])
                output = run(tamalou_command() + argv[1:], folder, f"{where}: `{command}`", status)
                assert_shows(output, expected, f"{where}: `{command}`")
                counts["command"] += 1
        last = None
    return counts


def console_commands(body: str) -> Iterator[tuple[str, list[str]]]:
    command: str | None = None
    expected: list[str] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            if command is not None:
                yield command, expected
            command, expected = line[2:].strip(), []
        elif command is not None:
            expected.append(line)
    if command is not None:
        yield command, expected


@pytest.mark.parametrize("page", TUTORIALS)
def test_tutorial_runs(page: str, tmp_path: Path) -> None:
    counts = run_page(page, tmp_path)
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
