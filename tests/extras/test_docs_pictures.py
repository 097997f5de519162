"""The pictures of the documentation site, drawn in a browser (the ``docs`` extra, the deep tier): the site built
with ``mkdocs build --strict``, served on localhost, and every page that holds a Mermaid diagram opened in
headless Chromium, where each diagram must become an SVG of its kind (a state diagram, a flowchart, a sequence)
with no Mermaid error in it.

The site carries Mermaid itself (``docs/javascripts/mermaid.min.js``, in ``extra_javascript``: the Material theme
then uses it rather than fetching one from a CDN). The browser has no network: every request that does not go to
the site on localhost is refused, and the test fails if the page asked for one (as a theme loading Mermaid from a
CDN would). ``TAMALOU_CHROMIUM`` names another Chromium than Debian's ``/usr/bin/chromium``.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from optional import require

require("docs", "mkdocs")
material = require("docs", "material")
sync_api = require("docs", "playwright.sync_api")

pytestmark = pytest.mark.deep  # a site built and a browser started: about a minute

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CHROMIUM = os.environ.get("TAMALOU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Material's shadow roots are closed: the test opens them (before any page script runs) to read the SVGs.
OPEN_SHADOWS = (
    "const attach = Element.prototype.attachShadow;"
    "Element.prototype.attachShadow = function (init) { return attach.call(this, { ...init, mode: 'open' }); };"
)
#: Each Mermaid diagram type the docs use, and the ``aria-roledescription`` of the SVG Mermaid draws for it.
ROLES = {"stateDiagram-v2": "stateDiagram", "flowchart": "flowchart-v2", "sequenceDiagram": "sequence"}
TIMEOUT_MS = 30_000


def missing(what: str) -> None:
    """Skip (or fail, where every extra is required: CI) for a tool this test needs."""
    reason = f"{__name__}: {what}"
    if os.environ.get("TAMALOU_REQUIRE_EXTRAS") == "1":
        pytest.fail(f"TAMALOU_REQUIRE_EXTRAS=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site, built strictly and served on localhost: its address."""
    folder = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def pages_with_diagrams() -> dict[str, list[str]]:
    """Each page of ``docs/`` that holds Mermaid blocks (its address in the site) and the kind of each block."""
    found: dict[str, list[str]] = {}
    for path in sorted(DOCS.rglob("*.md")):
        kinds = re.findall(r"^```mermaid\n(\S+)", path.read_text(encoding="utf-8"), re.M)
        if kinds:
            rel = path.relative_to(DOCS).with_suffix("")
            address = "/" if rel.as_posix() == "index" else f"/{rel.as_posix()}/".replace("/index/", "/")
            found[address] = kinds
    return found


def test_the_docs_hold_every_kind_of_picture_the_issue_asks_for() -> None:
    kinds = {k for ks in pages_with_diagrams().values() for k in ks}
    assert kinds == set(ROLES), kinds  # phases (state), table and action ids (flowcharts), server and AI turns


def test_every_diagram_renders_as_an_svg(site: str) -> None:
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM} (Debian's package chromium; or set TAMALOU_CHROMIUM)")
    pages = pages_with_diagrams()
    refused: list[str] = []

    def offline(route: Any) -> None:  # no network: only the site on localhost answers
        refused.append(route.request.url)
        route.abort()

    assert len(pages) >= 4, pages
    drawn: dict[str, list[str]] = {}
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.add_init_script(OPEN_SHADOWS)
            # Nothing leaves the machine: the site must carry what it draws with.
            page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"), offline)
            for address, kinds in pages.items():
                page.goto(site + address)
                page.wait_for_function(
                    "n => [...document.querySelectorAll('div.mermaid')]"
                    ".filter(e => e.shadowRoot && e.shadowRoot.querySelector('svg')).length >= n",
                    arg=len(kinds),
                    timeout=TIMEOUT_MS,
                )
                svgs = page.evaluate(
                    "[...document.querySelectorAll('div.mermaid')].map(e => {"
                    " const svg = e.shadowRoot.querySelector('svg');"
                    " return [svg.getAttribute('aria-roledescription'), svg.textContent,"
                    " svg.getBoundingClientRect().width, svg.getBoundingClientRect().height]; })"
                )
                assert len(svgs) == len(kinds), f"{address}: {len(kinds)} diagrams written, {len(svgs)} drawn"
                for kind, (role, text, width, height) in zip(kinds, svgs, strict=True):
                    where = f"{address}: the {kind} diagram"
                    assert role == ROLES[kind], f"{where} was drawn as {role!r}: {text[:300]}"
                    assert "Syntax error" not in text and "Parse error" not in text, f"{where}: {text[:500]}"
                    assert width > 100 and height > 50, f"{where} is drawn {width} × {height} px"
                drawn[address] = [role for role, *_ in svgs]
        finally:
            browser.close()
    assert drawn.keys() == pages.keys()
    assert not [u for u in refused if "mermaid" in u], refused  # Mermaid came from the site, not from a CDN
