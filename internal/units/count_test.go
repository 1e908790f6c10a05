package units

import (
	"errors"
	"testing"
)

// TestCountWholeInt64Range: a count written as a real number (9e18) or
// with a suffix is read over int64's whole range, which the flags' "out of
// range" message quotes; beyond it, ErrTooLarge.
func TestCountWholeInt64Range(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want int64
		big  bool
	}{
		{"-9e18", -9e18, false}, {"9e18", 9e18, false}, {"9.2e18", 9.2e18, false}, {"-9223372036854775808", -1 << 63, false},
		{"1e19", 0, true}, {"-9.3e18", 0, true}, {"9300000000G", 0, true},
	} {
		v, err := Count(tt.s)
		if tt.big != errors.Is(err, ErrTooLarge) || !tt.big && (err != nil || v != tt.want) {
			t.Errorf("Count(%q) = %d, %v", tt.s, v, err)
		}
	}
}
