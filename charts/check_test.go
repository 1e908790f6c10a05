package charts

import (
	"math"
	"testing"
)

// TestCheckFontSizeAndLineWidth: a font size from 4 to 40 points and a
// line width from 0.1 to 20 are taken, bounds included; anything else,
// NaN too, is refused saying the range.
func TestCheckFontSizeAndLineWidth(t *testing.T) {
	for _, c := range []struct {
		check func(float64) error
		pt    float64
		err   string
	}{
		{CheckFontSize, 4, ""},
		{CheckFontSize, 40, ""},
		{CheckFontSize, 3.9, "out of range (want 4 to 40 points)"},
		{CheckFontSize, 40.5, "out of range (want 4 to 40 points)"},
		{CheckFontSize, math.NaN(), "out of range (want 4 to 40 points)"},
		{CheckLineWidth, 0.1, ""},
		{CheckLineWidth, 20, ""},
		{CheckLineWidth, 0.05, "out of range (want 0.1 to 20 points)"},
		{CheckLineWidth, 30, "out of range (want 0.1 to 20 points)"},
	} {
		got := ""
		if err := c.check(c.pt); err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%g: %q, want %q", c.pt, got, c.err)
		}
	}
}
