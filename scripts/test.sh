#!/usr/bin/env bash
# The project's whole test run (`npm test`): installs what is missing, then
# type-checks, runs every vitest project (Node core and CLI with real MCP
# servers, renderer under jsdom, Chromium browser tests) and the official
# conformance scenarios, and ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh --browser
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
mkdir -p .cache

# `npm test` must leave the working tree as it found it: generated output goes
# to the git-ignored .cache/ (committed docs are refreshed by `npm run docs`).
# The fingerprint covers tracked changes and untracked, not-ignored files, so a
# developer's own uncommitted work does not fail the run, but a test that
# rewrites a committed file or leaves a stray file does.
tree_state() {
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0 # not a clone: nothing to compare
  git status --porcelain=v1 --untracked-files=all
  git diff HEAD --binary
  git ls-files -z --others --exclude-standard | xargs -0 -r sha256sum
}
tree_before="$(tree_state | sha256sum)"

echo "== format (prettier --check)"
npx prettier --check "**/*.{ts,tsx,mjs,cjs,css}"

echo "== lint (eslint, cache in .cache/eslint/)"
npx eslint . --cache --cache-location .cache/eslint/ --cache-strategy content --max-warnings 0

echo "== typecheck"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p tsconfig.scripts.json # scripts/*.mjs (// @ts-check)

echo "== vitest"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest-results.json || status=$?

echo "== conformance"
cstatus=0
bash scripts/conformance.sh || cstatus=$?

node scripts/test-summary.mjs .cache/vitest-results.json .cache/conformance-results.json

echo "== working tree unchanged"
tstatus=0
if [ "$(tree_state | sha256sum)" != "$tree_before" ]; then
  echo "npm test changed the working tree (write generated output under .cache/; refresh docs with npm run docs):"
  git status --short --untracked-files=all
  tstatus=1
fi
if [ "$status" != 0 ] || [ "$cstatus" != 0 ] || [ "$tstatus" != 0 ]; then exit 1; fi
