package cli

import (
	"context"
	"errors"
)

// ProtocolVersion is temporary until nativemsg lands.
const ProtocolVersion = 1

func hostCaller(args []string) (string, bool) { return "", false }

func runHost(ctx context.Context, env *Env, origin string) error {
	return errors.New("host: not implemented yet")
}

func runInstall(ctx context.Context, env *Env, args []string) error {
	return errors.New("install: not implemented yet")
}

func runUninstall(ctx context.Context, env *Env, args []string) error {
	return errors.New("uninstall: not implemented yet")
}
