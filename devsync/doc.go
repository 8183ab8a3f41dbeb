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
//     deletes its older files;
//   - its roster file, NAME.tsr: the signed membership entries it holds,
//     its own and the others' (see below).
//
// NAME is a keyed hash of the device id, so a name says which files come
// from the same device but not which device. The group file
// (tessera-sync.age) holds, wrapped with age scrypt under the recovery
// passphrase of the vault that set the folder up (or last changed it), the
// group's root key and its recovery identity: a second device joins by
// typing that passphrase.
//
// Every frame is sealed with XChaCha20-Poly1305 under the key of an epoch
// (named, by a keyed hash, in the frame's header), padded to a multiple of
// 256 bytes, and carries inside the seal its writer's ed25519 signature.
// What cannot be hidden from someone who sees the folder: how many devices
// write to it, when each wrote, roughly how many batches and how much data
// each wrote (to the nearest 256 bytes per batch), when each compacted,
// and when the epoch changed (a device was removed or the recovery
// passphrase changed).
//
// # Who is a member
//
// Each device has keys of its own, sealed in its vault with the rest of
// its sync state and never in the folder: an ed25519 key that signs every
// frame it writes, and an age X25519 identity that epoch keys are sealed
// to. The roster entries are:
//
//   - join: a device's public keys, with a MAC under the current epoch key
//     proving it holds that key: only a member, a device a member approved
//     (which hands it the keys) or a holder of the recovery passphrase
//     does;
//   - rotate: a member removes devices, naming for each the last of its
//     records and roster entries it had read, and starts the next epoch:
//     a new random key, sealed to each remaining member's identity and to
//     the recovery identity, and to nobody else.
//
// Roster frames are sealed under the first epoch key (derived from the
// root key), so every device that ever joined reads all of them and
// evaluates them the same way; it is a function of the set of entries,
// not of the order they arrived in. Entries count in HLC order and only in
// the epoch they were made in; when two members rotate at once, the
// earlier rotation counts and the other member rotates again; entries of a
// removed device after what its remover had read are ignored even when it
// sets its clock back.
//
// A record counts only when it carries the signature of the device it
// names, a member or a removed device. Of a removed device, every device
// applies the same records: those up to the most any member had read of it
// before learning of the removal (a member's own records and snapshots
// show how much that was), never one made after every member knew. The
// removed device cannot open the new epoch key, so it cannot read what is
// written after its removal; what it writes with the keys it still holds
// is ignored; a device id it makes up and joins in an old epoch is not a
// member of the current one. Members write a snapshot under the new key
// when the epoch changes, so what each of them had read reaches the
// others.
//
// What the recovery passphrase can do: it unwraps the recovery identity,
// to which every epoch key is sealed, so whoever knows it can join at any
// time, read everything and remove devices; a removed device that knows
// it can therefore rejoin as a new device. Changing the recovery
// passphrase (Syncer.SetPassphrase) writes a new recovery identity in the
// group file and starts a new epoch sealed to it, not to the old one:
// after removing a device that knew the passphrase, change it. A device
// that joins at the very moment another is removed may be left out of the
// new epoch: it says it is no longer a member and joins again.
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
//     time of its last change, records waiting, removed and how many of
//     its later records were ignored; the epoch; whether this device was
//     removed; problems in words; the last error; conflicts), s.SyncNow(ctx)
//     for "Sync now", s.RemoveDevice(ctx, id), s.Disable() (this device
//     leaves the group, as if removed), and
//     s.SetPassphrase(p) after the recovery passphrase changed;
//   - joining by approval: on the new device RequestJoin(DirFS(folder)),
//     then req.Code() shown until req.Secret() succeeds, then
//     SetupWithSecret (req.Cancel to give up; ErrDeclined when refused); on
//     a device already in s.PendingJoins() and, once the person confirms
//     the codes match, s.ApproveJoin(id, code), or s.DeclineJoin(id). The
//     approving device hands over the root key and every epoch key, not
//     the recovery identity;
//   - the editor: a conflict is a key with a current value and candidates
//     (vault.Candidates); settling it is an ordinary vault edit
//     (vault.PromoteCandidate, SetEntry...) that the next SyncNow sends;
//   - site rules ("remember for this site") travel with their profile as
//     keys "site:ORIGIN"; the vault holds one per origin, the latest choice
//     when devices chose different profiles at once, and forgetting or
//     changing an origin's rule replaces every value of it seen.
//
// The CLI's "tessera sync setup|status|now|remove-device|request|pending|
// approve|decline" do the same without the app.
//
// A folder set up by a development build from before devices had keys of
// their own (never released) is refused with ErrOldFolder: empty it and
// set sync up again.
package devsync
