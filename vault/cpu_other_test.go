//go:build !linux

package vault

import "time"

func processCPU() (time.Duration, bool) { return 0, false }

func threadCPU() (time.Duration, bool) { return 0, false }
