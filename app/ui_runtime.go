package app

import (
	"context"
	"path/filepath"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// shell is the part of the Wails runtime the app uses. It is the only place
// the runtime is called, because every runtime function needs the context
// Wails passed to OnStartup and aborts the process when given another one;
// tests use a fake.
type shell interface {
	// emit sends an event with one payload to the frontend.
	emit(event string, data any)
	// show shows the window and brings it to the front.
	show()
	// execJS runs script in the window.
	execJS(script string)
	// quit closes the window and ends wails.Run.
	quit()
}

// wailsShell is the shell backed by the real runtime.
type wailsShell struct{ ctx context.Context }

func (s wailsShell) emit(event string, data any) { runtime.EventsEmit(s.ctx, event, data) }

func (s wailsShell) show() {
	runtime.WindowUnminimise(s.ctx)
	runtime.WindowShow(s.ctx)
}

func (s wailsShell) execJS(script string) { runtime.WindowExecJS(s.ctx, script) }

func (s wailsShell) quit() { runtime.Quit(s.ctx) }

func (s wailsShell) openFile(title string) (string, error) {
	return runtime.OpenFileDialog(s.ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "Contacts and profiles (*.vcf, *.json, *.tessera, *.age)", Pattern: "*.vcf;*.vcard;*.json;*.tessera;*.age"},
			{DisplayName: "Every file", Pattern: "*"},
		},
	})
}

func (s wailsShell) saveFile(title, suggested string) (string, error) {
	return runtime.SaveFileDialog(s.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultDirectory: filepath.Dir(suggested), DefaultFilename: filepath.Base(suggested),
		Filters: []runtime.FileFilter{{DisplayName: "Tessera encrypted file (*.tessera)", Pattern: "*.tessera"}},
	})
}
