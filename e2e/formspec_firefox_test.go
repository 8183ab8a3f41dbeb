//go:build e2e && firefox && linux

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// formspecProbe waits for the bootstrap provider's tools on the page's
// model context and calls help and match as a page script would.
const formspecProbe = `(async () => {
	const until = Date.now() + 20000;
	let names = [];
	while (Date.now() < until) {
		const mc = document.modelContext ?? navigator.modelContext;
		if (mc) { names = mc.getTools().map((t) => t.name); if (names.length) break; }
		await new Promise((r) => setTimeout(r, 200));
	}
	const mc = document.modelContext ?? navigator.modelContext;
	if (!mc) return { names };
	const call = async (n, i) => JSON.parse(JSON.parse(await mc.executeTool(n, i)).content[0].text);
	return {
		names,
		help: await call('formspec.field.help', { path: 'budget.lineItems[1].unitCost' }),
		match: await call('formspec.profile.match', {}),
	};
})()`

// TestFirefoxFormspec: in Firefox ESR the page-world script (world MAIN)
// and the bridge find the live Formspec form, register the Assist catalog,
// and answer help (two References documents, through the app) and a masked
// match, as in Chromium.
func TestFirefoxFormspec(t *testing.T) {
	f, home := ffWorld(t, "deny")
	r := runFirefox(t, ffConfig{Home: home, Pages: []ffPage{{Name: "grant", URL: f.pages.URL + "/formspec/grant.html", Probe: formspecProbe, ProbeOnly: true}}}, f.w.Env())
	if len(r.Pages) != 1 || r.Pages[0].Error != "" {
		t.Fatalf("run.mjs pages = %+v", r.Pages)
	}
	b, _ := json.Marshal(r.Pages[0].Probe)
	var p struct {
		Names []string
		Help  struct {
			References map[string][]struct{ ID string }
		}
		Match struct {
			Matches []struct {
				Path, Value string
				Masked      bool
			}
		}
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("probe %s: %v", b, err)
	}
	if len(p.Names) != 14 {
		t.Errorf("tools %v", p.Names)
	}
	if reg := p.Help.References["regulation"]; len(reg) != 3 || reg[1].ID != "agency-cap" {
		t.Errorf("help %s", b)
	}
	if len(p.Match.Matches) == 0 {
		t.Errorf("no matches: %s", b)
	}
	for _, m := range p.Match.Matches {
		if !m.Masked || !strings.Contains(m.Value, "•") {
			t.Errorf("unmasked match %+v", m)
		}
	}
}

// consumeProbe waits for the mode to be detected, fills through the test
// bridge (the shipped tessera.fill: mode 1 goes through the page's
// provider) and reads the engine.
const consumeProbe = `(async () => {
	await new Promise((r) => setTimeout(r, 1500));
	const report = await new Promise((resolve, reject) => {
		const id = 'c' + Math.random().toString(36).slice(2);
		const on = (e) => {
			if (typeof e.data !== 'string' || !e.data.startsWith('tessera-test-reply:')) return;
			const r = JSON.parse(e.data.slice('tessera-test-reply:'.length));
			if (r.id !== id) return;
			removeEventListener('message', on);
			r.error !== undefined ? reject(new Error(r.error)) : resolve(r.result);
		};
		addEventListener('message', on);
		postMessage('tessera-test:' + JSON.stringify({ id, method: 'fill', args: [] }), '*');
	});
	const vm = document.querySelector('formspec-render').getEngine().getFieldVM('renewalContact.renewalEmail');
	return { report, email: vm.value.value };
})()`

// TestFirefoxFormspecConsumer: in Firefox ESR a page with its own Assist
// provider (mode 1) is filled through that provider after approval.
func TestFirefoxFormspecConsumer(t *testing.T) {
	f, home := ffWorld(t, "approve")
	r := runFirefox(t, ffConfig{Home: home, Pages: []ffPage{{Name: "benefits", URL: f.pages.URL + "/formspec/benefits.html", Probe: consumeProbe, ProbeOnly: true}}}, f.w.Env())
	if len(r.Pages) != 1 || r.Pages[0].Error != "" {
		t.Fatalf("run.mjs pages = %+v", r.Pages)
	}
	b, _ := json.Marshal(r.Pages[0].Probe)
	var p struct {
		Report struct {
			Status  string
			Message string
			Fields  []struct{ Ref, Outcome string }
		}
		Email string
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("probe %s: %v", b, err)
	}
	if p.Report.Status != "filled" || p.Email != profileValues(t)["https://schema.org/email"] || !strings.Contains(p.Report.Message, "validation error") {
		t.Errorf("mode 1 fill in Firefox: %s", b)
	}
}
