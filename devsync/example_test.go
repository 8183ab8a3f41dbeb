package devsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Two devices, each with its own vault, share one folder: the laptop sets
// sync up with its recovery passphrase, the desktop joins with the same
// passphrase, and each SyncNow brings the other's changes.
func Example() {
	ctx := context.Background()
	tmp, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(tmp)
	folder, _ := os.MkdirTemp(tmp, "sync")
	open := func(pass string) *vault.Vault {
		dir, _ := os.MkdirTemp(tmp, "vault")
		v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte(pass)})
		if err != nil {
			panic(err)
		}
		return v
	}
	laptop, desktop := open("laptop passphrase"), open("desktop passphrase")
	defer laptop.Close()
	defer desktop.Close()

	laptop.CreateProfile("home", "Home")
	laptop.SetEntry("home", vault.ConceptKey("https://schema.org/email"), profile.Entry{Value: json.RawMessage(`"ann@example.org"`)})

	opts := devsync.Options{WorkFactor: 10}
	ls, err := devsync.Setup(ctx, laptop, folder, "laptop", []byte("laptop passphrase"), opts)
	if err != nil {
		panic(err)
	}
	ds, err := devsync.Setup(ctx, desktop, folder, "desktop", []byte("laptop passphrase"), opts)
	if err != nil {
		panic(err)
	}
	e, _ := desktop.Entry("home", vault.ConceptKey("https://schema.org/email"))
	fmt.Println("desktop has", string(e.Value))

	// Both change the same detail before either syncs: both values stay.
	laptop.SetEntry("home", vault.ConceptKey("https://schema.org/email"), profile.Entry{Value: json.RawMessage(`"ann@laptop.example"`)})
	desktop.SetEntry("home", vault.ConceptKey("https://schema.org/email"), profile.Entry{Value: json.RawMessage(`"ann@desktop.example"`)})
	ls.SyncNow(ctx)
	ds.SyncNow(ctx)
	ls.SyncNow(ctx)
	for _, c := range ls.Status().Conflicts {
		fmt.Printf("conflict in %s: %d values\n", c.Profile, c.Values)
	}
	// Output:
	// desktop has "ann@example.org"
	// conflict in home: 2 values
}
