package charts

import (
	"bytes"
	"strings"
	"testing"

	"tcpviz/analyze"
)

// rttGraph is an RTT graph of n samples around 600 ms, and one 18 s.
func rttGraph(n int) *analyze.Graph {
	g := &analyze.Graph{Kind: analyze.GraphRTT, XCol: -1, Columns: []string{"rtt_ms"},
		X: analyze.Axis{Label: "time", Unit: "s", Time: true}, Y: analyze.Axis{Label: "round-trip time", Unit: "ms"}}
	s := analyze.Series{Name: analyze.SeriesRTT, Kind: analyze.Dots}
	for i := range n {
		s.Points = append(s.Points, analyze.Point{Frame: int64(i + 1), Time: int64(i) * 1e7, V: [3]float64{600 + float64(i%50)}})
	}
	s.Points[n/2].V[0] = 18000
	g.Series = []analyze.Series{s}
	return g
}

func svgText(t *testing.T, g *analyze.Graph, o PlotOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, g, SVG, o); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestLoneOutlier: one 18 s sample among 600 ms ones leaves the automatic
// range, and is drawn on the top edge with a legend saying so.
func TestLoneOutlier(t *testing.T) {
	g := rttGraph(400)
	if top := withoutOutliers(g, 600, 18000); top != 649 {
		t.Errorf("automatic top %v, want 649 (the 18 s sample left out)", top)
	}
	svg := svgText(t, g, PlotOptions{})
	if !strings.Contains(svg, "1 above the y axis (up to 18000 ms), drawn on the edge") {
		t.Errorf("no legend for the clipped sample")
	}
	// Fewer than 20 points: nothing is an outlier.
	if g := rttGraph(10); withoutOutliers(g, 600, 18000) != 18000 {
		t.Errorf("outlier left out of a 10-point graph")
	}
	// --y-min above everything: every sample below, on the bottom edge.
	g = rttGraph(400)
	g.Zoom = analyze.Zoom{YMin: 700, HasYMin: true, YMax: 800, HasYMax: true}
	if svg := svgText(t, g, PlotOptions{}); !strings.Contains(svg, "1 above the y axis (up to 18000 ms), 399 below it (down to 600 ms)") {
		t.Errorf("clipped legend missing")
	}
}

// TestUnitsByRange: ms become s, bytes KB/MB, bit/s Mbit/s, by the
// largest value shown; times stay seconds.
func TestUnitsByRange(t *testing.T) {
	for _, tc := range []struct {
		unit string
		top  float64
		div  float64
		want string
	}{
		{"ms", 500, 1, "ms"}, {"ms", 17500, 1e3, "s"},
		{"B", 900, 1, "B"}, {"B", 88e3, 1e3, "KB"}, {"B", 14e6, 1e6, "MB"},
		{"bit/s", 370e3, 1e3, "kbit/s"}, {"bit/s", 2e6, 1e6, "Mbit/s"}, {"", 5e6, 1, ""},
	} {
		if div, u := unitFor(analyze.Axis{Unit: tc.unit}, tc.top); div != tc.div || u != tc.want {
			t.Errorf("%v %s: %v %s, want %v %s", tc.top, tc.unit, div, u, tc.div, tc.want)
		}
	}
	if div, u := unitFor(analyze.Axis{Unit: "s", Time: true}, 5000); div != 1 || u != "s" {
		t.Errorf("time axis: %v %s", div, u)
	}
	svg := svgText(t, rttGraph(400), PlotOptions{})
	if !strings.Contains(svg, "round-trip time (ms)") || strings.Contains(svg, ">17.5k<") {
		t.Errorf("RTT axis of 600 ms samples")
	}
	g := rttGraph(400)
	g.Zoom = analyze.Zoom{YMax: 20000, HasYMax: true}
	if svg := svgText(t, g, PlotOptions{}); !strings.Contains(svg, "round-trip time (s)") || !strings.Contains(svg, ">17.5<") {
		t.Errorf("RTT axis up to 20 s not in seconds")
	}
}

// TestLogY: a log axis labels decades, draws values at or below zero on
// its bottom edge, and rejects nothing.
func TestLogY(t *testing.T) {
	g := rttGraph(400)
	g.Series[0].Points[0].V[0] = 0.01
	g.Series[0].Points[1].V[0] = 0
	svg := svgText(t, g, PlotOptions{LogY: true})
	for _, want := range []string{">0.01<", ">0.1<", ">1<", ">10<", ">100<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("log axis lacks the label %s", want)
		}
	}
	ts := logTicks{div: 1}.Ticks(2.78, 2.79) // 602 to 616: no decade inside
	labelled := 0
	for _, tk := range ts {
		if tk.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		t.Errorf("narrow log axis: %d labels", labelled)
	}
	// 311 decades (--y-min 1e-308) are labelled every 32nd: each was,
	// with eight ticks between, a black smear (found by a tester); ten
	// decades keep every one and its ticks.
	for _, c := range []struct {
		lo, hi        float64
		ticks, labels int
	}{{-308, 3, 10, 10}, {-7, 3, 91, 11}} {
		ts, labels := logTicks{div: 1}.Ticks(c.lo, c.hi), 0
		for _, tk := range ts {
			if tk.Label != "" {
				labels++
			}
		}
		if len(ts) != c.ticks || labels != c.labels {
			t.Errorf("log axis 1e%v to 1e%v: %d ticks, %d labelled; want %d, %d", c.lo, c.hi, len(ts), labels, c.ticks, c.labels)
		}
	}
}

// TestDensityAlpha: dots of a dense cloud are shaded by their cell's
// count; a sparse series stays opaque.
func TestDensityAlpha(t *testing.T) {
	if a := densityAlpha([]int{1, 2, 3}); a != nil {
		t.Errorf("sparse: %v", a)
	}
	a := densityAlpha([]int{1, 100, 10})
	if a[0] != minAlpha || a[1] != 1 || !(a[2] > minAlpha && a[2] < 1) {
		t.Errorf("dense: %v", a)
	}
}
