package cli

import (
	"context"
	"errors"
)

func runClassify(ctx context.Context, env *Env, args []string) error {
	return errors.New("classify: not implemented yet")
}
