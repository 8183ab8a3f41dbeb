#!/bin/sh
# Runs the vault's real-keyring tests (build tag "keyring") on Linux: once
# inside a private D-Bus session with an unlocked gnome-keyring Secret
# Service, and once with no session bus at all, which is the "keyring
# absent" path. Fails if either run fails or if a run skipped the tests it
# exists for. Needs dbus and gnome-keyring (scripts/deps-debian.sh).
set -eu
cd "$(dirname "$0")/.."

for cmd in dbus-run-session gnome-keyring-daemon; do
	if ! command -v "$cmd" >/dev/null 2>&1; then
		echo "test-keyring: $cmd not found; run scripts/deps-debian.sh" >&2
		exit 1
	fi
done

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run NAME SKIPPED_PATTERN CMD...: runs CMD, prints the keyring test lines,
# fails on a test failure or on a skip matching SKIPPED_PATTERN.
run() {
	name=$1 skipped=$2
	shift 2
	echo "test-keyring: $name"
	if ! "$@" >"$out" 2>&1; then
		cat "$out"
		exit 1
	fi
	grep -E -- '^ *--- .*: Test(SystemKeyring|Scripts/vault_keyring)|^ok' "$out" || true
	if grep -E -q -- "^ *--- SKIP: ($skipped)" "$out"; then
		echo "test-keyring: $name: tests skipped that must run" >&2
		exit 1
	fi
}

run "with a Secret Service (gnome-keyring under dbus-run-session)" \
	'TestSystemKeyringRoundTrip|TestSystemKeyringVault|TestSystemKeyringRollback' \
	dbus-run-session -- sh -c 'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; go test -count=1 -tags keyring -v ./vault/...'

run "the CLI with a Secret Service" 'TestScripts/vault_keyring' \
	dbus-run-session -- sh -c 'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; TESSERA_TEST_REAL_KEYRING=1 go test -count=1 -run TestScripts/vault_keyring -v ./cli/'

run "without a session bus" 'TestSystemKeyringAbsent' \
	env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY \
	go test -count=1 -tags keyring -run SystemKeyring -v ./vault/...
