package jsondepth

import "testing"

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{``, 0},
		{`1`, 0},
		{`{}`, 1},
		{`[[{"a":[1]}]]`, 4},
		{`{"a":"[[[[\"{{"}`, 1},
		{`["\\", [ ]]`, 2},
		{`{"a":{}} [[[]]]`, 3},
	} {
		if got := Of([]byte(tc.in)); got != tc.want {
			t.Errorf("Of(%s) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func FuzzOf(f *testing.F) {
	for _, s := range []string{`{}`, `[[["\""]]]`, `{"a":[{"b":"]]"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := Of(b); d < 0 || d > len(b) {
			t.Fatalf("Of = %d for %d bytes", d, len(b))
		}
	})
}
