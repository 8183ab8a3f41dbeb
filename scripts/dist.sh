#!/usr/bin/env bash
# Builds a Tessera release into dist/ (`make dist`): every artifact and a
# SHA256SUMS beside them.
#
#   dist/tessera_VERSION_amd64.deb          Debian, Ubuntu
#   dist/tessera-VERSION-1.x86_64.rpm       Fedora, openSUSE, RHEL
#   dist/tessera-VERSION-linux-amd64.tar.gz other Linux: tessera install --user|--system
#   dist/tessera-VERSION-windows-amd64-setup.exe   NSIS installer (per user, HKCU)
#   dist/tessera-extension-VERSION-chrome.zip      Chrome Web Store upload
#   dist/tessera-extension-VERSION-firefox.xpi     addons.mozilla.org upload (unsigned)
#
# The build is reproducible: -trimpath, the version, commit and commit date
# stamped in with -ldflags (tessera version prints them), and every archive's
# times set to the commit's (SOURCE_DATE_EPOCH). Two runs on one commit give
# the same SHA256SUMS for the Go-built files.
#
# Environment:
#   VERSION   release version (default: the newest release in CHANGELOG.md,
#             which must have a section for it either way)
#   TARGETS   what to build, any of: deb rpm tar windows extension
#             (default: all)
#   OUT       output directory (default: dist)
#
# Needs Go, Node/npm, the desktop build's packages (scripts/deps-debian.sh)
# and, for the Windows installer, Debian's nsis (makensis). nfpm (the .deb
# and .rpm) runs from the Go module proxy at a pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
t0=$SECONDS

# nfpm 2.46 and later need modules the Go proxy cannot serve here
# (go.digitalxero.dev, 403); 2.45.0 builds .deb and .rpm with
# google/rpmpack and blakesmith/ar.
NFPM=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.0

VERSION=${VERSION:-$(sed -n 's/^## \[\([0-9][^]]*\)\] - .*/\1/p' CHANGELOG.md | head -1)}
TARGETS=${TARGETS:-deb rpm tar windows extension}
OUT=${OUT:-dist}
want() { [[ " $TARGETS " == *" $1 "* ]]; }

