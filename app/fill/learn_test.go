package fill

import (
	"fmt"
	"testing"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
)

// TestLearnConfirmationClaimsNoSubmit: a learn dialog not backed by the
// person's submit says so (Submitted false) and ticks nothing.
func TestLearnConfirmationClaimsNoSubmit(t *testing.T) {
	an := &Analysed{Origin: "https://shop.example", Site: "shop.example"}
	rows := []confirm.Row{{ID: "r1", Checked: true, Section: confirm.SectionFill}, {ID: "r2", Checked: true, Section: confirm.SectionFill}}
	s := broker.NewDetached(broker.Client{}, "", nil)
	for _, submitted := range []bool{true, false} {
		t.Run(fmt.Sprint("submitted=", submitted), func(t *testing.T) {
			c := learnConfirmation(an, s, "p1", nil, rows, submitted)
			if c.Submitted != submitted || c.Kind != confirm.ConfirmLearn || len(c.Rows) != 2 {
				t.Fatalf("learnConfirmation = %+v", c)
			}
			for _, r := range c.Rows {
				if r.Checked != submitted {
					t.Errorf("row %s checked = %v, want %v", r.ID, r.Checked, submitted)
				}
			}
		})
	}
	if !rows[0].Checked {
		t.Error("learnConfirmation changed its caller's rows")
	}
}
