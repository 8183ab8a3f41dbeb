package nativemsg

// The params and results of the session's first messages (PROTOCOL.md
// §4): session.hello, pair.prove and pair.request.

// HelloParams are the params of session.hello.
type HelloParams struct {
	Protocol []int `json:"protocol"`
	Client   struct {
		Kind      string `json:"kind"`
		Name      string `json:"name"`
		Version   string `json:"version"`
		Extension string `json:"extension"`
	} `json:"client"`
}

// HelloResult is the result of session.hello.
type HelloResult struct {
	Protocol int `json:"protocol"`
	App      struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"app"`
	Vault struct {
		State string `json:"state"`
	} `json:"vault"`
	Session string `json:"session"`
	// Verified reports whether the app verified the caller; an unverified
	// session can do nothing but hello (NOT_VERIFIED), and Why says why.
	Verified bool   `json:"verified"`
	Why      string `json:"why,omitempty"`
	// Challenge is, for a browser session, the random challenge its
	// extension signs to prove its paired key (base64; pairing.go).
	Challenge string `json:"challenge,omitempty"`
}

// PairParams are the params of pair.prove and pair.request: the install's
// public key and its signature of the session's challenge, base64.
type PairParams struct {
	Key       string `json:"key"`
	Signature string `json:"signature"`
}

// PairResult is the result of pair.prove and pair.request.
type PairResult struct {
	Paired bool `json:"paired"`
	// ID is the key's fingerprint.
	ID string `json:"id"`
}
