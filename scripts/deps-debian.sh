#!/usr/bin/env bash
# Installs the Debian packages Tessera needs to build, run and test.
# Idempotent: packages already present are skipped without touching apt.
set -euo pipefail
pkgs=(build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
      chromium chromium-driver firefox-esr xvfb xauth x11-utils xdotool imagemagick
      gnome-keyring dbus dbus-x11 libsecret-tools syncthing
      debootstrap bubblewrap rpm nsis zip)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "tessera: missing system packages: ${missing[*]}" >&2
  echo "tessera: this script installs them on Debian/Ubuntu; elsewhere install the equivalents (see README, 'Other systems')." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "tessera: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
