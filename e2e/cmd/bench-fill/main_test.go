//go:build e2e && linux

package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

func TestRunRejectsBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-n", "0"}, "bad flags"},
		{[]string{"-warmup", "-1"}, "bad flags"},
		{[]string{"-bogus"}, "not defined"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			err := run(context.Background(), tt.args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run(%q) = %v, want an error containing %q", tt.args, err, tt.want)
			}
		})
	}
}

func TestSummarise(t *testing.T) {
	tests := []struct {
		v    []float64
		want summary
	}{
		{[]float64{7}, summary{7, 7, 7, 7, 7}},
		{[]float64{4, 1, 3, 2}, summary{p50: 2, p99: 4, mean: 2.5, min: 1, max: 4}},
		// Nearest rank: p99 of 100 values is the 99th, not the largest.
		{hundred(), summary{p50: 50, p99: 99, mean: 50.5, min: 1, max: 100}},
	}
	for _, tt := range tests {
		if got := summarise(tt.v); got != tt.want {
			t.Errorf("summarise(%d values) = %+v, want %+v", len(tt.v), got, tt.want)
		}
	}
}

func hundred() []float64 {
	v := make([]float64, 100)
	for i := range v {
		v[len(v)-1-i] = float64(i + 1)
	}
	return v
}
