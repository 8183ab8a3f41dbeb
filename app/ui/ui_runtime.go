package ui

import (
	"context"
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Shell is the part of the Wails runtime the window uses. It is the only
// place the runtime is called, because every runtime function needs the
// context Wails passed to OnStartup and aborts the process when given
// another one; tests use a fake.
type Shell interface {
	// Emit sends an event with one payload to the frontend.
	Emit(event string, data any)
	// Show shows the window and brings it to the front.
	Show()
	// ExecJS runs script in the window.
	ExecJS(script string)
	// Quit closes the window and ends wails.Run.
	Quit()
	// OpenFile asks the person for a file to open, SaveFile for where to
	// save one (starting from suggested); "" when they cancel.
	OpenFile(title string) (string, error)
	SaveFile(title, suggested string) (string, error)
}

// WailsShell returns the Shell backed by the real runtime, for the
// context Wails passed to OnStartup.
func WailsShell(ctx context.Context) Shell { return wailsShell{ctx} }

// wailsShell is the shell backed by the real runtime.
type wailsShell struct{ ctx context.Context }

func (s wailsShell) Emit(event string, data any) { runtime.EventsEmit(s.ctx, event, data) }

func (s wailsShell) Show() {
	runtime.WindowUnminimise(s.ctx)
	runtime.WindowShow(s.ctx)
}

func (s wailsShell) ExecJS(script string) { runtime.WindowExecJS(s.ctx, script) }

func (s wailsShell) Quit() { runtime.Quit(s.ctx) }

func (s wailsShell) OpenFile(title string) (string, error) {
	return runtime.OpenFileDialog(s.ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "Contacts and profiles (*.vcf, *.json, *.tessera, *.age)", Pattern: "*.vcf;*.vcard;*.json;*.tessera;*.age"},
			{DisplayName: "Every file", Pattern: "*"},
		},
	})
}

func (s wailsShell) SaveFile(title, suggested string) (string, error) {
	return runtime.SaveFileDialog(s.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultDirectory: filepath.Dir(suggested), DefaultFilename: filepath.Base(suggested),
		Filters: []runtime.FileFilter{{DisplayName: "Tessera encrypted file (*.tessera)", Pattern: "*.tessera"}},
	})
}
