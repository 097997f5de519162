#!/usr/bin/env bash
# Build the wheel of the compiled core (docs/compiled.md) into DIR (default: dist/) and print its path.
#   bash scripts/build_compiled.sh [DIR] [PYTHON]
# PYTHON (default: python3) is the interpreter the wheel is for: the extensions fit that version only.
# Needs a C compiler and the Python headers; pip fetches mypy and setuptools into the build environment.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)"
python="${2:-python3}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
TAMALOU_COMPILE=1 "$python" -m pip wheel --quiet --no-deps --wheel-dir "$scratch" "$root"
wheel="$(ls "$scratch"/tamalou-*.whl)"
case "$wheel" in
*-none-any.whl) echo "build_compiled.sh: $wheel is a pure-Python wheel: the compile did not happen" >&2 && exit 1 ;;
esac
mv "$wheel" "$out/"
echo "$out/$(basename "$wheel")"
