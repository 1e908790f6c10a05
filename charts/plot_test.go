package charts

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"tcpviz/internal/capturetest"
	"testing"
	"time"

	"gonum.org/v1/plot"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// loadCapture reads a capture and returns its busiest connection, as the
// graph commands do.
func loadCapture(t testing.TB, path string) *analyze.Loaded {
	t.Helper()
	l, err := analyze.Load(capturetest.Opener(t, path), analyze.LoadOptions{Stream: -1, Dir: int(reassembly.C2S)})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// goldenGraphs are the graphs with golden SVGs, named after the capture
// and the flags, drawn through the registry as the commands draw them.
var goldenGraphs = []struct {
	name   string
	kind   analyze.GraphKind
	params analyze.GraphParams
	time   analyze.Range
}{
	{"seq.tcptrace", analyze.GraphTCPTrace, analyze.GraphParams{}, analyze.Range{}},
	{"seq.stevens", analyze.GraphStevens, analyze.GraphParams{}, analyze.Range{}},
	{"seq.tcptrace.zoom", analyze.GraphTCPTrace, analyze.GraphParams{}, analyze.Range{Min: 2.4e9, Max: 3.2e9, HasMin: true, HasMax: true}},
	{"tput.window-1s", analyze.GraphThroughput, analyze.GraphParams{}, analyze.Range{}},
	{"tput.segments-20", analyze.GraphThroughput, analyze.GraphParams{Segments: 20}, analyze.Range{}},
	{"rtt.ack", analyze.GraphRTT, analyze.GraphParams{}, analyze.Range{}},
	{"rtt.timestamps.seq", analyze.GraphRTT, analyze.GraphParams{Sampling: analyze.SampleTimestamps, BySeq: true}, analyze.Range{}},
	{"window", analyze.GraphWindow, analyze.GraphParams{}, analyze.Range{}},
}

// drawGolden draws golden graph i of a loaded connection.
func drawGolden(t testing.TB, l *analyze.Loaded, i int) *analyze.Graph {
	tc := goldenGraphs[i]
	spec, ok := graphSpec(tc.kind)
	if !ok {
		t.Fatalf("no graph %s in the registry", tc.kind)
	}
	return spec.Draw(l.Records, analyze.SeriesOptions{Conn: l.Conn, Dir: l.Dir, Time: tc.time}, tc.params)
}

// TestSVGGolden renders every graph of the bundled capture as SVG and
// compares it byte for byte with testdata/geo_short.<graph>.svg (-update
// rewrites them).
func TestSVGGolden(t *testing.T) {
	l := loadCapture(t, "../testdata/geo_short.pcap")
	for i, tc := range goldenGraphs {
		t.Run(tc.name, func(t *testing.T) {
			g := drawGolden(t, l, i)
			if pointCount(g) == 0 {
				t.Fatalf("no points")
			}
			var buf bytes.Buffer
			if err := Render(&buf, g, SVG, PlotOptions{Width: 800, Height: 480, Capture: "geo_short.pcap"}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "geo_short."+tc.name+".svg")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./charts -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the rendering (%d bytes vs %d); if intended, run go test ./charts -update", path, len(want), buf.Len())
			}
			if !strings.Contains(buf.String(), "10.88.1.1:57442 → 10.88.2.2:5201") {
				t.Errorf("title does not name the connection")
			}
		})
	}
}

// TestPNG decodes the rendered picture: the asked size, and not blank
// (pixels of the data's colour are there).
func TestPNG(t *testing.T) {
	l := loadCapture(t, "../testdata/geo_short.pcap")
	for i, tc := range goldenGraphs {
		t.Run(tc.name, func(t *testing.T) {
			g := drawGolden(t, l, i)
			var buf bytes.Buffer
			if err := Render(&buf, g, PNG, PlotOptions{Width: 640, Height: 400}); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 400 {
				t.Fatalf("size %v, want 640×400", b)
			}
			if n := countColor(img, blue); n < 50 {
				t.Errorf("%d pixels of the first series' colour: the graph looks blank", n)
			}
		})
	}
}

