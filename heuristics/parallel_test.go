package heuristics

import (
	"bytes"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/tessera-app/tessera/form"
)

// TestClassifyOnCoresSameAsAlone: a page classified on several cores
// (parallel.Chunks) gets exactly what one core gives it: the token, part,
// confidence and evidence of every control. The page is every golden page one after
// another (hundreds of controls in dozens of forms, cards, addresses and
// names in many languages) and the benchmark's generated page; under
// -race this also finds a chunk writing what is not its own.
func TestClassifyOnCoresSameAsAlone(t *testing.T) {
	var all bytes.Buffer
	for _, p := range goldenPages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for name, html := range map[string][]byte{"golden pages": all.Bytes(), "generated": generatedPage(200 << 10)} {
		snap, err := form.Extract(bytes.NewReader(html), form.ExtractOptions{MaxBytes: 4 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Controls) < 4*controlChunk {
			t.Fatalf("%s: %d controls, too few to share among cores", name, len(snap.Controls))
		}
		prev := runtime.GOMAXPROCS(1)
		alone := Classify(snap)
		runtime.GOMAXPROCS(max(prev, 4))
		for range 3 {
			if got := Classify(snap); !reflect.DeepEqual(got, alone) {
				for i := range got {
					if !reflect.DeepEqual(got[i], alone[i]) {
						t.Errorf("%s #%d on cores: %+v, alone: %+v", name, i, got[i], alone[i])
						break
					}
				}
				break
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

// TestGroupsShareNoControl: a snapshot that lists one control in two
// forms (Extract never does; a snapshot built by hand may) puts it in
// one group only, the first, so that no two groups' passes, which run at
// once, write to it.
func TestGroupsShareNoControl(t *testing.T) {
	s := &form.Snapshot{
		Forms: []form.Form{{Index: 0, Controls: []int{0, 1}}, {Index: 1, Controls: []int{1, 2, 2}}},
		Controls: []form.Control{
			{Index: 0, Tag: "input", Type: "text", FormIndex: 0, Label: "First name"},
			{Index: 1, Tag: "input", Type: "text", FormIndex: 0, Label: "Last name"},
			{Index: 2, Tag: "input", Type: "text", FormIndex: 1, Label: "Email"},
		},
	}
	out := make([]Result, len(s.Controls))
	owner := map[int]int{}
	for gi, g := range groupsOf(s, out) {
		for _, i := range g.seq {
			if o, dup := owner[i]; dup {
				t.Errorf("control %d in groups %d and %d", i, o, gi)
			}
			owner[i] = gi
		}
	}
	if len(owner) != 3 || owner[1] != 0 {
		t.Errorf("groups = %v, want every control once, control 1 in the first form's", owner)
	}
	Classify(s) // and classifying it does not fail
}

// TestFeaturesReadOwnTexts: the model's features read the texts the rules
// normalized for each control (memo.own) instead of normalizing them
// again; they must be exactly the features of texts normalized afresh,
// on every golden page, or the model sees other words than it learned.
func TestFeaturesReadOwnTexts(t *testing.T) {
	kept := 0
	for _, p := range goldenPages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := form.Extract(bytes.NewReader(b), form.ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := newMemo(len(s.Controls))
		got := featuresOf(s, classifyRules(s, m), m)
		for i := range s.Controls {
			if m.ownOf(i).kept {
				kept++
			}
		}
		fresh := newMemo(len(s.Controls))
		fresh.own = nil // nothing kept: every text normalized again
		want := featuresOf(s, classifyRules(s, fresh), fresh)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: features from the kept texts differ from those of texts normalized afresh", p)
		}
	}
	if kept == 0 {
		t.Fatal("no control's texts were kept: featuresOf normalized every one again")
	}
}
