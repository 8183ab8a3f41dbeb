//go:build windows

package nativemsg

import (
	"errors"

	"golang.org/x/sys/windows/registry"
)

// SystemRegistry returns the real Windows registry writer.
func SystemRegistry() Registry { return winRegistry{} }

type winRegistry struct{}

func root(system bool) registry.Key {
	if system {
		return registry.LOCAL_MACHINE
	}
	return registry.CURRENT_USER
}

func (winRegistry) SetDefault(system bool, key, value string) error {
	k, _, err := registry.CreateKey(root(system), key, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	return k.SetStringValue("", value)
}

func (winRegistry) DeleteKey(system bool, key string) error {
	err := registry.DeleteKey(root(system), key)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	return err
}
