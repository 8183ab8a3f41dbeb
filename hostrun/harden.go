package hostrun

// The app and the host hold profile values in memory (the app the vault's
// keys as well), so both keep other processes of the same user out of
// their memory, in one place here: no core file is ever written
// (NoCoreDumps: RLIMIT_CORE 0, Unix), and on Linux the process is
// non-dumpable (HideMemory: PR_SET_DUMPABLE 0): other processes of the
// user can neither ptrace it nor read its /proc/<pid>/mem, environ or exe,
// which the kernel then gives to root. macOS denies debuggers
// (PT_DENY_ATTACH). Windows writes no core files; its process DACL already
// keeps other users out.
//
// A non-dumpable process's executable is hidden from its own user too, so
// the host becomes non-dumpable only once the app has verified it
// (nativemsg.HostConfig.Answered), and the host verifies a non-dumpable
// app by what Linux still shows of it (nativemsg.VerifyApp, PROTOCOL.md
// §2.1).
