package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/vault"
)

// runSync is `tessera sync setup|status|now|remove-device`: the vault kept
// in step with the person's other devices through a folder their own sync
// tool carries (see package devsync). Each command opens and unlocks the
// vault itself, so the app must not be running.
func runSync(ctx context.Context, env *Env, args []string) error {
	return dispatch(ctx, env, "sync", syncUsage, map[string]runFunc{
		"setup":         syncSetup,
		"status":        syncStatus,
		"now":           syncNow,
		"remove-device": syncRemoveDevice,
		"request":       syncRequest,
		"pending":       syncPending,
		"approve":       syncApprove,
		"decline":       syncDecline,
	}, args)
}

func syncUsage(w io.Writer) {
	fmt.Fprint(w, `usage: tessera sync setup [--name NAME] [--group-passphrase-file FILE] FOLDER
       tessera sync status
       tessera sync now
       tessera sync remove-device DEVICE|NAME
       tessera sync request [--name NAME] [--wait DURATION] FOLDER
       tessera sync pending
       tessera sync approve REQUEST CODE
       tessera sync decline REQUEST
All take --passphrase-file FILE (- for stdin) to unlock the vault, and --json.
setup makes FOLDER (kept in step by Syncthing, Nextcloud, Dropbox...) this
vault's sync folder. The first device sets up the folder and its recovery
passphrase wraps the folder's key; every later device joins with that same
passphrase (--group-passphrase-file; by default the --passphrase-file one).
Instead of the passphrase, a new device may ask to join (request, which
prints a six-digit code and waits) and a device already in approve it
(pending lists requests and their codes; approve only the one whose code
the new device shows, decline any other). status reads the folder and says
what was read from each device and what is wrong; now syncs once.
remove-device starts a new epoch whose key the removed device cannot open;
if it knew the recovery passphrase, change that passphrase too. The Tessera
app must not be running.
`)
}

type syncCmd struct {
	cliFlags
	fs   *flag.FlagSet
	args []string
}

func parseSyncCmd(env *Env, name, usage string, args []string, nargs int, extra func(fs *flag.FlagSet)) (*syncCmd, error) {
	c := &syncCmd{fs: newFlagSet(env, "sync "+name, usage)}
	c.register(c.fs)
	if extra != nil {
		extra(c.fs)
	}
	pos, err := parseInterspersed(c.fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: sync %s: %v", ErrUsage, name, err)
	}
	if len(pos) != nargs {
		c.fs.Usage()
		return nil, fmt.Errorf("%w: sync %s: wrong number of arguments", ErrUsage, name)
	}
	c.args = pos
	return c, nil
}

func (c *syncCmd) open(env *Env) (*vault.Vault, error) {
	return openUnlocked(env, c.passphraseFile)
}

func syncSetup(ctx context.Context, env *Env, args []string) error {
	var name, groupPass string
	host, _ := os.Hostname()
	c, err := parseSyncCmd(env, "setup", "tessera sync setup [--name NAME] [--group-passphrase-file FILE] FOLDER", args, 1, func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", host, "the name the other devices show for this one")
		fs.StringVar(&groupPass, "group-passphrase-file", "", "read the recovery passphrase of the vault that set up the folder from `FILE` (- for stdin)")
	})
	if err != nil {
		return helpOK(err)
	}
	if groupPass == "" {
		groupPass = c.passphraseFile
	}
	if groupPass == "" {
		return fmt.Errorf("%w: sync setup: needs the recovery passphrase: --group-passphrase-file or --passphrase-file", ErrUsage)
	}
	folder, err := filepath.Abs(c.args[0])
	if err != nil {
		return err
	}
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		return fmt.Errorf("sync setup: %s is not a folder", folder)
	}
	if app, err := dialApp(ctx, env); err == nil {
		// The running app holds the vault: it sets sync up, and syncs.
		defer app.Close()
		pass, err := readPassphrase(env, groupPass)
		if err != nil {
			return err
		}
		defer clear(pass)
		var st devsync.SyncStatus
		if err := app.call(ctx, "sync.setup", map[string]string{"folder": folder, "name": name, "passphrase": string(pass)}, &st); err != nil {
			return err
		}
		return printSyncStatus(env, c, st)
	} else if !errors.Is(err, errNoApp) {
		return err
	}
	var pass []byte
	if groupPass == c.passphraseFile && groupPass == "-" {
		// One stdin line serves both.
		if pass, err = readPassphrase(env, groupPass); err != nil {
			return err
		}
		defer clear(pass)
		c.passphraseFile = ""
		v, err := openVault(env, 0)
		if err != nil {
			return err
		}
		defer v.Close()
		if err := explainUnlock(v.UnlockPassphrase(pass)); err != nil {
			return err
		}
		return setupWith(ctx, env, c, v, folder, name, pass)
	}
	v, err := c.open(env)
	if err != nil {
		return err
	}
	defer v.Close()
	if pass, err = readPassphrase(env, groupPass); err != nil {
		return err
	}
	defer clear(pass)
	return setupWith(ctx, env, c, v, folder, name, pass)
}

