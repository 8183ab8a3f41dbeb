#!/bin/bash
# Runs inside the clean Debian root of scripts/test-package.sh (as root,
# with /pkg holding prev.deb, cur.deb, the extension's test build, pkgcheck
# and a profile): what a person does with the packages, checked at each step.
# Exits non-zero at the first failing check.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive TESSERA_KEYRING=none HOME=/root
export TESSERA_RUNTIME_DIR=/run/tessera-test
data=$HOME/.local/share/tessera # the person's data directory: vault.DefaultDir
prev_v=$(dpkg-deb -f /pkg/prev.deb Version)
cur_v=$(dpkg-deb -f /pkg/cur.deb Version)
mkdir -p -m 0700 "$TESSERA_RUNTIME_DIR"
printf 'correct horse battery staple\n' > /tmp/pw
# The root shares the machine's network namespace, and with it X's abstract
# sockets: Xvfb picks a display number no other X server uses.
Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp 3> /tmp/xdisplay > /tmp/xvfb.log 2>&1 &
for _ in $(seq 100); do [ -s /tmp/xdisplay ] && break; sleep 0.05; done
export DISPLAY=:$(cat /tmp/xdisplay)
echo "Xvfb on $DISPLAY"

t=$SECONDS
step() { echo "--- [$((SECONDS - t)) s] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# On any failure, what the app said.
trap 'rc=$?; if [ $rc -ne 0 ]; then for f in /tmp/app-*.log; do [ -f "$f" ] && { echo "--- $f:" >&2; tail -30 "$f" >&2; }; done; fi' EXIT

app_pid=
# The installed app with its window, on the root's own X server (Xvfb).
start_app() {
  tessera > "/tmp/app-$1.log" 2>&1 &
  app_pid=$!
  for _ in $(seq 400); do [ -S "$TESSERA_RUNTIME_DIR/app.sock" ] && return 0; sleep 0.05; done
  cat "/tmp/app-$1.log" >&2; fail "the installed app ($1) never listened"
}
stop_app() { [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null && wait "$app_pid" 2>/dev/null || true; app_pid=; }

# What may stay is the person's: the data directory, and the cache WebKit
# keeps for the window (~/.cache/tessera), both in their home, which no
# package may touch.
nothing_left() {
  local left
  left=$(find / -xdev \( -path /proc -o -path /pkg -o -path "$data" -o -path "$HOME/.cache/tessera" -o -path /tmp -o -path /run/tessera-test \) -prune -o -iname '*tessera*' -print)
  [ -z "$left" ] || fail "left after $1: $left"
}

step "lintian $cur_v (fails on errors and warnings; overrides: release/linux/lintian-overrides)"
lintian --fail-on error,warning --tag-display-limit 0 /pkg/cur.deb

step "apt installs tessera $prev_v, its dependencies from the distribution"
apt-get install -y -qq --no-install-recommends /pkg/prev.deb > /tmp/apt-prev.log || { cat /tmp/apt-prev.log >&2; fail "apt install"; }
tessera version | grep -qx "tessera $prev_v (protocol [0-9]*)" || fail "tessera version: $(tessera version)"
[ "$(readlink -f /etc/chromium/native-messaging-hosts/dev.tessera.host.json)" = /usr/lib/tessera/native-messaging-hosts/chromium/dev.tessera.host.json ] || fail "no system-wide Chromium manifest"
grep -q '"path": "/usr/lib/tessera/tessera-host"' /etc/chromium/native-messaging-hosts/dev.tessera.host.json || fail "manifest does not name the installed host"
[ ! -e "$HOME/.config/chromium" ] || fail "a per-user registration exists before any browser ran"

step "a vault with a profile, the app running, unlocked through it"
tessera vault init --passphrase-file /tmp/pw --work-factor 18 > /dev/null
tessera profile import --passphrase-file /tmp/pw /pkg/profile.json > /dev/null
start_app "$prev_v"
tessera vault unlock --passphrase-file /tmp/pw > /dev/null

step "Chromium -> system-wide manifest -> installed host -> installed app ($prev_v): hello, pair, fill, approve"
# One browser profile for the whole run: the pairing must survive the upgrade.
/pkg/pkgcheck -extension /pkg/extension -udd /root/udd -pair -version "$prev_v" -vault unlocked \
  -pages /pkg/pages -fill checkout.html

step "upgrade to $cur_v with apt while the $prev_v app runs"
apt-get install -y -qq --no-install-recommends /pkg/cur.deb > /tmp/apt-cur.log || { cat /tmp/apt-cur.log >&2; fail "apt upgrade"; }
tessera version | grep -qx "tessera $cur_v (protocol [0-9]*)" || fail "after upgrade: $(tessera version)"
kill -0 "$app_pid" || fail "the running app died during the upgrade"
echo "the $prev_v app is still running (pid $app_pid); the browser meets the new host:"
if /pkg/pkgcheck -extension /pkg/extension -udd /root/udd -state connected -vault unlocked > /tmp/old-app.log 2>&1; then
  echo "  served by the old app until it restarts"
else
  # Known: the new host verifies the app as its sibling file, which the
  # upgrade replaced (README, "Install"); it must say so to the person.
  echo "  the new host refuses the old app until it restarts:"
  grep -m1 '"state"' /tmp/old-app.log || tail -1 /tmp/old-app.log
  grep -q 'updated while it ran; quit Tessera and start it again' /tmp/old-app.log || fail "the extension is not told to restart Tessera"
fi

step "the person restarts Tessera: the vault opens with its passphrase, the browser is still paired"
stop_app
start_app "$cur_v"
tessera vault unlock --passphrase-file /tmp/pw > /dev/null
tessera profile list | grep -q . || fail "no profile after the upgrade"
/pkg/pkgcheck -extension /pkg/extension -udd /root/udd -state connected -version "$cur_v" -vault unlocked \
  -pages /pkg/pages -fill checkout.html
stop_app

step "remove: no manifest, link, entry or file of Tessera's outside the data directory"
apt-get remove -y -qq tessera > /dev/null
for d in /etc/opt/chrome /etc/chromium /etc/opt/edge /etc/opt/vivaldi /usr/lib/mozilla; do
  [ ! -e "$d/native-messaging-hosts/dev.tessera.host.json" ] || fail "$d manifest left after remove"
done
nothing_left remove
# No conffiles and no maintainer scripts: dpkg forgets the package on
# removal (no "rc" state waiting for a purge).
if dpkg-query -W -f='${Status}' tessera 2>/dev/null | grep -q .; then fail "dpkg still knows tessera after remove: $(dpkg-query -W -f='${Status}' tessera)"; fi

step "install again, then purge: the data directory stays, untouched"
apt-get install -y -qq --no-install-recommends /pkg/cur.deb > /tmp/apt-again.log || { cat /tmp/apt-again.log >&2; fail "apt install again"; }
before=$(find "$data" -type f -exec sha256sum {} + | sort)
apt-get purge -y -qq tessera > /dev/null
nothing_left purge
[ "$(find "$data" -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "purge changed the data directory"
[ -n "$before" ] || fail "the data directory is empty"
step "the portable tar.gz as INSTALL.txt says: tessera install --system, then uninstall --system"
mkdir -p /tmp/portable && tar -xzf /pkg/portable.tar.gz -C /tmp/portable
install -d -m 0755 /opt/tessera
install -m 0755 /tmp/portable/tessera-*/tessera /tmp/portable/tessera-*/tessera-host /opt/tessera/
/opt/tessera/tessera install --system
grep -q '"path": "/opt/tessera/tessera-host"' /etc/chromium/native-messaging-hosts/dev.tessera.host.json || fail "install --system did not register /opt/tessera/tessera-host for Chromium"
/opt/tessera/tessera uninstall --system > /dev/null
rm -r /opt/tessera
nothing_left "uninstall --system"
step "ok"
