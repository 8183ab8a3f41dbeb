// Package profile owns the profile data model of Formspec Assist §6 — the
// UserProfile and ProfileEntry that the vault stores and the matcher reads —
// so that both can share it without the matcher depending on storage.
package profile

import "encoding/json"

// A UserProfile is one person's reusable set of values (Assist §6.1).
// Concepts are keyed by canonical concept IRI, Fields by form field path.
type UserProfile struct {
	ID       string           `json:"id"`
	Label    string           `json:"label"`
	Created  string           `json:"created"`
	Updated  string           `json:"updated"`
	Concepts map[string]Entry `json:"concepts"`
	Fields   map[string]Entry `json:"fields"`
}

// An Entry is one stored value (Assist ProfileEntry).
type Entry struct {
	// Value is any JSON value; for the common concepts it is a string in
	// the canonical shape (E.164 phone, ISO date, ISO country code, street
	// address lines separated by "\n").
	Value      json.RawMessage `json:"value"`
	Confidence float64         `json:"confidence"`
	Source     Source          `json:"source"`
	LastUsed   string          `json:"lastUsed,omitempty"`
	Verified   bool            `json:"verified"`
}

// A Source says where an Entry came from (Assist ProfileEntrySource). Type is
// one of "form-fill", "manual", "import", "extension"; the other fields are
// set as that type requires.
type Source struct {
	Type        string `json:"type"`
	FormURL     string `json:"formUrl,omitempty"`
	FieldPath   string `json:"fieldPath,omitempty"`
	Source      string `json:"source,omitempty"`
	ExtensionID string `json:"extensionId,omitempty"`
	Timestamp   string `json:"timestamp"`
}

// StringValue returns the entry's value as a string when it is a JSON
// string, and reports whether it was.
func (e Entry) StringValue() (string, bool) {
	var s string
	if err := json.Unmarshal(e.Value, &s); err != nil {
		return "", false
	}
	return s, true
}
