#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and runs Countersign with the
# bundled demo server configured on first start. Runs the Electron app where
# a display is present (downloading Electron's binary on the first start, but
# not in CI); elsewhere (no display, CI, the download failed, COUNTERSIGN_WEB
# set, or Electron fails to start) the same app runs in the browser through the
# loopback web shell.
# Extra arguments go to `countersign web`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
echo "== build"
node scripts/build.mjs --no-cli
# One line on stderr says which mode starts and why (scripts/start-mode.mjs).
choice="$(node scripts/start-mode.mjs)"
case "$choice" in
  # Electron runs as a watched child: a start failure is named and the web shell starts instead.
  "electron "*) exec node scripts/start-electron.mjs "${choice#electron }" "$@" ;;
  *) exec node bin/countersign.mjs web "$@" ;;
esac
