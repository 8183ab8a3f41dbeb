package app

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/godbus/dbus/v5"
	"github.com/tessera-app/tessera/internal/sessionbus"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// showRunning asks the instance serving the channel in dir to show its
// window. It speaks the D-Bus interface of Wails' single-instance lock
// itself because Wails' own client ends the process with status 1.
func showRunning(dir string) error {
	conn, err := sessionbus.Connect()
	if err != nil {
		return fmt.Errorf("session bus: %w", err)
	}
	defer conn.Close()
	id := "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(instanceID(dir))
	name := "org." + id + ".SingleInstance"
	msg, err := json.Marshal(options.SecondInstanceData{Args: os.Args[1:]})
	if err != nil {
		return fmt.Errorf("encode launch data: %w", err)
	}
	call := conn.Object(name, dbus.ObjectPath("/org/"+id+"/SingleInstance")).Call(name+".SendMessage", 0, string(msg))
	if call.Err != nil {
		return fmt.Errorf("ask running instance: %w", call.Err)
	}
	return nil
}
