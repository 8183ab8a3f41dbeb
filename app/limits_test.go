//go:build linux

package app

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/nativemsg"
)

const statusMsg = `{"jsonrpc":"2.0","id":"st","method":"vault.status","params":{}}`

// A peer that starts a frame and stalls loses its connection after the
// frame timeout instead of holding it (and its buffer) forever.
func TestStalledHalfFrameDropped(t *testing.T) {
	_, dial := serve(t, Config{Vault: fixedVault("unlocked"), FrameTimeout: 200 * time.Millisecond})
	c := dial()
	helloAnswer(t, c, "cli")
	var hdr [4]byte
	binary.NativeEndian.PutUint32(hdr[:], 1000)
	c.Write(append(hdr[:], `{"jsonrpc"`...))
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("read after a stalled half frame = %v, want the app to close (EOF)", err)
	}
}

// A peer that sends requests and never reads the answers is cut off: the
// app does not keep answers it cannot deliver.
func TestNonReaderCutOff(t *testing.T) {
	_, dial := serve(t, Config{Vault: fixedVault("unlocked"), WriteTimeout: 200 * time.Millisecond})
	c := dial()
	helloAnswer(t, c, "cli")
	payload := strings.Repeat("x", 1<<20)
	for i := 0; i < 40; i++ {
		msg := `{"jsonrpc":"2.0","id":"p` + strconv.Itoa(i) + `","method":"session.ping","params":{"payload":"` + payload + `"}}`
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if nativemsg.WriteFrameLimit(c, []byte(msg), nativemsg.MaxIncoming) != nil {
			break // the app already closed
		}
	}
	time.Sleep(500 * time.Millisecond) // past the write timeout
	n := 0
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		if _, err := nativemsg.ReadFrame(c, 4<<20); err != nil {
			break
		}
		n++
	}
	if n >= 40 {
		t.Fatalf("all %d answers delivered to a peer that stopped reading; want the connection cut", n)
	}
}

// Hundreds of connections from a program that is not Tessera, each stalled
// before its hello, do not keep the person's own CLI from being served.
func TestStrangersDoNotCrowdOut(t *testing.T) {
	if os.Getenv("TESSERA_STRANGER_DIR") != "" {
		return
	}
	a, dial := serve(t, Config{Vault: fixedVault("unlocked")})
	cp := copyOfTestBinary(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, cp, "-test.run=^TestStrangerConnections$")
	cmd.Env = append(os.Environ(), "TESSERA_STRANGER_DIR="+a.cfg.SocketDir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
	}()
	// The child says "ready" once its 300 connections are open.
	buf := make([]byte, 4096)
	got := ""
	for !strings.Contains(got, "ready") {
		n, err := out.Read(buf)
		if err != nil {
			t.Fatalf("stranger: %v (%q)", err, got)
		}
		got += string(buf[:n])
	}
	c := dial()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if r := helloAnswer(t, c, "cli"); !r.Verified {
		t.Fatalf("own CLI hello = %+v", r)
	}
	send(t, c, statusMsg)
	if m := recv(t, c); m["result"] == nil {
		t.Fatalf("vault.status = %v", m)
	}
	if strangers := a.broker.Strangers(); strangers > broker.MaxStrangers {
		t.Fatalf("%d stranger connections served, cap %d", strangers, broker.MaxStrangers)
	}
}

// TestStrangerConnections runs only as TestStrangersDoNotCrowdOut's child:
// 300 connections, each with half a frame, held open.
func TestStrangerConnections(t *testing.T) {
	dir := os.Getenv("TESSERA_STRANGER_DIR")
	if dir == "" {
		t.Skip("only run by TestStrangersDoNotCrowdOut")
	}
	var cs []net.Conn
	for i := 0; i < 300; i++ {
		c, err := nativemsg.Dial(context.Background(), dir)
		if err != nil {
			continue
		}
		c.Write([]byte{0xff, 0xff})
		cs = append(cs, c)
	}
	os.Stdout.WriteString("ready\n")
	time.Sleep(30 * time.Second)
}

// Running out of file descriptors makes accept fail for a while; the
// broker waits and serves again instead of stopping.
func TestSurvivesDescriptorExhaustion(t *testing.T) {
	a, _ := serve(t, Config{Vault: fixedVault("unlocked")})
	dir := a.cfg.SocketDir
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	low := old
	low.Cur = uint64(len(fds) + 20)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("cannot lower the descriptor limit: %v", err)
	}
	var held []net.Conn
	for i := 0; i < 40; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := nativemsg.Dial(ctx, dir)
		cancel()
		if err != nil {
			break
		}
		held = append(held, c)
	}
	time.Sleep(200 * time.Millisecond) // let accept meet EMFILE
	for _, c := range held {
		c.Close()
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	var c net.Conn
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		cc, err := nativemsg.Dial(ctx, dir)
		cancel()
		if err == nil {
			c = cc
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the broker no longer accepts after descriptor exhaustion: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if r := helloAnswer(t, c, "cli"); !r.Verified {
		t.Fatalf("hello after exhaustion = %+v", r)
	}
}
