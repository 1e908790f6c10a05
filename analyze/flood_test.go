package analyze

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	"tcpviz/reassembly"
)

// synFlood is a pcap of n SYNs from distinct addresses, 100,000 a second.
func synFlood(n int) []byte {
	var b bytes.Buffer
	le, be := binary.LittleEndian, binary.BigEndian
	hdr := make([]byte, 24)
	le.PutUint32(hdr, 0xa1b2c3d4)
	le.PutUint16(hdr[4:], 2)
	le.PutUint16(hdr[6:], 4)
	le.PutUint32(hdr[16:], 65535)
	le.PutUint32(hdr[20:], 1)
	b.Write(hdr)
	frame := make([]byte, 54)
	be.PutUint16(frame[12:], 0x0800)
	ip := frame[14:]
	ip[0], ip[8], ip[9] = 0x45, 64, 6
	be.PutUint16(ip[2:], 40)
	copy(ip[16:], []byte{192, 0, 2, 80})
	tcp := frame[34:]
	be.PutUint16(tcp[2:], 80)
	tcp[12], tcp[13] = 5<<4, 0x02
	be.PutUint16(tcp[14:], 1024)
	rec := make([]byte, 16)
	for i := range n {
		be.PutUint32(ip[12:], 0x0a000000|uint32(i))
		be.PutUint16(ip[4:], uint16(i))
		be.PutUint16(tcp[0:], uint16(1024+i%60000))
		be.PutUint32(tcp[4:], uint32(i)*7919)
		us := int64(i) * 10
		le.PutUint32(rec[0:], uint32(1_700_000_000+us/1e6))
		le.PutUint32(rec[4:], uint32(us%1e6))
		le.PutUint32(rec[8:], 54)
		le.PutUint32(rec[12:], 54)
		b.Write(rec)
		b.Write(frame)
	}
	return b.Bytes()
}

// TestSYNFloodAnalysisMemory: analysing a SYN flood holds, per live
// connection, the tracker's record and a copy of the SYN — not analysis
// state (about 3.4 KB before). Measured on the heap, at the flood's end,
// while all of them are live.
func TestSYNFloodAnalysisMemory(t *testing.T) {
	const n = 50000
	data := synFlood(n)
	r, err := reassembly.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sc := reassembly.NewScanner(r)
	a := New()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < n && sc.Scan(); i++ {
		a.Add(sc.Conn(), sc.Segment())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := sc.Tracker().Len()
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(max(live, 1))
	t.Logf("%d live connections, %.0f bytes each (tracker and analysis)", live, per)
	if live < n*9/10 {
		t.Fatalf("only %d of %d connections live", live, n)
	}
	if limit := 1200.0; per > limit {
		t.Errorf("%.0f bytes per one-SYN connection, want at most %.0f", per, limit)
	}
	runtime.KeepAlive(a)
	runtime.KeepAlive(sc)
}
