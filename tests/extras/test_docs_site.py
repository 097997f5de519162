"""The documentation site (the ``docs`` extra: mkdocs and its Material theme): every page of ``docs/`` is in
``mkdocs.yml``'s nav and every page of the nav exists, and the site builds with ``mkdocs --strict`` (broken
links and anchors included)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from optional import require

yaml = require("docs", "yaml")
require("docs", "mkdocs")
require("docs", "material")

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TIMEOUT = 300


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as data: its ``!!python/name:`` tags (the Mermaid fence's formatter) read as ``None``."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def nav_pages() -> list[str]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
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


def test_site_builds_strictly(tmp_path: Path) -> None:
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
    # The diagrams made from the code go to the page as Mermaid blocks for the theme to draw (drawn in a browser).
    phases = (tmp_path / "site" / "phases" / "index.html").read_text(encoding="utf-8")
    assert phases.count('<pre class="mermaid"><code>stateDiagram-v2') == 3, phases[:2000]
