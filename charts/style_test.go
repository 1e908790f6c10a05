package charts

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tcpviz/analyze"
	"tcpviz/analyze/sweep"
)

// TestTitleFits: a title wider than the picture is broken at its " — "
// and between words, every line within the width, nothing left out; a
// word wider than the picture is cut with an ellipsis.
func TestTitleFits(t *testing.T) {
	sty := plot.New().Title.TextStyle
	sty.Font.Size = vg.Points(11)
	title := "Time/sequence (tcptrace) — 10.88.1.1:57442 → 10.88.2.2:5201 (stream 1, c2s) — geo_short.pcap"
	for _, w := range []vg.Length{1000, 375, 200, 110} {
		lines := fitTitle(sty, title, w)
		for _, l := range lines {
			if sty.Width(l) > w {
				t.Errorf("width %v: line %q is %v wide", w, l, sty.Width(l))
			}
		}
		bare := strings.NewReplacer(" ", "", "—", "") // a line break may stand for a separator
		if got := strings.Join(lines, " "); bare.Replace(got) != bare.Replace(title) && w > 150 {
			t.Errorf("width %v: %q is not the title %q", w, lines, title)
		}
		if w == 1000 && len(lines) != 1 || w == 375 && len(lines) < 2 {
			t.Errorf("width %v: %d lines %q", w, len(lines), lines)
		}
	}
	if lines := fitTitle(sty, "averyveryverylongcapturefilenamethatcannotfit.pcap", 60); len(lines) != 1 || !strings.HasSuffix(lines[0], "…") || sty.Width(lines[0]) > 60 {
		t.Errorf("one long word: %q", lines)
	}
}

// TestCutToFit: a word too wide is cut to the same start as cutting a
// letter at a time gives (the longest that fits with its ellipsis), with
// a number of measures that grows with the word's length's logarithm: a
// title (or compare --label) of one word of 100,000 letters took minutes
// (found by a tester).
func TestCutToFit(t *testing.T) {
	sty := plot.New().Title.TextStyle
	sty.Font.Size = vg.Points(11)
	for _, c := range []struct {
		word  string
		width vg.Length
	}{
		{"averyveryverylongcapturefilenamethatcannotfit.pcap", 60},
		{"é" + strings.Repeat("Wi", 40) + "…", 90},
		{"ab", 1},
		{strings.Repeat("x", 100000), 500},
	} {
		measures := 0
		fits := func(s string) bool { measures++; return sty.Width(s) <= c.width }
		got := cutToFit(c.word, fits)
		want := c.word // a letter at a time, as before (short words only)
		for len([]rune(c.word)) < 1000 && sty.Width(want) > c.width && len(want) > 1 {
			r := []rune(strings.TrimSuffix(want, "…"))
			if len(r) == 0 {
				break
			}
			want = string(r[:len(r)-1]) + "…"
		}
		if len([]rune(c.word)) < 1000 && got != want {
			t.Errorf("%.20q at %v: %q, a letter at a time %q", c.word, c.width, got, want)
		}
		if sty.Width(got) > c.width && got != "…" || measures > 20 {
			t.Errorf("%.20q at %v: %q (%v wide), %d measures", c.word, c.width, got, sty.Width(got), measures)
		}
	}
}

// TestMarksDistinct: no two kinds of mark look alike: each has its own
// shape and colour, and each kind of bar its own colour.
func TestMarksDistinct(t *testing.T) {
	marks, bars := map[string]string{}, map[string]string{}
	for name, st := range seriesStyles {
		if st.glyph != nil {
			key := fmt.Sprintf("%T %v", st.glyph, st.color)
			if other, ok := marks[key]; ok {
				t.Errorf("%s and %s are both drawn as %s", name, other, key)
			}
			marks[key] = name
			if _, circle := st.glyph.(draw.CircleGlyph); !circle && glyphName(st.glyph) == "circle" {
				t.Errorf("%s: the page has no shape for %T", name, st.glyph)
			}
		}
	}
	for _, name := range []string{analyze.SeriesData, analyze.SeriesRetrans, analyze.SeriesOutOfOrder, analyze.SeriesSACK, analyze.SeriesSpurious, analyze.SeriesDSACK} {
		key := fmt.Sprint(seriesStyles[name].color)
		if other, ok := bars[key]; ok {
			t.Errorf("bars %s and %s have one colour %s", name, other, key)
		}
		bars[key] = name
	}
	if len(marks) < 8 {
		t.Errorf("%d marks", len(marks))
	}
}

