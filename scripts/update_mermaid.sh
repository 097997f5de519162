#!/usr/bin/env bash
# Fetch a Mermaid release from the npm registry into docs/javascripts/ (the site carries it: mkdocs.yml), with its
# licence. Usage: bash scripts/update_mermaid.sh [VERSION]   (default: the newest 11.x, the major the theme uses)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "mermaid@$version" --silent >/dev/null)
tar -xzf "$work"/mermaid-*.tgz -C "$work" package/dist/mermaid.min.js package/LICENSE package/package.json
cp "$work/package/dist/mermaid.min.js" docs/javascripts/mermaid.min.js
cp "$work/package/LICENSE" docs/javascripts/mermaid.LICENSE
grep '"version"' "$work/package/package.json"
