package analyze

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
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
	le, be := binary.LittleEndian, binary.BigEndian
	b := make([]byte, 24, 24+n*74)
	le.PutUint32(b, 0xa1b2c3d4)
	le.PutUint16(b[4:], 2)
	le.PutUint16(b[6:], 4)
	le.PutUint32(b[16:], 65535)
	le.PutUint32(b[20:], 1) // Ethernet
	for i := range n {
		var f [58]byte
		be.PutUint16(f[12:], 0x0800)
		ip := f[14:]
		ip[0], ip[8], ip[9] = 0x45, 64, 17
		be.PutUint16(ip[2:], 44)
		be.PutUint16(ip[4:], uint16(i))
		copy(ip[12:], []byte{10, 0, 0, 1, 10, 0, 0, 2})
		var sum uint32
		for k := 0; k < 20; k += 2 {
			sum += uint32(be.Uint16(ip[k:]))
		}
		sum = sum>>16 + sum&0xffff
		be.PutUint16(ip[10:], ^uint16(sum+sum>>16))
		udp := ip[20:]
		be.PutUint16(udp, 40000)
		be.PutUint16(udp[2:], 5001)
		be.PutUint16(udp[4:], 24)
		be.PutUint32(udp[8:], uint32(i))
		ns := int64(1.7e18) + int64(i)*500e3
		var h [16]byte
		le.PutUint32(h[:], uint32(ns/1e9))
		le.PutUint32(h[4:], uint32(ns%1e9/1e3))
		le.PutUint32(h[8:], uint32(len(f)))
		le.PutUint32(h[12:], uint32(len(f)))
		b = append(append(b, h[:]...), f[:]...)
	}
	return b
}
