#!/usr/bin/env bash
# Runs every Tessera test: unit tests and fuzz seed corpora, extension unit
# tests, the desktop build, the real-keyring tests, the real-browser
# end-to-end tests and the UI self-test under Xvfb. Installs what is missing
# first. Exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

passed=0
stage() {
  local name=$1; shift
  local t0=$SECONDS
  echo "=== stage: $name"
  "$@"
  echo "=== ok: $name ($((SECONDS - t0)) s)"
  passed=$((passed + 1))
}

deps() {
  scripts/deps-debian.sh
  scripts/go-mod-download.sh
}

npm_build() {
  local dir=$1
  (cd "$dir" && { [ -d node_modules ] || npm install --no-audit --no-fund --loglevel=error; } && npm run --silent build)
}

extension() {
  npm_build extension
  (cd extension && npm run --silent typecheck && npm test --silent)
}

frontend() {
  # node_modules from before vitest was a dependency lacks it.
  [ -x frontend/node_modules/.bin/vitest ] || (cd frontend && npm install --no-audit --no-fund --loglevel=error)
  npm_build frontend
  (cd frontend && npm test --silent)
}

lint() {
  local bad
  bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './*/node_modules/*'))
  if [ -n "$bad" ]; then echo "gofmt needed: $bad" >&2; return 1; fi
  CGO_ENABLED=0 go vet ./...
  GOOS=windows CGO_ENABLED=0 go vet ./...
  GOOS=darwin CGO_ENABLED=0 go vet ./...
  for tags in e2e browser selftest keyring testhooks e2e,testhooks; do CGO_ENABLED=0 go vet -tags "$tags" ./...; done
}

# The self-test's own checks run as unit tests under its tag too.
unit() { CGO_ENABLED=0 go test -count=1 ./... && CGO_ENABLED=0 go test -count=1 -tags selftest -run SelfTest ./app/; }

keyring() { scripts/test-keyring.sh; }

desktop() { scripts/build-desktop.sh; }

e2e() {
  # The React test page is built from npm packages (e2e/pages).
  # Always: a machine with an older node_modules would miss a package added
  # since (Vue came after React).
  (cd e2e/pages && npm install --no-audit --no-fund --loglevel=error)
  # The official MCP TypeScript SDK client and Inspector CLI (agent tests).
  (cd e2e/mcpclient && npm ci --no-audit --no-fund --loglevel=error)
  # The official MCP conformance runner and the Node.js 22 it needs
  # (TestMCPConformance).
  (cd e2e/conformance && npm ci --no-audit --no-fund --loglevel=error)
  go test -count=1 -tags e2e ./e2e/...
}

e2e_firefox() {
  # Firefox ESR over WebDriver BiDi (e2e/firefox: puppeteer-core), and the
  # Firefox build linted and packed by web-ext.
  (cd e2e/firefox && { [ -d node_modules ] || npm install --no-audit --no-fund --loglevel=error; })
  (cd extension && { [ -x node_modules/.bin/web-ext ] || npm install --no-audit --no-fund --loglevel=error; } \
    && npm run --silent lint:firefox && npm run --silent xpi)
  CGO_ENABLED=0 go vet -tags e2e,firefox ./e2e/
  go test -count=1 -tags e2e,firefox -run Firefox ./e2e/
}

webmcp_browser() { go test -count=1 -tags browser -run TestChromiumWebMCPGoldens ./form/; }

ui() { scripts/ui-selftest.sh; }

# make dist's .deb and .rpm: the rpm's contents and requirements, and the
# .deb installed, used, upgraded and purged in a clean Debian root
# (debootstrap, cached under ~/.cache/tessera/pkgtest).
package() { scripts/test-package.sh; }

# Two and three Tessera vaults kept in step through real Syncthing
# instances on 127.0.0.1 (discovery, relays and reporting off), with the
# network between them paused and resumed (devsync/syncthing_test.go).
sync_engine() { TESSERA_TEST_SYNCTHING=1 go test -count=1 -run 'TestSyncthing|TestStart' ./devsync/ ./devsync/syncthingtest/; }

# Nothing Tessera starts may outlive its owner: no orphaned D-Bus or keyring
# daemon (parent 1) started since this script began may survive the stages.
# A bus whose session just ended is reparented to init for the moment it
# takes to exit, so survivors get up to 20 s to go.
survivors() {
  local left i
  for i in $(seq 40); do
    left=$(ps -u "$(id -u)" -o pid=,ppid=,etimes=,comm= |
      awk -v t="$SECONDS" '$2 == 1 && $3 <= t && ($4 == "dbus-daemon" || $4 ~ /^gnome-keyring/)')
    [ -z "$left" ] && return 0
    sleep 0.5
  done
  echo "left running 20 s after the last stage (pid ppid age name):" >&2; echo "$left" >&2; return 1
}

stage "dependencies" deps
stage "extension build + unit tests" extension
stage "frontend build + unit tests (vitest)" frontend
stage "gofmt + go vet (linux, windows, darwin)" lint
stage "go unit tests + fuzz seed corpora" unit
stage "vault against a real Secret Service keyring" keyring
stage "desktop build (cgo, webkit2gtk 4.1)" desktop
stage "end-to-end: real Chromium + extension + host + app" e2e
stage "end-to-end: real Firefox ESR + extension + host + app" e2e_firefox
stage "WebMCP synthesis vs Chromium's native WebMCP" webmcp_browser
stage "UI self-test under Xvfb" ui
stage "devices kept in step through real Syncthing" sync_engine
stage "packages: .rpm contents, .deb install/upgrade/purge in a clean Debian root" package
stage "no daemon outlives the tests" survivors
echo "tessera test stages: $passed passed, 0 failed"
