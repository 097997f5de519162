"""Mutation testing of the engine core and the mechanics with mutmut (docs/mutation.md).

mutmut changes one small thing in the code at a time (a ``<`` into a ``<=``, a ``+ 1`` into a ``- 1``, a
``True`` into a ``False``...) and runs the tests: a change the tests notice is a *killed* mutant, a change
they miss a *survivor*. The share of mutants killed measures how much of the code's behaviour the tests pin.

What is mutated and which tests run is the ``[tool.mutmut]`` section of ``pyproject.toml``: the files
``src/tamalou/engine/*.py`` and ``src/tamalou/mechanics/*.py``, against the per-ruleset scenario files.
mutmut first runs those tests once to learn which tests call each function, then runs, for each mutant,
only those tests (fastest first, stopping at the first failure), one mutant at a time by default.

This script never touches the repository: it copies it (the files git knows, with uncommitted changes) to a
scratch folder and runs mutmut there, so mutmut's ``mutants/`` folder lives outside the work tree. The
scratch folder is kept between runs: a run that was stopped resumes, and a mutant already judged is not run
again, until the sources or the configuration change (then everything starts afresh).

Usage (from the repository root, with mutmut installed: ``pip install mutmut``)::

    python scripts/mutation.py                          # every mutant (hours: see docs/mutation.md)
    python scripts/mutation.py --sample 300 --seed 1    # a random sample, with a confidence interval
    python scripts/mutation.py --files engine/flow.py mechanics/matching.py   # some files only
    python scripts/mutation.py --report                 # the report of what was judged so far
    python scripts/mutation.py --show NAME              # the diff of one mutant

mutmut is not a dependency of tamalou; the script tells how to install it when it is missing.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import random
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WORKDIR = Path("/tmp/mutation/work")
MODULE_PREFIXES = ("tamalou.engine.", "tamalou.mechanics.")
# How mutmut records a verdict (its exit codes), folded into the classes this report counts.
KILLED_CODES = {1: "killed", 3: "killed", 37: "killed"}  # 37: caught by the type checker
TIMEOUT_CODES = {36, 24, -24, 152, 255}
SURVIVED_CODES = {0: "survived", 5: "no tests", 33: "no tests"}

# Surviving mutants that no test can kill: the mutated code behaves as the original (an equivalent
# mutant), or it differs only in what no rule of the game can observe. The reasons are explained in
# docs/mutation.md; mutmut names a mutant by its function and a number, so this list must be checked
# again when the function changes (the report lists the survivors that are not in it).
EQUIVALENT: dict[str, str] = {
    "tamalou.engine.seats.xǁSeatActionsǁ__init____mutmut_5": "Draw(p) is Draw(p, 'stock'): the default",
    "tamalou.engine.flow.xǁFlowǁstart_turn__mutmut_70": "the only prepare_turn hook (powers) ignores the seat",
    "tamalou.engine.seats.x_seat_actions__mutmut_2": "every seat (12) is made at import: the loop never runs",
    "tamalou.mechanics.calling.xǁCallingǁ_caller__mutmut_2": "only the caller is ever locked: |= and = agree",
    "tamalou.mechanic.xǁMechanicǁ__init____mutmut_2": "the rulebook sets every index before it is read",
    "tamalou.mechanic.xǁMechanicǁ__init____mutmut_4": "the rulebook sets every index before it is read",
    "tamalou.mechanic.xǁPhaseEntryǁ__init____mutmut_3": "open is read as a truth value: None is False",
    "tamalou.engine.rulebook.x__registered__mutmut_19": "the base classes have a name (''): no default needed",
    "tamalou.engine.snapshot.x__core_copier__mutmut_30": "the hands copied twice: the same lists",
    "tamalou.engine.snapshot.x__core_copier__mutmut_31": "the hands copied twice: the same lists",
    "tamalou.engine.snapshot.x_save__mutmut_15": "the getter made again at each save: the same values",
    "tamalou.mechanics.matching.xǁMatchingǁbind__mutmut_12": "ranks compared by same() instead: the same answer",
    "tamalou.mechanics.matching.xǁMatchingǁcheck_state__mutmut_57": "only opponents' states have a resume: '' or None",
    "tamalou.mechanics.matching.xǁMatchingǁ__init____mutmut_46": "round_ending called for nothing: it returns False",
    "tamalou.mechanics.powers.xǁPowersǁ__init____mutmut_18": "can_open_turn called for nothing: no power then",
    "tamalou.engine.clock.x_apply_at__mutmut_11": "an action checks its own at when built: never reached",
    "tamalou.engine.flow.xǁFlowǁagain__mutmut_8": "no turn_began hook writes an event when a power plays again",
    "tamalou.engine.snapshot.x_variant_ref__mutmut_1": "a cache key: the identity check makes the answer again",
    "tamalou.engine.snapshot.x_variant_ref__mutmut_2": "a cache key: the identity check makes the answer again",
    "tamalou.engine.snapshot.x_variant_ref__mutmut_31": "a cache entry left empty: the answer made again",
    "tamalou.mechanics.matching.xǁMatchingǁplay_resolved__mutmut_2": "it follows a throw: turn_player -2, a discard",
    "tamalou.engine.snapshot.x_variant_ref__mutmut_24": "a variant's fields dump to the same JSON in Python mode",
    "tamalou.engine.rulebook.xǁRulebookǁpower_name__mutmut_15": "the default tamalou_card_power always answers",
    "tamalou.engine.rulebook.xǁRulebookǁvalue__mutmut_18": "a cache left empty: the hooks are asked again",
    "tamalou.engine.view.x_seat_view__mutmut_63": "power defaults to None; the powers mechanic's view sets it",
    "tamalou.mechanics.matching.xǁMatchingǁdo_match__mutmut_89": "players leave only under the clock: never plain",
    "tamalou.engine.clock.x_deadline__mutmut_10": "one mechanic keeps a clock (timing): the loop never runs",
    "tamalou.engine.clock.x_deadline__mutmut_11": "one mechanic keeps a clock (timing): the loop never runs",
    "tamalou.engine.round.xǁRoundǁfinal_result__mutmut_1": "the result made again from the kept judgement: equal",
    "tamalou.engine.deal.x_deal_round__mutmut_61": "a ruleset's deck too small for its players fails to load",
    "tamalou.engine.round.xǁRoundǁinit_runtime__mutmut_8": "every seat (12) is made at import: asking more is harmless",
    "tamalou.engine.rulebook.x_rulebook__mutmut_4": "a variant always has its private dict: never None",
}


@dataclass
class Verdicts:
    """The verdict of each mutant (mutant name -> mutmut exit code, ``None`` when not judged yet).

    mutmut keeps its verdicts in ``mutants/**/*.py.meta`` and forgets them all when its test selection
    changes. A kill is kept here too (``kills.json``), for as long as the mutated sources do not change:
    tests added can only kill more, so a mutant killed once needs no second run after tests were added."""

    codes: dict[str, int | None]

    @classmethod
    def load(cls, workdir: Path) -> Verdicts:
        codes: dict[str, int | None] = {}
        kills = workdir / "kills.json"
        if kills.exists():
            codes.update(json.loads(kills.read_text()))
        for meta in sorted((workdir / "mutants" / "src").rglob("*.py.meta")):
            data = json.loads(meta.read_text())
            codes.update({k: v for k, v in data["exit_code_by_key"].items() if v is not None or k not in codes})
        verdicts = cls({k: v for k, v in codes.items() if k.startswith(MODULE_PREFIXES)})
        detected = {k: v for k, v in verdicts.codes.items() if classify(v) in ("killed", "timeout")}
        kills.write_text(json.dumps(detected, sort_keys=True, indent=0) + "\n")
        return verdicts


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``successes / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def classify(code: int | None) -> str:
    if code is None:
        return "not run"
    if code in KILLED_CODES:
        return "killed"
    if code in TIMEOUT_CODES:
        return "timeout"
    if code in SURVIVED_CODES:
        return SURVIVED_CODES[code]
    return "suspicious"


def mutmut_command() -> list[str]:
    """The mutmut command of this Python, or an explanation of how to install it."""
    if importlib.util.find_spec("mutmut") is None:
        sys.exit(
            "mutmut is not installed in this environment. It is not a dependency of tamalou: install it with\n"
            f"    {sys.executable} -m pip install mutmut\n"
            "(or in a throwaway virtual environment that also has tamalou[dev]), then run this script again."
        )
    mutmut = Path(sys.executable).parent / "mutmut"
    return [str(mutmut)] if mutmut.exists() else [sys.executable, "-c", "from mutmut.__main__ import cli; cli()"]


def repository_files() -> list[str]:
    """The files git knows (tracked, or new and not ignored), as they are on disk."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return sorted(f for f in out.split("\0") if f and (ROOT / f).is_file())


