//go:build selftest

package app

import (
	"testing"

	"github.com/tessera-app/tessera/app/ui"
)

// The Settings step's Go-side check must fail when the page's Forget did
// not reach the vault, or forgot more than the one site.
func TestSelfTestSettingsChecks(t *testing.T) {
	tests := []struct {
		name   string
		forget []string
		ok     bool
	}{
		{"as the page leaves it", []string{selfTestForgetOrigin}, true},
		{"nothing forgotten", nil, false},
		{"both forgotten", []string{selfTestForgetOrigin, selfTestKeepOrigin}, false},
		{"the wrong one forgotten", []string{selfTestKeepOrigin}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, u, _, _ := editorApp(t, "")
			if _, err := u.RenameProfile(mustProfileID(t, u, "Home"), selfTestEditRenamed); err != nil {
				t.Fatal(err)
			}
			st := newSelfTest(a, u, ui.NewWindow(u), windowConfig{})
			if err := st.rememberSites(selfTestEditRenamed); err != nil {
				t.Fatal(err)
			}
			for _, o := range tt.forget {
				if err := u.ForgetSite(o); err != nil {
					t.Fatal(err)
				}
			}
			got := st.settingsChecks()
			if len(got) != 2 || got[0].OK != tt.ok {
				t.Errorf("settingsChecks() = %+v, want the sites check ok=%v", got, tt.ok)
			}
		})
	}
}

// The auto-lock check fails unless the page's choice reached the app and
// the preferences file.
func TestSelfTestAutoLockCheck(t *testing.T) {
	for _, tt := range []struct {
		name   string
		minute int
		ok     bool
	}{{"as the page leaves it", selfTestAutoLock, true}, {"another time", 15, false}, {"never set", -1, false}} {
		t.Run(tt.name, func(t *testing.T) {
			a, u, _, _ := editorApp(t, t.TempDir())
			if tt.minute >= 0 {
				if _, err := u.SetAutoLock(tt.minute); err != nil {
					t.Fatal(err)
				}
			}
			st := newSelfTest(a, u, ui.NewWindow(u), windowConfig{})
			got := st.settingsChecks()
			if len(got) != 2 || got[1].OK != tt.ok {
				t.Errorf("settingsChecks() = %+v, want the auto-lock check ok=%v", got, tt.ok)
			}
		})
	}
}

func mustProfileID(t *testing.T, u *ui.UI, label string) string {
	t.Helper()
	ps, err := u.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Label == label {
			return p.ID
		}
	}
	t.Fatalf("no profile %q in %+v", label, ps)
	return ""
}
