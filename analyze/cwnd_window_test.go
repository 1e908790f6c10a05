package analyze

import (
	"path/filepath"
	"slices"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// TestCwndTimeWindowSameLine: the cwnd graph of a time window (--from,
// --to) draws the line the whole graph has there — the state follows the
// whole capture, only the drawing is windowed — with the step in force
// at the window's start, the last to the window's last send; a window
// past the end draws nothing (a no-SACK transfer with timeouts, PRR and
// the loss state: every rule of the line is stateful).
func TestCwndTimeWindowSameLine(t *testing.T) {
	l, err := Load(capturetest.Opener(t, "../testdata/kernel-heldout/kh_reno_nosack_q.tx.pcap.gz"), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := lookupGraph(GraphCwnd)
	o := SeriesOptions{Conn: l.Conn, Dir: l.Dir}
	full := spec.Draw(l.Records, o, GraphParams{}).lookup(SeriesCwnd)
	valueAt := func(s *Series, ns int64) (float64, bool) {
		v, ok := 0.0, false
		for _, p := range s.Points {
			if p.Time <= ns {
				v, ok = p.V[0], true
			}
		}
		return v, ok
	}
	for _, w := range [][2]int64{{2e9, 6e9}, {5e8, 15e8}, {7e9, 9e9}} {
		o.Time = Range{Min: w[0], Max: w[1], HasMin: true, HasMax: true}
		win := spec.Draw(l.Records, o, GraphParams{}).lookup(SeriesCwnd)
		if win == nil || len(win.Points) == 0 {
			t.Fatalf("window %v: no line", w)
		}
		inside := 0
		for _, p := range full.Points {
			rel := p.Time - l.Records[0].Time
			if rel < w[0] || rel > w[1] {
				continue
			}
			inside++
			if v, ok := valueAt(win, p.Time); !ok || v != p.V[0] {
				t.Errorf("window %v at %.3f s: the windowed line %.0f (drawn %v), the whole graph's %.0f", w, float64(rel)/1e9, v, ok, p.V[0])
			}
		}
		if inside == 0 {
			t.Errorf("window %v: no step of the whole graph in it", w)
		}
		// The line lasts to the window's last burst of sends (the sends
		// between two ACKs), as the whole graph's to the capture's.
		var lastBurst int64
		afterACK := true
		for _, r := range l.Records {
			switch {
			case r.Dir == l.Dir && r.Len > 0:
				if rel := r.Time - l.Records[0].Time; afterACK && rel >= w[0] && rel <= w[1] {
					lastBurst = r.Time
				}
				afterACK = false
			case r.Dir != l.Dir && r.HasAck:
				afterACK = true
			}
		}
		if end := win.Points[len(win.Points)-1].Time; end != lastBurst {
			t.Errorf("window %v: the line ends at %.3f s, the window's last burst is at %.3f s", w,
				float64(end-l.Records[0].Time)/1e9, float64(lastBurst-l.Records[0].Time)/1e9)
		}
	}
	// A window past the connection's end has nothing to draw.
	o.Time = Range{Min: 1000e9, Max: 2000e9, HasMin: true, HasMax: true}
	if s := spec.Draw(l.Records, o, GraphParams{}).lookup(SeriesCwnd); s != nil && len(s.Points) > 0 {
		t.Errorf("a window past the end: %d points, want none", len(s.Points))
	}
}

// TestCwndAtReceiverNoHeldBands: at a receiver-side capture the cwnd
// graph draws no band where the sender's window was unknown: the holds
// are read from the flight, which the receiver does not see (a bulk
// transfer read as held by its application throughout, before).
func TestCwndAtReceiverNoHeldBands(t *testing.T) {
	l, err := Load(capturetest.Opener(t, "../testdata/labelled/sq_50ms_5m.rx.pcap.gz"), LoadOptions{Stream: -1, Dir: -1})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := lookupGraph(GraphCwnd)
	g := spec.Draw(l.Records, SeriesOptions{Conn: l.Conn, Dir: l.Dir, Stats: &l.Stats[l.Dir]}, GraphParams{})
	if len(g.Notes) == 0 || g.Notes[len(g.Notes)-1].Kind != NoteReceiverFlight {
		t.Fatalf("notes %+v: want the receiver's", g.Notes)
	}
	if s := g.lookup(SeriesCwnd); s == nil || len(s.Points) < 10 {
		t.Fatal("no line of the data arrived")
	}
	for _, name := range []string{SeriesAppHeld, SeriesRwndHeld} {
		if s := g.lookup(name); s != nil {
			t.Errorf("%s drawn at a receiver-side capture (%d points)", name, len(s.Points))
		}
	}
}

// TestCwndWithoutHandshake: a capture begun after the handshake still
// gets its cwnd line, with what it stands on said under the legend: the
// sender's SYN unseen (its MSS and SACK read from the data), and the
// receive window as read (unscaled: Linux scales by 2^7) far under the
// flight, so not drawn as the advertised window; the whole capture
// draws its window and says neither.
func TestCwndWithoutHandshake(t *testing.T) {
	src := "../testdata/kernel-heldout/kh_reno_nosack_q.tx.pcap.gz"
	frames, link, snaplen := capturetest.Frames(t, src)
	dst := filepath.Join(t.TempDir(), "nohs.pcap")
	capturetest.WriteFrames(t, dst, frames[40:], link, snaplen) // past both connections' handshakes
	spec, _ := lookupGraph(GraphCwnd)
	notes := func(g *Graph) (hs, misread bool) {
		for _, n := range g.Notes {
			hs = hs || n.Kind == NoteNoHandshake
			misread = misread || n.Kind == NoteWindowMisread
		}
		return hs, misread
	}
	for _, c := range []struct {
		path    string
		without bool
	}{{src, false}, {dst, true}} {
		l, err := Load(capturetest.Opener(t, c.path), LoadOptions{Stream: -1, Dir: -1})
		if err != nil {
			t.Fatal(err)
		}
		g := spec.Draw(l.Records, SeriesOptions{Conn: l.Conn, Dir: l.Dir, Stats: &l.Stats[l.Dir]}, GraphParams{})
		hs, misread := notes(g)
		if hs != c.without || misread != c.without || (g.lookup(SeriesAdvertised) == nil) != c.without {
			t.Errorf("%s: no-handshake note %v, misread note %v, window drawn %v", filepath.Base(c.path), hs, misread, g.lookup(SeriesAdvertised) != nil)
		}
		if s := g.lookup(SeriesCwnd); s == nil || len(s.Points) < 10 {
			t.Errorf("%s: no cwnd line", filepath.Base(c.path))
		}
		if c.without {
			continue
		}
		// The receiver's SYN alone unseen: SACK permitted and the window's
		// scale need both, so the note stands.
		recs := slices.DeleteFunc(slices.Clone(l.Records), func(r Record) bool { return r.Dir != l.Dir && r.Flags&reassembly.SYN != 0 })
		g = spec.Draw(recs, SeriesOptions{Conn: l.Conn, Dir: l.Dir, Stats: &l.Stats[l.Dir]}, GraphParams{})
		if hs, _ := notes(g); !hs {
			t.Error("the receiver's SYN unseen: no note")
		}
	}
}
