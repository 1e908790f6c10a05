package reassembly

import (
	"encoding/binary"
	"io"
	"runtime"
	"testing"
)

// synFlood generates, without holding it in memory, a pcap of n SYNs from
// distinct source addresses, rate per second.
type synFlood struct {
	n, rate, i int
	buf        []byte
	template   []byte
}

func newSynFlood(t testing.TB, n, rate int) *synFlood {
	frame := pkt{src: "10.0.0.1:40000", dst: "192.0.2.80:80", seq: 1, flags: SYN, win: 1024}.frame(t)
	hdr := make([]byte, 24)
	binary.LittleEndian.PutUint32(hdr, 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(hdr[4:], 2)
	binary.LittleEndian.PutUint16(hdr[6:], 4)
	binary.LittleEndian.PutUint32(hdr[16:], 65535)
	binary.LittleEndian.PutUint32(hdr[20:], 1)
	return &synFlood{n: n, rate: rate, buf: hdr, template: frame}
}

func (f *synFlood) Read(p []byte) (int, error) {
	for len(f.buf) < len(p) && f.i < f.n {
		us := int64(f.i) * 1e6 / int64(f.rate)
		var rh [16]byte
		binary.LittleEndian.PutUint32(rh[0:], uint32(1700000000+us/1e6))
		binary.LittleEndian.PutUint32(rh[4:], uint32(us%1e6))
		binary.LittleEndian.PutUint32(rh[8:], uint32(len(f.template)))
		binary.LittleEndian.PutUint32(rh[12:], uint32(len(f.template)))
		f.buf = append(f.buf, rh[:]...)
		start := len(f.buf)
		f.buf = append(f.buf, f.template...)
		// Source address 10.x.y.z and sequence number vary per SYN.
		binary.BigEndian.PutUint32(f.buf[start+14+12:], 0x0a000000|uint32(f.i))
		binary.BigEndian.PutUint32(f.buf[start+14+20+4:], uint32(f.i)*7919)
		f.i++
	}
	if len(f.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.buf)
	f.buf = f.buf[:copy(f.buf, f.buf[n:])]
	return n, nil
}

// TestSynFloodBoundedMemory reads 300,000 SYNs from distinct addresses:
// the connection table must stay bounded (connections are retired while
// reading), every connection must still be reported once, and the heap
// must not grow with the number of packets.
func TestSynFloodBoundedMemory(t *testing.T) {
	const n = 300000
	r, err := NewReader(newSynFlood(t, n, 1000))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	retired, maxLive := 0, 0
	var peakHeap uint64
	var ms runtime.MemStats
	sc.Tracker().OnRetire = func(*Conn) { retired++ }
	for i := 0; sc.Scan(); i++ {
		if l := sc.Tracker().Len(); l > maxLive {
			maxLive = l
		}
		if i%50000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapAlloc)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if retired != n {
		t.Errorf("%d connections retired, want every one of %d", retired, n)
	}
	// Live connections: at most the pressure threshold, plus what arrives
	// between two sweeps and within the idle time.
	if limit := pressureConns + expireEvery + 1 + 1000*int(pressureIdle/1e9); maxLive > limit {
		t.Errorf("up to %d live connections, want at most %d", maxLive, limit)
	}
	t.Logf("300k SYNs: at most %d live connections, peak heap %.1f MB", maxLive, float64(peakHeap)/1e6)
	if peakHeap > 150e6 {
		t.Errorf("peak heap %.1f MB", float64(peakHeap)/1e6)
	}
}
