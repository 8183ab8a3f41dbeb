//go:build !windows

package nativemsg

// SystemRegistry returns nil: only Windows registers hosts in a registry.
func SystemRegistry() Registry { return nil }
