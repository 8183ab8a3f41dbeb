package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tessera-app/tessera/internal/parallel"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// pages returns the hand-written test pages in testdata.
func pages(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.html"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata pages: %v", err)
	}
	return files
}

// TestExtractGolden compares the snapshot of every testdata page with its
// golden JSON (go test -run Golden -update rewrites them).
func TestExtractGolden(t *testing.T) {
	for _, page := range pages(t) {
		t.Run(filepath.Base(page), func(t *testing.T) {
			s := extractFile(t, page)
			got, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(page, ".html") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Extract(%q) differs from %s:\n%s", page, golden, got)
			}
		})
	}
}

func extractFile(t testing.TB, page string) *Snapshot {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Extract(f, ExtractOptions{})
	if err != nil {
		t.Fatalf("Extract(%q): %v", page, err)
	}
	return s
}

func byName(t *testing.T, s *Snapshot, name string) Control {
	t.Helper()
	for _, c := range s.Controls {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no control named %q", name)
	return Control{}
}

// TestHeading: a control's Heading is the last h1-h6 (or role=heading)
// before it inside its own form; a page's heading outside the form, or another form's, is none.
func TestHeading(t *testing.T) {
	page := `<h1>Checkout</h1>
<form><input name="a"><h3>Emergency contact</h3><div><input name="b"></div><h4>Your <b>details</b></h4><input name="c"></form>
<form><input name="d"></form><form><div><h2>Newsletter</h2></div><input name="e"><div role="heading" aria-level="3">Emergency contact</div><input name="f"></form>`
	s, err := Extract(strings.NewReader(page), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "", "b": "Emergency contact", "c": "Your details", "d": "", "e": "Newsletter", "f": "Emergency contact"}
	for _, c := range s.Controls {
		if c.Heading != want[c.Name] {
			t.Errorf("Heading of %q = %q, want %q", c.Name, c.Heading, want[c.Name])
		}
	}
}

// TestLabels pins the label inference rules one by one, so that a golden
// update cannot silently change them.
func TestLabels(t *testing.T) {
	tests := []struct {
		page, name, label, source string
	}{
		{"contact_en.html", "given", "First name", "label-for"},
		{"contact_en.html", "family", "Last name", "label-wrap"},
		{"contact_en.html", "mail", "E-mail", "aria-labelledby"},
		{"contact_en.html", "phone", "Phone number", "aria-label"},
		{"contact_en.html", "nick", "Nickname", "placeholder"},
		{"contact_en.html", "web", "Your web site", "title"},
		{"contact_en.html", "pref", "By e-mail", "label-wrap"},
		{"contact_en.html", "news", "Send me news", "label-for"},
		{"contact_en.html", "search", "Outside the form:", "preceding-text"},
		{"table_de.html", "f1", "Vorname", "table-header"},
		{"table_de.html", "f2", "Nachname", "table-header"},
		{"table_de.html", "strasse", "Straße", "table-header"},
		{"table_de.html", "plz", "PLZ / Ort", "preceding-text"},
		{"table_de.html", "tel", "Telefon:", "preceding-text"},
		{"table_de.html", "tag", "Geburtsdatum", "preceding-text"},
		// Punctuation between boxes labels nothing (the climb stops at
		// the earlier box).
		{"table_de.html", "monat", "", ""},
		{"table_de.html", "nl", "E-Mail-Adresse", "preceding-text"},
		{"dl_fr.html", "prenom", "Prénom", "dt"},
		{"dl_fr.html", "courriel", "Courriel", "dt"},
		{"dl_fr.html", "ville", "Ville", "preceding-text"},
		{"dl_fr.html", "cp", "Code postal", "preceding-text"},
		{"dl_fr.html", "pays", "Pays", "preceding-text"},
		{"shadow_ja.html", "sei", "姓", "label-for"},
		{"shadow_ja.html", "mei", "名", "label-for"},
		{"hidden_es.html", "nombre", "Nombre", "label-for"},
		{"floating_en.html", "email", "Email", "following-label"},
		{"floating_en.html", "phone", "Phone", "following-label"},
		{"floating_en.html", "card", "Card number", "following-label"},
		{"floating_en.html", "first", "", ""},
		{"floating_en.html", "last", "First name", "preceding-text"},
		{"floating_en.html", "remember", "Remember me", "following-label"},
		{"floating_en.html", "company", "Company", "preceding-text"},
		{"duplicate_ids_en.html", "a1", "First name", "preceding-text"},
		{"duplicate_ids_en.html", "a2", "Last name", "preceding-text"},
		{"duplicate_ids_en.html", "a3", "Postcode", "preceding-text"},
		{"duplicate_ids_en.html", "b1", "Street address Street address", "label-for"},
		// A widget's pop-up list and its flag button are no label.
		{"widgets_en.html", "mobile", "Mobile number", "preceding-text"},
		{"widgets_en.html", "after-pac", "", ""},
		// A CSS-only floating label: a span after a box whose placeholder
		// is blank; a span after a box with a real placeholder is help.
		{"widgets_en.html", "city", "City", "following-label"},
		{"widgets_en.html", "zip", "Postcode", "following-label"},
		{"widgets_en.html", "hint", "Nickname", "placeholder"},
		// Icons standing for the label: title, aria-label, alt.
		{"widgets_en.html", "icon-title", "Phone", "preceding-text"},
		{"widgets_en.html", "icon-svg", "Email", "preceding-text"},
		{"widgets_en.html", "icon-img", "Username", "preceding-text"},
		{"widgets_en.html", "label-icon", "E-mail", "label-for"},
		{"widgets_en.html", "pw", "Password", "preceding-text"},
		// A span after a box that says its placeholder again is its
		// floating label, not the next box's: the text after the
		// password box (its own echo and a hint) labels no name box.
		{"widgets_en.html", "echo-first", "First name:", "following-label"},
		{"widgets_en.html", "echo-last", "Last name:", "following-label"},
		// A validation message labels no box.
		{"widgets_en.html", "msg-after-feedback", "", ""},
		{"widgets_en.html", "msg-after-alert", "", ""},
		{"widgets_en.html", "msg-zip", "ZIP code", "label-for"},
		{"widgets_en.html", "head-first", "First name", "placeholder"},
		{"widgets_en.html", "head-deep", "Last name", "placeholder"},
		{"widgets_en.html", "head-small", "Email", "preceding-text"},
		{"widgets_en.html", "addon-phone", "Phone* +1", "preceding-text"},
		{"widgets_en.html", "addon-amount", "Amount €", "preceding-text"},
		{"widgets_en.html", "cell-phone", "Phone +1", "preceding-text"},
		{"widgets_en.html", "dd-mobile", "Mobile +44", "dt"},
	}
	snaps := map[string]*Snapshot{}
	for _, tt := range tests {
		t.Run(tt.page+"/"+tt.name, func(t *testing.T) {
			s := snaps[tt.page]
			if s == nil {
				s = extractFile(t, filepath.Join("testdata", tt.page))
				snaps[tt.page] = s
			}
			c := byName(t, s, tt.name)
			if c.Label != tt.label || c.LabelSource != tt.source {
				t.Errorf("label of %q = %q (%s), want %q (%s)", tt.name, c.Label, c.LabelSource, tt.label, tt.source)
			}
		})
	}
}

// TestVisibility pins the static and measured visibility facts.
func TestVisibility(t *testing.T) {
	tests := []struct {
		page, name, reason string
		measured           bool
	}{
		{"hidden_es.html", "trap1", "display-none", false},
		{"hidden_es.html", "trap2", "visibility-hidden", false},
		{"hidden_es.html", "shown", "", false},
		{"hidden_es.html", "trap3", "aria-hidden", false},
		{"hidden_es.html", "trap4", "hidden-attr", false},
		{"hidden_es.html", "trap5", "display-none", false},
		{"hidden_es.html", "token", "type-hidden", false},
		{"hidden_es.html", "nombre", "", false},
		{"shadow_ja.html", "mail", "offscreen", true},
		{"shadow_ja.html", "agree", "", true},
		{"shadow_ja.html", "frame-covered", "covered", true},
	}
	for _, tt := range tests {
		t.Run(tt.page+"/"+tt.name, func(t *testing.T) {
			c := byName(t, extractFile(t, filepath.Join("testdata", tt.page)), tt.name)
			want := Visibility{Hidden: tt.reason != "", Reason: tt.reason, Measured: tt.measured}
			if c.Visibility != want {
				t.Errorf("visibility of %q = %+v, want %+v", tt.name, c.Visibility, want)
			}
		})
	}
}

// TestStructure pins document order, form ownership, shadow roots, inert
// templates and stamped references.
func TestStructure(t *testing.T) {
	s := extractFile(t, filepath.Join("testdata", "contact_en.html"))
	for i, c := range s.Controls {
		if c.Index != i {
			t.Fatalf("Controls[%d].Index = %d", i, c.Index)
		}
	}
	if got := byName(t, s, "owned").FormIndex; got != 0 {
		t.Errorf("form= owner of %q = %d, want 0", "owned", got)
	}
	if got := byName(t, s, "unowned").FormIndex; got != -1 {
		t.Errorf("form= owner of %q = %d, want -1", "unowned", got)
	}
	if got := byName(t, s, "search").FormIndex; got != -1 {
		t.Errorf("owner of %q = %d, want -1", "search", got)
	}
	if !byName(t, s, "legacy").Disabled || byName(t, s, "legacy-in-legend").Disabled {
		t.Errorf("disabled fieldset: legacy=%v legacy-in-legend=%v, want true false",
			byName(t, s, "legacy").Disabled, byName(t, s, "legacy-in-legend").Disabled)
	}
	country := byName(t, s, "country")
	if want := []string{"Country", "Address"}; !reflect.DeepEqual(country.Legends, want) {
		t.Errorf("legends = %q, want %q", country.Legends, want)
	}
	if country.Value != "FR" || len(country.Options) != 4 || country.Options[3].Group != "Asia" || !country.Options[3].Disabled {
		t.Errorf("country select = %+v", country)
	}
	if got := byName(t, s, "msg").Value; got != "Hello\nthere" {
		t.Errorf("textarea value = %q, want %q", got, "Hello\nthere")
	}
	if len(s.Links) != 1 || s.Links[0].Href != "references.json" {
		t.Errorf("links = %+v, want the formspec link only", s.Links)
	}

	j := extractFile(t, filepath.Join("testdata", "shadow_ja.html"))
	var names, refs []string
	for _, c := range j.Controls {
		names = append(names, c.Name)
		refs = append(refs, c.Ref)
	}
	if want := []string{"sei", "mei", "mail", "agree", "pref", "frame-covered"}; !reflect.DeepEqual(names, want) {
		t.Errorf("shadow page controls = %q, want %q", names, want)
	}
	if want := []string{"t1", "t2", "t3", "t4", "t5", "t6"}; !reflect.DeepEqual(refs, want) {
		t.Errorf("shadow page refs = %q, want %q", refs, want)
	}
	if j.Forms[0].Ref != "tf0" || j.Forms[0].Attrs["toolname"] != "register" {
		t.Errorf("form = %+v", j.Forms[0])
	}

	d := extractFile(t, filepath.Join("testdata", "table_de.html"))
	if got := byName(t, d, "nl").FormIndex; got != 1 {
		t.Errorf("owner of a control after a <form> emptied out of a table = %d, want 1", got)
	}
}

func TestParseAutocomplete(t *testing.T) {
	tests := []struct {
		in   string
		want *AutocompleteInfo
	}{
		{"", nil},
		{"  ", nil},
		{"on", &AutocompleteInfo{On: true}},
		{"OFF", &AutocompleteInfo{Off: true}},
		{"given-name", &AutocompleteInfo{Field: "given-name"}},
		{"section-a shipping given-name", &AutocompleteInfo{Section: "section-a", Mode: "shipping", Field: "given-name"}},
		{"billing work email webauthn", &AutocompleteInfo{Mode: "billing", Contact: "work", Field: "email", Webauthn: true}},
		{"mobile tel", &AutocompleteInfo{Contact: "mobile", Field: "tel"}},
		{"mobile given-name", &AutocompleteInfo{}},
		{"nickname bogus", &AutocompleteInfo{}},
		{"bogus nickname", &AutocompleteInfo{}},
		{"shipping section-a name", &AutocompleteInfo{}},
		{"on name", &AutocompleteInfo{}},
		{"webauthn", &AutocompleteInfo{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := ParseAutocomplete(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseAutocomplete(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestExtractLimits(t *testing.T) {
	tests := []struct {
		name string
		html string
		opts ExtractOptions
		want error
	}{
		{"bytes", strings.Repeat("<p>x</p>", 100), ExtractOptions{MaxBytes: 64}, ErrTooLarge},
		{"controls", strings.Repeat("<input>", 11), ExtractOptions{MaxControls: 10}, ErrTooManyControls},
		{"depth", strings.Repeat("<div>", 40), ExtractOptions{MaxDepth: 20}, ErrTooDeep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Extract(strings.NewReader(tt.html), tt.opts)
			if !errors.Is(err, tt.want) {
				t.Errorf("Extract(%s) error = %v, want %v", tt.name, err, tt.want)
			}
		})
	}
	if _, err := Extract(strings.NewReader(strings.Repeat("<input>", 10)), ExtractOptions{MaxControls: 10}); err != nil {
		t.Errorf("Extract at the control limit: %v", err)
	}
}

// FuzzStrayScan checks that mayStray is conservative: where it says the
// exact pass would change nothing, the exact pass changes nothing.
func FuzzStrayScan(f *testing.F) {
	for _, page := range pages(f) {
		b, err := os.ReadFile(page)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<div><select name="m"><option>1</option></div><div><select name="y"></div>`))
	f.Add([]byte(`<div><select name=m><option value="</select>">1</option></div><select>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !mayStray(b) && !bytes.Equal(repairSelects(b), b) {
			t.Fatalf("mayStray(%q) = false, but the exact pass changes it", b)
		}
	})
}

func FuzzExtract(f *testing.F) {
	for _, page := range pages(f) {
		b, err := os.ReadFile(page)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Extract(bytes.NewReader(b), ExtractOptions{MaxDepth: 256})
		if err != nil {
			return
		}
		for i, c := range s.Controls {
			if c.Index != i {
				t.Fatalf("Controls[%d].Index = %d", i, c.Index)
			}
			if c.FormIndex < -1 || c.FormIndex >= len(s.Forms) {
				t.Fatalf("Controls[%d].FormIndex = %d with %d forms", i, c.FormIndex, len(s.Forms))
			}
		}
	})
}

// bigPage builds a page of about size bytes of repeated form rows in the
// shapes the extractor handles (labels, tables, lists, hidden inputs).
func bigPage(size int) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html><html lang=en><head><title>big</title></head><body>")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<form action="/f%d"><div class="row"><label for="a%d">First name</label><input id="a%d" name="a%d" autocomplete="given-name"></div>`, i, i, i, i)
		fmt.Fprintf(&b, `<table><tr><th>Street</th><td><input name="s%d"></td></tr><tr><td>City</td><td><input name="c%d"></td></tr></table>`, i, i)
		fmt.Fprintf(&b, `<ul><li>Country <select name="k%d"><option>A</option><option>B</option></select></li></ul><input type="hidden" name="h%d" value="x"><p>Some paragraph text that is not a label at all, just copy.</p></form>`, i, i)
	}
	b.WriteString("</body></html>")
	return b.Bytes()
}

func BenchmarkExtract200K(b *testing.B) {
	page := bigPage(200 << 10)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Extract(bytes.NewReader(page), ExtractOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStraySelect guards the tree-builder workaround: an unclosed <select>
// whose </div> closes it in Chromium must not swallow the next select.
func TestStraySelect(t *testing.T) {
	tests := []struct {
		html  string
		names []string
	}{
		{`<div><label>Month</label><select name="m"><option>1</option></div><div><select name="y"><option>2026</option></div>`, []string{"m", "y"}},
		{`<select name="a"><option>x</option></select><select name="b"></select>`, []string{"a", "b"}},
		{`<select name="a"><optgroup label="g"><option>x</option></optgroup></select>`, []string{"a"}},
		{`<script>document.write("<select name=fake></div>")</script><select name="real"></select>`, []string{"real"}},
		// The byte scan that spares most pages the exact pass must not be
		// fooled by what quotes, case or comments hide.
		{`<div><SELECT name="m"><OPTION value="</select>">1</OPTION></DIV><div><select name="y"></div>`, []string{"m", "y"}},
		{`<div><select name="m" title='<option>'><option>1</option><!-- x --></div><div><select name="y"></div>`, []string{"m", "y"}},
		{`<div><select name="m"><option a"b>1</option></div><div><select name="y"></div>`, []string{"m", "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.html, func(t *testing.T) {
			s, err := Extract(strings.NewReader(tt.html), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range s.Controls {
				names = append(names, c.Name)
			}
			if !reflect.DeepEqual(names, tt.names) {
				t.Errorf("Extract(%q) controls = %q, want %q", tt.html, names, tt.names)
			}
		})
	}
}

// TestLiveDOMNoscript checks that <noscript> controls count in a static
// page but not in the extension's live DOM, where the browser (scripts on)
// never created them and stamped no reference.
func TestLiveDOMNoscript(t *testing.T) {
	page := `<input name="a" data-tessera-ref="r1"><noscript><input name="fallback"></noscript><input name="b" data-tessera-ref="r2">`
	tests := []struct {
		live bool
		want []string
	}{
		{false, []string{"r1", "c1", "r2"}},
		{true, []string{"r1", "r2"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("live=", tt.live), func(t *testing.T) {
			s, err := Extract(strings.NewReader(page), ExtractOptions{LiveDOM: tt.live})
			if err != nil {
				t.Fatal(err)
			}
			var refs []string
			for _, c := range s.Controls {
				refs = append(refs, c.Ref)
			}
			if !reflect.DeepEqual(refs, tt.want) {
				t.Errorf("Extract(LiveDOM=%v) refs = %q, want %q", tt.live, refs, tt.want)
			}
		})
	}
}

// TestInvalidUTF8 checks that bytes that are not UTF-8 reach the snapshot as
// U+FFFD, as a browser decodes them (regression: an option value with such
// a byte could be planned but never matched back to its option).
func TestInvalidUTF8(t *testing.T) {
	s, err := Extract(strings.NewReader("<select name=\"c\xff\"><option value=\"a\xfeb\">x\xff</option></select>"), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Controls) != 1 {
		t.Fatalf("Extract: %d controls, want 1", len(s.Controls))
	}
	c := s.Controls[0]
	if c.Name != "c\uFFFD" {
		t.Errorf("Name = %q, want %q", c.Name, "c\uFFFD")
	}
	if len(c.Options) != 1 || c.Options[0].Value != "a\uFFFDb" || c.Options[0].Text != "x\uFFFD" {
		t.Errorf("Options = %+v, want value %q text %q", c.Options, "a\uFFFDb", "x\uFFFD")
	}
}

// TestSurvey: the one walk before extraction counts the elements that carry
// an id (an id= inside text or another attribute is none), the labels and
// the fieldsets, and the nesting depth, stopping past its limit.
func TestSurvey(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<p data-id="x">id=1 &lt;label</p><fieldset id="f"><label for="a">A</label><div><input id="a"></div></fieldset>`))
	if err != nil {
		t.Fatal(err)
	}
	// html > body > fieldset > div > input
	if got, want := survey(doc, 100), (pageSurvey{depth: 5, ids: 2, labels: 1, fieldsets: 1}); got != want {
		t.Errorf("survey = %+v, want %+v", got, want)
	}
	if got := survey(doc, 2); got.depth != 3 {
		t.Errorf("survey(limit 2).depth = %d, want 3 (stopped just past the limit)", got.depth)
	}
}

// FuzzCollapse: collapse gives what strings.Fields and Join give, for
// texts already collapsed (returned as they are) and any other.
func FuzzCollapse(f *testing.F) {
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "名 前", "\u0085x", "x\u3000y z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("collapse(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestExtractOnCoresSameAsAlone: a page whose controls are finished on
// several cores (finish, parallel.Chunks: labels, options, fieldsets,
// ARIA texts, visibility) gives exactly the snapshot one core gives. The
// page is every test page one after another and the benchmark's big
// page: labels by for=, by wrapping, by ARIA, nearby text, radio and
// checkbox options.
func TestExtractOnCoresSameAsAlone(t *testing.T) {
	pages, err := filepath.Glob("testdata/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no test pages: %v", err)
	}
	var all bytes.Buffer
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for name, page := range map[string][]byte{"test pages": all.Bytes(), "big page": bigPage(200 << 10)} {
		prev := runtime.GOMAXPROCS(1)
		alone, err := Extract(bytes.NewReader(page), ExtractOptions{})
		runtime.GOMAXPROCS(max(prev, 4))
		if err != nil {
			t.Fatal(err)
		}
		if len(alone.Controls) <= 2*finishChunk {
			t.Fatalf("%s: %d controls, too few to share among cores", name, len(alone.Controls))
		}
		for range 3 {
			got, err := Extract(bytes.NewReader(page), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, alone) {
				for i := range got.Controls {
					if !reflect.DeepEqual(got.Controls[i], alone.Controls[i]) {
						t.Errorf("%s control %d on cores: %+v, alone: %+v", name, i, got.Controls[i], alone.Controls[i])
						break
					}
				}
				t.Errorf("%s: snapshots differ", name)
				break
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

// TestNodeCacheReadsOnce: a hostile page may point every control's
// aria-labelledby at one huge element, and the cores finishing those
// controls at once share the element's text (nodeCache): it is read once
// per core at most, never once per control, and every control gets the
// same text. Then a real page built so: every control carries it.
func TestNodeCacheReadsOnce(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	el := &html.Node{Type: html.ElementNode, Data: "div"}
	c := nodeCache[string]{m: map[*html.Node]string{}}
	var reads atomic.Int32
	got := make([]string, 1000)
	parallel.Chunks(len(got), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			got[i] = c.get(el, func() string { reads.Add(1); return "the text" })
		}
	})
	if n := reads.Load(); n < 1 || int(n) > runtime.GOMAXPROCS(0) {
		t.Errorf("one element read %d times by %d cores for %d controls", n, runtime.GOMAXPROCS(0), len(got))
	}
	for i, s := range got {
		if s != "the text" {
			t.Fatalf("control %d got %q", i, s)
		}
	}

	var page strings.Builder
	page.WriteString(`<div id="big">` + strings.Repeat("word ", 20000) + `</div><form>`)
	for i := range 300 {
		fmt.Fprintf(&page, `<input name="f%d" aria-labelledby="big">`, i)
	}
	snap, err := Extract(strings.NewReader(page.String()), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Controls) != 300 {
		t.Fatalf("%d controls, want 300", len(snap.Controls))
	}
	want := snap.Controls[0].AriaLabelledBy
	if !strings.HasPrefix(want, "word word") {
		t.Fatalf("aria-labelledby text = %.40q", want)
	}
	for i, c := range snap.Controls {
		if c.AriaLabelledBy != want {
			t.Fatalf("control %d: aria-labelledby text %.40q, want %.40q", i, c.AriaLabelledBy, want)
		}
	}
}

// TestPositionRefs: a control the extension did not stamp is "c" and its
// position, for the first controls (positionRefs, made once) and past
// them, and every control is whole and in its place.
func TestPositionRefs(t *testing.T) {
	n := len(positionRefs()) + 5
	page := strings.Repeat(`<input name="x">`, n)
	s, err := Extract(strings.NewReader(page), ExtractOptions{MaxControls: n})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Controls) != n {
		t.Fatalf("%d controls, want %d", len(s.Controls), n)
	}
	for i, c := range s.Controls {
		if want := "c" + strconv.Itoa(i); c.Ref != want || c.Index != i || c.Name != "x" || c.Type != "text" {
			t.Fatalf("control %d: ref %q index %d name %q type %q, want ref %q", i, c.Ref, c.Index, c.Name, c.Type, want)
		}
	}
}
