package reassembly

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// pcapngTenths builds a pcapng file whose interface counts time in tenths
// of seconds (if_tsresol 10^-1), with one packet at each of the times.
func pcapngTenths(t *testing.T, frame []byte, secs ...uint64) []byte {
	return pcapngOffset(t, frame, 0, secs...)
}

// pcapngOffset is pcapngTenths with an if_tsoffset of offset seconds
// (none when 0).
func pcapngOffset(t *testing.T, frame []byte, offset int64, secs ...uint64) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	block := func(typ uint32, body []byte) {
		for len(body)%4 != 0 {
			body = append(body, 0)
		}
		n := uint32(12 + len(body))
		binary.Write(&b, le, typ)
		binary.Write(&b, le, n)
		b.Write(body)
		binary.Write(&b, le, n)
	}
	shb := make([]byte, 16)
	le.PutUint32(shb[0:], 0x1a2b3c4d)
	le.PutUint16(shb[4:], 1)
	le.PutUint64(shb[8:], ^uint64(0))
	block(0x0a0d0d0a, shb)
	idb := make([]byte, 8)
	le.PutUint16(idb[0:], 1) // Ethernet
	le.PutUint32(idb[4:], 65535)
	idb = append(idb, 9, 0, 1, 0, 1, 0, 0, 0) // if_tsresol = 10^-1
	if offset != 0 {
		idb = append(idb, 14, 0, 8, 0) // if_tsoffset
		idb = le.AppendUint64(idb, uint64(offset))
	}
	idb = append(idb, 0, 0, 0, 0) // opt_endofopt
	block(1, idb)
	for _, s := range secs {
		epb := make([]byte, 20)
		le.PutUint32(epb[4:], uint32(s>>32))
		le.PutUint32(epb[8:], uint32(s))
		le.PutUint32(epb[12:], uint32(len(frame)))
		le.PutUint32(epb[16:], uint32(len(frame)))
		block(6, append(epb, frame...))
	}
	return b.Bytes()
}

// TestTimestampBeyond2262: a timestamp that nanoseconds in 64 bits cannot
// hold is counted, so that it is said (it wraps: the differences between
// such packets stay right, as tshark's analysis needs); the packet is
// still analysed.
func TestTimestampBeyond2262(t *testing.T) {
	frame := pkt{src: cli, dst: srv, seq: 1, flags: SYN, win: 1024}.frame(t)
	r, err := NewReader(bytes.NewReader(pcapngTenths(t, frame, 17_000_000_000, 1<<40, 17_000_000_010)))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	var times []int64
	for sc.Scan() {
		times = append(times, sc.Segment().Time)
	}
	if len(times) != 3 || times[0] != 1_700_000_000e9 || times[2] != 1_700_000_001e9 {
		t.Errorf("segments at %v: want all three, the others on time", times)
	}
	if st := sc.Stats(); st.BadTime != 1 || st.FirstBadTime != 2 || st.Malformed != 0 {
		t.Errorf("stats %+v: want one packet with a bad time, packet 2", st)
	}
}

// TestTimestampOffsetBeyond2262: an if_tsoffset of ±2^62 seconds puts
// every packet of the interface outside what nanoseconds since 1970 can
// hold: each is counted and said, none read as a plausible date.
func TestTimestampOffsetBeyond2262(t *testing.T) {
	frame := pkt{src: cli, dst: srv, seq: 1, flags: SYN, win: 1024}.frame(t)
	for _, off := range []int64{1 << 62, -1 << 62} {
		n, sc := scanCount(t, pcapngOffset(t, frame, off, 17_000_000_000, 17_000_000_010))
		if st := sc.Stats(); n != 2 || st.BadTime != 2 || st.FirstBadTime != 1 {
			t.Errorf("offset %d: %d segments, stats %+v: want both packets counted with a bad time", off, n, st)
		}
	}
}

// TestPcapngVersionWording: a pcapng section of another version than 1.0
// is refused in the words pcap's are.
func TestPcapngVersionWording(t *testing.T) {
	frame := pkt{src: cli, dst: srv, seq: 1, flags: SYN, win: 1024}.frame(t)
	data := pcapngTenths(t, frame, 17_000_000_000)
	binary.LittleEndian.PutUint16(data[14:], 1) // section version 1.1
	if _, err := NewReader(bytes.NewReader(data)); err == nil || err.Error() != "pcapng header: unsupported version 1.1" {
		t.Errorf("error %v", err)
	}
}

// TestClockBackCounted: a step back of the capture's clock of more than a
// minute is counted (the packet after the first, the largest step);
// packets out of order by less, as merged interfaces leave them, are not.
func TestClockBackCounted(t *testing.T) {
	frame := pkt{src: cli, dst: srv, seq: 1, flags: SYN, win: 1024}.frame(t)
	// Tenths of seconds: 100 s, 99 s (back 1 s), 200 s, 100 s (back
	// 100 s), 300 s, -: 5 s (back 295 s).
	n, sc := scanCount(t, pcapngTenths(t, frame, 1000, 990, 2000, 1000, 3000, 50))
	if st := sc.Stats(); n != 6 || st.ClockBack != 2 || st.FirstClockBack != 4 || st.MaxClockBack != 295e9 {
		t.Errorf("%d segments, stats %+v: want 6, two steps back from packet 4, the largest 295 s", n, st)
	}
}

// scanCount scans capture and returns how many segments it gave, and the
// scanner (its counts, its error).
func scanCount(t *testing.T, capture []byte) (int, *Scanner) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
	}
	return n, sc
}
