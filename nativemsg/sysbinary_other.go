//go:build !unix

package nativemsg

import "os"

// fileOwner reports no owner: files here have ACLs, not a uid.
func fileOwner(os.FileInfo) (uint32, bool) { return 0, false }
