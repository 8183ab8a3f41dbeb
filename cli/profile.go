package cli

import (
	"context"
	"errors"
)

func runProfile(ctx context.Context, env *Env, args []string) error {
	return errors.New("profile: not implemented yet")
}
