//go:build !linux

package nativemsg

import (
	"errors"
	"net"
	"os"
)

// On macOS (LOCAL_PEERPID and code signatures) and Windows
// (GetNamedPipeClientProcessId and Authenticode) peer processes are not
// verified yet: see PROTOCOL.md §2.1. Peers are then served on the user
// check alone, and the dialog says they are not verified.

func peerProcess(net.Conn) (Process, error) {
	return Process{}, ErrVerifyUnsupported
}

func peerWithParent(net.Conn) (Process, *Process, error) {
	return Process{}, nil, ErrVerifyUnsupported
}

func stillRuns(Process) bool {
	return false
}

func trustedBrowser(string) (string, error) {
	return "", errors.New("which cannot be checked on this platform")
}

func selfExe() string {
	exe, _ := os.Executable()
	return exe
}
