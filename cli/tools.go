package cli

import (
	"context"
	"errors"
)

func runTools(ctx context.Context, env *Env, args []string) error {
	return errors.New("tools: not implemented yet")
}
