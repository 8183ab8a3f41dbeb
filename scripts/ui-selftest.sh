#!/usr/bin/env bash
# The desktop window tested for real under Xvfb, in three parts:
#
# 1. UI self-test: a build with the selftest tag drives the real window
#    (status screen, every section, a browser connecting live over the real
#    channel, the vault, the confirmation dialog answered with the keyboard)
#    and writes a JSON report; the window is screenshotted with a fill
#    dialog open, then again once Go withdrew it; no shot may be blank. The
#    profile editor and the Activity section are shot during the run.
#                                  -> build/ui-selftest.{json,png,log}, build/ui-dialog.png,
#                                     build/ui-profiles.png, build/ui-activity.png
# 2. Fresh machine: scripts/run.sh in an empty HOME (only the Go, npm and
#    build caches are kept) must bring the "Tessera" window up.
#                                               -> build/run-window.png, build/run.log
# 3. `tessera --hidden` starts with its window unmapped, and launching
#    `tessera` again shows that window (D-Bus single-instance message).
#
#   scripts/ui-selftest.sh            both parts
#   SKIP_FRESH=1 scripts/ui-selftest.sh   the self-test only
#   KEYS_ONLY=1 scripts/ui-selftest.sh    the keyboard-only run only (1b)
#
# Needs xvfb, xauth, imagemagick, x11-utils (scripts/deps-debian.sh), and
# xdotool for the real key presses.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "ui-selftest: FAIL: $*" >&2; exit 1; }

# distinct_colours FILE prints how many colours a screenshot has: a window
# that never painted is one or two flat colours.
distinct_colours() { /usr/bin/convert "$1" -format %k info:; }
min_colours=50

# ---- 1. the self-test --------------------------------------------------------
TESSERA_TAGS=selftest OUT=build/bin/tessera-selftest scripts/build-desktop.sh

export TESSERA_HOME=$tmp/home TESSERA_RUNTIME_DIR=$tmp/run
export TESSERA_SELFTEST_REPORT=$tmp/report.json TESSERA_SELFTEST_HOLD=30s
export TESSERA_SELFTEST_DIALOG_SHOT=$tmp/dialog-shot-taken
export TESSERA_SELFTEST_SHOTS=$tmp/shots
# With xdotool the dialog is also answered with key presses on the X
# display, not only with events the page sends itself.
if command -v xdotool >/dev/null; then
  export TESSERA_SELFTEST_REAL_KEYS=1
else
  echo "ui-selftest: no xdotool: the dialog is not tried with real key presses (apt-get install xdotool)" >&2
fi
# No accessibility bus: it only adds noise and a daemon to every run.
export NO_AT_BRIDGE=1
session=()
command -v dbus-run-session >/dev/null && session=(dbus-run-session --)
if [ -z "${KEYS_ONLY:-}" ]; then
rm -f build/ui-selftest.png build/ui-selftest.json build/ui-dialog.png build/ui-profiles.png build/ui-activity.png
# The inner script starts the app, waits (bounded) for its report, waits
# for the window to paint (WebKit paints after the DOM is ready, so a shot
# taken at once can be blank), screenshots the window with the dialog Go
# left open, tells Go (which withdraws the dialog), screenshots the screen,
# then stops the app with SIGTERM and hands back the app's exit status.
"${session[@]}" timeout -k 10 280 xvfb-run -a -s "-screen 0 1280x1200x24" bash -c '
  set -u
  # WebKit'"'"'s threaded compositor under Xvfb (software GL, no window
  # manager) sometimes stops painting once the self-test resizes the
  # window, which leaves a stale screenshot; the non-composited path paints.
  WEBKIT_DISABLE_COMPOSITING_MODE=1 build/bin/tessera-selftest 2>"$0/app.log" & pid=$!
  for _ in $(seq 1800); do
    [ -s "$TESSERA_SELFTEST_REPORT" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
  done
  sleep 1 # the last resize settles
  win=$(xwininfo -name Tessera 2>/dev/null | sed -n "s/.*Window id: \(0x[0-9a-f]*\).*/\1/p")
  for _ in $(seq 50); do
    import -window "${win:-root}" "$0/dialog.png" 2>/dev/null &&
      [ "$(/usr/bin/convert "$0/dialog.png" -format %k info:)" -ge '"$min_colours"' ] && break
    sleep 0.2
  done
  touch "$TESSERA_SELFTEST_DIALOG_SHOT"
  # The dialog says it was withdrawn for a moment, then closes.
  sleep 2.5
  for _ in $(seq 50); do
    import -window root "$0/shot.png" 2>/dev/null &&
      [ "$(/usr/bin/convert "$0/shot.png" -format %k info:)" -ge '"$min_colours"' ] && break
    sleep 0.2
  done
  kill -TERM $pid 2>/dev/null
  wait $pid
  echo $? >"$0/rc"
' "$tmp" || true

[ -f "$tmp/app.log" ] && cp "$tmp/app.log" build/ui-selftest.log
[ -s "$TESSERA_SELFTEST_REPORT" ] || fail "no self-test report written"
cp "$TESSERA_SELFTEST_REPORT" build/ui-selftest.json
[ -f "$tmp/shot.png" ] && cp "$tmp/shot.png" build/ui-selftest.png
[ -f "$tmp/dialog.png" ] && cp "$tmp/dialog.png" build/ui-dialog.png
for s in profiles activity settings import-preview unlock first-run profile-list; do
  [ -f "$tmp/shots/$s.png" ] && cp "$tmp/shots/$s.png" "build/ui-$s.png"
done
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const c of r.checks) console.error((c.ok ? "  ok   " : "  FAIL ") + c.name + (c.ok ? "" : ": " + c.detail));
  process.exit(r.ok === true && r.checks.length > 0 ? 0 : 1);
