package agents

import (
	"strings"
	"testing"
)

func FuzzWithhold(f *testing.F) {
	f.Add("Ada Lovelace, 020 7946 0000", "Ada")
	f.Add(`{"q":"\u0041da"}`, "Ada")
	f.Add("İstanbul ıi", "İ")
	f.Fuzz(func(t *testing.T, text, secret string) {
		res := withhold(textResult(text, map[string]any{"t": text}), []string{secret}, nil)
		if len(res.Content) != 1 {
			t.Fatalf("withhold(%q, %q) lost its content: %+v", text, secret, res)
		}
		s := strings.TrimSpace(secret)
		if len([]rune(s)) >= minWithheld && !res.IsError && strings.EqualFold(res.Content[0].Text, s) {
			t.Errorf("withhold(%q, %q) = %q: the secret came through whole", text, secret, res.Content[0].Text)
		}
	})
}

func TestWithholdWords(t *testing.T) {
	secrets := []string{"Ada", "Lovelace", "ada@example.org", "+442079460000", "12 Market St\nLondon"}
	for _, tc := range []struct{ in, want string }{
		{"Ada Lovelace", "[x] [x]"},
		{"ADA@EXAMPLE.ORG is on file", "[x] is on file"},
		{"call 020 7946 0000 now", "call [x] now"},
		{"+44 (20) 7946-0000", "[x]"},
		{"Canada and Adam", "Canada and Adam"},
		{"/account/ada.lovelace?x", "/account/[x].[x]?x"},
		{"lives at 12 Market St", "lives at [x]"},
		{"order 4471", "order 4471"},
	} {
		got := withhold(textResult(tc.in, nil), secrets, nil).Content[0].Text
		if got = strings.ReplaceAll(got, WithheldMarker, "[x]"); got != tc.want {
			t.Errorf("withhold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// What the agent itself gave may come back.
	if got := withhold(textResult("Ada said hi", nil), secrets, map[string]any{"name": "ada"}).Content[0].Text; got != "Ada said hi" {
		t.Errorf("withhold with the agent's own argument = %q", got)
	}
}
