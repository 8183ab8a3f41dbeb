// Package e2e holds Tessera's end-to-end tests and the harness they share
// with the round-trip benchmark (cmd/bench-roundtrip): a real headless
// Chromium with the test build of the extension, the real tessera binary as
// native-messaging host, and the real app (headless) behind the socket.
// The browser tests and the harness are behind the build tags e2e and linux
// (see README.md); plain `go test` runs only the checks that need no
// browser.
package e2e
