package units

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// MaxNumber bounds a Number (its error says 1e18).
const MaxNumber = 1e18

// Number reads a real number as typed: 1500, 2.5, 1.5k, 8M, 2G (×1000),
// within ±MaxNumber.
func Number(s string) (float64, error) {
	t, mult := SISuffix(s)
	v, err := Finite(t)
	v *= mult
	switch {
	case errors.Is(err, ErrInfinite):
		return 0, fmt.Errorf("%q %v (want 1500, 2.5, 1.5k or 8M)", s, err)
	case errors.Is(err, ErrTooLarge) || err == nil && math.Abs(v) > MaxNumber:
		return 0, fmt.Errorf("%q is %w (want -1e18 to 1e18)", s, ErrOutOfRange)
	case err != nil:
		return 0, fmt.Errorf("%q is not a number (want 1500, 2.5, 1.5k or 8M)", s)
	}
	return v, nil
}

// Window reads an averaging window: a time (1s, 200ms, or seconds, 1µs
// to an hour) as ns, or a multiple of the connection's median round-trip
// time (rtt, 4rtt; up to 1000) as rtts.
func Window(s string) (ns int64, rtts float64, err error) {
	t := strings.TrimSpace(s)
	if k, ok := strings.CutSuffix(t, "rtt"); ok {
		if k == "" {
			return 0, 1, nil
		}
		v, err := Finite(k)
		if errors.Is(err, ErrNaN) || errors.Is(err, ErrInfinite) {
			return 0, 0, fmt.Errorf("%q: %s %v (want a positive multiple of the RTT up to 1000: rtt, 4rtt)", s, k, err)
		}
		if err != nil || !(v > 0) || v > 1000 {
			return 0, 0, fmt.Errorf("%q: want a positive multiple of the RTT up to 1000 (rtt, 4rtt)", s)
		}
		return 0, v, nil
	}
	ns, err = Seconds(t, time.Hour, true)
	if err != nil {
		return 0, 0, fmt.Errorf("%w, or a multiple of the median RTT (rtt, 4rtt)", err)
	}
	if ns < int64(time.Microsecond) {
		// Shorter than one packet's time on the wire at 10 Gbit/s: every
		// window would hold one packet or none.
		return 0, 0, fmt.Errorf("%q is shorter than the shortest window, 1µs", s)
	}
	return ns, 0, nil
}
