#!/usr/bin/env bash
# Builds the desktop app: the frontend (frontend/dist, embedded by main.go)
# and then the cgo Wails binary build/bin/tessera, with the small native
# host build/bin/tessera-host beside it (cmd/tessera-host, cgo-free: the
# browser starts it for every connection; `tessera install` registers it).
#
#   scripts/build-desktop.sh                 release build
#   TESSERA_TAGS=selftest OUT=build/bin/tessera-selftest scripts/build-desktop.sh
#
# Needs libgtk-3-dev and libwebkit2gtk-4.1-dev (scripts/deps-debian.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-build/bin/tessera}
tags="desktop,production,webkit2_41${TESSERA_TAGS:+,$TESSERA_TAGS}"

(
  cd frontend
  [ -d node_modules ] || npm install --no-audit --no-fund
  npm run build --silent
)
[ -f frontend/dist/index.html ] || { echo "build-desktop: frontend/dist/index.html was not produced" >&2; exit 1; }

version=$(git describe --tags --always --dirty 2>/dev/null || true)
ldflags="-w -s${version:+ -X github.com/tessera-app/tessera/cli.Version=$version}"
mkdir -p "$(dirname "$out")"
CGO_ENABLED=1 go build -tags "$tags" -ldflags "$ldflags" -o "$out" .

# A Wails binary built without the desktop tag cannot open a window, yet
# prints an error and exits 0; make sure the tags really went in.
go version -m "$out" | grep -q -- "-tags=$tags" || {
  echo "build-desktop: $out was not built with tags $tags" >&2
  exit 1
}
echo "build-desktop: built $out (tags $tags)" >&2

# The host pairs with an executable named tessera only (nativemsg.Sibling).
if [ "$(basename "$out")" = tessera ]; then
  host="$(dirname "$out")/tessera-host"
  CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$host" ./cmd/tessera-host
  echo "build-desktop: built $host" >&2
fi
