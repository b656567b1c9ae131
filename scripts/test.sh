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

echo "== format (prettier --check)"
npx prettier --check "**/*.{ts,tsx,mjs,cjs,css}"

echo "== typecheck"
npx tsc --noEmit -p tsconfig.json

echo "== vitest"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest-results.json || status=$?

echo "== conformance"
cstatus=0
bash scripts/conformance.sh || cstatus=$?

node scripts/test-summary.mjs .cache/vitest-results.json .cache/conformance-results.json
if [ "$status" != 0 ] || [ "$cstatus" != 0 ]; then exit 1; fi
