package join

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestClockFollowsInjectedOffset shifts one capture of every truth
// scenario by a known offset, and makes it drift, and checks that the
// estimate moves by what was injected, within 1 ms, at every packet.
func TestClockFollowsInjectedOffset(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "%-28s %10s %10s %12s %12s\n", "scenario", "offset ms", "drift ppm", "worst err ms", "drift est")
	for _, sc := range scenarios(t) {
		if sc.settings["PEP"] == "1" {
			continue
		}
		tx, rx := readCapture(t, sc.tx), readCapture(t, sc.rx)
		base, err := Join([]*Capture{tx, rx})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		c0 := base.Hops[0].Clock
		for _, inj := range []struct {
			offset float64 // ns
			ppm    float64
			up     bool // shift the upstream capture instead
		}{{1234.567891e6, 0, false}, {-86400e9 - 17.25e6, 80, false}, {3.5e9, -150, true}} {
			t0 := rx.First
			shift := func(tt int64) int64 {
				return tt + int64(inj.offset) + int64(inj.ppm*1e-6*float64(tt-t0))
			}
			tx2, rx2 := clone(tx), clone(rx)
			moved := rx2
			if inj.up {
				moved = tx2
			}
			moved.shift(shift)
			res, err := Join([]*Capture{rx2, tx2})
			if err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
			if res.Captures[0] != tx2 {
				t.Errorf("%s shifted by %.3f ms: the order changed", sc.name, inj.offset/1e6)
				continue
			}
			c := res.Hops[0].Clock
			worst := 0.0
			for _, p := range busiest(base.Hops[0]).Dir[0].Pairs {
				// The downstream clock minus the upstream one, injected.
				want := float64(shift(p.Up) - p.Up)
				tu := p.Up
				if inj.up {
					// Upstream times moved: the offset at the moved time
					// is minus the shift.
					want = -float64(shift(p.Up) - p.Up)
					tu = shift(p.Up)
				}
				got := c.at(tu) - c0.at(p.Up)
				worst = math.Max(worst, math.Abs(got-want))
			}
			fmt.Fprintf(&table, "%-28s %10.3f %10.1f %12.3f %12.1f\n", sc.name, inj.offset/1e6, inj.ppm, worst/1e6, c.Drift*1e6)
			if worst > 1e6 {
				t.Errorf("%s: offset %.3f ms, drift %v ppm injected: the estimate is off by up to %.3f ms", sc.name, inj.offset/1e6, inj.ppm, worst/1e6)
			}
		}
	}
	t.Logf("\n%s", table.String())
}

// clone copies a capture's packets (Shift changes them in place).
func clone(c *Capture) *Capture {
	out := *c
	out.Conns = make([]*Conn, len(c.Conns))
	for i, cc := range c.Conns {
		n := *cc
		for d := range 2 {
			n.Pkts[d] = append([]packet(nil), cc.Pkts[d]...)
		}
		out.Conns[i] = &n
	}
	return &out
}