def revision() -> str:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    return head + (" with uncommitted changes" if dirty.strip() else "")


def mutmut_config() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        config: dict[str, Any] = tomllib.load(f)["tool"]["mutmut"]
    return config


def fingerprint(files: list[str]) -> str:
    """What every verdict depends on: the mutated files and the built-in rulesets (mutmut itself starts
    afresh when its configuration changes). The rest of ``src/`` is left out on purpose, so that work
    elsewhere does not throw the verdicts away (``--fresh`` does that)."""
    patterns = mutmut_config().get("only_mutate", [])
    digest = hashlib.sha256()
    for name in files:
        if name.startswith("variants/") or any(fnmatch(name, p) for p in patterns):
            digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return digest.hexdigest()


def prepare(workdir: Path, fresh: bool) -> None:
    """Copy the repository into ``workdir``, starting afresh when what every verdict depends on changed.

    Otherwise the sources copied earlier stay (a run measures one version of the code) and only the tests
    and ``pyproject.toml`` are brought up to date: a new test can only kill more mutants, so the kills stay
    valid, and mutmut learns which functions the new tests call (``--retry-survivors`` then tries the
    survivors again)."""
    files = repository_files()
    stamp = workdir / ".mutation-fingerprint"
    current = fingerprint(files)
    if (fresh or not stamp.exists() or stamp.read_text() != current) and workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    if not stamp.exists():
        (workdir / ".mutation-revision").write_text(revision() + "\n")
    for name in files:
        target = workdir / name
        updated = name.startswith("tests/") or name == "pyproject.toml"
        if not target.exists() or (updated and target.read_bytes() != (ROOT / name).read_bytes()):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target)
    stamp.write_text(current)