func setupWith(ctx context.Context, env *Env, c *syncCmd, v *vault.Vault, folder, name string, pass []byte) error {
	// Tests lower the scrypt cost of the group file as they do the vault's.
	s, err := devsync.Setup(ctx, v, folder, name, pass, devsync.Options{WorkFactor: env.MinWorkFactor})
	if err != nil {
		return err
	}
	return printSyncStatus(env, c, s.Status())
}

// withSyncer runs f with the Syncer of the vault the command opens itself
// (the app not running), and closes the vault after.
func withSyncer(env *Env, c *syncCmd, f func(*devsync.Syncer) error) error {
	v, s, err := openSyncer(env, c)
	if err != nil {
		return err
	}
	defer v.Close()
	return f(s)
}

func openSyncer(env *Env, c *syncCmd) (*vault.Vault, *devsync.Syncer, error) {
	v, err := c.open(env)
	if err != nil {
		return nil, nil, err
	}
	s, err := devsync.Open(v, devsync.Options{})
	if errors.Is(err, devsync.ErrNotEnabled) {
		v.Close()
		return nil, nil, fmt.Errorf("%w: run `tessera sync setup FOLDER` first", err)
	}
	if err != nil {
		v.Close()
		return nil, nil, err
	}
	return v, s, nil
}

func syncStatus(ctx context.Context, env *Env, args []string) error {
	c, err := parseSyncCmd(env, "status", "tessera sync status", args, 0, nil)
	if err != nil {
		return helpOK(err)
	}
	return withApp(ctx, env, func(app *appClient) error {
		// The running app holds the vault and syncs it: ask it.
		var st devsync.SyncStatus
		if err := app.call(ctx, "sync.status", struct{}{}, &st); err != nil {
			return err
		}
		return printSyncStatus(env, c, st)
	}, func() error {
		return withSyncer(env, c, func(s *devsync.Syncer) error {
			if err := s.Refresh(); err != nil {
				return err
			}
			return printSyncStatus(env, c, s.Status())
		})
	})
}

func syncNow(ctx context.Context, env *Env, args []string) error {
	c, err := parseSyncCmd(env, "now", "tessera sync now", args, 0, nil)
	if err != nil {
		return helpOK(err)
	}
	report := func(res devsync.Result, st devsync.SyncStatus) error {
		if !c.json {
			fmt.Fprintf(env.Stdout, "sent %d changes, wrote %d profiles from the folder\n", res.Sent, res.Received)
		}
		return printSyncStatus(env, c, st)
	}
	return withApp(ctx, env, func(app *appClient) error {
		var out struct {
			devsync.Result
			Status devsync.SyncStatus `json:"status"`
		}
		if err := app.call(ctx, "sync.now", struct{}{}, &out); err != nil {
			return err
		}
		return report(out.Result, out.Status)
	}, func() error {
		return withSyncer(env, c, func(s *devsync.Syncer) error {
			res, err := s.SyncNow(ctx)
			if err != nil {
				return err
			}
			return report(res, s.Status())
		})
	})
}

func syncRemoveDevice(ctx context.Context, env *Env, args []string) error {
	c, err := parseSyncCmd(env, "remove-device", "tessera sync remove-device DEVICE|NAME", args, 1, nil)
	if err != nil {
		return helpOK(err)
	}
	return withSyncer(env, c, func(s *devsync.Syncer) error {
		dev := c.args[0]
		var named []string
		for _, d := range s.Status().Devices {
			if d.Name == dev && !d.Self && !d.Removed {
				named = append(named, d.Device)
			}
		}
		switch len(named) {
		case 1:
			dev = named[0]
		case 0:
		default:
			return fmt.Errorf("remove device: %d devices are named %q: give its id (tessera sync status)", len(named), dev)
		}
		if err := s.RemoveDevice(ctx, dev); err != nil {
			return err
		}
		return printSyncStatus(env, c, s.Status())
	})
}

