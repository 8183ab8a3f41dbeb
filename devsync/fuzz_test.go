package devsync

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"filippo.io/age"
)

// FuzzParseJournal feeds arbitrary bytes to the journal parser: it must
// never panic, never claim more bytes than it was given, and what it
// returns must seal and parse back to the same records.
func FuzzParseJournal(f *testing.F) {
	k, err := deriveGroupKeys(testSecret)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sampleJournal(f, k))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := k.ParseJournal(b, testPubOf)
		if p.Complete > len(b) || p.Complete < 0 {
			t.Fatalf("ParseJournal(%d bytes).Complete = %d", len(b), p.Complete)
		}
		var again []byte
		for _, r := range p.Records {
			fr, err := k.sealRecord(k.first, testIdentity().sign, r)
			if err != nil {
				t.Fatalf("sealRecord(parsed record) = %v", err)
			}
			again = append(again, fr...)
		}
		q := k.ParseJournal(again, testPubOf)
		if q.Err != nil || len(q.Records) != len(p.Records) {
			t.Fatalf("re-parse: %d records, err %v; want %d", len(q.Records), q.Err, len(p.Records))
		}
		for i := range p.Records {
			if !reflect.DeepEqual(jsonOf(t, p.Records[i]), jsonOf(t, q.Records[i])) {
				t.Fatalf("record %d changed in a round trip", i)
			}
		}
	})
}