' build/ui-selftest.json || fail "self-test checks failed (build/ui-selftest.json)"
rc=$(cat "$tmp/rc" 2>/dev/null || echo missing)
[ "$rc" = 0 ] || fail "self-test app exited with status $rc"
[ -f build/ui-selftest.png ] || fail "no screenshot taken"
colours=$(distinct_colours build/ui-selftest.png)
[ "$colours" -ge $min_colours ] || fail "screenshot looks blank ($colours colours): build/ui-selftest.png"
[ -f build/ui-dialog.png ] || fail "no screenshot of the dialog taken"
dcolours=$(distinct_colours build/ui-dialog.png)
[ "$dcolours" -ge $min_colours ] || fail "dialog screenshot looks blank ($dcolours colours): build/ui-dialog.png"
for s in profiles activity settings import-preview unlock first-run profile-list; do
  [ -f "build/ui-$s.png" ] || fail "no screenshot of the $s section taken"
  c=$(distinct_colours "build/ui-$s.png")
  [ "$c" -ge $min_colours ] || fail "$s screenshot looks blank ($c colours): build/ui-$s.png"
done
echo "ui-selftest: self-test passed; screenshots build/ui-selftest.png ($colours colours), build/ui-dialog.png ($dcolours colours), build/ui-profiles.png, build/ui-activity.png" >&2

fi # KEYS_ONLY

# ---- 1b. keyboard only, from first run -----------------------------------------
# A second run of the same build in a fresh TESSERA_HOME: from the set-up
# form to Activity with X key presses alone (app/selftest_keyboard.go).
if [ -n "${TESSERA_SELFTEST_REAL_KEYS:-}" ]; then
  export TESSERA_HOME=$tmp/keys-home TESSERA_RUNTIME_DIR=$tmp/keys-run
  export TESSERA_SELFTEST_REPORT=$tmp/keys-report.json TESSERA_SELFTEST_HOLD=1s TESSERA_SELFTEST_KEYBOARD=1
  export TESSERA_SELFTEST_SHOTS=$tmp/keys-shots
  unset TESSERA_SELFTEST_DIALOG_SHOT
  rm -f build/ui-selftest-keys.json build/ui-passphrase.png
  "${session[@]}" timeout -k 10 280 xvfb-run -a -s "-screen 0 1280x1200x24" bash -c '
    set -u
    WEBKIT_DISABLE_COMPOSITING_MODE=1 build/bin/tessera-selftest 2>"$0/keys-app.log"
    echo $? >"$0/keys-rc"
  ' "$tmp" || true
  [ -f "$tmp/keys-app.log" ] && cp "$tmp/keys-app.log" build/ui-selftest-keys.log
  [ -s "$TESSERA_SELFTEST_REPORT" ] || fail "no keyboard-only report written (build/ui-selftest-keys.log)"
  cp "$TESSERA_SELFTEST_REPORT" build/ui-selftest-keys.json
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const c of r.checks) console.error((c.ok ? "  ok   " : "  FAIL ") + c.name + (c.ok ? "" : ": " + c.detail));
    process.exit(r.ok === true && r.checks.length > 0 ? 0 : 1);
  ' build/ui-selftest-keys.json || fail "keyboard-only checks failed (build/ui-selftest-keys.json)"
  rc=$(cat "$tmp/keys-rc" 2>/dev/null || echo missing)
  [ "$rc" = 0 ] || fail "keyboard-only app exited with status $rc"
  [ -f "$tmp/keys-shots/passphrase.png" ] && cp "$tmp/keys-shots/passphrase.png" build/ui-passphrase.png
  [ -f build/ui-passphrase.png ] || fail "no screenshot of Change passphrase taken"
  c=$(distinct_colours build/ui-passphrase.png)
  [ "$c" -ge $min_colours ] || fail "passphrase screenshot looks blank ($c colours): build/ui-passphrase.png"
  echo "ui-selftest: keyboard-only run from first run passed (with the passphrase changed); build/ui-passphrase.png" >&2
  unset TESSERA_SELFTEST_KEYBOARD
