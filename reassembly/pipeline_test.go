package reassembly

import (
	"fmt"
	"os"
	"testing"
)

// TestPipelineEqualsPlainScan: a pipelined scanner returns, on every
// capture at hand (damaged ones included), the same segments assigned to
// the same streams, the same retirements, warnings, counts and error as a
// plain one; and Close stops it midway.
func TestPipelineEqualsPlainScan(t *testing.T) {
	type trace struct {
		segs    []Segment
		streams []int
		retired []int
		warns   string
		stats   DecodeStats
		packets int64
		err     string
	}
	scan := func(path string, pipe bool) (trace, bool) {
		f, err := os.Open(path)
		if err != nil {
			return trace{}, false
		}
		defer f.Close()
		r, err := NewReader(f)
		if err != nil {
			return trace{}, false
		}
		sc := NewScanner(r)
		if pipe {
			sc.Pipeline()
			defer sc.Close()
		}
		var tr trace
		sc.Tracker().OnRetire = func(c *Conn) { tr.retired = append(tr.retired, c.Stream) }
		for sc.Scan() {
			tr.segs = append(tr.segs, *sc.Segment())
			tr.streams = append(tr.streams, sc.Conn().Stream)
		}
		ws, more := sc.Warnings()
		tr.warns = fmt.Sprint(ws, more)
		tr.stats, tr.packets = sc.Stats(), sc.Packets()
		if err := sc.Err(); err != nil {
			tr.err = err.Error()
		}
		return tr, true
	}
	n := 0
	paths := differentialCaptures(t)
	if raceEnabled {
		paths = paths[:min(len(paths), 40)] // the race detector's share: the first 40
	}
	for _, path := range paths {
		plain, ok := scan(path, false)
		if !ok {
			continue
		}
		piped, _ := scan(path, true)
		same := len(plain.segs) == len(piped.segs) && fmt.Sprint(plain.retired, plain.warns, plain.stats, plain.packets, plain.err) ==
			fmt.Sprint(piped.retired, piped.warns, piped.stats, piped.packets, piped.err)
		for i := 0; same && i < len(plain.segs); i++ {
			same = plain.segs[i] == piped.segs[i] && plain.streams[i] == piped.streams[i]
		}
		if !same {
			for i := range min(len(plain.segs), len(piped.segs)) {
				if plain.segs[i] != piped.segs[i] || plain.streams[i] != piped.streams[i] {
					t.Fatalf("%s: segment %d:\nplain %d %+v\npiped %d %+v", path, i, plain.streams[i], plain.segs[i], piped.streams[i], piped.segs[i])
				}
			}
			t.Fatalf("%s: plain %d segments, warnings %s, stats %+v, %d packets, err %q; piped %d, %s, %+v, %d, %q", path,
				len(plain.segs), plain.warns, plain.stats, plain.packets, plain.err,
				len(piped.segs), piped.warns, piped.stats, piped.packets, piped.err)
		}
		n += len(plain.segs)
	}
	if n < 10000 {
		t.Fatalf("only %d segments compared", n)
	}

	// Close midway: the producer stops, nothing hangs.
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		r, err := NewReader(f)
		if err != nil {
			f.Close()
			continue
		}
		sc := NewScanner(r)
		sc.Pipeline()
		sc.Scan()
		sc.Close()
		f.Close()
		break
	}
}
