package vaultctl

import (
	"context"
	"fmt"

	"github.com/godbus/dbus/v5"
	"github.com/tessera-app/tessera/internal/sessionbus"
)

// SessionLockEvents listens on D-Bus for the screen locking (the
// freedesktop and GNOME ScreenSaver ActiveChanged signals on the session
// bus, and logind's Lock signal for any session) and for suspend (logind's
// PrepareForSleep on the system bus). Either bus may be missing; what can
// be watched is watched, and the error says what could not.
func SessionLockEvents(ctx context.Context) (<-chan LockEvent, error) {
	out := make(chan LockEvent, 4)
	var errs []error
	watch := func(connect func(...dbus.ConnOption) (*dbus.Conn, error), rules [][]dbus.MatchOption, decide func(*dbus.Signal) (LockEvent, bool)) {
		conn, err := connect()
		if err != nil {
			errs = append(errs, err)
			return
		}
		for _, r := range rules {
			if err := conn.AddMatchSignal(r...); err != nil {
				errs = append(errs, err)
			}
		}
		sigs := make(chan *dbus.Signal, 16)
		conn.Signal(sigs)
		go func() {
			defer conn.Close()
			for {
				select {
				case <-ctx.Done():
					return
				case s, ok := <-sigs:
					if !ok {
						return
					}
					if ev, ok := decide(s); ok {
						select {
						case out <- ev:
						default: // a lock is already pending
						}
					}
				}
			}
		}()
	}
	watch(sessionbus.Connect, [][]dbus.MatchOption{
		{dbus.WithMatchInterface("org.freedesktop.ScreenSaver"), dbus.WithMatchMember("ActiveChanged")},
		{dbus.WithMatchInterface("org.gnome.ScreenSaver"), dbus.WithMatchMember("ActiveChanged")},
	}, func(s *dbus.Signal) (LockEvent, bool) {
		return LockScreen, len(s.Body) == 1 && s.Body[0] == true
	})
	watch(dbus.ConnectSystemBus, [][]dbus.MatchOption{
		{dbus.WithMatchInterface("org.freedesktop.login1.Manager"), dbus.WithMatchMember("PrepareForSleep")},
		{dbus.WithMatchInterface("org.freedesktop.login1.Session"), dbus.WithMatchMember("Lock")},
	}, func(s *dbus.Signal) (LockEvent, bool) {
		switch s.Name {
		case "org.freedesktop.login1.Manager.PrepareForSleep":
			return LockSuspend, len(s.Body) == 1 && s.Body[0] == true
		case "org.freedesktop.login1.Session.Lock":
			return LockScreen, true
		}
		return "", false
	})
	if len(errs) == 2 {
		return nil, fmt.Errorf("no D-Bus to watch for screen lock and suspend: %v; %v", errs[0], errs[1])
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("screen lock or suspend not watched: %v", errs[0])
	}
	return out, nil
}
