#!/usr/bin/env bash
# Downloads the Go modules go.mod names. A module download can stall with no
# error and no progress (seen here: a zip stuck at 0 bytes for 20 minutes),
# and `go` sets no deadline of its own, so each try is bounded and a stalled
# try is retried; a refusal fails at once as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
for try in 1 2 3; do
  if timeout 180 go mod download; then
    exit 0
  fi
  echo "go-mod-download: try $try did not finish; retrying" >&2
done
echo "go-mod-download: Go modules could not be downloaded (3 tries of 180 s)" >&2
exit 1