# Added to the copy of ``tests/conftest.py`` in the scratch folder (never to the repository's). mutmut turns each
# mutated method into a trampoline beside its copies, named ``xǁMatchingǁ__init____mutmut_orig`` and so on, in
# the class itself. The load-time lint of a plugin's methods (``rulebook._check_method_names``) then takes them
# for misspellings of the base class's own trampolines (``xǁMechanicǁ__init____mutmut_orig``) and refuses every
# built-in ruleset. The patch lets that refusal through only when it names a mutmut trampoline: a real
# misspelling, in a test's plugin, is in a class of its own (not mutated), checked before its bases.
CONFTEST_PATCH = """

# --- added by scripts/mutation.py (mutmut's trampolines are not misspelt methods) ---
def _mutation_tolerant_lint() -> None:
    from tamalou.engine import rulebook
    from tamalou.errors import VariantError

    check = rulebook._check_method_names

    def tolerant(cls: type, base: type, plugin: str) -> None:
        try:
            check(cls, base, plugin)
        except VariantError as exc:
            if "\u01c1" not in str(exc) or "mutmut" not in str(exc):
                raise

    rulebook._check_method_names = tolerant


_mutation_tolerant_lint()
"""


def patch_tests(workdir: Path) -> None:
    """Add ``CONFTEST_PATCH`` to the scratch folder's ``tests/conftest.py`` (``prepare`` copies it afresh when the
    repository's changed)."""
    conftest = workdir / "tests" / "conftest.py"
    text = conftest.read_text()
    if CONFTEST_PATCH not in text:
        conftest.write_text(text + CONFTEST_PATCH)


def run_mutmut(workdir: Path, names: list[str], max_children: int, log: Path | None = None) -> int:
    command = [*mutmut_command(), "run", "--max-children", str(max_children), *names]
    print(f"$ (cd {workdir} && mutmut run --max-children {max_children} [{len(names)} names])", flush=True)
    if log is None:
        return subprocess.run(command, cwd=workdir).returncode
    with log.open("w") as out:
        return subprocess.run(command, cwd=workdir, stdout=out, stderr=subprocess.STDOUT).returncode


def generate(workdir: Path, max_children: int) -> None:
    """Make mutmut write the mutants and learn which tests cover which function without running any mutant:
    sampling needs the names first. mutmut has no command for that alone; a run asked for a name that no
    mutant has does it, then stops on "nothing matches" (expected: its output goes to a log)."""
    stats = workdir / "mutants" / "mutmut-stats.json"
    if stats.exists():
        return
    print("Generating the mutants and running the tests once to learn which test calls which function...")
    log = workdir / "generate.log"
    run_mutmut(workdir, ["no-mutant-has-this-name*"], max_children, log)
    if not stats.exists() or not list((workdir / "mutants" / "src").rglob("*.py.meta")):
        sys.exit(f"mutmut could not generate the mutants or run the tests: see {log}")


