#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and runs Countersign with the
# bundled demo server configured on first start. Runs the Electron app where
# Electron can run; elsewhere (servers, CI boxes, machines where the Electron
# binary cannot be downloaded) the same app runs in the browser through the
# loopback web shell. Extra arguments go to `countersign web`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
echo "== build"
node scripts/build.mjs --no-cli
if [ -z "${COUNTERSIGN_WEB:-}" ] && node -e "require('fs').accessSync(require('electron'))" >/dev/null 2>&1; then
  exec npx electron .
fi
echo "== Electron is not available on this machine: starting the web shell (the same app, in your browser)"
exec node bin/countersign.mjs web "$@"
