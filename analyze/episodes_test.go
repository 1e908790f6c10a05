package analyze

import (
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// TestPartialUndoDecidedByTracker: the tracker itself decides, at each
// partial ACK that undoes a fast retransmit's reduction without SACK,
// whether Linux enters recovery again (its event: partial with start)
// or leaves it undone (partial, undone), and counts the episodes so: the
// statistics, which read only its counts, get the cwnd graph's episodes
// (TestPartialUndoWithoutSACK's sequence: 14 fast retransmits, the last
// undone).
func TestPartialUndoDecidedByTracker(t *testing.T) {
	var e lossEpisodes
	ack := func(ms float64, ack int64, dup bool) episodeEvent {
		return e.ack(epAck{ack: ack, signal: dup, tsecr: 100, hasTS: true, time: int64(ms * 1e6)})
	}
	for i := range int64(20) { // a window of 20 segments
		e.data(1+i*1000, 1001+i*1000, (i+1)*1000, 0, 100, true)
	}
	ack(100, 1001, false)
	for i := range 5 { // five duplicate ACKs: the second segment lost
		ack(101+float64(i), 1001, true)
	}
	if e.renoDup != 5 {
		t.Fatalf("Linux's count of duplicate ACKs %d, want 5", e.renoDup)
	}
	if ev := e.data(1001, 2001, 19000, Retransmission, 200, true); !ev.start || !ev.fast {
		t.Fatalf("the fast retransmit: %+v", ev)
	}
	var reentered, undone int
	for k := int64(2); k <= 15; k++ {
		ev := ack(100*float64(k), k*1000+1, false)
		switch {
		case ev.partial && ev.start && ev.fast && !ev.undone:
			reentered++
		case ev.partial && !ev.start && ev.undone:
			undone++
			if k != 15 {
				t.Errorf("undone at the ACK of %d, want at 15001 (five out, as many as the duplicate ACKs counted)", k*1000+1)
			}
		default:
			t.Errorf("the partial ACK of %d: %+v, want a partial undo", k*1000+1, ev)
		}
		if k < 15 {
			e.data(k*1000+1, k*1000+1001, 0, Retransmission, uint32(100*k+100), true)
		}
	}
	if reentered != 13 || undone != 1 {
		t.Errorf("%d re-entries and %d undone, want 13 and 1", reentered, undone)
	}
	if e.fast != 14 || e.rto != 0 || e.undone != 1 {
		t.Errorf("episodes %d fast + %d timeout, %d undone; want 14 + 0, 1 undone (the graph's marks)", e.fast, e.rto, e.undone)
	}
	if e.inEpisode {
		t.Error("still in an episode after the undo")
	}
}

// TestTrackerSkipsLateOriginals: at a receiver-side capture an original
// the path found late (reordered on the way) is no resend, and the loss
// episodes are the drops' (gt_nots_reorder at the receiver: 8 drops in
// the link's log, a third of the segments late; the tracker counted 309
// fast-retransmit episodes when it took every segment below the highest
// as a resend), the holes the late data closed are reordered_holes.
func TestTrackerSkipsLateOriginals(t *testing.T) {
	r := capturetest.Reader(t, "../testdata/truth-extra/gt_nots_reorder.rx.pcap")
	var st *DirStats
	_, err := Run(r, RunOptions{Analyze: true, Keep: -1, OnConn: func(c *ConnResult) {
		if s := c.Stats[reassembly.C2S]; s.DataBytes > 1<<20 {
			st = &s
		}
	}})
	if err != nil || st == nil {
		t.Fatalf("no bulk connection (%v)", err)
	}
	if st.Path.Vantage != VantageReceiver || st.Path.Reordered < 100 {
		t.Fatalf("vantage %s, %d late: not the receiver-side capture with reordering this needs", st.Path.Vantage, st.Path.Reordered)
	}
	if eps := st.LossEpisodesFast + st.LossEpisodesRTO; eps == 0 || eps > 8 {
		t.Errorf("%d loss episodes (%d fast, %d timeouts) for 8 drops", eps, st.LossEpisodesFast, st.LossEpisodesRTO)
	}
	if st.ReorderedHoles < 100 {
		t.Errorf("%d holes closed by late data, want the reordering's", st.ReorderedHoles)
	}
}
