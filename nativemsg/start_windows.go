//go:build windows

package nativemsg

import (
	"syscall"

	"golang.org/x/sys/windows"
)

func detachAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}
