package devsync

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A Dot names one change forever: the device that made it, the sequence
// number of the record it came in, and its index in that record.
type Dot struct {
	Dev string
	Seq uint64
	Idx uint32
}

// String returns "DEV.SEQ.IDX".
func (d Dot) String() string {
	return d.Dev + "." + strconv.FormatUint(d.Seq, 10) + "." + strconv.FormatUint(uint64(d.Idx), 10)
}

// MarshalText encodes d as its String.
func (d Dot) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses "DEV.SEQ.IDX".
func (d *Dot) UnmarshalText(b []byte) error {
	parts := strings.Split(string(b), ".")
	if len(parts) != 3 || !validDeviceID(parts[0]) {
		return fmt.Errorf("dot %.40q: %w", b, ErrMalformed)
	}
	seq, err := strconv.ParseUint(parts[1], 10, 64)
	if err != nil {
		return fmt.Errorf("dot %.40q: %w", b, ErrMalformed)
	}
	idx, err := strconv.ParseUint(parts[2], 10, 32)
	if err != nil {
		return fmt.Errorf("dot %.40q: %w", b, ErrMalformed)
	}
	*d = Dot{Dev: parts[0], Seq: seq, Idx: uint32(idx)}
	return nil
}

func (d Dot) less(e Dot) bool {
	if d.Dev != e.Dev {
		return d.Dev < e.Dev
	}
	if d.Seq != e.Seq {
		return d.Seq < e.Seq
	}
	return d.Idx < e.Idx
}

// An OpKind says what a change does.
type OpKind uint8

// Changes. Each adds one element under its dot (OpRemove adds none) and
// removes the elements its Replaces lists.
const (
	// OpPresent marks a profile as existing (it was created).
	OpPresent OpKind = iota + 1
	// OpLabel names a profile.
	OpLabel
	// OpValue adds a value of a detail; Candidate says the person kept it
	// beside the current value rather than making it current.
	OpValue
	// OpPrefer makes the value under Target the preferred one.
	OpPrefer
	// OpRemove only removes what it replaces: a value, a profile.
	OpRemove
	// OpDevice names the device that wrote it (Label). Who is a member
	// is the roster's business, not the journals'.
	OpDevice
)

// An Op is one change.
type Op struct {
	Kind    OpKind `json:"k"`
	Profile string `json:"p,omitempty"`
	// Key names the detail ("concept:IRI" or "field:PATH").
	Key   string          `json:"y,omitempty"`
	Label string          `json:"l,omitempty"`
	Value json.RawMessage `json:"v,omitempty"`
	// Meta is what the vault keeps beside a value (source, confidence),
	// opaque here.
	Meta      json.RawMessage `json:"m,omitempty"`
	Candidate bool            `json:"c,omitempty"`
	Target    *Dot            `json:"t,omitempty"`
	Replaces  []Dot           `json:"r,omitempty"`
	HLC       HLC             `json:"h"`
}

// A Record is one batch of a device's changes, the unit of its journal.
type Record struct {
	Dev string `json:"d"`
	Seq uint64 `json:"s"`
	// Deps is what the device had read of every other device when it wrote
	// the record; the record is applied only after them.
	Deps map[string]uint64 `json:"deps,omitempty"`
	Ops  []Op              `json:"o"`
}

// Limits on what a record may hold; a record beyond them is refused as
// malformed.
const (
	MaxOpsPerRecord = 20000
	MaxStringSize   = 4 << 10
	MaxValueSize    = 64 << 10
	MaxReplaces     = 100000
)

// ErrMalformed is wrapped by errors about a record that opened (so it was
// written by a device of this vault) but does not make sense.
var ErrMalformed = errors.New("malformed sync record")

func validDeviceID(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// check validates a decoded record.
func (r *Record) check() error {
	if !validDeviceID(r.Dev) || r.Seq == 0 {
		return fmt.Errorf("%w: bad device or sequence", ErrMalformed)
	}
	if len(r.Ops) > MaxOpsPerRecord {
		return fmt.Errorf("%w: %d changes in one record", ErrMalformed, len(r.Ops))
	}
	for d := range r.Deps {
		if !validDeviceID(d) {
			return fmt.Errorf("%w: bad dependency", ErrMalformed)
		}
	}
	n := 0
	for i := range r.Ops {
		o := &r.Ops[i]
		n += len(o.Replaces)
		switch {
		case n > MaxReplaces:
			return fmt.Errorf("%w: too many removals", ErrMalformed)
		case len(o.Profile) > MaxStringSize || len(o.Key) > MaxStringSize || len(o.Label) > MaxStringSize:
			return fmt.Errorf("%w: name too long", ErrMalformed)
		case len(o.Value) > MaxValueSize || len(o.Meta) > MaxValueSize:
			return fmt.Errorf("%w: value too large", ErrMalformed)
		}
		switch o.Kind {
		case OpPresent, OpLabel, OpRemove:
			if o.Profile == "" {
				return fmt.Errorf("%w: change without a profile", ErrMalformed)
			}
		case OpValue:
			if o.Profile == "" || o.Key == "" || len(o.Value) == 0 {
				return fmt.Errorf("%w: value without profile, key or value", ErrMalformed)
			}
			if !json.Valid(o.Value) || (len(o.Meta) > 0 && !json.Valid(o.Meta)) {
				return fmt.Errorf("%w: value is not JSON", ErrMalformed)
			}
		case OpPrefer:
			if o.Profile == "" || o.Key == "" || o.Target == nil {
				return fmt.Errorf("%w: preference without target", ErrMalformed)
			}
		case OpDevice:
		default:
			return fmt.Errorf("%w: unknown change kind %d", ErrMalformed, o.Kind)
		}
	}
	return nil
}

// compactJSON returns v without insignificant space, so equal values
// compare equal.
func compactJSON(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}
