package analyze

import "testing"

// TestEmptyPathSpared: burstTail counts an original lone when at most one
// segment was outstanding before it (the highest cumulative ACK against
// the highest end sent), and lostLone when such a one is resent; a
// segment sent into a flight of two or more is not lone.
func TestEmptyPathSpared(t *testing.T) {
	const seg = 1000
	var b burstTail
	ms := int64(1e6)
	b.rev(0, 1)                                   // the SYN/ACK acknowledges the SYN
	b.data(1, 1+seg, 10*ms, false, false)         // nothing out: lone
	b.data(1+seg, 1+2*seg, 11*ms, false, false)   // one out: lone
	b.data(1+2*seg, 1+3*seg, 12*ms, false, false) // two out: not
	b.data(1+3*seg, 1+4*seg, 13*ms, false, false) // three out: not
	if b.originals != 4 || b.lone != 2 {
		t.Fatalf("%d originals, %d lone; want 4, 2", b.originals, b.lone)
	}
	b.rev(60*ms, 1+3*seg)                          // the first three arrived
	b.data(1+4*seg, 1+5*seg, 61*ms, false, false)  // one out (the fourth): lone
	b.data(1+3*seg, 1+4*seg, 300*ms, false, false) // the fourth resent: not lone
	b.data(1+4*seg, 1+5*seg, 301*ms, false, false) // the fifth resent: lone
	if b.lone != 3 || b.lost != 2 || b.lostLone != 1 {
		t.Errorf("%d lone, %d resent, %d of them lone; want 3, 2, 1", b.lone, b.lost, b.lostLone)
	}
	// A tail-loss probe of a lone original: no loss for the share of all
	// resent, but one of the lone ones, once, whatever resends follow.
	b.rev(400*ms, 1+5*seg)
	b.data(1+5*seg, 1+6*seg, 401*ms, false, false) // nothing out: lone
	b.data(1+5*seg, 1+6*seg, 500*ms, true, true)   // its probe
	if b.lone != 4 || b.lost != 2 || b.lostLone != 2 {
		t.Errorf("after a probe: %d lone, %d resent, %d of them lone; want 4, 2, 2", b.lone, b.lost, b.lostLone)
	}
	b.data(1+5*seg, 1+6*seg, 800*ms, false, false) // then its timeout's resend
	if b.lost != 3 || b.lostLone != 2 {
		t.Errorf("after the probe's timeout: %d resent, %d of them lone; want 3, 2", b.lost, b.lostLone)
	}
}

// TestEmptyPathDrops: the test on the counts, at a sender-side capture:
// segments sent into an empty path resent far less often than all its
// segments tell a full queue; at the same share they do not, nor away
// from the sender.
func TestEmptyPathDrops(t *testing.T) {
	st := &DirStats{Path: PathStats{Vantage: VantageSender}, burstOriginals: 200, burstLost: 50, burstLone: 40, burstLostLone: 2}
	if b, ok := emptyPathDrops(st, &DirStats{}); !ok {
		t.Errorf("2 of 40 lone segments resent against a quarter of all: p %.2g, want the queue told", b.p)
	}
	st.burstLostLone = 10
	if b, ok := emptyPathDrops(st, &DirStats{}); ok {
		t.Errorf("10 of 40 lone segments resent, a quarter as all: p %.2g, want nothing told", b.p)
	}
	st.burstLostLone, st.Path.Vantage = 2, VantageReceiver
	if _, ok := emptyPathDrops(st, &DirStats{}); ok {
		t.Error("told at a receiver-side capture, whose flight is not the sender's")
	}
}