// countColor counts the pixels within a small distance of colour c.
func countColor(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			d := absDiff(r>>8, uint32(c.R)) + absDiff(g>>8, uint32(c.G)) + absDiff(bl>>8, uint32(c.B))
			if d < 60 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestSinglePointGraph: a graph of one point (a tput graph of one
// window, an RTT graph of one sample) draws it, on axes from zero to it:
// its line drew nothing, on a time axis from -0.5 s and a y axis around
// the value into negative values (chrissanders-packets__tcp_zerowindowdead).
func TestSinglePointGraph(t *testing.T) {
	mk := func(pts []analyze.Point) *analyze.Graph {
		return &analyze.Graph{Kind: analyze.GraphThroughput, Title: "one point", XCol: -1,
			X: analyze.Axis{Label: "time", Unit: "s", Time: true}, Y: analyze.Axis{Label: "throughput", Unit: "bit/s"},
			Series: []analyze.Series{{Name: "throughput", Kind: analyze.Lines, Points: pts}}}
	}
	one := mk([]analyze.Point{{Time: 0, V: [3]float64{10752}}})
	xmin, xmax, ymin, ymax, _ := axisRange(one, false, false)
	if xmin < -0.02 || xmax < 1 || ymin != 0 || ymax < 10752 {
		t.Errorf("axes x %v to %v, y %v to %v: want x from 0 to a second, y from 0 to the value", xmin, xmax, ymin, ymax)
	}
	var buf bytes.Buffer
	if err := Render(&buf, one, PNG, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// The point sits at the plot's top left; axes, grid and text are
	// grey, the legend's sample is above the plot: a coloured pixel in
	// the left tenth below the legend is the dot.
	r := img.Bounds()
	dot := 0
	for y := r.Min.Y + r.Dy()/10; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Min.X+r.Dx()/10; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if absDiff(uint32(c.R), uint32(c.G))+absDiff(uint32(c.G), uint32(c.B)) > 60 {
				dot++
			}
		}
	}
	if dot == 0 {
		t.Errorf("the single point drew nothing")
	}
}

// TestEmptyGraph: a direction without data still renders, with a note.
func TestEmptyGraph(t *testing.T) {
	g := tcptraceGraph(nil, analyze.SeriesOptions{})
	var buf bytes.Buffer
	if err := Render(&buf, g, SVG, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "nothing to draw") {
		t.Errorf("empty graph has no note")
	}
}

func TestPointsExport(t *testing.T) {
	l := loadCapture(t, "../testdata/geo_short.pcap")
	g := tcptraceGraph(l.Records, analyze.SeriesOptions{Conn: l.Conn, Dir: l.Dir})
	var buf bytes.Buffer
	if err := writePointsCSV(&buf, g); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "frame,time_s,series,seq,seq_end" {
		t.Errorf("header %q", got)
	}
	if len(rows)-1 != pointCount(g) {
		t.Errorf("%d rows, %d points", len(rows)-1, pointCount(g))
	}
	for _, r := range rows[1:] {
		if r[2] == analyze.SeriesAck && r[4] != "" {
			t.Fatalf("ack row has a seq_end: %v", r)
		}
		if r[2] == analyze.SeriesData && r[4] == "" {
			t.Fatalf("data row without seq_end: %v", r)
		}
	}
	buf.Reset()
	if err := writePointsJSON(&buf, g); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &objs); err != nil {
		t.Fatal(err)
	}
	if len(objs) != pointCount(g) || objs[0]["frame"] == nil || objs[0]["time_s"] == nil {
		t.Errorf("JSON: %d objects, first %v", len(objs), objs[0])
	}
}

