// Package devsync keeps the vaults of one person's devices in step through a
// folder their own file-sync tool (Syncthing, Nextcloud, Dropbox, a USB
// stick) carries between them. Tessera never talks to a server.
//
// # What is in the folder
//
// Each device writes only files of its own, so the sync tool never sees two
// writers of one file:
//
//   - a journal, NAME.EPOCH.tsj: append-only, one sealed record per batch of
//     the device's changes (profile created, renamed or deleted; value
//     added, changed, preferred or removed), each change stamped with a
//     hybrid logical clock (HLC) and a dot (device id, record sequence,
//     index) that names it forever;
//   - an occasional snapshot, NAME.EPOCH.tss: the device's whole merged state
//     at the moment it compacted, after which it starts journal EPOCH+1 and
//     deletes its older files.
//
// NAME is a keyed hash of the device id, so a name says which files come
// from the same device but not which device. The group file
// (tessera-sync.age) holds the group key wrapped with age scrypt under the
// vault's recovery passphrase: a second device joins by typing it.
//
// Every record is sealed with XChaCha20-Poly1305 under a key derived from
// the group key, which only devices of this vault hold, and padded to a
// multiple of 256 bytes. What cannot be hidden from someone who sees the
// folder: how many devices write to it, when each wrote, roughly how many
// batches and how much data each wrote (to the nearest 256 bytes per
// batch), and when each compacted.
//
// # Merge
//
// The state is an observed-remove CRDT over dots. Every change adds one
// element (a presence mark, a label, a value, a preference) under a new dot
// and removes, by listing their dots, exactly the elements the device had
// seen when it made the change. So:
//
//   - two devices changing the same detail at once both add a value and both
//     remove only the old one: both values stay. The preferred value is the
//     one with the highest time, where a value's time is the highest HLC of
//     its write and of any preference for it, ties broken by the higher
//     device id; the others are candidates, conflicts to settle in the editor;
//   - a removal, or a profile deletion, concurrent with an edit removes only
//     what it saw: the edit stays, and a deleted profile comes back with it;
//   - records are applied in causal order (each carries the sequence numbers
//     its device had read), so every device that has read the same records
//     holds the same state, whatever the order files arrived in.
//
// # What file sync does to files
//
// A file read while partly written is read up to its last whole record; the
// rest waits for the next round. Copies the sync tool makes
// ("….sync-conflict-…", "(conflicted copy)") are read like any other file:
// records name their own device and sequence inside the seal, and one
// already read is skipped. A journal that arrives before the snapshot it
// follows waits for it. Clocks wrong by hours only change which of two
// concurrent values is preferred, never whether one is kept. A folder
// restored from an old backup rolls nothing back: each device remembers the
// highest sequence it has read from every device and never applies less; a
// device whose own journal went back in time writes a snapshot again.
//
// # Using it
//
// A Syncer keeps one unlocked vault in step with its folder. The app:
//
//   - after each unlock: s, err := Open(v, Options{}) (ErrNotEnabled: sync
//     is off), then go s.Run(ctx, 30*time.Second), cancelling ctx and
//     calling s.Close() when the vault locks (the Syncer holds the merged
//     state, every value, in memory);
//   - Settings, "Sync folder": Setup(ctx, v, folder, deviceName,
//     passphrase, Options{}) creates the folder's group, or joins it when
//     the folder has one (then the passphrase is that of the vault that
//     created it; ErrBadPassphrase when it does not open it);
//   - Settings, state: s.Status() (per device: name, last batch read, the
//     time of its last change, records waiting; problems in words; the
//     last error; conflicts), s.SyncNow(ctx) for "Sync now",
//     s.RemoveDevice(ctx, id), s.Disable(), and s.SetPassphrase(p) after
//     the recovery passphrase changed;
//   - joining by approval: on the new device RequestJoin(DirFS(folder)),
//     then req.Code() shown until req.Secret() succeeds, then
//     SetupWithSecret; on a device already in s.PendingJoins() and, once
//     the person confirms the codes match, s.ApproveJoin(id, code);
//   - the editor: a conflict is a key with a current value and candidates
//     (vault.Candidates); settling it is an ordinary vault edit
//     (vault.PromoteCandidate, SetEntry...) that the next SyncNow sends.
//
// The CLI's "tessera sync setup|status|now|remove-device" do the same
// without the app.
package devsync
