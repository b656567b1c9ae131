#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: npm packages (exact, from
# the lock file) and, with --browser, Debian's Chromium for the browser tests
# and a Secret Service (GNOME Keyring + a D-Bus daemon) for the credential
# encryption tests (test/fixtures/keychain/secret-service.ts runs its own
# private bus; nothing is started here).
# Idempotent: a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Electron 42+ has no install script (allowScripts.electron is false anyway):
# npm ci never downloads its binary. `npm start` fetches it on first use where
# a display is present (scripts/start-mode.mjs); tests never need it, and in
# CI nothing downloads it.
if [ -n "${CI:-}" ] && [ "${CI}" != "false" ] && [ "${CI}" != "0" ]; then export ELECTRON_SKIP_BINARY_DOWNLOAD=1; fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== npm ci (npm packages from package-lock.json into node_modules)"
  npm ci --no-audit --no-fund
fi

# System packages come from apt-get (through sudo unless root); each install says so before it starts.
SUDO=""
SUDO_NOTE=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo" SUDO_NOTE=" through sudo"; fi

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium with apt-get, system-wide${SUDO_NOTE} (browser tests)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ "${1:-}" = "--browser" ] && { ! command -v gnome-keyring-daemon >/dev/null || ! command -v dbus-daemon >/dev/null || ! command -v dbus-send >/dev/null; }; then
  echo "== installing GNOME Keyring and D-Bus (gnome-keyring dbus-daemon dbus-bin) with apt-get, system-wide${SUDO_NOTE} (credential encryption tests)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends gnome-keyring dbus-daemon dbus-bin >/dev/null
fi
