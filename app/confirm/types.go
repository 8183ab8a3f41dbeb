package confirm

// What dialogs show besides their rows.

// AgentAsk is what a dialog of an agent kind shows besides its rows.
type AgentAsk struct {
	// Tool is the tool called, as the agent sees it; PageTool the page's
	// own name for it.
	Tool     string `json:"tool,omitempty"`
	PageTool string `json:"pageTool,omitempty"`
	// Untrusted is the page's description of the tool: the page's words,
	// shown as such, never as Tessera's.
	Untrusted string `json:"untrusted,omitempty"`
	// Submit reports whether the call also submits the form.
	Submit bool `json:"submit,omitempty"`
	// ReadOnly reports that the page says the tool only reads: the person
	// may then let it run on this site without asking ("remember").
	ReadOnly bool `json:"readOnly,omitempty"`
	// Frame is set when the question concerns a child frame of the page
	// (agent_frames.go).
	Frame *AgentFrame `json:"frame,omitempty"`
}

// AgentFrame says, in an agent's dialog, that what is asked concerns a
// child frame of the page: the frame's origin is the site asked about,
// Page the top page's origin.
type AgentFrame struct {
	ID          int    `json:"id"`
	Origin      string `json:"origin"`
	Page        string `json:"page"`
	CrossOrigin bool   `json:"crossOrigin"`
}

// PairInfo is what the pairing dialog shows besides the client.
type PairInfo struct {
	// Code is the six-digit code the popup shows too ("123 456").
	Code string `json:"code"`
	// Browser is the verified browser family, Exe its executable path.
	Browser string `json:"browser"`
	Exe     string `json:"exe,omitempty"`
	// Fingerprint is the key's ID.
	Fingerprint string `json:"fingerprint"`
}

// ProfileSummary is one profile as the list shows it: never its values.
type ProfileSummary struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Entries int    `json:"entries"`
	// Updated is the RFC 3339 time the profile last changed.
	Updated string `json:"updated"`
}
