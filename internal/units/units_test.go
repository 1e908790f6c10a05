package units

import (
	"strings"
	"testing"
	"time"
)

// TestAsTyped: counts, times and sizes as people type them, and what is
// refused.
func TestAsTyped(t *testing.T) {
	for in, want := range map[string]int64{"8e6": 8e6, "8M": 8e6, "1.5k": 1500, "12": 12, "-4": -4} {
		if got, err := Count(in); err != nil || got != want {
			t.Errorf("Count(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, want := range map[string]int64{"1.5": 1.5e9, "600ms": 6e8, "2m": 120e9} {
		if got, err := Seconds(in, MaxSeconds, true); err != nil || got != want {
			t.Errorf("Seconds(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, want := range map[string]int64{"1MiB": 1 << 20, "500KB": 500e3, "65536": 65536, "2k": 2000,
		"1.5MB": 1.5e6, "1.5MiB": 1.5 * (1 << 20), "0.5KiB": 512, "1TB": 1e12, "1TiB": 1 << 40, "1e15": 1e15} {
		if got, err := Size(in); err != nil || got != want {
			t.Errorf("Size(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.5", "x", "8e30"} {
		if _, err := Count(in); err == nil {
			t.Errorf("Count(%q) accepted", in)
		}
	}
	for _, in := range []string{"0", "-1s", "NaN", "x", "2h"} {
		if _, err := Seconds(in, time.Hour, true); err == nil {
			t.Errorf("Seconds(%q) accepted", in)
		}
	}
	for _, in := range []string{"0", "-1MiB", "1.5B", "MiB", "2PB", "0.3KiB", "NaN", "InfMB", "-1e30"} {
		if _, err := Size(in); err == nil {
			t.Errorf("Size(%q) accepted", in)
		}
	}
	// Beyond 1 PiB the message says the bound (it said "not an amount of
	// bytes" of 9223372036854775807, found by a tester).
	for _, in := range []string{"9223372036854775807", "1e16", "2000TB", "1025TiB"} {
		if _, err := Size(in); err == nil || !strings.Contains(err.Error(), "is more than 1 PiB") {
			t.Errorf("Size(%q): %v", in, err)
		}
	}
}
