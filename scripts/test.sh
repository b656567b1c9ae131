#!/usr/bin/env bash
# The project's whole test run (`npm test`): installs what is missing, then
# type-checks, runs every vitest project (Node core and CLI with real MCP
# servers, renderer under jsdom, Chromium browser tests), the node project
# once more on Node 24, and the official conformance scenarios, and ends with
# one "N passed, N failed" line.
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
npx prettier --check "**/*.{ts,tsx,mjs,cjs,css,md}"

echo "== lint (eslint, cache in .cache/eslint/)"
npx eslint . --cache --cache-location .cache/eslint/ --cache-strategy content --max-warnings 0

echo "== typecheck"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p tsconfig.scripts.json # scripts/*.mjs (// @ts-check)

echo "== CLI bundle (.cache/cli: what bin/countersign.mjs runs; built once here, not by parallel tests)"
node scripts/cli-bundle.mjs

node_version="$(node -p process.versions.node)"
echo "== vitest (all projects on Node $node_version, the machine's node)"
status=0
rm -f .cache/vitest-results.json
npx vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest-results.json || status=$?

# The node project again on Node 24 (supported: 22 and 24; the machine's node
# may be the end-of-life 20). The `node` npm package, pinned, brings the
# runtime; it goes to .cache/node24 as a project of its own, never into the
# app's dependencies. Its bin folder leads PATH, so servers and tools the
# tests start as plain `node` run on it too.
NODE24_VERSION="24.21.0"
NODE24_DIR=.cache/node24
NODE24="$NODE24_DIR/node_modules/node/bin/node"
node24_ready() { [ -x "$NODE24" ] && [ "$("$NODE24" -p process.versions.node 2>/dev/null)" = "$NODE24_VERSION" ]; }
install_node24() {
  mkdir -p "$NODE24_DIR"
  printf '{\n  "name": "countersign-node24-cache",\n  "private": true\n}\n' >"$NODE24_DIR/package.json"
  # Settings inherited from the enclosing `npm test` must not redirect this install.
  (unset npm_config_prefix npm_config_local_prefix npm_config_global npm_config_save npm_config_save_dev
    cd "$NODE24_DIR" && npm install --prefix . --save-exact --no-audit --no-fund --loglevel=error "node@$NODE24_VERSION") &&
    node24_ready
}
n24status=0
rm -f .cache/vitest-results-node24.json
if node24_ready; then
  echo "== node project on Node $NODE24_VERSION (from $NODE24_DIR)"
else
  echo "== node project on Node $NODE24_VERSION (downloading node@$NODE24_VERSION from the npm registry into $NODE24_DIR)"
  install_node24 || { n24status=1 && echo "could not install node@$NODE24_VERSION into $NODE24_DIR (see npm's message above)"; }
fi
if [ "$n24status" = 0 ]; then
  PATH="$PWD/$NODE24_DIR/node_modules/node/bin:$PATH" "$NODE24" node_modules/vitest/vitest.mjs run --project node \
    --reporter=default --reporter=json --outputFile.json=.cache/vitest-results-node24.json || n24status=$?
fi

echo "== conformance"
cstatus=0
bash scripts/conformance.sh || cstatus=$?

echo "== working tree"
tstatus=0
if [ "$(tree_state | sha256sum)" != "$tree_before" ]; then
  echo "npm test changed the working tree (write generated output under .cache/; refresh docs with npm run docs):"
  git status --short --untracked-files=all
  tstatus=1
else
  echo "unchanged"
fi

echo "== summary"
node scripts/test-summary.mjs \
  --vitest .cache/vitest-results.json "all projects on Node $node_version" \
  --vitest .cache/vitest-results-node24.json "node project on Node $NODE24_VERSION" \
  --conformance .cache/conformance-results.json
if [ "$status" != 0 ] || [ "$n24status" != 0 ] || [ "$cstatus" != 0 ] || [ "$tstatus" != 0 ]; then exit 1; fi
