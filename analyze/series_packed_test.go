package analyze

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"tcpviz/internal/gencap"
	"tcpviz/reassembly"
)

// samePoints says where two lists of points differ, comparing values bit
// for bit (a NaN, −0 and every payload included).
func samePoints(got, want []Point) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d points, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Frame != w.Frame || g.Time != w.Time {
			return fmt.Errorf("point %d: frame %d time %d, want %d %d", i, g.Frame, g.Time, w.Frame, w.Time)
		}
		for k := range g.V {
			if math.Float64bits(g.V[k]) != math.Float64bits(w.V[k]) {
				return fmt.Errorf("point %d value %d: %v (%#x), want %v (%#x)", i, k, g.V[k], math.Float64bits(g.V[k]), w.V[k], math.Float64bits(w.V[k]))
			}
		}
	}
	return nil
}

func packAll(pts []Point) *packedPoints {
	pk := &packedPoints{}
	for _, p := range pts {
		pk.add(p)
	}
	return pk
}

// TestPackedPointsRoundTrip: every point comes back bit for bit, the
// values that are not whole numbers an int64 holds exactly (a fraction,
// −0, NaN with its payload, ±Inf, beyond 2^53) as well as those that are;
// frames and times going back or jumping across int64's range too.
func TestPackedPointsRoundTrip(t *testing.T) {
	odd := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, -2.25, math.NaN(), math.Float64frombits(0x7ff8_0000_dead_beef),
		math.Inf(1), math.Inf(-1), 1 << 53, -(1 << 53), 1<<53 + 2, -(1<<53 + 2), 1e300, -1e300, math.SmallestNonzeroFloat64,
		math.MaxFloat64, 4294967295, 1448, 0.1}
	var pts []Point
	for i, v := range odd {
		pts = append(pts, Point{Frame: int64(i), Time: int64(i) * 1000, V: [3]float64{v, odd[(i+7)%len(odd)], float64(i)}})
	}
	pts = append(pts,
		Point{Frame: math.MaxInt64, Time: math.MinInt64, V: [3]float64{1 << 53, -(1 << 53), 0}},
		Point{Frame: math.MinInt64, Time: math.MaxInt64, V: [3]float64{-(1 << 53), 1 << 53, 3}},
		Point{Frame: 0, Time: 0})
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		p := pts[len(pts)-1]
		p.Frame += rng.Int64N(5) - 1
		p.Time += rng.Int64N(1e9)
		p.V[0] += float64(rng.IntN(3000) - 1000)
		p.V[1] = float64(rng.Int64N(1<<40)) / 8
		p.V[2] = rng.NormFloat64()
		pts = append(pts, p)
	}
	pk := packAll(pts[:len(pts)/2])
	first := &pk.full[0][0]
	for _, p := range pts[len(pts)/2:] {
		pk.add(p)
	}
	if pk.n != len(pts) {
		t.Fatalf("packed %d points, added %d", pk.n, len(pts))
	}
	if len(pk.full) < 4 || &pk.full[0][0] != first {
		t.Errorf("%d chunks, the first moved %v: want the bytes kept where written, in chunks", len(pk.full), &pk.full[0][0] != first)
	}
	if err := samePoints(pk.appendTo(nil), pts); err != nil {
		t.Fatal(err)
	}
	head := pts[:3]
	if err := samePoints(pk.appendTo(head[:3:3]), append(head[:3:3], pts...)); err != nil {
		t.Errorf("appended after 3: %v", err)
	}
	even := pk.filter(func(p Point) bool { return p.Frame%2 == 0 })
	var want []Point
	for _, p := range pts {
		if p.Frame%2 == 0 {
			want = append(want, p)
		}
	}
	if err := samePoints(even.appendTo(nil), want); err != nil {
		t.Errorf("filtered: %v", err)
	}
	// A series' ordinary points: whole numbers a few apart, as bytes and
	// sequence numbers are, take less than a quarter of their 40 bytes.
	var seqs []Point
	for i := range 1000 {
		seqs = append(seqs, Point{Frame: int64(2 * i), Time: int64(i) * 12000, V: [3]float64{float64(i * 1448), float64(i*1448 + 1448), 0}})
	}
	if n := packAll(seqs).size(); n > 1000*40/4 {
		t.Errorf("1000 sequence points packed in %d bytes, more than a quarter of %d", n, 1000*40)
	}
}

