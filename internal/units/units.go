// Package units reads numbers as people type them on a command line or
// in a metric's name: counts with SI suffixes (8e6, 1.5k, 8M), times
// (1.5, 1.5s, 600ms, 2m) and amounts of bytes (1MiB, 500KB, 65536); its
// Value types hold a flag's number so read (Go's flag.Value).
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxSeconds bounds the times a command line gives (about 31 years).
const MaxSeconds = 1e9 * time.Second

// Errors of Finite and Count: a number that is not one (NaN), infinite,
// or written right but too large for any count (1e30).
var (
	ErrNaN      = errors.New("is not a number")
	ErrInfinite = errors.New("is not a finite number")
	ErrTooLarge = errors.New("too large")
	// ErrOutOfRange: a Number beyond ±MaxNumber.
	ErrOutOfRange = errors.New("out of range")
)

// SISuffix splits a number as typed into its digits and the multiplier
// of its suffix: k (or K) ×1e3, M ×1e6, G ×1e9, none ×1.
func SISuffix(s string) (string, float64) {
	t := strings.TrimSpace(s)
	if n := len(t); n > 1 {
		switch t[n-1] {
		case 'k', 'K':
			return t[:n-1], 1e3
		case 'M':
			return t[:n-1], 1e6
		case 'G':
			return t[:n-1], 1e9
		}
	}
	return t, 1
}

// Count reads an integer written as 1500, 8e6, 1.5k or 8M.
func Count(s string) (int64, error) {
	t, mult := SISuffix(s)
	if v, err := strconv.ParseInt(t, 10, 64); err == nil && mult == 1 {
		return v, nil
	}
	f, err := Finite(t)
	f *= mult
	switch {
	case errors.Is(err, ErrTooLarge) || err == nil && !(f >= -(1<<63) && f < 1<<63): // int64's range, exactly
		return 0, fmt.Errorf("%q: %w", s, ErrTooLarge)
	case err != nil || f != math.Trunc(f):
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return int64(f), nil
}

// Finite reads a finite real number as strconv.ParseFloat does. NaN is
// ErrNaN, Inf and -Inf (however spelled) ErrInfinite, a number too large
// for a float64 (1e999) ErrTooLarge; text that is no number at all is
// strconv's error.
func Finite(t string) (float64, error) {
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, ErrTooLarge
	case err != nil:
		return 0, err
	case math.IsNaN(v):
		return 0, ErrNaN
	case math.IsInf(v, 0):
		return 0, ErrInfinite
	}
	return v, nil
}

// Seconds reads a time in seconds (1.5), or a duration (1.5s, 600ms,
// 2m), within ±max, and positive when pos is set; in ns.
func Seconds(s string, max time.Duration, pos bool) (int64, error) {
	t := strings.TrimSpace(s)
	var d time.Duration
	v, err := Finite(t)
	switch {
	case errors.Is(err, ErrNaN) || errors.Is(err, ErrInfinite):
		return 0, fmt.Errorf("%q %v (want seconds, or a duration such as 1.5s or 600ms)", s, err)
	case errors.Is(err, ErrTooLarge) || err == nil && math.Abs(v) > max.Seconds():
		return 0, fmt.Errorf("%q is out of range (want at most %v)", s, max)
	case err == nil:
		d = time.Duration(math.Round(v * 1e9))
	default:
		if d, err = time.ParseDuration(t); err != nil {
			return 0, fmt.Errorf("%q is not a time (want seconds, or a duration such as 1.5s or 600ms)", s)
		}
	}
	if d > max || d < -max {
		return 0, fmt.Errorf("%q is out of range (want at most %v)", s, max)
	}
	if pos && d <= 0 {
		return 0, fmt.Errorf("%q: want a positive time", s)
	}
	return int64(d), nil
}

// Size reads a positive amount of bytes up to 1 PiB: 1MiB, 500KB,
// 64KiB, 1e6, 1.5MB (KB, MB, GB, TB and k, M, G are ×1000; KiB, MiB,
// GiB, TiB ×1024; a fraction of a unit that makes whole bytes).
func Size(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		f      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"kB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) && len(t) > len(u.suffix) {
			mult, t = u.f, strings.TrimSuffix(t, u.suffix)
			break
		}
	}
	v, err := Count(t)
	if err != nil {
		// A fraction of a unit that is whole bytes: 1.5MB, 0.5KiB.
		if f, ferr := strconv.ParseFloat(t, 64); ferr == nil && f > 0 && f*float64(mult) <= maxSize && f*float64(mult) == math.Trunc(f*float64(mult)) {
			return int64(f * float64(mult)), nil
		}
	}
	switch {
	case err == nil && v > 0 && v <= maxSize/mult:
		return v * mult, nil
	case err == nil && v > 0 || errors.Is(err, ErrTooLarge) && !strings.HasPrefix(t, "-"):
		// The columns' names and the transfers' times are of sizes
		// a capture can hold (found by a tester: the message did not
		// say the bound).
		return 0, fmt.Errorf("%q is more than 1 PiB (want a positive size such as 1MiB, 1.5MB, 500KB or 65536)", s)
	}
	return 0, fmt.Errorf("%q is not an amount of bytes (want a positive whole number of bytes such as 1MiB, 1.5MB, 500KB or 65536)", s)
}

// maxSize bounds a Size: 1 PiB.
const maxSize = 1 << 50
