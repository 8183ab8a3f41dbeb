package cli

import (
	"context"
	"errors"
)

func runVault(ctx context.Context, env *Env, args []string) error {
	return errors.New("vault: not implemented yet")
}
