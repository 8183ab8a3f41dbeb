package linear

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
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

// TestSoftmaxTemperature checks that Predict is Scores then Softmax at the
// model's temperature, which the agreeing case reuses at another.
func TestSoftmaxTemperature(t *testing.T) {
	m := Train([]string{"", "a", "b"}, []Example{{Features: []uint32{1}, Class: 1}, {Features: []uint32{2}, Class: 2}}, Options{Bits: 10, Epochs: 5, Rate: 0.3, Seed: 1})
	m.Temperature = 1.3
	p, z := make([]float32, 3), make([]float32, 3)
	best := m.Predict([]uint32{1}, p)
	m.Scores([]uint32{1}, z)
	if b := Softmax(z, 1.3); b != best || z[b] != p[best] {
		t.Errorf("Softmax(Scores) = %d, %v, want %d, %v", b, z[b], best, p[best])
	}
}

// TestCalibration fits a map where fills shown at 0.9 were right half the
// time and those at 0.6 always: the pooled map must not fall with the
// confidence, and Calibrate interpolates it.
func TestCalibration(t *testing.T) {
	conf := []float32{0.6, 0.6, 0.9, 0.9, 0.99, 0.99}
	right := []bool{true, true, true, false, true, true}
	k := FitCalibration(conf, right)
	for i := 1; i < len(k); i++ {
		if k[i].Y < k[i-1].Y || k[i].X <= k[i-1].X {
			t.Fatalf("FitCalibration() = %v, want rising knots", k)
		}
	}
	m := &Model{Calibration: map[string][]Point{"rule": {{0.6, 0.5}, {0.9, 0.8}}}}
	for _, tt := range []struct{ in, want float32 }{{0.75, 0.65}, {0.3, 0.25}, {0.95, 0.8}} {
		if got := m.Calibrate("rule", tt.in); got-tt.want > 1e-6 || tt.want-got > 1e-6 {
			t.Errorf("Calibrate(rule, %v) = %v, want %v", tt.in, got, tt.want)
		}
		if got := m.Calibrate("model", tt.in); got != tt.in {
			t.Errorf("Calibrate(model, %v) = %v, want it kept (no map)", tt.in, got)
		}
	}
}

func TestExp(t *testing.T) {
	for x := float32(-12); x <= 0; x += 0.01 {
		got, want := float64(exp(x)), math.Exp(float64(x))
		if d := math.Abs(got-want) / want; d > 2e-4 {
			t.Fatalf("exp(%v) = %v, want %v (relative error %v)", x, got, want, d)
		}
	}
}

// TestScoresPacked: the packed lanes of Scores sum to exactly what the
// int8 rows do, for weights at both ends of their range and for more rows
// than a lane holds before it is emptied (600 features, some repeated).
func TestScoresPacked(t *testing.T) {
	classes := []string{"", "a", "b", "c", "d", "e", "f"}
	m := &Model{Classes: classes, Bits: 10, Temperature: 1, AgreeTemperature: 1,
		w: make([]int8, 1024*len(classes)), scale: make([]float32, len(classes)), bias: make([]float32, len(classes))}
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range m.w {
		switch rng.IntN(4) {
		case 0:
			m.w[i] = -128
		case 1:
			m.w[i] = 127
		case 2:
			m.w[i] = int8(rng.IntN(256) - 128)
		}
	}
	for c := range classes {
		m.scale[c], m.bias[c] = 1, float32(c)
	}
	m.index()
	for _, nf := range []int{0, 1, 254, 255, 256, 600} {
		f := make([]uint32, nf)
		for i := range f {
			f[i] = uint32(rng.IntN(40)) // few buckets: rows repeat
		}
		got, want := make([]float32, len(classes)), make([]float32, len(classes))
		m.Scores(f, got)
		m.scoresPlain(f, want)
		if !slices.Equal(got, want) {
			t.Errorf("%d features: Scores = %v, want %v", nf, got, want)
		}
	}
}

// scoresPlain is Scores without the packed lanes: the sums they must
// equal.
func (m *Model) scoresPlain(features []uint32, z []float32) {
	n := len(m.Classes)
	sum := make([]int32, n)
	mask := m.Buckets() - 1
	for _, f := range features {
		b := f & mask
		for c, v := range m.w[int(b)*n : int(b)*n+n] {
			sum[c] += int32(v)
		}
	}
	for c := range n {
		z[c] = float32(sum[c])*m.scale[c] + m.bias[c]
	}
}
