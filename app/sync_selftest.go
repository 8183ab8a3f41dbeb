//go:build selftest

package app

import (
	"errors"

	"github.com/tessera-app/tessera/devsync"
)

// SeedSyncJoin has a new device ask to join through the folder sync set
// up by SeedSync, and reveal its half of the code, as it does while its
// Settings card is shown: the card here then lists the request with its
// code, to approve or decline.
func (s *SelfTest) SeedSyncJoin() error {
	sy := s.st.app.syncing.running()
	if sy == nil {
		return errSyncOff
	}
	req, err := devsync.RequestJoin(devsync.DirFS(sy.Status().Folder))
	if err != nil {
		return err
	}
	if _, err := sy.PendingJoins(); err != nil {
		return err
	}
	if _, err := req.Code(); err != nil {
		return errors.Join(errors.New("the new device has no code"), err)
	}
	return nil
}
