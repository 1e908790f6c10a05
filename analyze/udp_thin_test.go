package analyze

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/udpbuild"
)

// TestUDPGraphThinned: a UDP flow's graph drawn from its records
// (GraphSpec.Draw, as the graph commands draw one) and thinned for a
// picture spreads its points over the flow's time, as Load's thinning
// does: with thinAfter datagrams and more, the span was never set and
// every point fell in one column (a seq picture kept 5 of 70,000).
func TestUDPGraphThinned(t *testing.T) {
	const n = thinAfter + 4000
	path := filepath.Join(t.TempDir(), "udp.pcap")
	if err := os.WriteFile(path, udpCapture(n), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Load(capturetest.Opener(t, path), LoadOptions{Stream: -1, Dir: -1, UDP: true})
	if err != nil {
		t.Fatal(err)
	}
	const cols = 1000
	o := SeriesOptions{Conn: l.Conn, Dir: l.Dir}
	o.Thin.Cols = cols
	g := Graphs("seq")[0].Draw(l.Records, o, GraphParams{})
	drawn := 0
	for _, s := range g.Series {
		if len(s.Points) == 0 {
			continue
		}
		drawn++
		span := s.Points[len(s.Points)-1].Time - s.Points[0].Time
		if len(s.Points) < cols || span < (l.Conn.LastTime-l.Conn.FirstTime)*9/10 {
			t.Errorf("series %s: %d points over %.1f s of a %.1f s flow of %d datagrams, want at least %d over most of it",
				s.Name, len(s.Points), float64(span)/1e9, float64(l.Conn.LastTime-l.Conn.FirstTime)/1e9, n, cols)
		}
	}
	if drawn == 0 {
		t.Fatalf("no series drawn of %d datagrams", n)
	}
}

// udpCapture is a pcap of n datagrams of one UDP flow, 16 payload bytes
// each, 0.5 ms apart.
func udpCapture(n int) []byte {
	frames := make([]udpbuild.Frame, n)
	src, dst := netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("10.0.0.2:5001")
	for i := range frames {
		d := udpbuild.Datagram{Src: src, Dst: dst, Payload: make([]byte, 16), ID: uint32(i)}
		frames[i] = udpbuild.Frame{T: time.Duration(i) * 500 * time.Microsecond, Data: d.Packet()}
	}
	return udpbuild.Pcap(frames)
}
