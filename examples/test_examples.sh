#!/usr/bin/env bash
# Install the example plugin packages (sum matching, spy powers, and Golf: a game of the family written from
# outside, with the public API only) into a Python environment and check them end to end:
# `tamalou variants` lists their rulesets, `tamalou verify` passes on each, and each package's own
# tests pass. Exits non-zero on the first failure.
#
#   examples/test_examples.sh [PYTHON]              # into PYTHON's environment (default: `python` on PATH)
#   examples/test_examples.sh --isolated [PYTHON]   # into a throwaway venv made with PYTHON, removed after
#   examples/test_examples.sh --verify-only [PYTHON]  # lists and verifies; the packages' own tests are not run
#
# PYTHON's environment should have tamalou installed already (e.g. CI's venv); if it has not (or with
# --isolated), this repository's tamalou is installed first. The packages are installed with their
# test extra (pytest, hypothesis). Installed packages add their rulesets to `tamalou.variant_names()`:
# use --isolated, or run this after the main test suite, to keep them out of another suite's run.
# TAMALOU_EXAMPLES_GAMES sets the number of games of `tamalou verify` (default 200) for every ruleset;
# TAMALOU_EXAMPLES_GOLF_GAMES, for Golf's three games (golf-4, golf-6, golf-9; default: the same).
# --verify-only (for a second pass on another build of tamalou, as CI's compiled core) says so and leaves out
# the packages' own tests.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
isolated=0
tests=1
while [ $# -gt 0 ]; do
    case "$1" in
    --isolated) isolated=1 ;;
    --verify-only) tests=0 ;;
    *) break ;;
    esac
    shift
done
py="${1:-python}"
games="${TAMALOU_EXAMPLES_GAMES:-200}"
golf_games="${TAMALOU_EXAMPLES_GOLF_GAMES:-$games}"
packages=(tamalou-sum-matching tamalou-spy-powers tamalou-golf)
rulesets=(french-sum-matching french-spy golf-4 golf-6 golf-9 golf-6-knock)

command -v "$py" >/dev/null 2>&1 || { echo "test_examples: no python interpreter '$py'" >&2; exit 2; }
if [ "$isolated" = 1 ]; then
    venv="$(mktemp -d)"
    trap 'rm -rf "$venv"' EXIT
    "$py" -m venv "$venv"
    py="$venv/bin/python"
fi
bin="$("$py" -c 'import os, sys; print(os.path.dirname(sys.executable))')"
# The `tamalou` command of that environment (its console script, else the same entry point).
tamalou_cli() {
    if [ -x "$bin/tamalou" ]; then
        "$bin/tamalou" "$@"
    else
        "$py" -c 'import sys; from tamalou.cli import main; sys.argv[0] = "tamalou"; main()' "$@"
    fi
}

step() { printf '\n== %s\n' "$*"; }

if ! "$py" -c 'import tamalou, typer, rich' >/dev/null 2>&1; then
    step "tamalou with its command line (the cli extra) is not installed in $bin: installing $root[cli]"
    "$py" -m pip install -q "$root[cli]"
fi

step "installing ${packages[*]}"
specs=()
for p in "${packages[@]}"; do specs+=("$here/$p[test]"); done
"$py" -m pip install -q "${specs[@]}"

step "tamalou variants lists ${rulesets[*]}"
listing="$(COLUMNS=200 tamalou_cli variants)"
for r in "${rulesets[@]}"; do
    if ! grep -q -- "$r" <<<"$listing"; then
        echo "$listing"
        echo "test_examples: 'tamalou variants' does not list $r" >&2
        exit 1
    fi
    echo "listed: $r"
done

for r in "${rulesets[@]}"; do
    n="$games"
    case "$r" in golf-4 | golf-6 | golf-9) n="$golf_games" ;; esac
    step "tamalou verify $r --games $n"
    tamalou_cli verify "$r" --games "$n"
done

if [ "$tests" = 1 ]; then
    # The packages' suites at once (each is one process; the machine's cores are shared), each told in turn.
    logs="$(mktemp -d)"
    pids=()
    for p in "${packages[@]}"; do
        (cd "$here/$p" && "$py" -m pytest -p no:cacheprovider) >"$logs/$p.log" 2>&1 &
        pids+=($!)
    done
    failed=()
    for i in "${!packages[@]}"; do
        p="${packages[$i]}"
        status=0
        wait "${pids[$i]}" || status=$?
        step "tests of $p"
        cat "$logs/$p.log"
        [ "$status" = 0 ] || failed+=("$p")
    done
    rm -rf "$logs"
    if [ "${#failed[@]}" != 0 ]; then
        echo "test_examples: the tests of ${failed[*]} failed" >&2
        exit 1
    fi
else
    step "the packages' own tests are not run here (--verify-only)"
fi

step "examples: all checks passed"
