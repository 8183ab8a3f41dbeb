package linear

import (
	"errors"
	"testing"
)

// TestTrainPredictRoundTrip learns a toy problem, encodes and decodes the
// model, and checks the decoded model predicts like the learned one.
func TestTrainPredictRoundTrip(t *testing.T) {
	classes := []string{"", "email", "tel"}
	ex := []Example{
		{Features: []uint32{1, 10}, Class: 1}, {Features: []uint32{1, 11}, Class: 1},
		{Features: []uint32{2, 10}, Class: 2}, {Features: []uint32{2, 12}, Class: 2},
		{Features: []uint32{3, 12}, Class: 0}, {Features: []uint32{3, 11}, Class: 0},
	}
	m := Train(classes, ex, Options{Bits: 10, Epochs: 30, Rate: 0.3, L2: 1e-4, Seed: 1})
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode(MarshalBinary()) error: %v", err)
	}
	p := make([]float32, len(classes))
	for _, e := range ex {
		if got := d.Classes[d.Predict(e.Features, p)]; got != classes[e.Class] {
			t.Errorf("Predict(%v) = %q, want %q", e.Features, got, classes[e.Class])
		}
	}
	again := Train(classes, ex, Options{Bits: 10, Epochs: 30, Rate: 0.3, L2: 1e-4, Seed: 1})
	if b, _ := again.MarshalBinary(); string(b) != string(data) {
		t.Error("Train with the same seed gave a different model")
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("TSLM1"), []byte("XXXXX\x0a\x00\x00\x80\x3f\x01\x00"), []byte("TSLM1\x0a\x00\x00\x80\x3f\x01\x00\x00")} {
		if _, err := Decode(in); !errors.Is(err, ErrFormat) {
			t.Errorf("Decode(%q) error = %v, want ErrFormat", in, err)
		}
	}
}

func TestDecide(t *testing.T) {
	m := &Model{Classes: []string{"", "email", "tel"}}
	tests := []struct {
		rule string
		veto bool
		p    []float32
		best int
		want string
		ok   bool
	}{
		{"", false, []float32{0.3, 0.6, 0.1}, 1, "email", true},       // rules found nothing
		{"", true, []float32{0.3, 0.6, 0.1}, 1, "", false},            // rules vetoed, unsure
		{"email", false, []float32{0.3, 0.6, 0.1}, 1, "email", true},  // agree
		{"tel", false, []float32{0.3, 0.6, 0.1}, 1, "", false},        // contradict, unsure
		{"tel", false, []float32{0.02, 0.95, 0.03}, 1, "email", true}, // contradict, sure
		{"", false, []float32{0.45, 0.45, 0.1}, 0, "", false},         // unsure
	}
	for _, tt := range tests {
		got, _, ok := m.Decide(tt.rule, tt.rule != "" || tt.veto, tt.p, tt.best, 0.5, 0.9)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Decide(%q, %v) = %q, %v, want %q, %v", tt.rule, tt.p, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRescale checks that rescaling probabilities from one temperature to
// another equals computing them at the other temperature.
func TestRescale(t *testing.T) {
	z := []float32{1, 2, 0.5}
	at := func(temp float32) []float32 {
		p := make([]float32, len(z))
		for i := range z {
			p[i] = z[i] / temp
		}
		softmax(p)
		return p
	}
	p := at(1.3)
	Rescale(p, 1.3, 0.8)
	want := at(0.8)
	for i := range p {
		if d := p[i] - want[i]; d > 1e-5 || d < -1e-5 {
			t.Errorf("Rescale(1.3 -> 0.8)[%d] = %v, want %v", i, p[i], want[i])
		}
	}
}