fi
[ -n "${KEYS_ONLY:-}" ] && exit 0

[ -n "${SKIP_FRESH:-}" ] && exit 0

# ---- 2. fresh machine: scripts/run.sh brings the window up ---------------------
# A new HOME stands for a new user; the caches are kept so that this checks
# the run command, not the network.
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
export npm_config_cache=$(npm config get cache 2>/dev/null)
unset TESSERA_HOME TESSERA_SELFTEST_REPORT TESSERA_SELFTEST_HOLD XDG_CONFIG_HOME XDG_DATA_HOME
export HOME=$tmp/fresh-home TESSERA_RUNTIME_DIR=$tmp/fresh-run
mkdir -p "$HOME"
rm -f build/run-window.png
"${session[@]}" timeout -k 10 600 xvfb-run -a -s "-screen 0 1280x900x24" bash -c '
  set -u
  setsid scripts/run.sh >"$0/run.log" 2>&1 & pid=$!
  up=no
  for _ in $(seq 1800); do
    if xwininfo -name Tessera 2>/dev/null | grep -q "Map State: IsViewable"; then up=yes; break; fi
    kill -0 $pid 2>/dev/null || break
    sleep 0.2
  done
  if [ $up = yes ]; then
    for _ in $(seq 50); do
      import -window root "$0/run.png" 2>/dev/null &&
        [ "$(/usr/bin/convert "$0/run.png" -format %k info:)" -ge '"$min_colours"' ] && break
      sleep 0.2
    done
  fi
  echo $up >"$0/up"
  # run.sh execs the app in its own session: stop that whole group.
  kill -TERM -- -$pid 2>/dev/null
  wait $pid
' "$tmp" || true

cp "$tmp/run.log" build/run.log 2>/dev/null || true
[ "$(cat "$tmp/up" 2>/dev/null)" = yes ] || { tail -n 30 build/run.log >&2; fail "scripts/run.sh did not bring the Tessera window up"; }
[ -f "$tmp/run.png" ] && cp "$tmp/run.png" build/run-window.png
[ -f build/run-window.png ] || fail "no screenshot of the run window"
colours=$(distinct_colours build/run-window.png)
[ "$colours" -ge $min_colours ] || fail "run window screenshot looks blank ($colours colours): build/run-window.png"
echo "ui-selftest: fresh-machine run passed; screenshot build/run-window.png ($colours colours)" >&2

# ---- 3. --hidden starts without a window; a second launch shows it ------------
if [ ${#session[@]} -eq 0 ]; then
  echo "ui-selftest: no dbus-run-session; skipping the --hidden / second-launch check" >&2
  exit 0
fi
export TESSERA_RUNTIME_DIR=$tmp/hidden-run
# Every wait is bounded: a second launch that finds no first instance
# becomes the app itself and would never return.
"${session[@]}" timeout -k 10 180 xvfb-run -a -s "-screen 0 1280x900x24" bash -c '
  set -u
  state() { xwininfo -name Tessera 2>/dev/null | sed -n "s/.*Map State: //p"; }
  # start_hidden starts tessera --hidden and waits for its window to exist;
  # it fails when the app exits first.
  start_hidden() {
    build/bin/tessera --hidden 2>>"$0/hidden.log" & pid=$!
    for _ in $(seq 300); do
      [ -n "$(state)" ] && return 0
      kill -0 $pid 2>/dev/null || return 1
      sleep 0.1
    done
  }
  # GTK sometimes fails to start on a display that has just come up
  # ("failed to init GTK"); one more try tells that from a broken --hidden.
  if ! start_hidden; then
    echo "ui-selftest: tessera --hidden exited before its window existed; trying once more" >>"$0/hidden.log"
    sleep 1
    start_hidden || true
  fi
  sleep 1 # give a wrongly shown window time to map
  echo "$(state)" >"$0/hidden-first"
  kill -0 $pid 2>/dev/null || exit 0
  timeout 20 build/bin/tessera 2>>"$0/hidden.log"
  for _ in $(seq 100); do [ "$(state)" = IsViewable ] && break; sleep 0.1; done
  echo "$(state)" >"$0/hidden-second"
  kill -TERM $pid 2>/dev/null
  wait $pid
' "$tmp" || true
first=$(cat "$tmp/hidden-first" 2>/dev/null || true)
second=$(cat "$tmp/hidden-second" 2>/dev/null || true)
cp "$tmp/hidden.log" build/hidden.log 2>/dev/null || true
[ "$first" = IsUnMapped ] || fail "tessera --hidden: window state '$first', want IsUnMapped (build/hidden.log)"
[ "$second" = IsViewable ] || fail "second launch did not show the hidden window: state '$second' (build/hidden.log)"
echo "ui-selftest: --hidden starts unmapped; a second launch shows the window" >&2
