#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME each (default 10m;
# the first argument, if given, wins), then prints one line per target.
#
# A run counts as failed only when it wrote a new reproducer under
# testdata/fuzz/<Target>/: on Go 1.26 a duration budget can end with
# "context deadline exceeded" and no reproducer, a race in Go's fuzz
# coordinator (golang/go#75804), not a crash in Tessera. Such runs are
# reported as "ok (coordinator race)".
set -uo pipefail
cd "$(dirname "$0")/.."
t=${1:-${FUZZTIME:-10m}}
summary=()
failed=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //' | sort -u); do
    corpus="$dir/testdata/fuzz/$target"
    before=$(ls "$corpus" 2>/dev/null | wc -l)
    echo "=== $pkg $target ($t)"
    log=$(mktemp)
    CGO_ENABLED=0 go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" "$pkg" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    after=$(ls "$corpus" 2>/dev/null | wc -l)
    execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    if [ "$rc" -eq 0 ]; then
      result="ok"
    elif [ "$after" -gt "$before" ]; then
      result="FAIL: new reproducer in $corpus"
      failed=1
    elif grep -q 'context deadline exceeded' "$log"; then
      result="ok (coordinator race, no reproducer)"
    else
      result="FAIL (exit $rc)"
      failed=1
    fi
    rm -f "$log"
    summary+=("$pkg $target $t execs=${execs:-?}: $result")
  done
done
echo "=== fuzz summary"
printf '%s\n' "${summary[@]}"
exit $failed
