package linear

import (
	"errors"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to Decode, seeded with a real model:
// it must return a model that predicts without panicking, or ErrFormat.
func FuzzDecode(f *testing.F) {
	m := Train([]string{"", "a"}, []Example{{Features: []uint32{1}, Class: 1}, {Features: []uint32{2}, Class: 0}}, Options{Bits: 10, Epochs: 2, Rate: 0.1, Seed: 1})
	seed, _ := m.MarshalBinary()
	f.Add(seed)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Decode error %v is not ErrFormat", err)
			}
			return
		}
		p := make([]float32, len(d.Classes))
		d.Predict([]uint32{0, 1, 1 << 31}, p)
	})
}
