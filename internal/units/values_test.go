package units

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestValues: each flag value reads what is typed, within its bounds,
// and shows what it holds.
func TestValues(t *testing.T) {
	for in, want := range map[string]int64{"1.5": 1.5e9, "600ms": 6e8, "2s": 2e9, "0": 0} {
		v := SecondsValue{Max: MaxSeconds}
		if err := v.Set(in); err != nil || v.NS != want {
			t.Errorf("seconds %q = %d, %v; want %d", in, v.NS, err, want)
		}
	}
	if v := (SecondsValue{Max: MaxSeconds, Pos: true}); v.Set("0") == nil {
		t.Error("a positive time accepted 0")
	}
	n := IntValue{Min: 1, Max: 1024}
	if err := n.Set("2k"); err == nil || err.Error() != "2000 is out of range (want 1 to 1024)" {
		t.Errorf("2k of 1 to 1024: %v", err)
	}
	if err := n.Set("1e30"); err == nil || err.Error() != `"1e30" is out of range (want 1 to 1024)` {
		t.Errorf("1e30: %v", err)
	}
	if err := n.Set("8"); err != nil || n.String() != "8" {
		t.Errorf("8: %v, %s", err, n.String())
	}
	var x NumberValue
	if err := x.Set("1.5k"); err != nil || x.String() != "1500" {
		t.Errorf("1.5k: %v, %s", err, x.String())
	}
	var w WindowValue
	if err := w.Set("4rtt"); err != nil || w.String() != "4rtt" {
		t.Errorf("4rtt: %v, %s", err, w.String())
	}
	if err := w.Set("200ms"); err != nil || w.String() != "200ms" || w.RTTs != 0 {
		t.Errorf("200ms: %v, %s", err, w.String())
	}
	at := Durations()
	if err := at.Set("1s,500ms"); err != nil || at.Set("1000ms") != nil || at.String() != "1s,500ms" {
		t.Errorf("durations: %s, want 1s,500ms (1000ms is 1s again)", at.String())
	}
	if at.Set("-1s") == nil || at.Set("1s,,2s") == nil {
		t.Error("durations accepted -1s or an empty item")
	}
	sizes := Sizes()
	if err := sizes.Set("1MiB,100KB"); err != nil || sizes.String() != "1048576,100000" || time.Duration(at.Vs[1]) != 500*time.Millisecond {
		t.Errorf("sizes: %s, %v", sizes.String(), err)
	}
}

// TestNumberValueRange: a number beyond Number's bounds is refused in
// the words of the flag's own range when it has one (--font-size
// 9223372036854775807 said "want -1e18 to 1e18", found by a tester).
func TestNumberValueRange(t *testing.T) {
	points := func(v float64) error {
		if !(v >= 4 && v <= 40) {
			return errors.New("out of range (want 4 to 40 points)")
		}
		return nil
	}
	for _, c := range []struct {
		in   string
		rng  func(float64) error
		want string
	}{
		{"9223372036854775807", points, `"9223372036854775807" is out of range (want 4 to 40 points)`},
		{"-1e30", points, `"-1e30" is out of range (want 4 to 40 points)`},
		{"1e30", nil, `"1e30" is out of range (want -1e18 to 1e18)`},
		{"x", points, `"x" is not a number (want 1500, 2.5, 1.5k or 8M)`},
	} {
		v := &NumberValue{Range: c.rng}
		if err := v.Set(c.in); fmt.Sprint(err) != c.want {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	if v := (&NumberValue{Range: points}); v.Set("12") != nil || v.V != 12 {
		t.Errorf("12: %v", v.V)
	}
}
