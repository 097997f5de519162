#!/usr/bin/env bash
# The table server's CI: Chromium for the browser test (apt-get, if /usr/bin/chromium is missing), a fresh
# venv with this repository's tamalou, Golf and the example with its test extra, the tests, a short load test.
#
#   examples/table-server/run_tests.sh [PYTHON]     # PYTHON makes the venv (default: python3)
#   TABLE_VENV=DIR examples/table-server/run_tests.sh --install-only [PYTHON]   # only make the venv, in DIR
#   TABLE_VENV=DIR examples/table-server/run_tests.sh                          # the tests, in that venv
#   TABLE_VENV=DIR examples/table-server/run_tests.sh --tests-only             # its tests only, not the load tests
#   TABLE_VENV=DIR examples/table-server/run_tests.sh --load-only              # the load tests only
#
# Environment: TABLE_TEST_WORKERS (pytest's processes, default 2: each test file runs in one of them),
# TABLE_ARTIFACTS (the browser test's screenshots; default examples/table-server/artifacts),
# LOAD_ROOMS (default 200) is the first load test's rooms; LOAD_SECONDS (default 60) bounds each load test (it
# ends when its rooms have finished, and fails if one has not by then); LOAD_P99_MS (default 50) is the honest
# players' p99 latency the hostile load tests allow (tests/test_flood.py reads it too).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
install_only=0
tests=1
load=1
case "${1:-}" in
--install-only)
    install_only=1
    shift
    [ -n "${TABLE_VENV:-}" ] || { echo "run_tests.sh --install-only: set TABLE_VENV to the venv's folder" >&2 && exit 2; }
    ;;
--tests-only) load=0 && shift ;;
--load-only) tests=0 && shift ;;
esac
py="${1:-python3}"

if [ ! -x /usr/bin/chromium ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if [ -n "${TABLE_VENV:-}" ]; then
    # A venv made beforehand by `run_tests.sh --install-only`, e.g. while other work runs (.ci/run does).
    venv="$TABLE_VENV"
else
    venv="$(mktemp -d)"
    trap 'rm -rf "$venv"' EXIT
fi
if [ ! -x "$venv/bin/python" ] || [ "$install_only" = 1 ]; then
    "$py" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
    # Golf (examples/tamalou-golf), a game written outside tamalou, installed beside the server: the lobby lists
    # its rulesets and the tests play a Golf room (TAMALOU_REQUIRE_EXTRAS=1 makes them fail without it).
    "$venv/bin/python" -m pip install -q "$root" "$root/examples/tamalou-golf" "$here[test]"
fi
if [ "$install_only" = 1 ]; then
    exit 0
fi

cd "$here"
# Two processes, each test file in one of them (the timing tests of a file never run beside each other).
if [ "$tests" = 1 ]; then
    "$venv/bin/python" -m pytest -n "${TABLE_TEST_WORKERS:-2}" --dist loadfile
    # Then, alone, the tests whose verdict is the clock's (a request waiting 50 ms at most while long rooms open).
    "$venv/bin/python" -m pytest -m alone
fi
if [ "$load" = 0 ]; then
    exit 0
fi
"$venv/bin/python" loadtest.py --rooms "${LOAD_ROOMS:-200}" --seconds "${LOAD_SECONDS:-60}" --min-finished 1
# One hostile client among honest players: their p99 latency stays under 50 ms (LOAD_P99_MS), their bots answer
# within their budget and 0.5 s.
"$venv/bin/python" loadtest.py --rooms 40 --think 0.1 --hostile --seconds "${LOAD_SECONDS:-60}" \
    --min-finished 1 --max-p99-ms "${LOAD_P99_MS:-50}" --max-bot-p99-ms 2500
# The same, the hostile client flooding uploads and search rooms too: tests/test_flood.py (marked load, left out
# of the tests above), which runs loadtest.py --flood and checks what it reports.
LOAD_P99_MS="${LOAD_P99_MS:-50}" LOAD_SECONDS="${LOAD_SECONDS:-60}" "$venv/bin/python" -m pytest -m load -s \
    tests/test_flood.py