// TestPaperTheme: --theme paper draws in Okabe and Ito's colours, each
// line its own dashes and markers, no grid; --font-size scales the text
// and --line-width sets every line's width; the default theme has none
// of it.
func TestPaperTheme(t *testing.T) {
	l := loadCapture(t, "../testdata/geo_short.pcap")
	g := drawGolden(t, l, 0) // tcptrace: the ACK and window lines
	svg := func(o PlotOptions) string {
		var b bytes.Buffer
		o.Width, o.Height = 800, 480
		if err := Render(&b, g, SVG, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	def, paper := svg(PlotOptions{}), svg(PlotOptions{Theme: ThemePaper, FontSize: 14, LineWidth: 2.5})
	for _, want := range []string{"stroke:#009E73", "stroke-dasharray:6,3", "font-size:14px", "stroke-width:2.5"} {
		if !strings.Contains(paper, want) {
			t.Errorf("paper lacks %s", want)
		}
		if strings.Contains(def, want) {
			t.Errorf("the default theme has %s", want)
		}
	}
	if grid := "stroke:#E1E1E1"; !strings.Contains(def, grid) || strings.Contains(paper, grid) {
		t.Errorf("the grid (%s): in the default %v, in paper %v", grid, strings.Contains(def, grid), strings.Contains(paper, grid))
	}
	// The markers along the lines: the window line's hollow squares.
	if n := strings.Count(paper, "Z"); n <= strings.Count(def, "Z")+10 {
		t.Errorf("paper has %d closed shapes, the default %d: no markers", n, strings.Count(def, "Z"))
	}
}

// TestLabelColors: a label has its colour whatever it is compared with
// and in whatever order; the labels of one figure never share one.
func TestLabelColors(t *testing.T) {
	labels := []string{"cubic", "reno", "bbr", "vegas", "no PEP", "PEP", "10ms", "50ms", "100ms"}
	own := map[string]int{}
	for _, l := range labels {
		own[l] = labelColors([]string{l})[0]
	}
	for i, a := range labels {
		for _, b := range labels[i+1:] {
			for _, pair := range [][]string{{a, b}, {b, a}} {
				c := labelColors(pair)
				if c[0] == c[1] {
					t.Errorf("%q and %q share colour %d", pair[0], pair[1], c[0])
				}
				if c[0] != own[pair[0]] {
					t.Errorf("%q first of %q: colour %d, alone %d", pair[0], pair, c[0], own[pair[0]])
				}
			}
		}
	}
	all := labelColors(labels)
	seen := map[int]bool{}
	for _, c := range all {
		if seen[c] {
			t.Errorf("colours %v: one twice", all)
		}
		seen[c] = true
	}
}

// TestSweepDodge: at each x the groups stand side by side, by under 1% of
// the axis, a group's line and intervals at one x; in the log scale too.
func TestSweepDodge(t *testing.T) {
	var runs []sweep.Run
	for _, rtt := range []string{"10", "100"} {
		for _, k := range []string{"a", "b"} {
			for _, v := range []float64{1, 2} {
				runs = append(runs, sweep.Run{Params: map[string]string{"rtt": rtt, "k": k}, Value: v, OK: true})
			}
		}
	}
	ps, err := sweep.ParseParams([]string{`rtt=rtt(\d+)ms`})
	if err != nil {
		t.Fatal(err)
	}
	pv, _ := ps.Pivot(runs, "rtt", []string{"k"})
	p := &pv
	for _, logX := range []bool{false, true} {
		g := SweepGraph(p, "rtt", "throughput_bps", "bit/s", logX)
		x := map[string][]float64{}
		for _, s := range g.Series {
			name := strings.TrimSuffix(s.Name, " (95% confidence interval)")
			for _, pt := range s.Points {
				x[name] = append(x[name], pt.V[0])
			}
		}
		a, b := x["a"], x["b"]
		if len(a) != 4 || len(b) != 4 || a[0] != a[2] || !(a[0] < 10 && b[0] > 10) || !(a[1] < 100 && b[1] > 100) || !logX && b[1]-a[1] > 0.01*90 || logX && b[1]/a[1] > 1.02 {
			t.Errorf("log %v: x of a %v, of b %v", logX, a, b)
		}
	}
}

// TestSweepTextRows: rows whose values are not all numbers (proto, a
// kind) are named along the x axis at even steps, each group's mean at
// its value's step; they drew nothing (every x was "no number"), under
// a legend that said no packets were in the window.
func TestSweepTextRows(t *testing.T) {
	var runs []sweep.Run
	for _, proto := range []string{"udp", "tcp"} {
		for _, v := range []float64{1, 3} {
			runs = append(runs, sweep.Run{Params: map[string]string{"proto": proto}, Value: v, OK: true})
		}
	}
	ps, err := sweep.ParseParams(nil)
	if err != nil {
		t.Fatal(err)
	}
	pv, _ := ps.Pivot(runs, "proto", nil)
	if sweepNumeric(&pv) {
		t.Fatalf("rows %v read as numbers", pv.Rows)
	}
	for _, logX := range []bool{false, true} {
		g := SweepGraph(&pv, "proto", "throughput_bps", "bit/s", logX)
		if !slices.Equal(g.X.Names, pv.Rows) || len(g.Series) == 0 {
			t.Fatalf("log %v: axis names %v, %d series; want the rows %v", logX, g.X.Names, len(g.Series), pv.Rows)
		}
		if warned := len(g.Warnings) == 1 && strings.Contains(WarningText(g.Warnings[0]), "linear axis"); warned != logX {
			t.Errorf("log %v: warnings %v; want one that the axis stays linear only under --log-x", logX, g.Warnings)
		}
		var xs []float64
		for _, pt := range g.Series[0].Points {
			xs = append(xs, pt.V[0])
			if pt.V[1] != 2 {
				t.Errorf("log %v: mean %v at x %v, want 2", logX, pt.V[1], pt.V[0])
			}
		}
		if !slices.Equal(xs, []float64{0, 1}) {
			t.Errorf("log %v: means at x %v, want 0 and 1", logX, xs)
		}
	}
}

// TestCompanionColors: a series tied to another (analyze.Series.Of)
// takes its colour and its role's marks, and takes no colour of its own
// from the labels.
func TestCompanionColors(t *testing.T) {
	g := &analyze.Graph{Kind: analyze.GraphCompare, Series: []analyze.Series{
		{Name: "cubic"}, {Name: "cubic ssthresh", Of: "cubic", Role: analyze.SeriesSsthresh, Kind: analyze.Steps},
		{Name: "reno"}, {Name: "reno fast retransmit", Of: "reno", Role: analyze.SeriesFastLoss, Kind: analyze.Marks},
	}}
	c := colorIndexes(g)
	if c[1] != c[0] || c[3] != c[2] || c[0] == c[2] {
		t.Fatalf("colours %v: want each companion in its series' colour, the two series apart", c)
	}
	if want := labelColors([]string{"cubic", "", "reno", ""}); c[0] != want[0] || c[2] != want[2] {
		t.Errorf("colours %v: the labels' own are %v", c, want)
	}
	st := styleOfSeries(g, &g.Series[3], c[3])
	if st.glyph != seriesStyles[analyze.SeriesFastLoss].glyph || st.color != palette[c[2]] || st.legend != "reno fast retransmit" {
		t.Errorf("companion style %+v", st)
	}
}

// TestSweepLonePoint: a group whose mean stands at one x alone (a single
// row, or a combination of --cols seen at one row value) is drawn as a
// mark: as a line through one point it drew nothing (sweep --rows proto
// of one capture: an empty plot under the metric's legend).
func TestSweepLonePoint(t *testing.T) {
	ps, err := sweep.ParseParams(nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := []sweep.Run{
		{Params: map[string]string{"proto": "tcp"}, Value: 4, OK: true},
		{Params: map[string]string{"proto": "tcp"}, Value: 6, OK: true},
		{Params: map[string]string{"proto": "udp"}, Value: 3, OK: true},
	}
	for _, c := range []struct {
		runs []sweep.Run
		cols []string
	}{{runs[:1], nil}, {runs, []string{"proto"}}} {
		pv, _ := ps.Pivot(c.runs, "proto", c.cols)
		g := SweepGraph(&pv, "proto", "throughput_bps", "bit/s", false)
		means := 0
		for _, s := range g.Series {
			if s.Kind == analyze.Bars {
				continue
			}
			means++
			if len(s.Points) == 1 && s.Kind == analyze.Lines {
				t.Errorf("%d runs, cols %v: %q's one mean is a line through one point (nothing drawn)", len(c.runs), c.cols, s.Name)
			}
		}
		if means != len(pv.Cols) {
			t.Errorf("%d runs, cols %v: %d series of means, want %d", len(c.runs), c.cols, means, len(pv.Cols))
		}
	}
}

// TestReceiverFlightLegend: the line of a cwnd graph drawn at a
// receiver-side capture (its note says so) is named for what it is, the
// data that arrived per round trip, not the window the sender allowed;
// elsewhere it is the cwnd estimate.
func TestReceiverFlightLegend(t *testing.T) {
	g := &analyze.Graph{Kind: analyze.GraphCwnd}
	if l := styleOf(g, analyze.SeriesCwnd, 0).legend; !strings.HasPrefix(l, "cwnd estimate") {
		t.Errorf("sender-side legend %q", l)
	}
	g.Notes = []analyze.Warning{{Kind: analyze.NoteReceiverFlight}}
	if l := styleOf(g, analyze.SeriesCwnd, 0).legend; !strings.HasPrefix(l, "data arrived per round trip") {
		t.Errorf("receiver-side legend %q", l)
	}
	if l := styleOf(g, analyze.SeriesSsthresh, 0).legend; !strings.HasPrefix(l, "ssthresh") {
		t.Errorf("another series renamed: %q", l)
	}
}

// TestCwndBasisSaid: the warning says what the cwnd graph drew: the data
// arrived where it was drawn at a receiver, the sender's model where the
// path analysis places the capture away from the sender but the graph
// could not tell (SF20_Trace1: the warning had said the line was the data
// arrived while the picture drew the sender's window), nothing at the
// sender.
func TestCwndBasisSaid(t *testing.T) {
	rx := &analyze.Graph{Kind: analyze.GraphCwnd, Notes: []analyze.Warning{{Kind: analyze.NoteReceiverFlight}}}
	tx := &analyze.Graph{Kind: analyze.GraphCwnd}
	for _, tt := range []struct {
		g    *analyze.Graph
		v    analyze.Vantage
		want string // in the one warning; "" none
	}{
		{rx, analyze.VantageReceiver, "this one is at the receiver of the path: the line is the data that reached it"},
		{rx, analyze.VantageSender, "by its handshake this one is nearer the receiver: the line is the data that reached it"},
		{tx, analyze.VantageReceiver, "places this one at the receiver of the path, but the graph, which goes by the handshake's round trips alone, drew the sender's model"},
		{tx, analyze.VantageUnknown, "where this one was taken is unknown (no handshake, no timestamps): the graph drew the sender's model"},
		{tx, analyze.VantageSender, ""},
	} {
		got := cwndBasis(tt.g, tt.v)
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("drawn at the receiver %v, vantage %v: %q, want none", receiverFlight(tt.g), tt.v, got)
		case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
			t.Errorf("drawn at the receiver %v, vantage %v: %q, want one with %q", receiverFlight(tt.g), tt.v, got, tt.want)
		}
	}
}

// TestSweepIntervalsCutAtZero: a metric none of whose means is below
// zero has its intervals cut at zero (two runs at 1 and 9: t's 12.7
// standard errors reach -46); one with a negative mean keeps them whole.
func TestSweepIntervalsCutAtZero(t *testing.T) {
	low := func(values ...float64) float64 {
		var runs []sweep.Run
		for _, v := range values {
			runs = append(runs, sweep.Run{Params: map[string]string{"rtt": "10"}, Value: v, OK: true})
		}
		ps, err := sweep.ParseParams([]string{`rtt=rtt(\d+)ms`})
		if err != nil {
			t.Fatal(err)
		}
		pv, _ := ps.Pivot(runs, "rtt", nil)
		for _, s := range SweepGraph(&pv, "rtt", "throughput_bps", "bit/s", false).Series {
			if s.Kind == analyze.Bars {
				return s.Points[0].V[1]
			}
		}
		t.Fatalf("%v: no interval drawn", values)
		return 0
	}
	if got := low(1, 9); got != 0 {
		t.Errorf("runs 1 and 9: interval from %v, want 0", got)
	}
	if got := low(-1, -9); got >= -9 {
		t.Errorf("runs -1 and -9: interval from %v, want below -9", got)
	}
	if got := low(4, 5, 6); got <= 0 || got >= 4 {
		t.Errorf("runs 4, 5, 6: interval from %v, want between 0 and 4", got)
	}
}
