package join

import (
	"math"
	"path/filepath"
	"testing"

	"tcpviz/analyze"
	"tcpviz/internal/golden"
)

// TestLadderThreePoints: the ladder of a transfer captured at three
// points draws each packet of the window from one point to the next,
// time running forward (down) along every arrow, the handshake first,
// and every loss of the window as an arrow that stops half way.
func TestLadderThreePoints(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "truth-mid")
	at := func(k string) *Capture { return readCapture(t, filepath.Join(dir, "gt_mid_two_links."+k+".pcap.gz")) }
	res, err := Join([]*Capture{at("rx"), at("mid"), at("tx")})
	if err != nil {
		t.Fatal(err)
	}
	ch, _, _ := res.Pick(-1, -1)
	g, ok, err := res.Ladder(-1, LadderOptions{Time: analyze.Range{HasMin: true, HasMax: true, Max: 100e9}})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(g.X.Names) != 3 || !g.Y.Down {
		t.Fatalf("axes %+v %+v", g.X, g.Y)
	}
	var lost, arrows int
	firstT, firstName := math.Inf(1), ""
	for _, s := range g.Series {
		if s.Kind != analyze.Arrows || len(s.Points)%2 != 0 || len(s.Labels) != len(s.Points)/2 || s.Dashed {
			t.Fatalf("series %s: kind %v, %d points, %d labels, dashed %v", s.Name, s.Kind, len(s.Points), len(s.Labels), s.Dashed)
		}
		for i := 0; i < len(s.Points); i += 2 {
			a, b := s.Points[i].V, s.Points[i+1].V
			if b[1] < a[1] {
				t.Errorf("%s %q: arrives at %.6f s before it left at %.6f s", s.Name, s.Labels[i/2], b[1], a[1])
			}
			step := math.Abs(b[0] - a[0])
			if s.Name == SeriesLadderLost {
				lost++
				if step != 0.5 {
					t.Errorf("a lost packet's arrow spans %v", step)
				}
			} else if step != 1 {
				t.Errorf("%s %q: from point %v to %v", s.Name, s.Labels[i/2], a[0], b[0])
			}
			if a[1] < firstT {
				firstT, firstName = a[1], s.Labels[i/2]
			}
			arrows++
		}
	}
	if firstName != "[SYN] Seq=0" {
		t.Errorf("the first arrow is %q", firstName)
	}
	want := 0
	for _, h := range res.Hops {
		for _, c := range h.Conns {
			if c.Up == ch.Up || c.Up.Stream == ch.Down.Stream && h != res.Hops[0] {
				want += int(c.Dir[0].LostData + c.Dir[1].LostData)
			}
		}
	}
	if lost != want || lost == 0 {
		t.Errorf("%d lost arrows for %d losses on the connection's hops", lost, want)
	}
	t.Logf("%d arrows, %d lost", arrows, lost)
}

// TestLadderOneCapture: from one capture the far end is estimated: each
// arrow dashed, half the handshake's round trip long, between the
// capture and the far end.
func TestLadderOneCapture(t *testing.T) {
	c := readCapture(t, filepath.Join(golden.Testdata(), "geo_short.pcap"))
	one := &Result{Captures: []*Capture{c}}
	if _, ok, _ := one.Ladder(7, LadderOptions{}); ok {
		t.Error("a ladder of stream 7, which the capture does not have")
	}
	conn := c.conn(-1)
	g, ok, err := one.Ladder(-1, LadderOptions{Packets: 20})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	syn, synack, _, _ := handshake(conn)
	half := float64(synack-syn) / 2 / 1e9
	n := 0
	for _, s := range g.Series {
		if !s.Dashed {
			t.Errorf("%s: not dashed", s.Name)
		}
		for i := 0; i < len(s.Points); i += 2 {
			a, b := s.Points[i].V, s.Points[i+1].V
			if math.Abs(b[1]-a[1]-half) > 1e-6 || math.Abs(b[0]-a[0]) != 1 {
				t.Errorf("%q: from (%v, %.6f) to (%v, %.6f); half the round trip is %.6f s", s.Labels[i/2], a[0], a[1], b[0], b[1], half)
			}
			n++
		}
	}
	if n != 20 {
		t.Errorf("%d arrows for the first 20 packets", n)
	}
}

// TestLadderSpanAsked: a window asked for is the window, even one that
// ends at or before the connection's first packet (--to 0: its first
// instant, --to -1: nothing), not the first packets as when none is asked
// (found by a tester: ladder --to -1 drew the first 40 packets).
func TestLadderSpanAsked(t *testing.T) {
	const origin, nth = 1000, 5000
	for _, c := range []struct {
		w      analyze.Range
		lo, hi int64
	}{
		{analyze.Range{}, origin, nth},
		{analyze.Range{HasMax: true, Max: -1}, origin, origin - 1},
		{analyze.Range{HasMax: true, Max: 0}, origin, origin},
		{analyze.Range{HasMin: true, Min: 7, HasMax: true, Max: 7}, origin + 7, origin + 7},
		{analyze.Range{HasMax: true, Max: 500}, origin, origin + 500},
	} {
		lo, hi := LadderOptions{Time: c.w}.span(origin, func() int64 { return nth })
		if lo != c.lo || hi != c.hi {
			t.Errorf("%+v: [%d, %d], want [%d, %d]", c.w, lo, hi, c.lo, c.hi)
		}
	}
}
