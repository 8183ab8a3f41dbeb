// Package syncthingtest starts real Syncthing instances for tests: on
// 127.0.0.1 only, with discovery, relays, NAT traversal, reporting and
// upgrades off, each sharing a folder with the others, and lets a test
// pause and resume the network between two of them.
package syncthingtest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An Instance is one Syncthing instance of a test: listening on
// 127.0.0.1 only, with global discovery, local discovery, relays, NAT
// traversal, usage and crash reporting and upgrades all off, sharing one
// folder with the test's other instances.
type Instance struct {
	// Folder is the folder it shares with the test's other instances.
	Folder      string
	home        string
	id          string
	listen, gui int
	apiKey      string
	cmd         *exec.Cmd
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Start starts n instances on 127.0.0.1, each sharing its own folder
// with all the others; they stop when the test ends. It skips the test
// when syncthing is not installed.
func Start(t testing.TB, n int) []*Instance {
	t.Helper()
	if _, err := exec.LookPath("syncthing"); err != nil {
		t.Skip("syncthing is not installed")
	}
	var sts []*Instance
	for i := range n {
		s := &Instance{home: t.TempDir(), Folder: t.TempDir(), listen: freePort(t), gui: freePort(t), apiKey: fmt.Sprintf("tessera-test-key-%d", i)}
		out, err := exec.Command("syncthing", "generate", "--home="+s.home, "--no-default-folder", "--skip-port-probing").CombinedOutput()
		if err != nil {
			t.Fatalf("syncthing generate: %v\n%s", err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if id, ok := strings.CutPrefix(strings.TrimSpace(l), "Device ID: "); ok {
				s.id = id
			}
		}
		if s.id == "" {
			t.Fatalf("syncthing generate printed no device id:\n%s", out)
		}
		os.Mkdir(filepath.Join(s.Folder, ".stfolder"), 0o700)
		sts = append(sts, s)
	}
	for _, s := range sts {
		var devs, folderDevs strings.Builder
		for j, o := range sts {
			addr := fmt.Sprintf("tcp://127.0.0.1:%d", o.listen)
			fmt.Fprintf(&devs, `<device id="%s" name="h%d" compression="metadata"><address>%s</address><paused>false</paused></device>`+"\n", o.id, j, addr)
			fmt.Fprintf(&folderDevs, `<device id="%s"></device>`, o.id)
		}
		cfg := fmt.Sprintf(`<configuration version="36">
<folder id="tessera" label="tessera" path="%s" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false">
%s<minDiskFree unit="%%">0</minDiskFree>
</folder>
%s<gui enabled="true" tls="false"><address>127.0.0.1:%d</address><apikey>%s</apikey></gui>
<options>
<listenAddress>tcp://127.0.0.1:%d</listenAddress>
<globalAnnounceServer></globalAnnounceServer>
<globalAnnounceEnabled>false</globalAnnounceEnabled>
<localAnnounceEnabled>false</localAnnounceEnabled>
<relaysEnabled>false</relaysEnabled>
<natEnabled>false</natEnabled>
<urAccepted>-1</urAccepted>
<crashReportingEnabled>false</crashReportingEnabled>
<autoUpgradeIntervalH>0</autoUpgradeIntervalH>
<startBrowser>false</startBrowser>
<reconnectionIntervalS>1</reconnectionIntervalS>
<stunKeepaliveStartS>0</stunKeepaliveStartS>
<stunServer></stunServer>
<announceLANAddresses>false</announceLANAddresses>
<minHomeDiskFree unit="%%">0</minHomeDiskFree>
</options>
</configuration>
`, s.Folder, folderDevs.String(), devs.String(), s.gui, s.apiKey, s.listen)
		if err := os.WriteFile(filepath.Join(s.home, "config.xml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		s.cmd = exec.Command("syncthing", "serve", "--home="+s.home, "--no-browser", "--no-restart", "--no-upgrade", "--logfile="+filepath.Join(s.home, "log.txt"))
		s.cmd.Env = append(os.Environ(), "STNOUPGRADE=1", "STNORESTART=1", "HOME="+s.home)
		if err := s.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		})
	}
	for _, s := range sts {
		deadline := time.Now().Add(30 * time.Second)
		for s.rest("GET", "/rest/system/ping") != nil {
			if time.Now().After(deadline) {
				log, _ := os.ReadFile(filepath.Join(s.home, "log.txt"))
				t.Fatalf("syncthing did not answer:\n%s", log)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return sts
}

func (s *Instance) rest(method, path string) error {
	req, _ := http.NewRequest(method, fmt.Sprintf("http://127.0.0.1:%d%s", s.gui, path), nil)
	req.Header.Set("X-API-Key", s.apiKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return nil
}

// Cut pauses (or resumes) the connection between a and b, on both sides.
func Cut(t testing.TB, a, b *Instance, pause bool) {
	t.Helper()
	verb := "/rest/system/resume?device="
	if pause {
		verb = "/rest/system/pause?device="
	}
	for _, p := range [][2]*Instance{{a, b}, {b, a}} {
		if err := p[0].rest("POST", verb+p[1].id); err != nil {
			t.Fatal(err)
		}
	}
}
