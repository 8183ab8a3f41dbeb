//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestWindowAccessibility loads the window's frontend, built as it ships
// (frontend/dist), in real Chromium with a stand-in for the Wails bridge
// (testdata/wails-stub.js: canned answers, the edge of this test), opens
// each view in the states a person meets them (first run with a suggested
// passphrase, unlock, status, profile list, editor, import preview,
// activity, settings) in light and dark, and runs axe-core on each: no
// serious or critical violation may be reported. The real window is
// WebKitGTK, driven by scripts/ui-selftest.sh; this checks the markup and
// contrast axe can judge.
func TestWindowAccessibility(t *testing.T) {
	root := filepath.Join("..", "frontend")
	axe, err := os.ReadFile(filepath.Join(root, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core (npm install in frontend/): %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "dist", "index.html")); err != nil {
		t.Fatalf("frontend not built (cd frontend && npm run build): %v", err)
	}
	stub, err := os.ReadFile(filepath.Join("testdata", "wails-stub.js"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(root, "dist"))))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(Chromium()), chromedp.Flag("headless", "new"), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("window-size", "1000,760"))
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	type step struct{ name, hash, script string }
	click := func(sel string) string { return `document.querySelector(` + jsString(sel) + `).click();` }
	steps := []step{
		{"first run, a passphrase suggested", "uninitialized", click("#setup-suggest")},
		{"unlock", "locked", ""},
		{"status", "unlocked", ""},
		{"profile list", "unlocked", click(`.nav-item[data-view="profiles"]`)},
		{"editor", "unlocked", click(`.nav-item[data-view="profiles"]`) + `await new Promise((r) => setTimeout(r, 300)); document.querySelector(".profile-open").click();`},
		{"import preview", "unlocked", click(`.nav-item[data-view="profiles"]`) + `await new Promise((r) => setTimeout(r, 300));` + click("#import-open") +
			`document.querySelector("#import-path").value = "/home/you/contacts.vcf";` + click("#import-preview-btn")},
		{"export", "unlocked", click(`.nav-item[data-view="profiles"]`) + `await new Promise((r) => setTimeout(r, 300));` + click("#export-open")},
		{"activity", "unlocked", click(`.nav-item[data-view="activity"]`)},
		{"settings", "unlocked", click(`.nav-item[data-view="settings"]`)},
	}
	if err := chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: string(stub)})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		if err := chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		})); err != nil {
			t.Fatal(err)
		}
		for _, s := range steps {
			name := s.name + " (" + scheme + ")"
			err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/index.html?"+scheme+"#"+s.hash), chromedp.Sleep(300*time.Millisecond))
			if err == nil {
				_, err = chromedp.Run(bctx, chromedp.Poll[bool](`(() => { const t = document.querySelector("#vault-title"); return !!t && t.textContent !== "Checking…"; })()`, chromedp.WithPollingTimeout(10*time.Second)))
			}
			if err == nil {
				_, err = chromedp.Run(bctx, chromedp.Evaluate[string](`(async () => { await new Promise((r) => setTimeout(r, 300)); `+s.script+` await new Promise((r) => setTimeout(r, 600)); return "ok"; })()`, chromedp.EvalAwaitPromise))
			}
			if err == nil {
				_, err = chromedp.Run(bctx, chromedp.Evaluate[bool](string(axe)+`; true`))
			}
			var res string
			if err == nil {
				res, err = chromedp.Run(bctx, chromedp.Evaluate[string](`axe.run(document, { resultTypes: ["violations"] }).then((r) => JSON.stringify(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 4) }))))`, chromedp.EvalAwaitPromise))
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var vs []struct {
				ID, Impact, Help string
				Nodes            []string
			}
			if err := json.Unmarshal([]byte(res), &vs); err != nil {
				t.Fatalf("%s: %v: %s", name, err, res)
			}
			var bad []string
			for _, v := range vs {
				line := fmt.Sprintf("%s [%s] %s: %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, ", "))
				if v.Impact == "serious" || v.Impact == "critical" {
					bad = append(bad, line)
				} else {
					t.Logf("%s: %s", name, line)
				}
			}
			if len(bad) > 0 {
				t.Errorf("%s: axe reports %d serious or critical violations:\n  %s", name, len(bad), strings.Join(bad, "\n  "))
			} else {
				t.Logf("%s: no serious or critical violation (%d minor)", name, len(vs))
			}
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
