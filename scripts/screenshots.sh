#!/usr/bin/env bash
# Screenshots for docs/screenshots/ from the real window under Xvfb: the
# UI self-test (selftest build) shoots each section as it goes; this runs it
# at 100 % and at 200 % (GDK_SCALE=2 with TESSERA_SELFTEST_ZOOM=2: the window
# at half its size in CSS pixels, drawn at twice the scale), and in the dark
# theme (GTK_THEME=Adwaita:dark), and copies the shots into docs/screenshots/.
# Look at every PNG before committing it.
#
#   scripts/screenshots.sh          all three runs
#   RUNS="100" scripts/screenshots.sh   only some (100, 200, dark)
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/screenshots
mkdir -p "$out" build
TESSERA_TAGS=selftest OUT=build/bin/tessera-selftest scripts/build-desktop.sh
shots=(first-run unlock profile-list profiles import-preview activity settings settings-agents settings-sync)
session=()
command -v dbus-run-session >/dev/null && session=(dbus-run-session --)
export NO_AT_BRIDGE=1

run() { # run NAME SCREEN [ENV=VALUE...]
  local name=$1 screen=$2
  shift 2
  local tmp
  tmp=$(mktemp -d)
  env TESSERA_HOME="$tmp/home" TESSERA_RUNTIME_DIR="$tmp/run" TESSERA_SELFTEST_REPORT="$tmp/report.json" \
    TESSERA_SELFTEST_HOLD=1s TESSERA_SELFTEST_SHOTS="$tmp/shots" "$@" \
    "${session[@]}" timeout -k 10 300 xvfb-run -a -s "-screen 0 ${screen}x24" bash -c '
      WEBKIT_DISABLE_COMPOSITING_MODE=1 build/bin/tessera-selftest 2>"$0/app.log" & pid=$!
      for _ in $(seq 2400); do [ -s "$TESSERA_SELFTEST_REPORT" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
      sleep 2; kill -TERM $pid 2>/dev/null; wait $pid' "$tmp" || true
  for s in "${shots[@]}"; do
    # Scrolled down to the Agents card, WebKitGTK's 200 % zoom shows the top: not kept.
    [ "$s$name" = settings-agents-200 ] && continue
    if [ -f "$tmp/shots/$s.png" ]; then
      cp "$tmp/shots/$s.png" "$out/$s$name.png"
    else
      echo "screenshots: no $s$name.png (see $tmp/app.log)" >&2
    fi
  done
  echo "screenshots: $name run done" >&2
}

for r in ${RUNS:-100 200 dark}; do
  case $r in
    100) run "" 1280x1200 ;;
    200) run "-200" 2400x2400 GDK_SCALE=2 TESSERA_SELFTEST_ZOOM=2 ;;
    dark) run "-dark" 1280x1200 GTK_THEME=Adwaita:dark ;;
  esac
done
ls -la "$out"