def module_of(path: str) -> str:
    """``engine/flow.py`` or ``src/tamalou/engine/flow.py`` -> ``tamalou.engine.flow.``"""
    parts = Path(path).with_suffix("").parts
    while parts and parts[0] != "tamalou" and parts[0] not in ("engine", "mechanics"):
        parts = parts[1:]
    if parts and parts[0] != "tamalou":
        parts = ("tamalou", *parts)
    return ".".join(parts) + "."


def select(verdicts: Verdicts, files: list[str], sample: int | None, seed: int) -> list[str]:
    names = sorted(verdicts.codes)
    if files:
        prefixes = tuple(module_of(f) for f in files)
        names = [n for n in names if n.startswith(prefixes)]
    if sample is not None and sample < len(names):
        names = sorted(random.Random(seed).sample(names, sample))
    return names


def report(workdir: Path, names: list[str], population: int) -> str:
    verdicts = Verdicts.load(workdir).codes
    classes = {name: classify(verdicts.get(name)) for name in names}
    counts = Counter(classes.values())
    judged = [n for n in names if classes[n] != "not run"]
    detected = sum(1 for n in judged if classes[n] in ("killed", "timeout"))
    equivalent = [n for n in judged if classes[n] not in ("killed", "timeout") and n in EQUIVALENT]
    low, high = wilson(detected, len(judged))
    relevant = len(judged) - len(equivalent)
    low_r, high_r = wilson(detected, relevant)
    revision_file = workdir / ".mutation-revision"
    lines = [
        f"Measured on: {revision_file.read_text().strip() if revision_file.exists() else 'unknown'}",
        f"Mutants: {population} in the files chosen; {len(names)} selected, {len(judged)} judged",
        "Verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
    ]
    if judged:
        lines += [
            f"Score (killed + timeout) / judged: {detected}/{len(judged)} = {detected / len(judged):.1%}"
            f" (95 % Wilson interval {low:.1%} to {high:.1%})",
        ]
    if relevant:
        lines.append(
            f"Without the {len(equivalent)} equivalent mutants: {detected}/{relevant} = {detected / relevant:.1%}"
            f" (95 % Wilson interval {low_r:.1%} to {high_r:.1%})"
        )
    survivors = [n for n in judged if classes[n] not in ("killed", "timeout") and n not in EQUIVALENT]
    if survivors:
        lines.append(f"Survivors not explained as equivalent ({len(survivors)}):")
        lines += [f"    {n}  ({classes[n]})" for n in survivors]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="*", default=[], help="only these files (e.g. engine/flow.py)")
    parser.add_argument("--sample", type=int, help="a random sample of this many mutants")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the sample (default 1)")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR, help=f"scratch folder ({DEFAULT_WORKDIR})")
    parser.add_argument("--max-children", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--fresh", action="store_true", help="forget the verdicts of earlier runs")
    parser.add_argument("--rerun", action="store_true", help="run the selected mutants again even if judged")
    parser.add_argument(
        "--retry-survivors",
        action="store_true",
        help="run the selected survivors again (after adding tests), except those explained as equivalent",
    )
    parser.add_argument("--report", action="store_true", help="only print the report of the verdicts so far")
    parser.add_argument("--show", metavar="NAME", help="print the diff of one mutant")
    args = parser.parse_args(argv)
    workdir: Path = args.workdir.resolve()

    if args.show:
        return subprocess.run([*mutmut_command(), "show", args.show], cwd=workdir).returncode
    if not args.report:
        mutmut_command()  # fail early, with the install hint, if mutmut is missing
        prepare(workdir, args.fresh)
        patch_tests(workdir)
        generate(workdir, args.max_children)
    verdicts = Verdicts.load(workdir)
    population = len(select(verdicts, args.files, None, args.seed))
    names = select(verdicts, args.files, args.sample, args.seed)
    if not args.report:
        if args.rerun:
            todo = names
        else:
            retry = ("survived", "no tests", "suspicious") if args.retry_survivors else ()
            # (A mutant explained as equivalent survives whatever the tests: running it again costs every test
            # that reaches it, for nothing. ``--rerun`` runs it.)
            todo = [
                n
                for n in names
                if verdicts.codes[n] is None or (classify(verdicts.codes[n]) in retry and n not in EQUIVALENT)
            ]
        start = time.monotonic()
        # Chunks keep the command line short and let a stopped run keep what it judged.
        for i in range(0, len(todo), 200):
            run_mutmut(workdir, todo[i : i + 200], args.max_children)
        if todo:
            elapsed = time.monotonic() - start
            print(f"{len(todo)} mutants in {elapsed:.0f} s ({elapsed / len(todo):.2f} s per mutant)")
    text = report(workdir, names, population)
    (workdir / "report.txt").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
