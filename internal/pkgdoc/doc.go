// Package pkgdoc holds the test that every package of the module says, in a
// package doc comment, what it owns (the tailscale habit: a newcomer reads
// `go doc` of a package before its code).
package pkgdoc
