//go:build !linux

package app

import "github.com/tessera-app/tessera/nativemsg"

// Approving browsers by file needs the process checks, which exist on
// Linux only so far (PROTOCOL.md §2.1).

func exeIdentity(int, *trustStore) (fileIdentity, error) {
	return fileIdentity{}, nativemsg.ErrVerifyUnsupported
}

func pathIdentity(string, *trustStore) (fileIdentity, error) {
	return fileIdentity{}, nativemsg.ErrVerifyUnsupported
}
