#!/usr/bin/env bash
# Runs Tessera on this machine from a clone: installs what is missing (Debian
# packages, npm and Go modules), builds the extension and the desktop app,
# registers the native-messaging host with the browsers found, and starts
# the app (its default vault lives in the user's data directory).
#
#   scripts/run.sh [--hidden|--headless]
#
# Without a display (no DISPLAY or WAYLAND_DISPLAY) the app runs --headless:
# it serves the browser extension but shows no window.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "tessera: $*" >&2; }

say "checking system packages"
scripts/deps-debian.sh

if [ -f extension/package.json ]; then
  say "building the browser extension"
  (cd extension && npm install --no-audit --no-fund && npm run build)
else
  say "no extension/package.json in this tree; skipping the extension"
fi

say "downloading Go modules"
scripts/go-mod-download.sh

say "building the desktop app"
scripts/build-desktop.sh

# A browser that is not installed is no reason to stop: the app still runs,
# and `build/bin/tessera install --browser NAME` registers it later.
if ! build/bin/tessera install; then
  say "native-messaging host not registered (see above); continuing"
fi

if [ -d extension/dist ]; then
  say "load the extension once (unpacked builds; the app and host need no more):"
  say "  Chromium, Chrome, Edge, Brave: chrome://extensions, Developer mode, Load unpacked: $(pwd)/extension/dist"
  say "  Firefox: about:debugging#/runtime/this-firefox, Load Temporary Add-on: $(pwd)/extension/dist-firefox/manifest.json"
  say "    (until Firefox restarts), or a throwaway profile with it loaded: (cd extension && npx web-ext run --source-dir dist-firefox --firefox firefox-esr)"
fi

args=("$@")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  say "no display (DISPLAY and WAYLAND_DISPLAY are unset): starting without a window"
  args=(--headless)
fi
say "starting build/bin/tessera ${args[*]}"
exec build/bin/tessera "${args[@]}"
