package analyze

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestKarnGraphIsSummary: on every bundled and lab capture, for every
// connection direction, the Karn RTT graph plots exactly the samples the
// summary's karn_rtt_* columns describe (count, min, max), and the
// comparisons' slow start is the summary's.
func TestKarnGraphIsSummary(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.pcap*"))
	lab, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), "lab", "*"))
	paths = append(paths, lab...)
	checked := 0
	for _, path := range paths {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			recs := map[int][]Record{}
			conns := map[int]*reassembly.Conn{}
			stats := map[int][2]DirStats{}
			_, err := Run(capturetest.Reader(t, path), RunOptions{Analyze: true, Keep: -1,
				OnSegment: func(c *reassembly.Conn, _ *reassembly.Segment, r *Record) {
					conns[c.Stream] = c
					recs[c.Stream] = append(recs[c.Stream], *r)
				},
				OnConn: func(cr *ConnResult) { stats[cr.Info.Stream] = cr.Stats }})
			if err != nil {
				t.Fatal(err)
			}
			for stream, c := range conns {
				for d := reassembly.C2S; d <= reassembly.S2C; d++ {
					st := stats[stream][d]
					g := rttGraph(recs[stream], SeriesOptions{Conn: c, Dir: d}, GraphParams{Sampling: SampleKarn})
					var n int64
					lo, hi := math.Inf(1), 0.0
					if s := g.lookup(SeriesRTT); s != nil {
						for _, p := range s.Points {
							n++
							if p.V[0] > 0 { // tcptrace's minimum ignores a zero sample
								lo = min(lo, p.V[0])
							}
							hi = max(hi, p.V[0])
						}
					}
					if n != st.KarnRTTSamples {
						t.Errorf("stream %d %s: graph %d samples, summary %d", stream, d, n, st.KarnRTTSamples)
						continue
					}
					if n > 0 && (math.Abs(hi-st.KarnRTTMaxMs) > 1e-9 || !math.IsInf(lo, 1) && math.Abs(lo-st.KarnRTTMinMs) > 1e-9) {
						t.Errorf("stream %d %s: graph min/max %v/%v ms, summary %v/%v", stream, d, lo, hi, st.KarnRTTMinMs, st.KarnRTTMaxMs)
					}
					checked += int(n)
					l := &Loaded{Conn: c, Dir: d, Records: recs[stream], Stats: stats[stream]}
					if got := Summarize(l, TransferOptions{}).SlowStart; got != st.SlowStart {
						t.Errorf("stream %d %s: comparison's slow start %+v, summary's %+v", stream, d, got, st.SlowStart)
					}
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no Karn sample checked")
	}
}
