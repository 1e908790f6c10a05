package analyze

import (
	"testing"

	"tcpviz/reassembly"
)

// TestSeqSeriesByPathVerdict: with a path verdict the time/sequence graphs
// draw what the path did, whatever Wireshark's flags say; without one,
// Wireshark's flags. A D-SACK still moves the resend it proves spurious,
// never a late original, and never draws a segment twice.
func TestSeqSeriesByPathVerdict(t *testing.T) {
	var b builder
	withPath := func(r *Record, v PathVerdict) { r.Info.Path = v }
	withPath(b.data(0, 1, 1000, 0), PathNew)
	withPath(b.data(1, 1001, 1000, 0), PathNew)
	withPath(b.data(2, 3001, 1000, LostSegment), PathNew)
	// Wireshark's out-of-order, by its timing: the path knows it was sent before.
	withPath(b.data(3, 1, 1000, OutOfOrder), PathRetransmitted)
	// Wireshark's retransmission: a late original (receiver side).
	withPath(b.data(4, 2001, 1000, Retransmission), PathReordered)
	// Already received: spurious at once; its D-SACK changes nothing.
	withPath(b.data(5, 1001, 1000, Retransmission), PathSpurious)
	r := b.ack(6, 4001, 10000, 0)
	r.NSACK, r.SACK[0] = 1, [2]int64{1001, 2001}
	// A D-SACK covering the late original proves the resend below it.
	r = b.ack(7, 4001, 10000, 0)
	r.NSACK, r.SACK[0] = 1, [2]int64{1, 3001}
	// No verdict: Wireshark's flags.
	b.data(8, 4001, 1000, 0)
	b.data(9, 4001, 1000, Retransmission)
	b.data(10, 4001, 1000, OutOfOrder)

	o := SeriesOptions{Conn: testConn(), Dir: reassembly.C2S}
	want := map[string][]int64{ // frames
		SeriesData:       {1, 2, 3, 9},
		SeriesRetrans:    {10},
		SeriesOutOfOrder: {5, 11},
		SeriesSpurious:   {4, 6},
	}
	for _, g := range []*Graph{tcptraceGraph(b.recs, o), stevensGraph(b.recs, o)} {
		for name, frames := range want {
			var got []int64
			if s := g.lookup(name); s != nil {
				for _, p := range s.Points {
					got = append(got, p.Frame)
				}
			}
			if len(got) != len(frames) {
				t.Errorf("%s %s: frames %v, want %v", g.Kind, name, got, frames)
				continue
			}
			for i := range got {
				if got[i] != frames[i] {
					t.Errorf("%s %s: frames %v, want %v", g.Kind, name, got, frames)
					break
				}
			}
		}
	}
}
