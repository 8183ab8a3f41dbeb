//go:build !unix

package hostrun

import "os"

// pollable returns f: Windows pipes are waited on by the thread that reads.
func pollable(f *os.File) *os.File { return f }
