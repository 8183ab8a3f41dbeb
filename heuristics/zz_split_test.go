package heuristics

import (
	"bytes"
	"testing"

	"github.com/tessera-app/tessera/form"
)

func BenchmarkZZExtract(b *testing.B) {
	page := generatedPage(200 << 10)
	for b.Loop() {
		form.Extract(bytes.NewReader(page), form.ExtractOptions{})
	}
}

func BenchmarkZZClassify(b *testing.B) {
	page := generatedPage(200 << 10)
	s, _ := form.Extract(bytes.NewReader(page), form.ExtractOptions{})
	Classify(s)
	for b.Loop() {
		Classify(s)
	}
}
func BenchmarkZZRules(b *testing.B) {
	page := generatedPage(200 << 10)
	s, _ := form.Extract(bytes.NewReader(page), form.ExtractOptions{})
	Classify(s)
	for b.Loop() {
		classifyRules(s, newMemo(len(s.Controls)))
	}
}
