// Package release makes the files Tessera's packages carry beside the
// binaries, each from one source: hicolor icons scaled from the app's icon,
// the man page from the command line's own help, and the AppStream
// metainfo. release/cmd/assets writes them for scripts/dist.sh; nfpm.yaml
// says where each goes in the .deb and .rpm.
package release