func TestParseGraphFormat(t *testing.T) {
	for in, want := range map[string]GraphFormat{"PNG": PNG, "svg": SVG, "pdf": PDF, "csv": PointsCSV, "json": PointsJSON} {
		if got, err := ParseGraphFormat(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	if _, err := ParseGraphFormat("gif"); err == nil {
		t.Errorf("gif accepted")
	}
}

// TestSizeLimits: a picture outside the limits is refused before anything
// is allocated for it.
func TestSizeLimits(t *testing.T) {
	g := tcptraceGraph(nil, analyze.SeriesOptions{})
	for _, sz := range [][2]int{{200000, 200000}, {50, 700}, {1200, MaxSide + 1}} {
		if err := Render(io.Discard, g, PNG, PlotOptions{Width: sz[0], Height: sz[1]}); err == nil {
			t.Errorf("%v rendered", sz)
		}
	}
}

func TestSI(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 250e3: "250k", 1.5e6: "1.5M", 2e9: "2G", 0.25: "0.25", -5000: "-5k", 999: "999"} {
		if got := SI(v); got != want {
			t.Errorf("SI(%v) = %q, want %q", v, got, want)
		}
	}
	ts := siTicks{n: 5}.Ticks(0, 1e6)
	var labels []string
	for _, tk := range ts {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 200k 400k 600k 800k 1M" {
		t.Errorf("ticks = %q", got)
	}
}

// TestEmptyNoteSaysWhat: an empty RTT graph says it has no RTT sample,
// any other empty graph that it has nothing to draw, not that the
// direction had no packets (it may have had data and no ACK back).
func TestEmptyNoteSaysWhat(t *testing.T) {
	if got := emptyNote(analyze.GraphRTT); !strings.Contains(got, "no RTT sample") {
		t.Errorf("rtt: %q", got)
	}
	for _, k := range []analyze.GraphKind{analyze.GraphTCPTrace, analyze.GraphThroughput, analyze.GraphWindow} {
		if got := emptyNote(k); strings.Contains(got, "packets") || !strings.Contains(got, "nothing to draw") {
			t.Errorf("%s: %q", k, got)
		}
	}
}

// TestTicksUnderAMillisecond: the labelled ticks of an axis spanning a
// millisecond or less are told apart (pcapplusplus__nanosecs_big_endian,
// a connection of 1.2 ms, read "0 0 0 0 0 0.001 0.001"), as plain and as
// scaled ticks; longer spans are labelled as before.
func TestTicksUnderAMillisecond(t *testing.T) {
	labels := func(ts []plot.Tick) string {
		var l []string
		for _, tk := range ts {
			if tk.Label != "" {
				l = append(l, tk.Label)
			}
		}
		return strings.Join(l, " ")
	}
	if got := labels(siTicks{n: 8}.Ticks(0, 0.0008)); got != "0 0.0001 0.0002 0.0003 0.0004 0.0005 0.0006 0.0007 0.0008" {
		t.Errorf("0 to 0.8 ms: %q", got)
	}
	if got := labels(scaledTicks{n: 5, div: 1}.Ticks(0, 0.00125)); got != "0 0.00025 0.0005 0.00075 0.001 0.00125" {
		t.Errorf("scaled, 0 to 1.25 ms: %q", got)
	}
	if got := labels(scaledTicks{n: 5, div: 1}.Ticks(0, 10)); got != "0 2 4 6 8 10" {
		t.Errorf("0 to 10 s: %q", got)
	}
	if got := labels(siTicks{n: 4}.Ticks(0, 0.004)); got != "0 0.001 0.002 0.003 0.004" {
		t.Errorf("0 to 4 ms: %q", got)
	}
}

// synthetic makes a bulk transfer of n data segments of 1448 bytes, with
// an ACK every second segment 50 ms later, a retransmission every 997
// segments and a SACK block on the ACKs that follow it.
func synthetic(n int) (*reassembly.Conn, []analyze.Record) {
	c := &reassembly.Conn{Stream: 0, FirstTime: 1e18,
		Client: netip.MustParseAddrPort("10.0.0.1:40512"), Server: netip.MustParseAddrPort("10.0.0.2:5201")}
	recs := make([]analyze.Record, 0, n*3/2+2)
	frame := int64(0)
	add := func(r analyze.Record) {
		frame++
		r.Frame = frame
		recs = append(recs, r)
	}
	const mss = 1448
	for i := 0; i < n; i++ {
		t := c.FirstTime + int64(i)*10e3 // 10 µs apart: 1.16 Gbit/s
		seq := int64(1 + i*mss)
		info := analyze.PacketInfo{BytesInFlight: int64(mss * (1 + i%3000)), AckRTT: -1, Window: 6 << 20}
		if i%997 == 996 {
			info.Flags = analyze.Retransmission
			seq -= 500 * mss
		}
		add(analyze.Record{Time: t, Dir: reassembly.C2S, Seq: seq, Len: mss, HasAck: true, Ack: 1,
			Flags: reassembly.ACK, Window: 64 << 10, Info: info})
		if i%2 == 1 {
			ack := int64(1 + (i-4)*mss)
			r := analyze.Record{Time: t + 50e6, Dir: reassembly.S2C, Seq: 1, Ack: max(ack, 1), HasAck: true,
				Flags: reassembly.ACK, Window: 6 << 20, Info: analyze.PacketInfo{AckRTT: 50e6, AckedFrame: frame - 8, BytesInFlight: -1}}
			if i%997 < 20 {
				r.NSACK, r.SACK[0] = 1, [2]int64{ack + 2*mss, ack + 3*mss}
				r.Info.Flags |= analyze.DupAck
			}
			add(r)
		}
	}
	return c, recs
}

// TestLargeSVGBounded: a 600k-segment connection's tcptrace SVG stays
// under 5 MB, and its rare events (retransmissions) survive thinning.
func TestLargeSVGBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	conn, recs := synthetic(600_000)
	g := tcptraceGraph(recs, analyze.SeriesOptions{Conn: conn})
	var buf bytes.Buffer
	if err := Render(&buf, g, SVG, PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 5<<20 {
		t.Errorf("SVG is %d bytes, want < 5 MB", buf.Len())
	}
	pg := newPixelGrid(0, 6, 0, 1e9, DefaultWidth, DefaultHeight)
	i := slices.IndexFunc(g.Series, func(s analyze.Series) bool { return s.Name == analyze.SeriesRetrans })
	if sp := newSeriesPlot(g, &g.Series[i], pg, 0, nil); len(sp.pts) < 500 {
		t.Errorf("%d retransmission bars after thinning, want all ~600 distinct ones", len(sp.pts))
	}
}

func BenchmarkRender600k(b *testing.B) {
	conn, recs := synthetic(600_000)
	for _, f := range []GraphFormat{PNG, SVG} {
		b.Run(string(f), func(b *testing.B) {
			var size int
			for i := 0; i < b.N; i++ {
				g := tcptraceGraph(recs, analyze.SeriesOptions{Conn: conn})
				var buf bytes.Buffer
				if err := Render(&buf, g, f, PlotOptions{}); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(size)/1e6, "MB")
			b.ReportMetric(float64(len(recs)*b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// TestTimeAxisLabels: a time axis from the connection's first packet is
// labelled from 0, and the label of the right edge is drawn whole.
func TestTimeAxisLabels(t *testing.T) {
	l := loadCapture(t, "../testdata/geo_short.pcap")
	svg := func(o analyze.SeriesOptions) string {
		o.Conn, o.Dir = l.Conn, l.Dir
		var buf bytes.Buffer
		if err := Render(&buf, tcptraceGraph(l.Records, o), SVG, PlotOptions{Width: 1200, Height: 700}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	if s := svg(analyze.SeriesOptions{}); !strings.Contains(s, ">0</text>") {
		t.Errorf("full graph: no 0 label on the time axis")
	}
	zoom := svg(analyze.SeriesOptions{Time: analyze.Range{Min: 1.1e9, Max: 2.8e9, HasMin: true, HasMax: true}})
	m := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*>2\.8</text>`).FindStringSubmatch(zoom)
	if m == nil {
		t.Fatalf("zoom 1.1–2.8 s: no label 2.8 on the time axis")
	}
	// 1200 px are 900 pt; "2.8" in 10 px Liberation Serif is about 11 pt wide.
	if x, _ := strconv.ParseFloat(m[1], 64); x+11 > 900 {
		t.Errorf("zoom 1.1–2.8 s: the label 2.8 starts at %.1f pt of 900: cut at the edge", x)
	}
}

// TestRasterChunks: a PNG whose lines are stroked in pieces (rasterChunk)
// shows what the whole line shows: a line zigzagging over the whole
// height in every column, drawn both ways, differs only in a few pixels
// of antialiased edges.
func TestRasterChunks(t *testing.T) {
	g := &analyze.Graph{Kind: analyze.GraphCwnd, XCol: -1, Y: analyze.Axis{Label: "bytes", Unit: "B"},
		X: analyze.Axis{Label: "time", Unit: "s", Time: true}, Columns: []string{"bytes"}}
	for _, kind := range []analyze.SeriesKind{analyze.Steps, analyze.Lines} {
		s := analyze.Series{Name: analyze.SeriesCwnd, Kind: kind}
		for i := range 600 {
			v := float64(1000 + (i%2)*60000 + (i*7919)%5000)
			s.Points = append(s.Points, analyze.Point{Frame: int64(i + 1), Time: int64(i) * 1e6, V: [3]float64{v}})
		}
		g.Series = []analyze.Series{s}
		img := func(chunk int) image.Image {
			var buf bytes.Buffer
			if err := render(&buf, g, PNG, PlotOptions{Width: 400, Height: 200}, chunk); err != nil {
				t.Fatal(err)
			}
			im, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			return im
		}
		whole, pieces := img(0), img(rasterChunk)
		ink, differ := 0, 0
		b := whole.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r1, g1, b1, _ := whole.At(x, y).RGBA()
				r2, g2, b2, _ := pieces.At(x, y).RGBA()
				if r1>>8 < 200 || g1>>8 < 200 || b1>>8 < 200 {
					ink++
				}
				if absDiff(r1>>8, r2>>8)+absDiff(g1>>8, g2>>8)+absDiff(b1>>8, b2>>8) > 60 {
					differ++
				}
			}
		}
		t.Logf("kind %d: %d of %d inked pixels differ", kind, differ, ink)
		if ink < 5000 || differ > ink/1000 {
			t.Errorf("kind %d: %d pixels differ strongly of %d inked: the pieces do not draw the whole line", kind, differ, ink)
		}
	}
}

// TestAppendValue: points are written as strconv writes them, whole
// numbers included.
func TestAppendValue(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 1500, 0.5, -2.25, 1e15, 1 << 53, 1<<53 + 2, -(1 << 53), 1e21, 3.0000000001, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		if got, want := string(appendValue(nil, v)), strconv.FormatFloat(v, 'f', -1, 64); got != want {
			t.Errorf("appendValue(%g) = %s, want %s", v, got, want)
		}
	}
	for _, ns := range []int64{0, 1, -1, 999_999_999, 1e9, -1e9 - 5, 1234567890123456789, -1234567890123456789} {
		sign, a := "", ns
		if a < 0 {
			sign, a = "-", -a
		}
		if got, want := FormatSeconds(ns), fmt.Sprintf("%s%d.%09d", sign, a/1e9, a%1e9); got != want {
			t.Errorf("FormatSeconds(%d) = %s, want %s", ns, got, want)
		}
	}
}

// tcptraceGraph draws the tcptrace graph through the registry, as the
// commands do.
func tcptraceGraph(recs []analyze.Record, o analyze.SeriesOptions) *analyze.Graph {
	spec, _ := graphSpec(analyze.GraphTCPTrace)
	return spec.Draw(recs, o, analyze.GraphParams{})
}

// TestSpansAlongTheFoot: a graph's bands (Spans) are drawn in their lane
// along the plot's foot, over the time they span: below the picture's
// middle the recovery band's colour is a strip a few pixels high at the
// bottom, over the right half of the time axis (its 5 to 10 s), not the
// left.
func TestSpansAlongTheFoot(t *testing.T) {
	t0 := int64(1_700_000_000e9)
	pt := func(s float64, v float64) analyze.Point {
		return analyze.Point{Frame: 1, Time: t0 + int64(s*1e9), V: [3]float64{v}}
	}
	g := &analyze.Graph{Kind: analyze.GraphCwnd, Title: "bands", TimeOrigin: t0, XCol: -1,
		X: analyze.Axis{Label: "time", Unit: "s", Time: true}, Y: analyze.Axis{Label: "bytes", Unit: "B"}, Columns: []string{"bytes"},
		Series: []analyze.Series{
			{Name: analyze.SeriesCwnd, Kind: analyze.Steps, Points: []analyze.Point{pt(0, 1000), pt(10, 50000)}},
			{Name: analyze.SeriesRecovery, Kind: analyze.Spans, Points: []analyze.Point{pt(5, 0), pt(10, 0)}},
		}}
	var buf bytes.Buffer
	if err := Render(&buf, g, PNG, PlotOptions{Width: 800, Height: 500}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	band := seriesStyles[analyze.SeriesRecovery].color
	near := func(x, y int) bool {
		r, gg, b, _ := img.At(x, y).RGBA()
		return absDiff(r>>8, uint32(band.R))+absDiff(gg>>8, uint32(band.G))+absDiff(b>>8, uint32(band.B)) < 30
	}
	// Where the band's pixels are, row by row: a strip near the bottom
	// (and the legend's swatch near the top).
	var rows []int
	left, right := 800, 0
	for y := 0; y < 500; y++ {
		n := 0
		for x := 0; x < 800; x++ {
			if near(x, y) {
				n++
				if y > 250 {
					left, right = min(left, x), max(right, x)
				}
			}
		}
		if n > 0 {
			rows = append(rows, y)
		}
	}
	var low []int
	for _, y := range rows {
		if y > 250 {
			low = append(low, y)
		}
	}
	if len(low) < 4 || low[len(low)-1]-low[0] > 20 || low[0] < 400 {
		t.Fatalf("band rows below the middle %v: want a strip of a few pixels at the foot", low)
	}
	// Over 5 to 10 s of a 0 to 10 s axis: the right half of the plot.
	if right-left < 250 || left < 350 {
		t.Errorf("band from x=%d to %d: want the plot's right half", left, right)
	}
}

// graphSpec is the registry's entry of kind k.
func graphSpec(k analyze.GraphKind) (analyze.GraphSpec, bool) {
	for _, g := range analyze.Graphs("") {
		if g.Kind == k {
			return g, true
		}
	}
	return analyze.GraphSpec{}, false
}

// TestMinMaxAsMath: dataRange's built-in min and max give math.Min's and
// math.Max's results, signed zeros and infinities included.
func TestMinMaxAsMath(t *testing.T) {
	vals := []float64{math.Inf(-1), -1e300, -1, math.Copysign(0, -1), 0, 5e-324, 1, 1e300, math.Inf(1)}
	for _, x := range vals {
		for _, y := range vals {
			if got, want := min(x, y), math.Min(x, y); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("min(%v, %v) = %v, math.Min %v", x, y, got, want)
			}
			if got, want := max(x, y), math.Max(x, y); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("max(%v, %v) = %v, math.Max %v", x, y, got, want)
			}
		}
	}
}

// TestSITicksFinerThanPrecision: an axis whose range is far finer than
// its values' float64 precision (10 µs at -3e9 s: a capture whose first
// timestamp is wild; --y-min 1e12 --y-max 1.000000000000001e12) gets its
// two ends as ticks at once, where the tick loop's k++ stopped moving k
// and appended ticks until memory ran out; a range just coarse enough
// still gets its round ticks.
func TestSITicksFinerThanPrecision(t *testing.T) {
	ranges := [][2]float64{{1e12, 1.000000000000001e12}, {-3009085439.786, -3009085439.78599}, {-3e20, -3e20 + 1e6}}
	for _, r := range ranges {
		done := make(chan []plot.Tick)
		go func() { done <- (siTicks{n: 5}).Ticks(r[0], r[1]) }()
		select {
		case ts := <-done:
			if len(ts) != 2 || ts[0].Value != r[0] || ts[1].Value != r[1] || ts[0].Label == ts[1].Label {
				t.Errorf("%v: ticks %v, want the two ends, labelled apart", r, ts)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%v: no ticks after 5 s", r)
		}
	}
	if ts := (siTicks{n: 5}).Ticks(1e12, 1e12+1e3); len(ts) < 5 {
		t.Errorf("a range of 1000 at 1e12: %d ticks, want round ones", len(ts))
	}
}
