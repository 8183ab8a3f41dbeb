package nativemsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/tessera-app/tessera/internal/jsondepth"
)

// ProtocolVersion is the protocol version this build speaks. Versions are
// negotiated in session.hello.
const ProtocolVersion = 1

// HostName is the native-messaging host name browsers know Tessera by.
const HostName = "dev.tessera.host"

// A Message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method, no ID) or a response (ID and Result or Error).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *string         `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest reports whether m is a request (it expects a response).
func (m *Message) IsRequest() bool { return m.ID != nil && m.Method != "" }

// IsNotification reports whether m is a notification.
func (m *Message) IsNotification() bool { return m.ID == nil && m.Method != "" }

// IsResponse reports whether m is a response to a request.
func (m *Message) IsResponse() bool {
	return m.Method == "" && m.ID != nil && (m.Result != nil || m.Error != nil)
}

// An Error is a JSON-RPC error object. Data.Code is the stable string code
// from the table in PROTOCOL.md.
type Error struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    ErrorData `json:"data"`
}

// ErrorData carries the string code and, for Assist tool errors, the path;
// a DECLINED error says why in Reason.
type ErrorData struct {
	Code   string `json:"code"`
	Path   string `json:"path,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Data.Code, e.Message) }

// Error codes. The table only grows: a code, once published, keeps its
// meaning and number forever (PROTOCOL.md).
const (
	CodeParseError          = "PARSE_ERROR"
	CodeInvalidRequest      = "INVALID_REQUEST"
	CodeMethodNotFound      = "METHOD_NOT_FOUND"
	CodeInvalidParams       = "INVALID_PARAMS"
	CodeInternal            = "INTERNAL"
	CodeHelloRequired       = "HELLO_REQUIRED"
	CodeHelloRepeated       = "HELLO_REPEATED"
	CodeProtocolUnsupported = "PROTOCOL_UNSUPPORTED"
	CodeTooLarge            = "TOO_LARGE"
	CodeBusy                = "BUSY"
	CodeAppUnavailable      = "APP_UNAVAILABLE"
	CodeForbidden           = "FORBIDDEN"
	CodeVaultLocked         = "VAULT_LOCKED"
	CodeVaultUninitialized  = "VAULT_UNINITIALIZED"
	CodeNotFound            = "NOT_FOUND"
	CodeInvalidPath         = "INVALID_PATH"
	CodeInvalidValue        = "INVALID_VALUE"
	CodeNotRelevant         = "NOT_RELEVANT"
	CodeReadonly            = "READONLY"
	CodeUnsupported         = "UNSUPPORTED"
	CodeEngineError         = "ENGINE_ERROR"
	CodeConfirmRequired     = "x-confirmation-required"
	CodeDeclined            = "DECLINED"
	CodeTimeout             = "TIMEOUT"
	CodeNotVerified         = "NOT_VERIFIED"
	CodeNotPaired           = "NOT_PAIRED"
	// CodeInvalidSidecar is Assist's x-invalid-sidecar (issue 14).
	CodeInvalidSidecar = "x-invalid-sidecar"
	CodeNoBrowser      = "NO_BROWSER"
	CodeNotExposed     = "NOT_EXPOSED"
)

// errorNumbers maps each string code to its JSON-RPC numeric code. Standard
// JSON-RPC codes keep their numbers; Tessera's own live in the
// implementation-defined server range -32000..-32099.
var errorNumbers = map[string]int{
	CodeParseError:          -32700,
	CodeInvalidRequest:      -32600,
	CodeMethodNotFound:      -32601,
	CodeInvalidParams:       -32602,
	CodeInternal:            -32603,
	CodeHelloRequired:       -32000,
	CodeHelloRepeated:       -32001,
	CodeProtocolUnsupported: -32002,
	CodeTooLarge:            -32003,
	CodeBusy:                -32004,
	CodeAppUnavailable:      -32005,
	CodeForbidden:           -32006,
	CodeVaultLocked:         -32010,
	CodeVaultUninitialized:  -32011,
	CodeNotFound:            -32020,
	CodeInvalidPath:         -32021,
	CodeInvalidValue:        -32022,
	CodeNotRelevant:         -32023,
	CodeReadonly:            -32024,
	CodeUnsupported:         -32025,
	CodeNotVerified:         -32030,
	CodeNotPaired:           -32031,
	CodeEngineError:         -32026,
	CodeConfirmRequired:     -32027,
	CodeDeclined:            -32028,
	CodeTimeout:             -32029,
	CodeInvalidSidecar:      -32040,
	CodeNoBrowser:           -32032,
	CodeNotExposed:          -32033,
}

// ErrorCodes returns the string codes of the error table.
func ErrorCodes() map[string]int {
	out := make(map[string]int, len(errorNumbers))
	for k, v := range errorNumbers {
		out[k] = v
	}
	return out
}

// NewError returns an Error with the string code and its numeric code. An
// unknown code is reported as INTERNAL so that no response carries a code
// outside the published table.
func NewError(code, format string, args ...any) *Error {
	n, ok := errorNumbers[code]
	if !ok {
		code, n = CodeInternal, errorNumbers[CodeInternal]
	}
	return &Error{Code: n, Message: fmt.Sprintf(format, args...), Data: ErrorData{Code: code}}
}

// Limits on decoded messages, beyond the frame size.
const (
	maxIDLength     = 128
	maxMethodLength = 128
	maxJSONDepth    = 64
)

// ErrInvalidMessage is wrapped by Decode errors for well-formed JSON that is
// not a valid protocol message; ErrParse for bytes that are not JSON.
var (
	ErrInvalidMessage = errors.New("invalid message")
	ErrParse          = errors.New("parse error")
)

// Decode parses one frame's bytes as a protocol message. It never panics; on
// error it still returns whatever ID it could recover (nil if none), so the
// caller can answer the request that failed.
func Decode(b []byte) (*Message, *string, error) {
	if !utf8.Valid(b) {
		return nil, nil, fmt.Errorf("%w: not UTF-8", ErrParse)
	}
	if d := jsondepth.Of(b); d > maxJSONDepth {
		return nil, nil, fmt.Errorf("%w: nesting deeper than %d", ErrParse, maxJSONDepth)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrParse, err)
	}
	id, idErr := decodeID(raw["id"])
	if idErr != nil {
		return nil, nil, idErr
	}
	var m Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, id, fmt.Errorf("%w: %v", ErrInvalidMessage, err)
	}
	m.ID = id
	switch {
	case m.JSONRPC != "2.0":
		return nil, id, fmt.Errorf("%w: jsonrpc must be \"2.0\"", ErrInvalidMessage)
	case len(m.Method) > maxMethodLength:
		return nil, id, fmt.Errorf("%w: method name too long", ErrInvalidMessage)
	case m.Method != "" && (m.Result != nil || m.Error != nil):
		return nil, id, fmt.Errorf("%w: a request has no result or error", ErrInvalidMessage)
	case m.Method == "" && id == nil:
		return nil, nil, fmt.Errorf("%w: neither a request nor a response", ErrInvalidMessage)
	case m.Method == "" && m.Result == nil && m.Error == nil:
		return nil, id, fmt.Errorf("%w: a response needs a result or an error", ErrInvalidMessage)
	}
	if len(m.Params) > 0 {
		if c := firstNonSpace(m.Params); c != '{' && c != '[' {
			return nil, id, fmt.Errorf("%w: params must be an object or array", ErrInvalidMessage)
		}
	}
	return &m, id, nil
}

func decodeID(raw json.RawMessage) (*string, error) {
	if raw == nil {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%w: id must be a string", ErrInvalidMessage)
	}
	if s == "" || len(s) > maxIDLength {
		return nil, fmt.Errorf("%w: id must be 1..%d bytes", ErrInvalidMessage, maxIDLength)
	}
	return &s, nil
}

func firstNonSpace(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// Response builds a success response for id.
func Response(id string, result any) ([]byte, error) {
	r, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return json.Marshal(Message{JSONRPC: "2.0", ID: &id, Result: r})
}

// ErrorResponse builds an error response. id may be nil when the request's id
// could not be read (JSON-RPC then answers with "id": null).
func ErrorResponse(id *string, e *Error) []byte {
	type nullable struct {
		JSONRPC string  `json:"jsonrpc"`
		ID      *string `json:"id"`
		Error   *Error  `json:"error"`
	}
	b, _ := json.Marshal(nullable{JSONRPC: "2.0", ID: id, Error: e})
	return b
}

// Notification builds a notification message.
func Notification(method string, params any) ([]byte, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode params: %w", err)
	}
	return json.Marshal(Message{JSONRPC: "2.0", Method: method, Params: p})
}

// Large results (PROTOCOL.md §5): a message over MaxOutgoing travels as
// session.chunk notifications.

// ChunkMethod carries one piece of a message too large for one frame.
const ChunkMethod = "session.chunk"

// ChunkSize keeps a base64-encoded chunk and its envelope under 1 MiB.
const ChunkSize = 600 * 1024

// A Chunk is the params of a session.chunk notification: piece Index of
// Count of the message answering request ID, base64 of its raw bytes.
type Chunk struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
	Count int    `json:"count"`
	Data  string `json:"data"`
}
