#!/usr/bin/env bash
# Launch-to-unlocked figure for the window (issue 13): a vault of 10
# profiles x 500 values made with the CLI, then the selftest build started
# under Xvfb in timing mode (app/selftest_timing.go): the page types the
# passphrase, unlocks, opens Profiles and waits for all 10 rows. Prints the
# times after launch, RUNS times (default 3), and the frontend bundle size.
# Not a test (no timing assertion): figures for the README and the notes.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x build/bin/tessera-selftest ] || TESSERA_TAGS=selftest OUT=build/bin/tessera-selftest scripts/build-desktop.sh
CGO_ENABLED=0 go build -o "$tmp/tessera" .
export TESSERA_HOME=$tmp/home TESSERA_RUNTIME_DIR=$tmp/run TESSERA_KEYRING=none NO_AT_BRIDGE=1
pass="timing lantern orchard velvet"
printf '%s' "$pass" >"$tmp/pass"
"$tmp/tessera" vault init --passphrase-file "$tmp/pass" --no-keyring >/dev/null
node -e '
  const ps = [];
  for (let p = 0; p < 10; p++) {
    const fields = {};
    for (let i = 0; i < 500; i++) fields["form-" + p + "/field-" + i] = { value: "value " + p + "." + i };
    ps.push({ id: "p" + p, label: "Profile " + p, concepts: {}, fields });
  }
  process.stdout.write(JSON.stringify({ $formspecProfile: "1.0", profiles: ps }));
' >"$tmp/profiles.json"
"$tmp/tessera" profile import --passphrase-file "$tmp/pass" "$tmp/profiles.json"
session=()
command -v dbus-run-session >/dev/null && session=(dbus-run-session --)
for r in $(seq "${RUNS:-3}"); do
  rm -f "$tmp/report.json"
  TESSERA_SELFTEST_TIMING=1 TESSERA_SELFTEST_TIMING_PASS=$pass TESSERA_SELFTEST_TIMING_PROFILES=10 \
    TESSERA_SELFTEST_REPORT=$tmp/report.json TESSERA_SELFTEST_HOLD=0s \
    "${session[@]}" timeout -k 5 120 xvfb-run -a -s "-screen 0 1280x900x24" bash -c '
      export TESSERA_SELFTEST_T0=$(date +%s%N)
      WEBKIT_DISABLE_COMPOSITING_MODE=1 build/bin/tessera-selftest 2>"$0/app.log" & pid=$!
      for _ in $(seq 1200); do [ -s "$TESSERA_SELFTEST_REPORT" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
      kill -TERM $pid 2>/dev/null; wait $pid' "$tmp" >/dev/null 2>&1 || true
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log("run " + process.argv[2] + ": " + r.checks.map((c) => c.name.replace("timing: ", "") + (c.ok ? "" : " (FAILED)") + " " + c.detail.replace(/ \(.*/, "")).join("; "));
  ' "$tmp/report.json" "$r" || { echo "run $r: no report (see $tmp/app.log)"; cat "$tmp/app.log" | tail -5; }
done
(cd frontend && [ -d dist/assets ] && for f in dist/assets/*; do printf '%s %s bytes, gzip %s bytes\n' "$f" "$(wc -c <"$f")" "$(gzip -9c "$f" | wc -c)"; done)
