// Package syncthingtest starts real Syncthing instances for tests: on
// 127.0.0.1 only, with discovery, relays, NAT traversal, reporting and
// upgrades off, each sharing a folder with the others, and lets a test
// pause and resume the network between two of them.
package syncthingtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// freePort returns a port on 127.0.0.1 that nothing listens on and that
// no other call in this process has returned. It is chosen below the
// kernel's ephemeral range: a port inside that range can be taken, between
// this check and Syncthing binding it, as the source port of any outgoing
// connection, and the instances already started connect to each other.
func freePort(t testing.TB) int {
	t.Helper()
	low := ephemeralLow()
	const floor = 10000
	portsMu.Lock()
	defer portsMu.Unlock()
	if low-floor >= 1000 {
		for range 200 {
			p := floor + rand.IntN(low-floor)
			if portsGiven[p] {
				continue
			}
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				continue
			}
			l.Close()
			portsGiven[p] = true
			return p
		}
	}
	// No room below the ephemeral range: let the kernel choose, and let
	// Start retry if the port is taken before Syncthing binds it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := l.Addr().(*net.TCPAddr).Port
	portsGiven[p] = true
	return p
}

// ephemeralLow is the first port of the kernel's ephemeral range (the
// usual 32768 where the kernel does not say).
func ephemeralLow() int {
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil {
				return v
			}
		}
	}
	return 32768
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

// errPortTaken is what Start retries: an instance could not bind a port
// chosen for it.
var errPortTaken = errors.New("a port was taken before syncthing bound it")

// Start starts n instances on 127.0.0.1, each sharing its own folder
// with all the others; they stop when the test ends. It skips the test
// when syncthing is not installed.
func Start(t testing.TB, n int) []*Instance {
	t.Helper()
	if _, err := exec.LookPath("syncthing"); err != nil {
		t.Skip("syncthing is not installed")
	}
	for attempt := 1; ; attempt++ {
		sts, err := start(t, n, freePort)
		if err == nil {
			return sts
		}
		if !errors.Is(err, errPortTaken) || attempt == 3 {
			t.Fatal(err)
		}
		t.Logf("attempt %d: %v; starting again on other ports", attempt, err)
	}
}

// start starts n instances once; on failure it stops those it started.
// port gives each port it binds (freePort, or a test's).
func start(t testing.TB, n int, port func(testing.TB) int) (sts []*Instance, err error) {
	t.Helper()
	defer func() {
		if err != nil {
			for _, s := range sts {
				s.stop()
			}
		}
	}()
	for i := range n {
		s := &Instance{home: t.TempDir(), Folder: t.TempDir(), listen: port(t), gui: port(t), apiKey: fmt.Sprintf("tessera-test-key-%d", i)}
		out, err := exec.Command("syncthing", "generate", "--home="+s.home, "--no-default-folder", "--skip-port-probing").CombinedOutput()
		if err != nil {
			return sts, fmt.Errorf("syncthing generate: %v\n%s", err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if id, ok := strings.CutPrefix(strings.TrimSpace(l), "Device ID: "); ok {
				s.id = id
			}
		}
		if s.id == "" {
			return sts, fmt.Errorf("syncthing generate printed no device id:\n%s", out)
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
			return sts, err
		}
		s.cmd = exec.Command("syncthing", "serve", "--home="+s.home, "--no-browser", "--no-restart", "--no-upgrade", "--logfile="+filepath.Join(s.home, "log.txt"))
		s.cmd.Env = append(os.Environ(), "STNOUPGRADE=1", "STNORESTART=1", "HOME="+s.home)
		if err := s.cmd.Start(); err != nil {
			s.cmd = nil
			return sts, err
		}
		t.Cleanup(s.stop)
	}
	for _, s := range sts {
		deadline := time.Now().Add(30 * time.Second)
		for s.rest("GET", "/rest/system/ping") != nil {
			log, taken := s.portTaken()
			if taken {
				return sts, fmt.Errorf("%w:\n%s", errPortTaken, log)
			}
			if time.Now().After(deadline) {
				return sts, fmt.Errorf("syncthing did not answer:\n%s", log)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// The BEP listeners too: a taken one is logged, not fatal to Syncthing.
	time.Sleep(200 * time.Millisecond)
	for _, s := range sts {
		if log, taken := s.portTaken(); taken {
			return sts, fmt.Errorf("%w:\n%s", errPortTaken, log)
		}
	}
	return sts, nil
}

// portTaken returns the instance's log and whether it says a port the
// instance was to listen on (GUI or BEP) is taken.
func (s *Instance) portTaken() (string, bool) {
	log, _ := os.ReadFile(filepath.Join(s.home, "log.txt"))
	return string(log), strings.Contains(string(log), "address already in use")
}

// stop kills the instance and waits for it; a second call does nothing.
func (s *Instance) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

func (s *Instance) rest(method, path string) error {
	req, _ := http.NewRequest(method, fmt.Sprintf("http://127.0.0.1:%d%s", s.gui, path), nil)
	req.Header.Set("X-API-Key", s.apiKey)
	resp, err := restClient.Do(req)
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

// restClient gives up on a request after 3 s: a port some other program
// holds may accept a connection and never answer.
var restClient = &http.Client{Timeout: 3 * time.Second}