commit=$(git rev-parse HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-dirty"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
day=${date%%T*}
echo "dist: tessera $VERSION ($commit, $date) -> $OUT: $TARGETS" >&2

stage=build/dist-stage
rm -rf "$stage" "$OUT"
mkdir -p "$stage/bin" "$stage/win" "$OUT"
ldflags="-s -w -buildid= -X github.com/tessera-app/tessera/cli.Version=$VERSION -X github.com/tessera-app/tessera/cli.Commit=$commit -X github.com/tessera-app/tessera/cli.Date=$date"
export GOFLAGS="-trimpath"

if want deb || want rpm || want tar || want windows; then
  (cd frontend && { [ -d node_modules ] || npm install --no-audit --no-fund --loglevel=error; } && npm run build --silent)
fi

if want deb || want rpm || want tar; then
  tags=desktop,production,webkit2_41
  # PIE and full RELRO, as Debian builds C programs (lintian's hardening checks).
  CGO_ENABLED=1 go build -buildmode=pie -tags "$tags" -ldflags "$ldflags -linkmode=external -extldflags=-Wl,-z,relro,-z,now" -o "$stage/bin/tessera" .
  go version -m "$stage/bin/tessera" | grep -q -- "-tags=$tags" || { echo "dist: tessera was not built with tags $tags" >&2; exit 1; }
  CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$stage/bin/tessera-host" ./cmd/tessera-host
  "$stage/bin/tessera" version | grep -qx "tessera $VERSION (protocol [0-9]*)" || { echo "dist: tessera version does not print $VERSION" >&2; exit 1; }
  CGO_ENABLED=0 go run ./release/cmd/assets -out "$stage/assets" -version "$VERSION" -date "$day"
  cp release/linux/copyright release/linux/lintian-overrides "$stage/"
fi

for p in deb rpm; do
  want "$p" || continue
  (cd "$stage" && VERSION=$VERSION go run "$NFPM" package --config "$root/release/linux/nfpm.yaml" --packager "$p" --target "$root/$OUT/") >&2
done

# Archives: entries sorted, owned by root, dated at the commit.
reprotar() { tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner -C "$1" -cf - "$2" | gzip -9n; }

if want tar; then
  name=tessera-$VERSION-linux-amd64
  d=$stage/$name
  mkdir -p "$d/share/applications" "$d/share/metainfo" "$d/share/man/man1"
  install -m 0755 "$stage/bin/tessera" "$stage/bin/tessera-host" "$d/"
  for s in "$stage"/assets/icons/*; do
    mkdir -p "$d/share/icons/hicolor/$(basename "$s")/apps"
    install -m 0644 "$s/tessera.png" "$d/share/icons/hicolor/$(basename "$s")/apps/"
  done
  install -m 0644 "$stage/assets/io.github.tessera_app.Tessera.desktop" "$d/share/applications/"
  install -m 0644 "$stage/assets/io.github.tessera_app.Tessera.metainfo.xml" "$d/share/metainfo/"
  install -m 0644 "$stage/assets/tessera.1.gz" "$d/share/man/man1/"
  install -m 0644 release/linux/INSTALL.txt CHANGELOG.md release/linux/copyright "$d/"
  reprotar "$stage" "$name" > "$OUT/$name.tar.gz"
fi

if want windows; then
  command -v makensis >/dev/null || { echo "dist: makensis missing (apt-get install nsis)" >&2; exit 1; }
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -tags desktop,production -ldflags "$ldflags -H windowsgui" -o "$stage/win/tessera.exe" .
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$stage/win/tessera-host.exe" ./cmd/tessera-host
  CGO_ENABLED=0 go run ./release/cmd/assets -out "$stage/win-assets" -version "$VERSION" -date "$day"
  # The installer's icon, from the same source image.
  command -v /usr/bin/convert >/dev/null && /usr/bin/convert frontend/public/icon.png -define icon:auto-resize=256,48,32,16 "$stage/win/tessera.ico"
  # The installer keeps each file's time: the commit's, so two builds match.
  touch -d "@$SOURCE_DATE_EPOCH" "$stage/win/"*
  makensis -V2 -INPUTCHARSET UTF8 \
    -DVERSION="$VERSION" -DSTAGE="$root/$stage/win" -DREGISTRY="$root/$stage/win-assets/windows/registry.nsh" \
    -DOUTFILE="$root/$OUT/tessera-$VERSION-windows-amd64-setup.exe" release/windows/tessera.nsi >&2
fi

if want extension; then
  (cd extension && { [ -x node_modules/.bin/web-ext ] || npm install --no-audit --no-fund --loglevel=error; } && npm run --silent build && npm run --silent lint:firefox)
  ext=$stage/extension
  rm -rf "$ext" && mkdir -p "$ext"
  cp -r extension/dist "$ext/chrome"
  cp -r extension/dist-firefox "$ext/firefox"
  # The stores show the extension's icons (the app's, scaled by
  # release/cmd/assets); the Chrome Web Store refuses a manifest with "key"
  # (it assigns the ID on first upload), so the store build drops it. The
  # version is the release's.
  CGO_ENABLED=0 go run ./release/cmd/assets -out "$stage/ext-assets" -version "$VERSION" -date "$day"
  for b in chrome firefox; do
    mkdir -p "$ext/$b/icons"
    for s in 16 32 48 128; do cp "$stage/ext-assets/icons/${s}x${s}/tessera.png" "$ext/$b/icons/$s.png"; done
  done
  node -e '
    const fs = require("fs");
    for (const [dir, strip] of [[process.argv[1], true], [process.argv[2], false]]) {
      const p = dir + "/manifest.json";
      const m = JSON.parse(fs.readFileSync(p, "utf8"));
      if (strip) delete m.key;
      m.version = process.argv[3].replace(/[^0-9.].*$/, "");
      const icons = { 16: "icons/16.png", 32: "icons/32.png", 48: "icons/48.png", 128: "icons/128.png" };
      m.icons = icons;
      m.action = { ...m.action, default_icon: { 16: icons[16], 32: icons[32] } };
      fs.writeFileSync(p, JSON.stringify(m, null, 2) + "\n");
    }' "$ext/chrome" "$ext/firefox" "$VERSION"
  (cd extension && npx --no-install web-ext lint --source-dir "$root/$ext/firefox" --warnings-as-errors >&2)
  find "$ext" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  for b in chrome firefox; do
    suffix=zip; [ $b = firefox ] && suffix=xpi
    (cd "$ext/$b" && find . -type f | LC_ALL=C sort | zip -q -X -9 -@ "$root/$OUT/tessera-extension-$VERSION-$b.$suffix")
  done
fi

(cd "$OUT" && sha256sum -- * > SHA256SUMS)
echo "dist: done in $((SECONDS - t0)) s" >&2
(cd "$OUT" && ls -l --block-size=K -- *) >&2