// FuzzPackedPoints: whatever the points, packed and unpacked they are the
// same, bit for bit.
func FuzzPackedPoints(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40})
	f.Add(binary.LittleEndian.AppendUint64(make([]byte, 16), math.Float64bits(math.NaN())))
	f.Fuzz(func(t *testing.T, b []byte) {
		var pts []Point
		word := func(i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
		for ; len(b) >= 40; b = b[40:] {
			p := Point{Frame: int64(word(0)), Time: int64(word(8))}
			for k := range p.V {
				p.V[k] = math.Float64frombits(word(16 + 8*k))
				if b[16+8*k]&1 == 0 { // a whole number half the time
					p.V[k] = float64(int64(word(16+8*k)) >> 10)
				}
			}
			pts = append(pts, p)
		}
		if err := samePoints(packAll(pts).appendTo(nil), pts); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPackMatchesUnpacked: with LoadOptions.Pack, every graph, once
// unpacked, is the graph Load gives without it — the chosen connection's
// series past thinAfter points, packed as read, and thinned series,
// packed once thinned — on captures long enough that some are packed.
func TestPackMatchesUnpacked(t *testing.T) {
	var reqs []GraphRequest
	for _, s := range Graphs("") {
		reqs = append(reqs, GraphRequest{Spec: s})
	}
	for _, tc := range []struct {
		name           string
		pcap           func() []byte
		thin, thinOver int
	}{
		{"retransmission storm", func() []byte { return read(t, gencap.Retransmissions(70000, 100, 1000, 25000)) }, 0, 0},
		{"long flight, acknowledged", func() []byte { return read(t, gencap.Flight(70000, 1448, 30000, true, 4294900000)) }, 0, 0},
		{"long flight, thinned", func() []byte { return read(t, gencap.Flight(70000, 1448, 30000, true, 4294900000)) }, 2000, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.pcap()
			open := func() (*reassembly.Reader, error) { return reassembly.NewReader(bytes.NewReader(data)) }
			load := func(pack bool) []*Loaded {
				l, err := Load(open, LoadOptions{Stream: -1, Dir: -1, Graphs: reqs, Busiest: 3, Pack: pack, AlsoThin: tc.thin, ThinOver: tc.thinOver})
				if err != nil {
					t.Fatal(err)
				}
				return append([]*Loaded{l}, l.Others...)
			}
			plain, packed := load(false), load(true)
			if len(plain) != len(packed) {
				t.Fatalf("%d connections packed, %d without", len(packed), len(plain))
			}
			n := 0
			for c, l := range packed {
				for i, g := range l.Graphs {
					if g == nil {
						continue
					}
					for _, s := range g.Series {
						if s.packed != nil {
							n++
						}
					}
					if got, want := g.points(), plain[c].Graphs[i].points(); got != want {
						t.Errorf("stream %d %s: %d points packed, %d without", l.Conn.Stream, reqs[i].Spec.Title, got, want)
					}
					g.Unpack()
					if err := sameGraph(g, plain[c].Graphs[i]); err != nil {
						t.Errorf("stream %d %s: %v", l.Conn.Stream, reqs[i].Spec.Title, err)
					}
				}
			}
			if n == 0 {
				t.Fatal("no series packed: the test needs one past thinAfter points, or a thinned one past packThinned")
			}
			t.Logf("%d series packed", n)
		})
	}
}

func read(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// points is the number of points in all of g's series, packed or not.
func (g *Graph) points() int {
	n := 0
	for i := range g.Series {
		n += g.Series[i].size()
	}
	return n
}

// sameGraph says where two graphs differ: their series' points bit for
// bit, the rest as reflect.DeepEqual sees it.
func sameGraph(got, want *Graph) error {
	if (got == nil) != (want == nil) {
		return fmt.Errorf("graph %v, want %v", got != nil, want != nil)
	}
	if got == nil {
		return nil
	}
	if len(got.Series) != len(want.Series) {
		return fmt.Errorf("%d series, want %d", len(got.Series), len(want.Series))
	}
	for i := range got.Series {
		if err := samePoints(got.Series[i].Points, want.Series[i].Points); err != nil {
			return fmt.Errorf("series %s: %v", want.Series[i].Name, err)
		}
	}
	g, w := *got, *want
	g.Series, w.Series = nil, nil
	for _, s := range got.Series {
		s.Points = nil
		g.Series = append(g.Series, s)
	}
	for _, s := range want.Series {
		s.Points = nil
		w.Series = append(w.Series, s)
	}
	if !reflect.DeepEqual(g, w) {
		return fmt.Errorf("graphs differ besides their points:\n%+v\nwant\n%+v", g, w)
	}
	return nil
}

// TestSpuriousMovePacked: segments proven spurious leave a packed series
// as they leave one that is not, and join the spurious ones (packed or
// not) in capture order.
func TestSpuriousMovePacked(t *testing.T) {
	n := int64(thinAfter + 100)
	run := func(pack bool) ([]Series, bool) {
		set := &seriesSet{thin: thinning{pack: pack}}
		sf := &spuriousFinder{frames: map[int64]bool{}}
		set.add(SeriesSpurious, Dots, Point{Frame: 7, Time: 7, V: [3]float64{7}})
		for f := range n {
			p := Point{Frame: f, Time: 10 * f, V: [3]float64{float64(1448 * f), 0.5}}
			set.add(SeriesRetrans, Dots, p)
			if f == 5 || f == n-3 || f%1000 == 999 {
				sf.frames[f] = true
				sf.proven = append(sf.proven, p)
			}
		}
		was := set.get(SeriesRetrans).s.packed != nil
		sf.move(set, Dots, SeriesRetrans)
		out := set.list(SeriesRetrans, SeriesSpurious)
		for i := range out {
			out[i].unpack()
		}
		return out, was
	}
	plain, _ := run(false)
	packed, was := run(true)
	if !was {
		t.Fatal("the retransmissions were not packed")
	}
	if len(plain) != 2 || len(packed) != 2 {
		t.Fatalf("%d series, %d packed, want 2", len(plain), len(packed))
	}
	if got, want := len(plain[1].Points), 1+2+int(n/1000); got != want {
		t.Errorf("%d spurious, want %d", got, want)
	}
	for i := range plain {
		if err := samePoints(packed[i].Points, plain[i].Points); err != nil {
			t.Errorf("%s: %v", plain[i].Name, err)
		}
	}
}

// TestPackedPointsLargest: points that each take the most bytes packed
// (frames and times jumping across int64's range, no whole value) fit
// the room add makes for one (maxPackedPoint), whatever room is left in
// the buffer, and come back bit for bit.
func TestPackedPointsLargest(t *testing.T) {
	var pts []Point
	for i := range 1000 {
		// Differences of math.MinInt64 each (wrapping): ten bytes.
		f, v := int64(math.MinInt64), math.Float64frombits(0x7ff8_0000_0000_0000|uint64(i))
		if i%2 == 1 {
			f = 0
		}
		pts = append(pts, Point{Frame: f, Time: f, V: [3]float64{v, 0.5, math.Copysign(0, -1)}})
	}
	pk := packAll(pts)
	if want := len(pts) * (2*binary.MaxVarintLen64 + 3*9); pk.size() != want {
		t.Errorf("%d bytes packed, want %d", pk.size(), want)
	}
	if err := samePoints(pk.appendTo(nil), pts); err != nil {
		t.Fatal(err)
	}
}
