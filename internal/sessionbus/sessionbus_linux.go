package sessionbus

import "github.com/godbus/dbus/v5"

// Connect connects to the session bus as dbus.ConnectSessionBus
// does, but never autolaunches one: without DBUS_SESSION_BUS_ADDRESS or
// $XDG_RUNTIME_DIR/bus it fails, where dbus.ConnectSessionBus would run
// dbus-launch --autolaunch, whose dbus-daemon outlives the app. Nothing
// Tessera starts may outlive its owner.
func Connect(opts ...dbus.ConnOption) (*dbus.Conn, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup(opts...)
	if err != nil {
		return nil, err
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, err
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
