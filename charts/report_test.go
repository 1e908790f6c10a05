package charts

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"tcpviz/analyze"
)

// pageData is the JSON of a report page, as its script reads it.
type pageData struct {
	Conns []struct {
		Stream int    `json:"stream"`
		Label  string `json:"label"`
		Graphs []struct {
			Title  string    `json:"title"`
			Range  []float64 `json:"range"`
			Series []struct {
				Name  string      `json:"name"`
				Kind  string      `json:"kind"`
				Total int         `json:"total"`
				N     int         `json:"n"`
				F     []int64     `json:"f"`
				T     []int64     `json:"t"`
				V     [][]float64 `json:"v"`
			} `json:"series"`
		} `json:"graphs"`
	} `json:"conns"`
}

// readPage returns the JSON embedded in a report page, decoded.
func readPage(t *testing.T, page string) pageData {
	t.Helper()
	const open = `<script type="application/json" id="tcpviz-data">`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatal("no data script in the page")
	}
	rest := page[i+len(open):]
	j := strings.Index(rest, "</script>")
	var d pageData
	if err := json.Unmarshal([]byte(rest[:j]), &d); err != nil {
		t.Fatalf("data script: %v", err)
	}
	return d
}

func reportOf(recs []analyze.Record, o analyze.SeriesOptions) ([]ReportGraph, []*analyze.Graph) {
	var gs []ReportGraph
	var graphs []*analyze.Graph
	for _, rg := range ReportGraphs() {
		g := rg.Spec.Draw(recs, o, rg.Params)
		if pointCount(g) > 0 {
			gs = append(gs, newReportGraph(g, Caption(rg), "", 0, 0))
			graphs = append(graphs, g)
		}
	}
	return gs, graphs
}

// TestReportLargeBounded: the page of a 636k-segment connection takes
// under 2.5 MB, so that of the bench capture (eight such connections)
// stays under 20 MB; every series but the marks holds at most 4 points
// per pixel column, and every retransmission and mark is there. (With
// -race, a quarter of the segments: the page is as large.)
func TestReportLargeBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	n := 636000
	if raceDetector {
		n /= 4
	}
	c, recs := synthetic(n)
	gs, graphs := reportOf(recs, analyze.SeriesOptions{Conn: c})
	r := &Report{Capture: "bench.pcap"}
	r.Conns = append(r.Conns, ReportConn{Stream: 1, Label: "10.0.0.1:40512 → 10.0.0.2:5201", Graphs: gs})
	var buf bytes.Buffer
	if err := writeReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("index.html: %.2f MB for a connection of %d segments", float64(buf.Len())/1e6, n)
	if buf.Len() > 2.5e6 {
		t.Errorf("index.html is %d bytes, want at most 2.5 MB", buf.Len())
	}
	d := readPage(t, buf.String())
	if len(d.Conns) != 1 || len(d.Conns[0].Graphs) != len(gs) {
		t.Fatalf("%d connections, %d graphs", len(d.Conns), len(d.Conns[0].Graphs))
	}
	retrans := 0
	for i, g := range d.Conns[0].Graphs {
		for j, s := range g.Series {
			n := len(s.F)
			if len(s.T) != n || len(s.V) != s.N || s.N > 0 && len(s.V[0]) != n {
				t.Errorf("%s, %s: %d frames, %d times, %d columns", g.Title, s.Name, n, len(s.T), len(s.V))
			}
			if want := len(graphs[i].Series[j].Points); s.Total != want {
				t.Errorf("%s, %s: total %d, want %d", g.Title, s.Name, s.Total, want)
			}
			switch {
			case s.Kind == "spans":
				if n%2 != 0 || n > 8*DefaultWidth {
					t.Errorf("%s, %s: %d points of bands, want pairs, at most two a pixel", g.Title, s.Name, n)
				}
			case s.Kind == "marks" || s.Name == analyze.SeriesRetrans && s.Total <= PagePointsPerPixel*DefaultWidth:
				if n != s.Total {
					t.Errorf("%s, %s: %d of %d points kept, want all", g.Title, s.Name, n, s.Total)
				}
			case n > PagePointsPerPixel*DefaultWidth:
				t.Errorf("%s, %s: %d points, want at most %d", g.Title, s.Name, n, PagePointsPerPixel*DefaultWidth)
			case s.Total > 10*n && n < DefaultWidth/2:
				t.Errorf("%s, %s: thinned from %d to %d points, too coarse", g.Title, s.Name, s.Total, n)
			}
			if g.Title == "Time/sequence (tcptrace)" && s.Name == analyze.SeriesRetrans {
				retrans = n
			}
		}
	}
	if retrans != n/997 {
		t.Errorf("%d retransmissions in the time/sequence graph, want %d", retrans, n/997)
	}
}

// TestReportPagePoints: frames and times come back exactly from their
// delta encoding, and a merged bar spans the bars it merged.
func TestReportPagePoints(t *testing.T) {
	c, recs := synthetic(20000)
	g := tcptraceGraph(recs, analyze.SeriesOptions{Conn: c})
	var buf bytes.Buffer
	if err := writeReport(&buf, &Report{Conns: []ReportConn{{Graphs: []ReportGraph{newReportGraph(g, "seq", "", 200, 100)}}}}); err != nil {
		t.Fatal(err)
	}
	d := readPage(t, buf.String())
	s, src := d.Conns[0].Graphs[0].Series[0], g.Series[0]
	if s.Name != analyze.SeriesData || len(s.F) >= len(src.Points) || len(s.F) > PagePointsPerPixel*200 {
		t.Fatalf("%s: %d of %d points", s.Name, len(s.F), len(src.Points))
	}
	byFrame := map[int64]analyze.Point{}
	for _, p := range src.Points {
		byFrame[p.Frame] = p
	}
	var f, tm int64
	top := 0.0
	for k := range s.F {
		f += s.F[k]
		tm += s.T[k]
		p, ok := byFrame[f]
		if !ok || p.Time-g.TimeOrigin != tm || p.V[0] != s.V[0][k] || s.V[1][k] < p.V[1] {
			t.Fatalf("point %d: frame %d time %d seq %v–%v; the graph's point %+v", k, f, tm, s.V[0][k], s.V[1][k], p)
		}
		top = max(top, s.V[1][k])
	}
	if want := src.Points[len(src.Points)-1].V[1]; top < want {
		t.Errorf("the merged bars end at %v, the data at %v", top, want)
	}
}

// TestReportEscapes: text from captures can neither end the data script
// nor add markup, and comes back intact from the JSON.
func TestReportEscapes(t *testing.T) {
	c, recs := synthetic(50)
	evil := `</script><script>alert(1)</script><!-- & "q" ` + "\u2028"
	r := &Report{Capture: evil + ".pcap", Conns: []ReportConn{{Stream: 3, Label: evil, Diagnosis: evil,
		Facts: []Fact{{Label: evil, Value: evil}}}}}
	r.Conns[0].Graphs, _ = reportOf(recs, analyze.SeriesOptions{Conn: c})
	var buf bytes.Buffer
	if err := writeReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<script>alert") || strings.Count(page, "<script") != 2 || strings.Count(page, "</script>") != 2 {
		t.Errorf("capture text not escaped: %d script elements", strings.Count(page, "<script"))
	}
	if d := readPage(t, page); d.Conns[0].Label != evil || d.Conns[0].Stream != 3 {
		t.Errorf("label %q, stream %d", d.Conns[0].Label, d.Conns[0].Stream)
	}
}
