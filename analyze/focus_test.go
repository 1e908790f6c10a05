package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestLoadFocusedMatchesWhole: Load's second pass, reading the busiest
// connection alone (reassembly.Focus), gives what reading the whole
// capture gives — connection, records, statistics, warnings, error — for
// every capture here and in the shared corpus. (reassembly's
// TestFocusPortReuse shows the comparison failing on a wrong focus.)
func TestLoadFocusedMatchesWhole(t *testing.T) {
	focused := 0
	for _, name := range golden.Captures() {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = reassembly.NewReader(f)
		f.Close()
		if err != nil {
			continue // not a capture
		}
		open := capturetest.Opener(t, name)
		if first, err := Run(capturetest.Reader(t, name), RunOptions{Keep: -1}); err == nil && first.focusable && first.Busiest >= 0 {
			focused++
		}
		got, errGot := Load(open, LoadOptions{Stream: -1, Dir: -1})
		want, errWant := Load(open, LoadOptions{Stream: -1, Dir: -1, whole: true})
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) {
			t.Errorf("%s: error %v, whole %v", filepath.Base(name), errGot, errWant)
		}
		if (got == nil) != (want == nil) {
			t.Errorf("%s: loaded %v, whole %v", filepath.Base(name), got != nil, want != nil)
			continue
		}
		if got == nil {
			continue
		}
		switch {
		case !reflect.DeepEqual(*got.Conn, *want.Conn):
			t.Errorf("%s: connection\n got %+v\nwant %+v", filepath.Base(name), *got.Conn, *want.Conn)
		case got.Dir != want.Dir || !reflect.DeepEqual(got.Stats, want.Stats):
			t.Errorf("%s: direction or statistics differ", filepath.Base(name))
		case !reflect.DeepEqual(got.Records, want.Records):
			t.Errorf("%s: %d records, whole %d (or they differ)", filepath.Base(name), len(got.Records), len(want.Records))
		case !reflect.DeepEqual(got.Warnings, want.Warnings):
			t.Errorf("%s: warnings %+v, whole %+v", filepath.Base(name), got.Warnings, want.Warnings)
		}
	}
	t.Logf("%d captures read focused", focused)
	// The bundled captures alone (a fresh clone) are fewer.
	if least := golden.AtLeast(50, 23); focused < least {
		t.Errorf("only %d captures read focused, at least %d must be", focused, least)
	}
}

// TestLoadGivenStreamDrawsWhileReading: a graph of a given stream that
// needs the connection's final numbering (absolute sequence numbers) or
// its times (thinned for a picture) takes a first pass that finds them,
// then is drawn while the connection is read, keeping no records: the
// same graph as drawn from the records, and on a storm of retransmissions
// a thinned one whose points do not grow with the storm.
func TestLoadGivenStreamDrawsWhileReading(t *testing.T) {
	seq, _ := lookupGraph(GraphTCPTrace)
	abs := GraphRequest{Spec: seq, Series: SeriesOptions{AbsoluteSeq: true}}
	if n := (LoadOptions{Stream: 1, Graphs: []GraphRequest{{Spec: seq}}}).Passes(); n != 1 {
		t.Errorf("a given stream, relative numbers, not thinned: %d passes, want 1", n)
	}
	if n := (LoadOptions{Stream: 1, Graphs: []GraphRequest{abs}}).Passes(); n != 2 {
		t.Errorf("absolute numbers: %d passes, want 2", n)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "*.pcap*"))
	for _, p := range []string{"truth/gt_vsat_reno_loss.rx.pcap", "lab/geo_pep_85k.pcap", "real/tcptrace__sack_nasa_sim.dump.gz"} {
		if p := filepath.Join(golden.SharedCaptures(), p); exists(p) {
			paths = append(paths, p)
		}
	}
	drawn := 0
	for _, path := range paths {
		open := capturetest.Opener(t, path)
		for stream := range 2 {
			want, err := Load(open, LoadOptions{Stream: stream, Dir: -1})
			if err != nil {
				continue
			}
			got, err := Load(open, LoadOptions{Stream: stream, Dir: -1, Graphs: []GraphRequest{abs}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Records) > 0 || len(got.Graphs) != 1 {
				t.Fatalf("%s stream %d: %d records kept, %d graphs", filepath.Base(path), stream, len(got.Records), len(got.Graphs))
			}
			g := seq.Draw(want.Records, SeriesOptions{Conn: want.Conn, Dir: want.Dir, AbsoluteSeq: true}, GraphParams{})
			if a, b := fmt.Sprintf("%+v", *got.Graphs[0]), fmt.Sprintf("%+v", *g); a != b {
				t.Fatalf("%s stream %d: drawn while reading\n%.1500s\nfrom the records\n%.1500s", filepath.Base(path), stream, a, b)
			}
			drawn++
		}
	}
	if drawn < 6 {
		t.Errorf("only %d graphs compared", drawn)
	}

	// 200,000 copies of one segment: thinned to 400 columns, the graph
	// holds a few points per column.
	storm := func() (*reassembly.Reader, error) {
		return reassembly.NewReader(gencap.Retransmissions(200000, 100, 1000, 25000))
	}
	points := func(thin int) (n, unthinned int) {
		q := GraphRequest{Spec: seq, Series: SeriesOptions{Thin: thinning{Cols: thin}}}
		l, err := Load(storm, LoadOptions{Stream: 0, Dir: -1, Graphs: []GraphRequest{q}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range l.Graphs[0].Series {
			unthinned += max(s.Unthinned, len(s.Points))
		}
		return l.Graphs[0].points(), unthinned
	}
	whole, all := points(0)
	thinned, before := points(400)
	if whole < 200000 || thinned > 20000 || before != all {
		t.Errorf("storm: %d points whole (want all 200,000 and more), %d thinned to 400 columns, which says it had %d", whole, thinned, before)
	}
}
