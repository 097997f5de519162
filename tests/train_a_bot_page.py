"""The runnable examples of docs/train-a-bot.md: each ```python block of a section, run in a fresh
interpreter, must print the lines of the ```text title="Output" block after it. The tests of the
encoding, PettingZoo, OpenSpiel and search each run their own sections."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "train-a-bot.md"


def section_scripts(sections: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """Each ```python block of ``sections`` of docs/train-a-bot.md, with the lines of the
    ```text title="Output" block after it."""
    out: list[tuple[str, str, list[str]]] = []
    section = ""
    kept = False  # whether the last python block was one of those sections'
    blocks = re.split(r"^```", PAGE.read_text(encoding="utf-8"), flags=re.M)
    for k, chunk in enumerate(blocks):
        if k % 2 == 0:  # prose between blocks
            headings = re.findall(r"^## (.+)$", chunk, flags=re.M)
            section = headings[-1] if headings else section
            continue
        head, _, body = chunk.partition("\n")
        if head == "python":
            kept = section in sections
            if kept:
                out.append((section, body, []))
        elif head.startswith('text title="Output"') and kept and blocks[k - 2].startswith("python"):
            out[-1][2].extend(body.rstrip("\n").splitlines())
    return out


def run_sections(sections: tuple[str, ...], folder: Path) -> None:
    """Run each script of ``sections`` in a fresh ``python -I``; it prints the lines its Output block shows."""
    scripts = section_scripts(sections)
    assert {s for s, _, _ in scripts} == set(sections) and all(expected for _, _, expected in scripts)
    for section, code, expected in scripts:
        run = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=folder)
        assert run.returncode == 0, f"{section}: {run.stderr}"
        lines = iter(run.stdout.splitlines())
        for want in expected:  # in order; "..." stands for anything
            pattern = re.compile(".*".join(re.escape(part) for part in want.split("...")) + "$")
            assert any(pattern.match(line) for line in lines), f"{section}: no line {want!r} in\n{run.stdout}"
