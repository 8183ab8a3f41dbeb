package nativemsg

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr error
		wantID  string // "" for nil
		kind    string // request, notification, response
	}{
		{"request", `{"jsonrpc":"2.0","id":"7","method":"session.ping","params":{"payload":1}}`, nil, "7", "request"},
		{"notification", `{"jsonrpc":"2.0","method":"host.attach","params":{"origin":"x"}}`, nil, "", "notification"},
		{"response", `{"jsonrpc":"2.0","id":"7","result":{}}`, nil, "7", "response"},
		{"not json", `{"jsonrpc":`, ErrParse, "", ""},
		{"not utf8", "{\"a\":\"\xff\"}", ErrParse, "", ""},
		{"array", `[1,2]`, ErrParse, "", ""},
		{"numeric id", `{"jsonrpc":"2.0","id":7,"method":"m"}`, ErrInvalidMessage, "", ""},
		{"empty id", `{"jsonrpc":"2.0","id":"","method":"m"}`, ErrInvalidMessage, "", ""},
		{"long id", `{"jsonrpc":"2.0","id":"` + strings.Repeat("a", 129) + `","method":"m"}`, ErrInvalidMessage, "", ""},
		{"wrong version keeps id", `{"jsonrpc":"1.0","id":"9","method":"m"}`, ErrInvalidMessage, "9", ""},
		{"scalar params", `{"jsonrpc":"2.0","id":"9","method":"m","params":3}`, ErrInvalidMessage, "9", ""},
		{"request with result", `{"jsonrpc":"2.0","id":"9","method":"m","result":1}`, ErrInvalidMessage, "9", ""},
		{"nothing", `{"jsonrpc":"2.0"}`, ErrInvalidMessage, "", ""},
		{"bare id", `{"jsonrpc":"2.0","id":"4"}`, ErrInvalidMessage, "4", ""},
		{"deep nesting", `{"jsonrpc":"2.0","id":"1","method":"m","params":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, ErrParse, "", ""},
		{"brackets in strings do not count", `{"jsonrpc":"2.0","id":"1","method":"m","params":{"s":"` + strings.Repeat("[", 100) + `"}}`, nil, "1", "request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, id, err := Decode([]byte(tt.in))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Decode(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			gotID := ""
			if id != nil {
				gotID = *id
			}
			if gotID != tt.wantID {
				t.Fatalf("Decode(%q) id = %q, want %q", tt.in, gotID, tt.wantID)
			}
			if err != nil {
				return
			}
			kind := map[bool]string{m.IsRequest(): "request", m.IsNotification(): "notification", m.IsResponse(): "response"}[true]
			if kind != tt.kind {
				t.Fatalf("Decode(%q) kind = %q, want %q", tt.in, kind, tt.kind)
			}
		})
	}
}

func TestNewErrorTable(t *testing.T) {
	seen := map[int]string{}
	for code, n := range ErrorCodes() {
		if other, dup := seen[n]; dup {
			t.Errorf("codes %s and %s share number %d", code, other, n)
		}
		seen[n] = code
		e := NewError(code, "x")
		if e.Code != n || e.Data.Code != code {
			t.Errorf("NewError(%q) = %d/%s, want %d/%s", code, e.Code, e.Data.Code, n, code)
		}
	}
	if e := NewError("NO_SUCH", "x"); e.Data.Code != CodeInternal {
		t.Errorf("NewError(unknown) code = %q, want %q", e.Data.Code, CodeInternal)
	}
}

func TestErrorResponseNullID(t *testing.T) {
	b := ErrorResponse(nil, NewError(CodeParseError, "bad"))
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if string(m["id"]) != "null" {
		t.Fatalf("ErrorResponse(nil) id = %s, want null", m["id"])
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"1","method":"session.hello","params":{"protocol":[1],"client":{"kind":"browser"}}}`,
		`{"jsonrpc":"2.0","id":"1","result":{"ok":true}}`,
		`{"jsonrpc":"2.0","method":"vault.stateChanged","params":{"state":"locked"}}`,
		`{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"x","data":{"code":"METHOD_NOT_FOUND"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, _, err := Decode(in)
		if err != nil {
			return
		}
		// A decoded message re-encodes to one that decodes the same way.
		out, merr := json.Marshal(m)
		if merr != nil {
			t.Fatalf("re-encode: %v", merr)
		}
		m2, _, err := Decode(out)
		if err != nil {
			t.Fatalf("Decode(re-encoded %q) = %v", out, err)
		}
		if m.IsRequest() != m2.IsRequest() || m.Method != m2.Method {
			t.Fatalf("round trip changed the message: %+v vs %+v", m, m2)
		}
	})
}
