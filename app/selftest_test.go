//go:build selftest

package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/ui"
)

func TestSelfTestFinish(t *testing.T) {
	tests := []struct {
		name   string
		checks []SelfTestCheck
		ok     bool
	}{
		{"all pass", []SelfTestCheck{{Name: "a", OK: true}, {Name: "b", OK: true}}, true},
		{"one fails", []SelfTestCheck{{Name: "a", OK: true}, {Name: "b", Detail: "missing"}}, false},
		// A page that reports nothing checked nothing: that is a failure.
		{"no checks", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := New(Config{Version: "9.9"})
			if err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(t.TempDir(), "report.json")
			u := newUI(a)
			win := ui.NewWindow(u)
			win.Start(&fakeShell{})
			st := newSelfTest(a, u, win, windowConfig{getenv: getenvFrom(map[string]string{"TESSERA_SELFTEST_REPORT": report})})
			st.finish(SelfTestReport{OK: true, Checks: tt.checks})

			err = st.result()
			if tt.ok != (err == nil) || (err != nil && !errors.Is(err, errSelfTest)) {
				t.Errorf("result() = %v, want ok=%v", err, tt.ok)
			}
			b, rerr := os.ReadFile(report)
			if rerr != nil {
				t.Fatalf("report not written: %v", rerr)
			}
			var got SelfTestReport
			if err := json.Unmarshal(b, &got); err != nil || got.OK != tt.ok || got.Status.Version != "9.9" {
				t.Errorf("report = %s, want ok=%v and the app status", b, tt.ok)
			}
		})
	}
}

// The Go-side checks must fail when the page's clicks did not reach the
// vault, whatever the page reported.
func TestSelfTestVaultChecks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, u *ui.UI)
		ok    []bool
	}{
		{"untouched vault", func(*testing.T, *ui.UI) {}, []bool{false, false}},
		{"set up, no profile", func(t *testing.T, u *ui.UI) {
			if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
				t.Fatal(err)
			}
		}, []bool{true, false}},
		{"as the page leaves it", func(t *testing.T, u *ui.UI) {
			if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
				t.Fatal(err)
			}
			if _, err := u.CreateProfile(selfTestProfile); err != nil {
				t.Fatal(err)
			}
		}, []bool{true, true}},
		{"left locked", func(t *testing.T, u *ui.UI) {
			if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
				t.Fatal(err)
			}
			if _, err := u.CreateProfile(selfTestProfile); err != nil {
				t.Fatal(err)
			}
			u.Lock()
		}, []bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, u, _, _ := newVaultApp(t, nil, "")
			tt.setup(t, u)
			st := newSelfTest(a, u, ui.NewWindow(u), windowConfig{})
			got := st.vaultChecks()
			if len(got) != len(tt.ok) {
				t.Fatalf("vaultChecks() = %+v, want %d checks", got, len(tt.ok))
			}
			for i, c := range got {
				if c.OK != tt.ok[i] {
					t.Errorf("vaultChecks()[%d] %q ok = %v, want %v (%s)", i, c.Name, c.OK, tt.ok[i], c.Detail)
				}
			}
		})
	}
}

// The dialog checks must fail when the decision that reached the queue is
// not exactly what the page's keys should have produced, whatever the page
// reported.
func TestSelfTestDialogChecks(t *testing.T) {
	fillRows := []string{"r5", "r1", "r4", "r3"} // order does not matter
	tests := []struct {
		name string
		// answer answers the confirmation of kind shown with id; nil
		// leaves it to time out.
		answer map[string]func(id string) Decision
		ok     []bool // fill, continue, learn, pair, timeout
	}{
		{"nothing asked", nil, []bool{false, false, false, false, false}},
		{"as the page answers", map[string]func(string) Decision{
			selfTestAskFill:     func(id string) Decision { return Decision{ID: id, Approve: true, Rows: fillRows} },
			selfTestAskContinue: func(id string) Decision { return Decision{ID: id} },
			selfTestAskLearn:    func(id string) Decision { return Decision{ID: id, Approve: true, Rows: []string{"r1"}} },
			selfTestAskPair:     func(id string) Decision { return Decision{ID: id, Approve: true} },
			selfTestAskTimeout:  nil,
		}, []bool{true, true, true, true, true}},
		// A pairing dialog whose Pair did not reach the app as an approval.
		{"pairing declined", map[string]func(string) Decision{
			selfTestAskPair: func(id string) Decision { return Decision{ID: id} },
		}, []bool{false, false, false, false, false}},
		// A dialog that ignored the Space on the toggled row.
		{"defaults approved", map[string]func(string) Decision{
			selfTestAskFill: func(id string) Decision {
				return Decision{ID: id, Approve: true, Rows: []string{"r1", "r2", "r3", "r4", "r5"}}
			},
		}, []bool{false, false, false, false, false}},
		// A dialog that sent every row, the attention rows too.
		{"every row approved", map[string]func(string) Decision{
			selfTestAskFill: func(id string) Decision {
				return Decision{ID: id, Approve: true, Rows: append(slices.Clone(fillRows), "r7", "r8")}
			},
		}, []bool{false, false, false, false, false}},
		{"remember sent with the fill", map[string]func(string) Decision{
			selfTestAskFill: func(id string) Decision { return Decision{ID: id, Approve: true, Rows: fillRows, Remember: true} },
		}, []bool{false, false, false, false, false}},
		// Escape approved instead of denying.
		{"continuation approved", map[string]func(string) Decision{
			selfTestAskContinue: func(id string) Decision { return Decision{ID: id, Approve: true, Rows: []string{"r1", "r2"}} },
		}, []bool{false, false, false, false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := New(Config{})
			if err != nil {
				t.Fatal(err)
			}
			// The window stands in: it shows dialogs and leaves the answers
			// to the test.
			a.SetPresenter(silentPresenter{})
			u := newUI(a)
			st := newSelfTest(a, u, ui.NewWindow(u), windowConfig{})
			for _, kind := range []string{selfTestAskFill, selfTestAskContinue, selfTestAskLearn, selfTestAskPair, selfTestAskTimeout} {
				answer, asked := tt.answer[kind]
				if !asked {
					continue
				}
				if err := st.ask(kind); err != nil {
					t.Fatal(err)
				}
				c, ok := a.confirms.Current()
				if !ok {
					t.Fatalf("%s not queued", kind)
				}
				if answer == nil {
					continue
				}
				if err := a.confirms.Decide(answer(c.ID)); err != nil {
					t.Fatal(err)
				}
			}
			got := st.dialogChecks(10 * time.Second)
			if len(got) != len(tt.ok) {
				t.Fatalf("dialogChecks() = %+v, want %d checks", got, len(tt.ok))
			}
			for i, c := range got {
				if c.OK != tt.ok[i] {
					t.Errorf("dialogChecks()[%d] %q ok = %v, want %v (%s)", i, c.Name, c.OK, tt.ok[i], c.Detail)
				}
			}
		})
	}
}

// silentPresenter shows nothing and answers nothing.
type silentPresenter struct{}

func (silentPresenter) Present(Confirmation) {}
func (silentPresenter) Withdraw(string)      {}
func (silentPresenter) ShowUnlock()          {}