func printSyncStatus(env *Env, c *syncCmd, st devsync.SyncStatus) error {
	if c.json {
		return jsonOut(env.Stdout, st)
	}
	w := env.Stdout
	fmt.Fprintf(w, "folder %s\n", st.Folder)
	for _, d := range st.Devices {
		name := d.Name
		if d.Self {
			name += " (this device)"
		}
		last := "never"
		if !d.LastChange.IsZero() {
			last = d.LastChange.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "  %s %-24s read up to batch %d, last change %s", d.Device, name, d.Seq, last)
		if d.Waiting > 0 {
			fmt.Fprintf(w, ", %d waiting", d.Waiting)
		}
		if d.Removed {
			fmt.Fprint(w, ", removed")
			if d.Ignored > 0 {
				fmt.Fprintf(w, " (%d later batches ignored)", d.Ignored)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "epoch %d\n", st.Epoch)
	for _, p := range st.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	if st.LastError != "" {
		fmt.Fprintf(w, "last sync failed: %s\n", st.LastError)
	}
	for _, k := range st.Conflicts {
		fmt.Fprintf(w, "conflict: profile %s, %s: %d values to choose from\n", k.Profile, k.Key, k.Values)
	}
	return nil
}

func syncRequest(ctx context.Context, env *Env, args []string) error {
	var name string
	var wait time.Duration
	host, _ := os.Hostname()
	c, err := parseSyncCmd(env, "request", "tessera sync request [--name NAME] [--wait DURATION] FOLDER", args, 1, func(fs *flag.FlagSet) {
		fs.StringVar(&name, "name", host, "the name the other devices show for this one")
		fs.DurationVar(&wait, "wait", 10*time.Minute, "how long to wait for the approval")
	})
	if err != nil {
		return helpOK(err)
	}
	folder, err := filepath.Abs(c.args[0])
	if err != nil {
		return err
	}
	v, err := c.open(env)
	if err != nil {
		return err
	}
	defer v.Close()
	req, err := devsync.RequestJoin(devsync.DirFS(folder))
	if err != nil {
		return err
	}
	// Approved, declined or given up: the request's files go.
	defer req.Cancel()
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	shown := false
	for {
		if !shown {
			if code, err := req.Code(); err == nil {
				fmt.Fprintf(env.Stdout, "code %s: on a device already in, check it shows this code, then run\n  tessera sync approve %s %s\n", code, req.ID, code)
				shown = true
			} else if !errors.Is(err, devsync.ErrPending) {
				return err
			}
		}
		if shown {
			secret, err := req.Secret()
			if err == nil {
				s, err := devsync.SetupWithSecret(ctx, v, folder, name, secret, devsync.Options{})
				if err != nil {
					return err
				}
				return printSyncStatus(env, c, s.Status())
			}
			if !errors.Is(err, devsync.ErrPending) {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sync request: no approval within %v", wait)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func syncPending(ctx context.Context, env *Env, args []string) error {
	c, err := parseSyncCmd(env, "pending", "tessera sync pending", args, 0, nil)
	if err != nil {
		return helpOK(err)
	}
	return withSyncer(env, c, func(s *devsync.Syncer) error {
		p, err := s.PendingJoins()
		if err != nil {
			return err
		}
		if c.json {
			return jsonOut(env.Stdout, p)
		}
		for _, r := range p {
			code := r.Code
			if code == "" {
				code = "(waiting for the new device)"
			}
			fmt.Fprintf(env.Stdout, "%s code %s\n", r.ID, code)
		}
		return nil
	})
}

func syncDecline(ctx context.Context, env *Env, args []string) error {
	c, err := parseSyncCmd(env, "decline", "tessera sync decline REQUEST", args, 1, nil)
	if err != nil {
		return helpOK(err)
	}
	return withSyncer(env, c, func(s *devsync.Syncer) error {
		if err := s.DeclineJoin(c.args[0]); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "declined %s\n", c.args[0])
		return nil
	})
}

func syncApprove(ctx context.Context, env *Env, args []string) error {
	c, err := parseSyncCmd(env, "approve", "tessera sync approve REQUEST CODE", args, 2, nil)
	if err != nil {
		return helpOK(err)
	}
	return withSyncer(env, c, func(s *devsync.Syncer) error {
		if err := s.ApproveJoin(c.args[0], c.args[1]); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "approved %s\n", c.args[0])
		return nil
	})
}
