package analyze

import (
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

// TestGraphMemoryBounded: the graphs of a retransmission storm drawn for
// a picture hold a bounded number of points, and the pass that draws them
// keeps no records: five times the storm takes no more heap (keeping the
// records and every point took 280 bytes a packet, 59 MB more here).
func TestGraphMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	// Both beyond thinAfter, so that the heap compares thinned series.
	small, large := 70_000, 280_000
	if raceEnabled {
		// The race detector makes the storm minutes long: one storm, its
		// records and points checked (stormGraphs), not the heap's growth.
		stormGraphs(t, thinAfter+1000)
		return
	}
	if s := os.Getenv("TCPVIZ_STORM"); s != "" {
		large, _ = strconv.Atoi(s)
	}
	// Collect often, so that the sampled heap follows what is kept, not
	// the garbage a loaded machine's collector has not reached yet (at
	// the default pace, with other tests running, the two storms' growth
	// ranged 36–50 and 45–66 MB).
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	a := stormGraphs(t, small)
	b := stormGraphs(t, large)
	t.Logf("the heap grew by at most %.1f MB (%d packets), %.1f MB (%d)", float64(a)/1e6, small, float64(b)/1e6, large)
	if b > a+24<<20 || b > 96<<20 {
		t.Errorf("drawing %d packets of the storm took %.1f MB of heap, %d packets %.1f MB: memory follows the capture",
			large, float64(b)/1e6, small, float64(a)/1e6)
	}
}

// stormGraphs draws every graph of a storm of n retransmissions for a
// picture and returns how far the heap grew meanwhile (sampled).
func stormGraphs(t *testing.T, n int) int64 {
	open := func() (*reassembly.Reader, error) {
		return reassembly.NewReader(gencap.Retransmissions(n, 10, 1000, 25_000))
	}
	var reqs []GraphRequest
	for _, g := range Graphs("") {
		reqs = append(reqs, GraphRequest{Spec: g, Series: SeriesOptions{Thin: thinning{Cols: 4800}}})
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
		}
	}()
	l, err := Load(open, LoadOptions{Stream: -1, Dir: -1, Graphs: reqs})
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) > 0 {
		t.Errorf("%d records kept", len(l.Records))
	}
	for i, g := range l.Graphs {
		// A few points per column and series.
		if p := g.points(); p > 8*4802*len(g.Series)+thinAfter {
			t.Errorf("%s: %d points kept", reqs[i].Spec.Kind, p)
		}
	}
	if r := l.Graphs[0].lookup(SeriesRetrans); n > thinAfter && (r == nil || len(r.Points) > 4*4802+8) {
		t.Errorf("the storm's retransmissions are not thinned to a few per column")
	}
	return int64(peak.Load()) - int64(base.HeapAlloc)
}

// TestThinning: a thinned series keeps, in each column, what the picture
// draws of all its points: a line's first, lowest, highest and last
// points, the union of the bars, one dot per value; and the points that
// set the axes (earliest, latest, highest).
func TestThinning(t *testing.T) {
	th := thinning{From: 0, To: 1000, Cols: 10}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []SeriesKind{Lines, Bars, Dots} {
		var all []Point
		ts := &thinSeries{cols: make([][]thinPoint, th.Cols+2)}
		for i := range 5000 {
			tm := int64(rng.IntN(1200)) - 100
			if k == Lines {
				tm = int64(i) / 5
			}
			y := float64(rng.IntN(200)) // fewer values than maxPerColumn
			p := Point{Frame: int64(i + 1), Time: tm, V: [3]float64{y, y + float64(rng.IntN(3))}}
			all = append(all, p)
			ts.add(&th, k, 0, p)
		}
		got := ts.points(&th, k)
		byCol := func(pts []Point) map[int][]Point {
			m := map[int][]Point{}
			for _, p := range pts {
				m[th.col(p.Time)] = append(m[th.col(p.Time)], p)
			}
			return m
		}
		want, have := byCol(all), byCol(got)
		for c, w := range want {
			h := have[c]
			switch k {
			case Lines:
				lo := slices.MinFunc(w, func(a, b Point) int { return cmpV(a, b) })
				hi := slices.MaxFunc(w, func(a, b Point) int { return cmpV(a, b) })
				if h[0] != w[0] || h[len(h)-1] != w[len(w)-1] || slices.MinFunc(h, cmpV).V[0] != lo.V[0] || slices.MaxFunc(h, cmpV).V[0] != hi.V[0] {
					t.Errorf("lines, column %d: kept %v of %d points", c, h, len(w))
				}
			case Bars:
				if !slices.Equal(cover(w), cover(h)) {
					t.Errorf("bars, column %d: the bars kept cover other values", c)
				}
			case Dots:
				if !slices.Equal(values(w), values(h)) {
					t.Errorf("dots, column %d: the dots kept have other values", c)
				}
			}
		}
		if len(got) > 4*(th.Cols+2)+6 && k == Lines {
			t.Errorf("lines: %d points kept", len(got))
		}
	}
}

func cmpV(a, b Point) int {
	switch {
	case a.V[0] < b.V[0]:
		return -1
	case a.V[0] > b.V[0]:
		return 1
	}
	return 0
}

// cover lists the whole values the bars cover.
func cover(pts []Point) []int {
	var out []int
	for _, p := range pts {
		for v := int(p.V[0]); v <= int(p.V[1]); v++ {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func values(pts []Point) []float64 {
	var out []float64
	for _, p := range pts {
		out = append(out, p.V[0])
	}
	slices.Sort(out)
	return slices.Compact(out)
}
