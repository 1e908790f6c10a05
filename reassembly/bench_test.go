package reassembly

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tcpviz/internal/golden"
)

// cycleReader serves a pcap file header once, then the same block of
// records forever, so a benchmark can read any number of packets without
// holding them all in memory.
type cycleReader struct {
	header, records []byte
	pos             int
	inHeader        bool
}

func (c *cycleReader) Read(p []byte) (int, error) {
	if c.inHeader {
		n := copy(p, c.header[c.pos:])
		c.pos += n
		if c.pos == len(c.header) {
			c.inHeader, c.pos = false, 0
		}
		return n, nil
	}
	n := copy(p, c.records[c.pos:])
	c.pos = (c.pos + n) % len(c.records)
	return n, nil
}

// bulkTransfer makes a synthetic bulk transfer: 1448-byte header-only data
// segments and an ACK for every second one.
func bulkTransfer(t testing.TB, segments int) []pkt {
	pkts := handshake(0, 1000, 5000)
	seq := uint32(1001)
	for i := 0; i < segments; i++ {
		pkts = append(pkts, pkt{t: ms(30) + time.Duration(i)*100*time.Microsecond, src: cli, dst: srv, seq: seq, ack: 5001, flags: ACK, win: 502, payload: 1448, ipid: uint16(i), snap: 96})
		seq += 1448
		if i%2 == 1 {
			pkts = append(pkts, pkt{t: ms(30) + time.Duration(i)*100*time.Microsecond + 40*time.Microsecond, src: srv, dst: cli, seq: 5001, ack: seq, flags: ACK, win: 3000, ipid: uint16(i)})
		}
	}
	return pkts
}

// BenchmarkRead measures the steady-state read loop (read, decode, track)
// per packet: it must not allocate.
func BenchmarkRead(b *testing.B) {
	file := pcapOf(b, bulkTransfer(b, 4000))
	benchScan(b, &cycleReader{header: file[:24], records: file[24:], inHeader: true})
}

// benchScan measures scanning src's packets in the steady state, after a
// warm-up that grows the block buffer to its full size and fills the
// connection table.
func benchScan(b *testing.B, src io.Reader) {
	r, err := NewReader(src)
	if err != nil {
		b.Fatal(err)
	}
	sc := NewScanner(r)
	for i := 0; i < 50000; i++ {
		sc.Scan()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !sc.Scan() {
			b.Fatal(sc.Err())
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "packets/s")
}

// TestReadLoopAllocatesNothing is BenchmarkRead's allocation claim as a
// test: after warm-up, scanning packets allocates nothing.
func TestReadLoopAllocatesNothing(t *testing.T) {
	file := pcapOf(t, bulkTransfer(t, 2000))
	scanAllocatesNothing(t, file[:24], file[24:])
}

// scanAllocatesNothing reads header then records over and over: after
// warm-up, a Scan allocates nothing.
func scanAllocatesNothing(t *testing.T, header, records []byte) {
	t.Helper()
	r, err := NewReader(&cycleReader{header: header, records: records, inHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	for i := 0; i < 10000; i++ {
		sc.Scan()
	}
	if a := testing.AllocsPerRun(20000, func() { sc.Scan() }); a != 0 {
		t.Errorf("%v allocations per packet, want 0", a)
	}
}

// BenchmarkReadCapture reads the largest lab capture from disk (page
// cache) end to end: open, decode, track.
func BenchmarkReadCapture(b *testing.B) {
	path := filepath.Join(golden.SharedCaptures(), "lab", "sweep_jitter_50ms.pcap")
	if p := os.Getenv("TCPVIZ_BENCH_CAPTURE"); p != "" {
		path = p
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	var packets int64
	for i := 0; i < b.N; i++ {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		sc := NewScanner(r)
		for sc.Scan() {
		}
		packets += sc.Packets()
	}
	b.ReportMetric(float64(packets)/b.Elapsed().Seconds(), "packets/s")
}
