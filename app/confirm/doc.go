// Package confirm owns the person's decisions: the dialog contract (a
// Confirmation, its Rows, the Decision that answers it), the queue that
// shows one dialog at a time in the app's window and declines on timeout,
// and the release gate, Gate.Release — the one way a profile value leaves
// the vault. The gate refuses a recipient that is not a verified browser
// session that proved a paired key, names who asks and who receives in the
// dialog and in the audit log, and hands out what the person approved as
// Values, which no other package can make.
package confirm
