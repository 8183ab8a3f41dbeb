package form

import (
	"strings"
	"testing"
)

// TestStampNonce guards against a page forging the extension's stamps: a
// data-tessera-ref or data-tessera-hidden the page wrote itself (without the
// snapshot's nonce) must not make a control look measured and visible.
func TestStampNonce(t *testing.T) {
	const page = `<form>
<input name="a" data-tessera-ref="N1:t1" data-tessera-hidden="N1:">
<input name="b" data-tessera-ref="N1:t2" data-tessera-hidden="N1:transparent">
<input name="c" data-tessera-ref="t3" data-tessera-hidden="">
<input name="d" data-tessera-ref="X:t4" data-tessera-hidden="X:">
<input name="e">
<input name="f" data-tessera-ref="N1:t6" data-tessera-hidden="N1:" style="display:none">
</form>`
	tests := []struct {
		name, ref, reason string
		hidden, measured  bool
	}{
		{"a", "t1", "", false, true},
		{"b", "t2", "transparent", true, true},
		{"c", "c2", "unmeasured", true, false},
		{"d", "c3", "unmeasured", true, false},
		{"e", "c4", "unmeasured", true, false},
		{"f", "t6", "display-none", true, true},
	}
	s, err := Extract(strings.NewReader(page), ExtractOptions{StampNonce: "N1", LiveDOM: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Controls) != len(tests) {
		t.Fatalf("got %d controls, want %d", len(s.Controls), len(tests))
	}
	for i, tt := range tests {
		c := s.Controls[i]
		if c.Name != tt.name || c.Ref != tt.ref || c.Visibility.Hidden != tt.hidden || c.Visibility.Reason != tt.reason || c.Visibility.Measured != tt.measured {
			t.Errorf("control %d = %q ref %q %+v, want %q ref %q hidden %v %q measured %v", i, c.Name, c.Ref, c.Visibility, tt.name, tt.ref, tt.hidden, tt.reason, tt.measured)
		}
	}
	// Without a nonce (static pages, the CLI) stamps are read as written.
	s, err = Extract(strings.NewReader(page), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Controls[2]; c.Ref != "t3" || c.Visibility.Hidden {
		t.Errorf("no nonce: control c = ref %q %+v, want ref t3 visible", c.Ref, c.Visibility)
	}
}
