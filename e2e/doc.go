// Package e2e holds Tessera's end-to-end tests and the harness they share
// with the benchmarks (cmd/bench-roundtrip, cmd/bench-fill): a real headless
// Chromium with the test build of the extension, the real tessera binary as
// native-messaging host, and the real app (headless) behind the socket; for
// fills, the app built with -tags testhooks over a passphrase-only vault
// holding a test profile, and test pages served on 127.0.0.1.
// The browser tests and the harness are behind the build tags e2e and linux
// (see README.md); plain `go test` runs only the checks that need no
// browser.
package e2e
