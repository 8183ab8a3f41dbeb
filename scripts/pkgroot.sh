#!/usr/bin/env bash
# Prints the path of a clean Debian root for the package tests, making it
# first when the cache lacks it: debootstrap (minbase) of bookworm, then the
# packages below installed with the root's own apt, then its apt lists kept
# so that later installs resolve from the same distribution snapshot.
#
# The root is cached under $TESSERA_PKGTEST_CACHE (default
# ~/.cache/tessera/pkgtest), keyed by the suite, mirror and package list, so
# a change to any of them makes a new one. It is never used directly:
# scripts/test-package.sh copies it for each run.
#
# Needs root, debootstrap and bwrap (bubblewrap).
set -euo pipefail

suite=${TESSERA_PKGTEST_SUITE:-bookworm}
mirror=${TESSERA_PKGTEST_MIRROR:-http://deb.debian.org/debian}
# What a person's machine would have before installing Tessera: a browser.
# lintian checks the package from inside the same root; Xvfb and xdotool
# let the test answer the installed app's dialogs as a person would, with
# the keyboard.
pkgs=(chromium lintian ca-certificates xvfb xauth xdotool)

cache=${TESSERA_PKGTEST_CACHE:-$HOME/.cache/tessera/pkgtest}
key=$(printf '%s\n' "$suite" "$mirror" "${pkgs[@]}" v1 | sha256sum | cut -c1-12)
root=$cache/root-$suite-$key
if [ -f "$root.ready" ]; then
  echo "$root"
  exit 0
fi

for c in debootstrap bwrap; do
  command -v "$c" >/dev/null || { echo "pkgroot: $c missing (apt-get install debootstrap bubblewrap)" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "pkgroot: must run as root (debootstrap)" >&2; exit 1; }

echo "pkgroot: making $root (debootstrap $suite, then ${pkgs[*]}); a few minutes, once" >&2
rm -rf "$root.tmp"
mkdir -p "$cache" "$cache/archives/partial"
debootstrap --variant=minbase "$suite" "$root.tmp" "$mirror" >&2
cat > "$root.tmp/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF
# Documentation stays in: lintian and the package test look at it.
in_root() {
  bwrap --bind "$root.tmp" / --proc /proc --dev /dev --tmpfs /dev/shm \
    --bind "$cache/archives" /var/cache/apt/archives \
    --ro-bind /etc/resolv.conf /etc/resolv.conf --unshare-pid --die-with-parent \
    --setenv DEBIAN_FRONTEND noninteractive --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin "$@"
}
in_root apt-get update -qq >&2
in_root apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
mv "$root.tmp" "$root"
touch "$root.ready" # beside the root: nothing of the tests' may be inside it
echo "$root"
