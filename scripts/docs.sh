#!/usr/bin/env bash
# `npm run docs`: regenerates the committed docs that tests can produce — the
# screenshots in docs/screenshots (browser tests) and the results section of
# docs/conformance.md (the official conformance suite). `npm test` writes the
# same output to the git-ignored .cache/ only, so it leaves the tree clean;
# this script is the one deliberate way to refresh what is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh --browser
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
mkdir -p docs/screenshots

echo "== screenshots -> docs/screenshots"
COUNTERSIGN_SCREENSHOT_DIR=docs/screenshots npx vitest run --project browser

echo "== conformance -> docs/conformance.md"
bash scripts/conformance.sh --doc

git status --short docs
