#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: npm packages (exact, from
# the lock file) and, with --browser, Debian's Chromium for the browser tests.
# Idempotent: a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Electron's binary cannot be downloaded here and is not needed to test; the
# desktop app runs where it can be installed.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== npm ci"
  npm ci --no-audit --no-fund
fi

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium (browser tests)"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
