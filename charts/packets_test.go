package charts

import (
	"testing"

	"tcpviz/analyze"
)

// TestPacketHold: rows come out in capture order; a resend's row waits
// for its proof, and for no longer than HoldTime of capture time or
// HoldRows rows behind it.
func TestPacketHold(t *testing.T) {
	row := func(frame, ns int64, v analyze.PathVerdict, proved ...int64) *PacketRow {
		r := &PacketRow{Proved: proved}
		r.Rec.Frame, r.Rec.Time, r.Rec.Info.Path = frame, ns, v
		return r
	}
	var out []PacketRow
	h := newPacketHold(func(r *PacketRow) { out = append(out, *r) })
	check := func(name string, n int, firstFrame int64, first analyze.PathVerdict) {
		t.Helper()
		if len(out) != n {
			t.Fatalf("%s: %d rows out, want %d", name, len(out), n)
		}
		for i := 1; i < len(out); i++ {
			if out[i].Rec.Frame <= out[i-1].Rec.Frame {
				t.Fatalf("%s: frame %d after %d", name, out[i].Rec.Frame, out[i-1].Rec.Frame)
			}
		}
		if n > 0 && (out[0].Rec.Frame != firstFrame || out[0].Rec.Info.Path != first) {
			t.Fatalf("%s: first row frame %d verdict %d, want %d %d", name, out[0].Rec.Frame, out[0].Rec.Info.Path, firstFrame, first)
		}
	}
	// Proven: the resend and the rows after it wait, then go out marked.
	h.Add(row(1, 0, analyze.PathNew))
	h.Add(row(2, 1e6, analyze.PathRetransmitted))
	for f := int64(3); f < 10; f++ {
		h.Add(row(f, f*1e6, analyze.PathNone))
	}
	if len(out) != 1 {
		t.Fatalf("%d rows out before the proof, want 1", len(out))
	}
	h.Add(row(10, 10e6, analyze.PathNone, 2))
	check("proven", 10, 1, analyze.PathNew)
	if out[1].Rec.Info.Path != analyze.PathSpurious || out[1].Proved != nil {
		t.Fatalf("the proven resend: verdict %d, proved %v", out[1].Rec.Info.Path, out[1].Proved)
	}
	// Never proven: out once HoldTime of capture time has passed.
	out = nil
	h.Add(row(11, 1e9, analyze.PathLostUpstream))
	h.Add(row(12, 1e9+HoldTime-1, analyze.PathNone))
	check("waiting", 0, 0, 0)
	h.Add(row(13, 1e9+HoldTime, analyze.PathNone))
	check("after HoldTime", 3, 11, analyze.PathLostUpstream)
	// Or once HoldRows rows wait behind it.
	out = nil
	h.Add(row(20, 2e10, analyze.PathRetransmitted))
	for f := int64(21); f < 21+HoldRows; f++ {
		h.Add(row(f, 2e10, analyze.PathNone))
	}
	check("HoldRows behind", HoldRows+1, 20, analyze.PathRetransmitted)
	// Flush: whatever waits.
	out = nil
	h.Add(row(30+HoldRows, 3e10, analyze.PathRetransmitted))
	h.Flush()
	check("flushed", 1, 30+HoldRows, analyze.PathRetransmitted)
}
