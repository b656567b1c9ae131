#!/usr/bin/env bash
# MCP conformance suite for the `countersign` CLI (client side).
#
# This script only installs the tools, idempotently, into the git-ignored
# folder .cache/conformance/ and then hands over to scripts/conformance-run.mjs
# (run under the Node 22 it installed; the suite needs Node >= 22):
#   - node@22                                   -> .cache/conformance/node_modules/node/bin/node
#   - @modelcontextprotocol/conformance (pinned) -> .cache/conformance/node_modules/@modelcontextprotocol/conformance
# Nothing is installed into the repository's own node_modules and package.json
# is not touched. Re-running skips the install when both are present at the
# right versions.
#
# Usage: npm run conformance [-- <runner options>]   (see scripts/conformance-run.mjs --help)
set -euo pipefail

SUITE_VERSION="0.2.0-alpha.12"   # exact pin; bump deliberately, then re-read docs/conformance.md
NODE_MAJOR="22"                  # any 22.x is accepted; npm resolves node@22 to the newest 22.x

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$REPO/.cache/conformance"
NODE22="$CACHE/node_modules/node/bin/node"
SUITE_PKG="$CACHE/node_modules/@modelcontextprotocol/conformance/package.json"

installed_ok() {
  [[ -x "$NODE22" && -f "$SUITE_PKG" ]] || return 1
  local nv sv
  nv="$("$NODE22" -p 'process.versions.node' 2>/dev/null)" || return 1
  [[ "${nv%%.*}" == "$NODE_MAJOR" ]] || return 1
  sv="$("$NODE22" -p "require(process.argv[1]).version" "$SUITE_PKG" 2>/dev/null)" || return 1
  [[ "$sv" == "$SUITE_VERSION" ]]
}

if installed_ok; then
  echo "conformance: using cached Node $("$NODE22" -p 'process.versions.node') and @modelcontextprotocol/conformance@$SUITE_VERSION in .cache/conformance" >&2
else
  echo "conformance: downloading Node $NODE_MAJOR (the node package, node@$NODE_MAJOR; the suite needs Node 22+) and @modelcontextprotocol/conformance@$SUITE_VERSION from the npm registry into .cache/conformance" >&2
  mkdir -p "$CACHE"
  # A package.json of its own makes the cache folder its own npm project, so
  # npm never walks up to the repository's package.json.
  if [[ ! -f "$CACHE/package.json" ]]; then
    printf '{\n  "name": "countersign-conformance-cache",\n  "private": true\n}\n' > "$CACHE/package.json"
  fi
  # Settings inherited from an enclosing `npm run` must not redirect this install.
  unset npm_config_prefix npm_config_local_prefix npm_config_global npm_config_save npm_config_save_dev || true
  (cd "$CACHE" && npm install --prefix "$CACHE" --save-exact --no-audit --no-fund --loglevel=error \
      "node@$NODE_MAJOR" "@modelcontextprotocol/conformance@$SUITE_VERSION")
  if ! installed_ok; then
    echo "conformance: install did not produce Node $NODE_MAJOR.x + conformance $SUITE_VERSION under $CACHE" >&2
    exit 2
  fi
fi

export CONFORMANCE_SUITE_VERSION="$SUITE_VERSION"
exec "$NODE22" "$REPO/scripts/conformance-run.mjs" "$@"
