package join

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// BenchmarkJoinMillion joins two generated captures of about a million
// packets each: a labelled transfer's two captures (tx before the link,
// rx after it) repeated one after the other, each copy later in time and
// on another client port, so connections do not collide. The target is
// under 3 s and 300 MB for both reads and the join.
func BenchmarkJoinMillion(b *testing.B) {
	// TCPVIZ_BENCH_DIR keeps the generated captures there (to time the
	// command on them: tcpviz join DIR/tx.pcap DIR/rx.pcap).
	dir := b.TempDir()
	if d := os.Getenv("TCPVIZ_BENCH_DIR"); d != "" {
		dir = d
	}
	src := filepath.Join(golden.Testdata(), "labelled", "mx_100ms_10m_q30k_l1")
	tx, rx := filepath.Join(dir, "tx.pcap"), filepath.Join(dir, "rx.pcap")
	n, copies := repeatCapture(b, src+".tx.pcap.gz", tx, 1_000_000, 0)
	repeatCapture(b, src+".rx.pcap.gz", rx, 0, copies)
	b.ResetTimer()
	var peak uint64
	for range b.N {
		runtime.GC()
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() { // the heap's peak while the join runs
			var m runtime.MemStats
			var hi uint64
			for {
				runtime.ReadMemStats(&m)
				hi = max(hi, m.HeapInuse)
				select {
				case <-stop:
					done <- hi
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		a, c := readFile(b, tx), readFile(b, rx)
		res, err := Join([]*Capture{c, a})
		if err != nil || len(res.Hops[0].Conns) < 100 {
			b.Fatalf("join: %v", err)
		}
		close(stop)
		peak = max(peak, <-done)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(n), "packets/capture")
}

func readFile(b *testing.B, path string) *Capture {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r, err := reassembly.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	c, err := Read(path, r)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// repeatCapture writes the capture at src (gzipped pcap, Ethernet, IPv4)
// again and again to dst: copies times, or (copies 0) until it holds at
// least want packets. Copy k starts k × (the capture's span + 1 s) later
// and its client port (the one that is not 5201) is moved by k, its
// sequence numbers each way by k times a prime. It
// returns the packets and the copies written.
func repeatCapture(b *testing.B, src, dst string, want, copies int) (int, int) {
	frames, _, snaplen := capturetest.Frames(b, src)
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	w := pcapgo.NewWriter(out)
	if err := w.WriteFileHeader(snaplen, layers.LinkTypeEthernet); err != nil {
		b.Fatal(err)
	}
	span := frames[len(frames)-1].CI.Timestamp.Sub(frames[0].CI.Timestamp) + time.Second
	if copies == 0 {
		copies = (want + len(frames) - 1) / len(frames)
	}
	buf := make([]byte, 0, 2048)
	for k := range copies {
		for _, fr := range frames {
			buf = append(buf[:0], fr.Data...)
			// Ethernet, IPv4: the ports after the IP header.
			if len(buf) >= 14+20+4 && buf[12] == 0x08 && buf[13] == 0x00 && buf[23] == 6 {
				tcp := 14 + int(buf[14]&0x0f)*4
				for _, at := range []int{tcp, tcp + 2} {
					if p := binary.BigEndian.Uint16(buf[at:]); p != 5201 {
						binary.BigEndian.PutUint16(buf[at:], p+uint16(k))
					}
				}
				// New initial sequence numbers each way.
				c2s, s2c := uint32(k)*104729, uint32(k)*15485863
				if binary.BigEndian.Uint16(buf[tcp:]) == 5201 {
					c2s, s2c = s2c, c2s
				}
				if len(buf) >= tcp+12 {
					binary.BigEndian.PutUint32(buf[tcp+4:], binary.BigEndian.Uint32(buf[tcp+4:])+c2s)
					binary.BigEndian.PutUint32(buf[tcp+8:], binary.BigEndian.Uint32(buf[tcp+8:])+s2c)
				}
			}
			ci := fr.CI
			ci.Timestamp = ci.Timestamp.Add(time.Duration(k) * span)
			if err := w.WritePacket(ci, buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	return copies * len(frames), copies
}
