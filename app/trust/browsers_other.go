//go:build !linux

package trust

import "github.com/tessera-app/tessera/nativemsg"

// Approving browsers by file needs the process checks, which exist on
// Linux only so far (PROTOCOL.md §2.1).

func exeIdentity(int, *Browsers) (fileIdentity, error) {
	return fileIdentity{}, nativemsg.ErrVerifyUnsupported
}

func pathIdentity(string, *Browsers) (fileIdentity, error) {
	return fileIdentity{}, nativemsg.ErrVerifyUnsupported
}