// FuzzDecodeRecord fuzzes what lies behind the seal: the record decoder
// and its checks, and applying what they accept to a state.
func FuzzDecodeRecord(f *testing.F) {
	k, _ := deriveGroupKeys(testSecret)
	for _, r := range k.ParseJournal(sampleJournal(f, k), testPubOf).Records {
		b, _ := json.Marshal(r)
		f.Add(b)
	}
	f.Add([]byte(`{"d":"00000000000000a0","s":1,"o":[{"k":3,"p":"p","y":"k","v":1,"r":["00000000000000a0.0.0"],"h":5}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(b)
		if err != nil {
			return
		}
		s := NewState()
		if s.ready(r) {
			s.apply(r)
		}
		s.View()
	})
}

// testIdentity is the keys of device 00000000000000a0 in the seeds: the
// same at every run, so the seeds' signatures hold.
func testIdentity() *identity {
	seed := sha256.Sum256([]byte("tessera test device a0"))
	id, _ := age.ParseX25519Identity("AGE-SECRET-KEY-1CE7NDLV869KGADXA8GSYHKGW5G2CXY057SPUYRC6ZA5038PJDWNSHFEJQH")
	return &identity{sign: ed25519.NewKeyFromSeed(seed[:]), age: id}
}

// testPubOf knows device 00000000000000a0 only.
func testPubOf(dev string) ed25519.PublicKey {
	if dev == "00000000000000a0" {
		return testIdentity().pub()
	}
	return nil
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sampleJournal returns a journal of a few records of every kind of
// change, read from testdata/journal.bin (written by TestWriteSeeds).
func sampleJournal(tb testing.TB, k *keys) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "journal.bin"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestWriteSeeds rewrites testdata/journal.bin and the fuzz seed corpus
// when TESSERA_WRITE_SEEDS is set; otherwise it checks the journal still
// parses whole, so a format change cannot leave the seeds stale.
func TestWriteSeeds(t *testing.T) {
	k, _ := deriveGroupKeys(testSecret)
	if os.Getenv("TESSERA_WRITE_SEEDS") == "" {
		b := sampleJournal(t, k)
		p := k.ParseJournal(b, testPubOf)
		if p.Err != nil || p.Complete != len(b) || len(p.Records) == 0 {
			t.Fatalf("testdata/journal.bin: %d records, %d of %d bytes, err %v", len(p.Records), p.Complete, len(b), p.Err)
		}
		b = sampleRoster(t)
		list, n, err := k.parseRoster(b)
		if err != nil || n != len(b) || len(list) < 3 {
			t.Fatalf("testdata/roster.bin: %d entries, %d of %d bytes, err %v", len(list), n, len(b), err)
		}
		return
	}
	fs := memFS{}
	r, _ := NewReplica("00000000000000a0", testSecret, fixedClock{})
	r.ident = testIdentity()
	r.Edit(func(e *Editor) {
		e.AddDevice("laptop")
		e.CreateProfile("p1", "Home")
		e.Set("p1", "concept:email", json.RawMessage(`"a@example.org"`), json.RawMessage(`{"confidence":1}`))
		e.Put("p1", "concept:email", json.RawMessage(`"b@example.org"`), nil, true, nil)
	})
	r.Edit(func(e *Editor) {
		v := r.values("p1", "concept:email")
		e.Prefer("p1", "concept:email", v[1].Dots[0])
		e.Rename("p1", "Home address")
		e.Remove("p1", "concept:email", v[0].Dots)
		e.DeleteProfile("p1")
	})
	if err := r.Flush(fs); err != nil {
		t.Fatal(err)
	}
	journal := fs[r.journalName()]
	if err := os.WriteFile(filepath.Join("testdata", "journal.bin"), journal, 0o644); err != nil {
		t.Fatal(err)
	}
	// A roster: a's join, b's, a removes b.
	b, _ := NewReplica("00000000000000b0", testSecret, fixedClock{})
	b.Read(fs)
	b.Flush(fs)
	r.Read(fs)
	if err := r.RemoveDevice(b.dev); err != nil {
		t.Fatal(err)
	}
	if err := r.Flush(fs); err != nil {
		t.Fatal(err)
	}
	roster := fs[r.rosterName()]
	if err := os.WriteFile(filepath.Join("testdata", "roster.bin"), roster, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, seeds := range map[string][][]byte{
		"FuzzParseJournal": {journal, journal[:len(journal)-7], append(bytes.Clone(journal), journal[:300]...)},
		"FuzzParseRoster":  {roster, roster[:len(roster)-9], append(bytes.Clone(roster), roster[:300]...)},
	} {
		dir := filepath.Join("testdata", "fuzz", name)
		os.MkdirAll(dir, 0o755)
		for i, s := range seeds {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i)), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)), 0o644)
		}
	}
}

// FuzzSnapshot fuzzes what lies behind a snapshot's seal: a state written
// by another device, decoded, joined into this device's and viewed.
func FuzzSnapshot(f *testing.F) {
	r, _ := NewReplica("00000000000000a0", testSecret, fixedClock{})
	r.Edit(func(e *Editor) {
		e.CreateProfile("p", "Home")
		e.Set("p", "concept:k", json.RawMessage(`"v"`), nil)
		e.Put("p", "concept:k", json.RawMessage(`"w"`), nil, true, nil)
	})
	b, _ := json.Marshal(&snapshotDoc{Dev: "00000000000000a0", Epoch: 2, State: r.st})
	f.Add(b)
	f.Add([]byte(`{"dev":"00000000000000a0","state":{"profiles":{"p":null,"q":{"keys":{"k":null}}}}}`))
	k, _ := deriveGroupKeys(testSecret)
	f.Fuzz(func(t *testing.T, b []byte) {
		sealed, err := k.seal(kindSnapshot, k.first, testIdentity().sign, b)
		if err != nil {
			return
		}
		d, err := k.parseSnapshot(sealed, testPubOf)
		if err != nil || d == nil {
			return
		}
		s := NewState()
		s.Join(d.State)
		s.View()
		d.State.View()
	})
}

func sampleRoster(tb testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "roster.bin"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FuzzParseRoster feeds arbitrary bytes to the roster parser: it must
// never panic or claim more bytes than it was given, what it returns
// must seal and parse back to the same entries, and evaluating them must
// not panic.
func FuzzParseRoster(f *testing.F) {
	k, _ := deriveGroupKeys(testSecret)
	f.Add(sampleRoster(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		list, n, _ := k.parseRoster(b)
		if n > len(b) || n < 0 {
			t.Fatalf("parseRoster(%d bytes) = %d bytes", len(b), n)
		}
		var again []byte
		for _, se := range list {
			fr, err := k.resealEntry(se)
			if err != nil {
				t.Fatal(err)
			}
			again = append(again, fr...)
		}
		back, m, err := k.parseRoster(again)
		if err != nil || m != len(again) || len(back) != len(list) {
			t.Fatalf("re-parse: %d entries of %d, err %v", len(back), len(list), err)
		}
		k.evalRoster(list)
	})
}

// FuzzRosterEntry fuzzes what lies behind a roster frame's seal and
// signature: the entry decoder and checks, and the evaluation of a roster
// holding the entry, signed by its device, beside real ones.
func FuzzRosterEntry(f *testing.F) {
	k, _ := deriveGroupKeys(testSecret)
	real, _, _ := k.parseRoster(sampleRoster(f))
	for _, se := range real {
		f.Add(se.Payload)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err != nil {
			return
		}
		id := testIdentity()
		se := &signedEntry{E: e, KeyID: k.first, Payload: b, Sig: ed25519.Sign(id.sign, k.sigMessage(kindRoster, k.first, b))}
		ro := k.evalRoster(append(slices.Clone(real), se))
		for dev := range ro.members {
			if ro.known[dev] == nil {
				t.Fatalf("member %s without a key", dev)
			}
		}
	})
}
