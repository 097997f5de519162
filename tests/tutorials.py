"""Runs a page of ``docs/`` as a reader would (``tests/tooling/test_docs.py``, ``tests/api/test_greedy_bot.py``...).

A page is run block by block, in order, in an empty temporary folder:

- a fenced block with a file name (```` ```toml title="our-table.toml" ````) is written to that file;
- a ```` ```python ```` block without a name is a complete script, run from that folder in a fresh
  ``python -I`` (no ``PYTHONPATH``, not even the folder itself on ``sys.path``); it must succeed;
- a ```` ```text title="Output" ```` block right after it lists lines that script must print (``...``
  stands for anything);
- a ```` ```console ```` block holds ``$ command`` lines, each followed by lines its output must contain;
  ``tamalou`` commands are run with this Python's ``tamalou`` and must succeed, others (``pip``...) are
  shown only;
- a ```` ```text ```` block that starts with ``$ `` is the transcript of a run whose numbers depend on time (how
  long a hook took, how many games finished before Ctrl-C): run as a console block, against what the command
  writes to both its streams, each number of a shown line matching any number. ``^C`` on the line after a
  command interrupts it (SIGINT) :data:`INTERRUPT_AFTER` seconds after it started.

A command followed by ``$ echo $?`` must exit with the status shown (else with 0).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
TIMEOUT = 300
#: When a transcript's ``^C`` interrupts its command: seconds after it started.
INTERRUPT_AFTER = 4.0
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


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


def assert_shows(output: str, expected: list[str], where: str, *, numbers_free: bool = False) -> None:
    """Each line of ``expected`` (but ``...``) is in a line of ``output``, spaces aside, a ``...`` within it standing
    for anything; with ``numbers_free``, each of its numbers matches any number."""
    lines = normalised(output)
    for want in normalised("\n".join(expected)):
        if not want or want == "...":
            continue
        # "..." within a line stands for anything: the parts around it, in order, in one line.
        pieces = [piece.strip() for piece in want.split("...")]
        if numbers_free:
            parts = [_NUMBER.pattern.join(re.escape(p) for p in _NUMBER.split(piece)) for piece in pieces]
        else:
            parts = [re.escape(piece) for piece in pieces]
        pattern = re.compile(".*?".join(parts))
        found = any(pattern.search(line) for line in lines)
        assert found, f"{where}: the output has no line with {want!r}:\n{output}"


def run(args: list[str], cwd: Path, where: str, status: int = 0, *, both: bool = False, interrupt: bool = False) -> str:
    """``args``' standard output (with ``both``: its standard error after it), once it exited with ``status``;
    with ``interrupt``, it gets SIGINT :data:`INTERRUPT_AFTER` seconds after it started."""
    with subprocess.Popen(
        args,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean_env(),
    ) as process:
        try:
            if interrupt:
                try:
                    process.wait(INTERRUPT_AFTER)
                except subprocess.TimeoutExpired:
                    process.send_signal(signal.SIGINT)
            stdout, stderr = process.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == status, (
        f"{where}: exit status {process.returncode}, expected {status}\n{stdout[-2000:]}\n{stderr[-3000:]}"
    )
    return stdout + stderr if both else stdout


def resized(page: str, text: str, sizes: list[tuple[str, str]]) -> str:
    """``text`` with each ``(as written, as run)`` pair of ``sizes`` replaced: a page run with fewer games
    than it shows. Each text as written must stand in the page, so that a change of the page cannot leave a
    pair behind unnoticed."""
    for written, run_as in sizes:
        assert written in text, f"docs/{page} no longer holds {written!r}: update the sizes its test runs it at"
        text = text.replace(written, run_as)
    return text


def run_page(page: str, folder: Path, sizes: Sequence[tuple[str, str]] = ()) -> dict[str, int]:
    """Runs ``page`` in ``folder``; ``sizes`` (see :func:`resized`) shrinks what it plays."""
    counts = {"file": 0, "python": 0, "output": 0, "command": 0, "transcript": 0}
    last: tuple[str, Block] | None = None  # the output of the previous block, if it was a script
    for block in blocks(resized(page, (DOCS / page).read_text(encoding="utf-8"), list(sizes))):
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
        elif block.lang == "console" or (block.lang == "text" and block.body.startswith("$ ")):
            transcript = block.lang == "text"
            commands = list(console_commands(block.body))
            for i, (command, expected) in enumerate(commands):
                argv = shlex.split(command)
                if argv[0] != "tamalou":
                    continue  # shown only: pip, `echo $?` (read below) and the like
                status = 0  # a command followed by `$ echo $?` must exit with the status shown
                if i + 1 < len(commands) and commands[i + 1][0] == "echo $?":
                    status = int(commands[i + 1][1][0])
                interrupt = transcript and expected[:1] == ["^C"]
                run_where = f"{where}: `{command}`"
                argv = tamalou_command() + argv[1:]
                output = run(argv, folder, run_where, status, both=transcript, interrupt=interrupt)
                assert_shows(output, expected[1:] if interrupt else expected, run_where, numbers_free=transcript)
                counts["transcript" if transcript else "command"] += 1
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
