// Package trust owns whom the app trusts beyond the process checks of
// package nativemsg: the extension installs the person paired (their public
// keys, the pairing proof and code) and the browser executables the person
// approved in Settings, each kept in a small state file of the data
// directory that is read once at start.
package trust
