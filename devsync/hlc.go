package devsync

import "time"

// An HLC is a hybrid logical clock reading: milliseconds since the Unix
// epoch in the high 48 bits, a counter in the low 16. Readings of one
// device only grow, and a device that has read a reading never issues a
// smaller one, so causally later changes always have larger HLCs even
// when wall clocks disagree by hours.
type HLC uint64

const hlcLogicalBits = 16

// Wall returns the wall-clock part of h.
func (h HLC) Wall() time.Time {
	return time.UnixMilli(int64(h >> hlcLogicalBits)).UTC()
}

// A Clock tells the time; tests pass clocks that are wrong on purpose.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// tick returns the next reading after last at wall time now.
func tick(last HLC, now time.Time) HLC {
	w := HLC(now.UnixMilli()) << hlcLogicalBits
	if w > last {
		return w
	}
	return last + 1
}
