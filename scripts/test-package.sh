#!/usr/bin/env bash
# The packages as a person meets them (a stage of scripts/test.sh):
#
#  1. the .rpm's contents and requirements (rpm -qpl, rpm -qpR);
#  2. in a clean Debian root (scripts/pkgroot.sh: debootstrap, cached),
#     entered with bubblewrap (/proc, /dev and /dev/shm its own, never this
#     machine's /usr or /etc), scripts/pkgtest-root.sh: lintian, apt install
#     of the previous version, a vault, the root's Chromium reaching the
#     installed app (with its window, on the root's Xvfb) through the
#     system-wide manifest: hello, pairing and a fill, both approved in the
#     app's window with a click (xdotool); the upgrade to this version with the
#     vault in place (it opens, the browser is still paired, a fill works);
#     removal and purge.
#
# The root is an overlay on the cached one, thrown away after the run.
# Packages: dist/ (DEB=..., RPM=..., TAR=...) when given, else built here with
# scripts/dist.sh (this version, and the same tree as version 0.1.0 for the
# previous one; PREV=... to give it). Needs root, debootstrap, bubblewrap and rpm.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
t0=$SECONDS
work=build/pkgtest
cur_v=$(sed -n 's/^## \[\([0-9][^]]*\)\] - .*/\1/p' CHANGELOG.md | head -1)
prev_v=${PREV_VERSION:-$(sed -n 's/^## \[\([0-9][^]]*\)\] - .*/\1/p' CHANGELOG.md | sed -n 2p)}

for c in debootstrap bwrap rpm; do
  command -v "$c" >/dev/null || { echo "test-package: $c missing (scripts/deps-debian.sh)" >&2; exit 1; }
done

mkdir -p "$work"
DEB=${DEB:-}
RPM=${RPM:-}
TAR=${TAR:-}
if [ -z "$DEB" ] || [ -z "$RPM" ] || [ -z "$TAR" ]; then
  OUT=$work/cur TARGETS="deb rpm tar" scripts/dist.sh
  DEB=$work/cur/tessera_${cur_v}_amd64.deb
  RPM=$work/cur/tessera-${cur_v}-1.x86_64.rpm
  TAR=$work/cur/tessera-${cur_v}-linux-amd64.tar.gz
fi
# The previous release, as its package would have been built: this tree,
# stamped with the previous version (the vault format and the paths are
# what an upgrade must keep working).
PREV=${PREV:-}
if [ -z "$PREV" ]; then
  OUT=$work/prev TARGETS=deb VERSION=$prev_v scripts/dist.sh
  PREV=$work/prev/tessera_${prev_v}_amd64.deb
fi

echo "=== rpm: contents and requirements of $(basename "$RPM")"
files=$(rpm -qpl "$RPM" 2>/dev/null)
reqs=$(rpm -qpR "$RPM" 2>/dev/null)
for f in /usr/bin/tessera /usr/lib/tessera/tessera /usr/lib/tessera/tessera-host \
  /etc/opt/chrome/native-messaging-hosts/dev.tessera.host.json \
  /etc/chromium/native-messaging-hosts/dev.tessera.host.json \
  /etc/opt/edge/native-messaging-hosts/dev.tessera.host.json \
  /etc/opt/vivaldi/native-messaging-hosts/dev.tessera.host.json \
  /usr/lib64/mozilla/native-messaging-hosts/dev.tessera.host.json \
  /usr/share/applications/io.github.tessera_app.Tessera.desktop \
  /usr/share/metainfo/io.github.tessera_app.Tessera.metainfo.xml \
  /usr/share/icons/hicolor/256x256/apps/tessera.png /usr/share/man/man1/tessera.1.gz; do
  grep -qx "$f" <<<"$files" || { echo "test-package: the rpm lacks $f" >&2; exit 1; }
done
for r in gtk3 webkit2gtk4.1; do
  grep -qx "$r" <<<"$reqs" || { echo "test-package: the rpm does not require $r:" >&2; echo "$reqs" >&2; exit 1; }
done
if grep -E -- '-devel|/usr/lib/mozilla/' <<<"$reqs$files"; then echo "test-package: the rpm requires a -devel package or uses Debian's Firefox path" >&2; exit 1; fi
echo "rpm: $(wc -l <<<"$files") files; requires: $(grep -v '^rpmlib(' <<<"$reqs" | tr '\n' ' ')"

echo "=== the pieces the root needs"
(cd extension && { [ -d node_modules ] || npm install --no-audit --no-fund --loglevel=error; } && node build.mjs --test --outdir "$root/$work/pkg/extension" >/dev/null)
CGO_ENABLED=0 go build -tags e2e -o "$work/pkg/pkgcheck" ./e2e/cmd/pkgcheck
cp "$DEB" "$work/pkg/cur.deb"
cp "$PREV" "$work/pkg/prev.deb"
cp "$TAR" "$work/pkg/portable.tar.gz"
cp e2e/testdata/profile.json scripts/pkgtest-root.sh "$work/pkg/"
rm -rf "$work/pkg/pages" && cp -r e2e/testdata/pages "$work/pkg/pages"

base=$(scripts/pkgroot.sh)
cache=$(dirname "$base")
ov=$work/overlay
cleanup() {
  mountpoint -q "$ov/merged" && umount "$ov/merged"
  rm -rf "$ov"
}
cleanup
trap cleanup EXIT
mkdir -p "$ov/upper" "$ov/work" "$ov/merged"
mount -t overlay overlay -o "lowerdir=$base,upperdir=$ov/upper,workdir=$ov/work" "$ov/merged"
echo "=== in a clean Debian root ($base, overlaid)"
bwrap --bind "$ov/merged" / --proc /proc --dev /dev --tmpfs /dev/shm --tmpfs /tmp --tmpfs /run \
  --bind "$cache/archives" /var/cache/apt/archives \
  --ro-bind "$work/pkg" /pkg --ro-bind /etc/resolv.conf /etc/resolv.conf \
  --unshare-pid --unshare-ipc --unshare-uts --hostname pkgtest --die-with-parent \
  --clearenv --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin --setenv LANG C.UTF-8 \
  --setenv TESSERA_CHROMIUM /usr/lib/chromium/chromium \
  /bin/bash /pkg/pkgtest-root.sh
echo "test-package: ok ($((SECONDS - t0)) s)"
