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
		{[]string{"-rounds", "0"}, "bad flags"},
		{[]string{"-payload", "-1"}, "bad flags"},
		// Half of the browser's 1 MiB limit leaves room for the JSON around it.
		{[]string{"-payload", "600000"}, "bad flags"},
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

func TestDescribePayload(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{{0, "{seq: 0}"}, {65536, "a 65536-byte string"}}
	for _, tt := range tests {
		if got := describePayload(tt.n); got != tt.want {
			t.Errorf("describePayload(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
