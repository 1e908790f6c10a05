package reassembly

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/klauspost/compress/zstd"
)

const (
	cli = "10.0.0.1:40000"
	srv = "10.0.0.2:5201"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// handshake returns SYN, SYN/ACK, ACK with the given ISNs.
func handshake(t0 time.Duration, cisn, sisn uint32) []pkt {
	return []pkt{
		{t: t0, src: cli, dst: srv, seq: cisn, flags: SYN, win: 64240, ipid: 1},
		{t: t0 + ms(10), src: srv, dst: cli, seq: sisn, ack: cisn + 1, flags: SYN | ACK, win: 65160, ipid: 100},
		{t: t0 + ms(20), src: cli, dst: srv, seq: cisn + 1, ack: sisn + 1, flags: ACK, win: 502, ipid: 2},
	}
}

func TestSequenceWrap(t *testing.T) {
	isn := uint32(0xffffe000)
	pkts := handshake(0, isn, 7)
	for i := 0; i < 12; i++ {
		pkts = append(pkts, pkt{t: ms(30 + i), src: cli, dst: srv, seq: isn + 1 + uint32(i*1000), ack: 8, flags: ACK, win: 502, payload: 1000, ipid: uint16(10 + i)})
	}
	segs, conns, err := scanAll(t, pcapOf(t, pkts))
	if err != nil {
		t.Fatal(err)
	}
	if len(conns) != 1 {
		t.Fatalf("%d connections, want 1", len(conns))
	}
	c := conns[0]
	var prev uint64
	for i, s := range segs[3:] {
		if uint32(s.SeqAbs) != s.Seq {
			t.Errorf("segment %d: unwrapped %#x does not end in raw %#x", i, s.SeqAbs, s.Seq)
		}
		if s.SeqAbs <= prev {
			t.Errorf("segment %d: unwrapped seq %#x not after %#x across the wrap", i, s.SeqAbs, prev)
		}
		prev = s.SeqAbs
		if got, want := c.RelSeq(s.Dir, s.SeqAbs), int64(1+i*1000); got != want {
			t.Errorf("segment %d: relative seq %d, want %d", i, got, want)
		}
	}
	if c.Dir[C2S].Bytes != 12000 {
		t.Errorf("c2s bytes %d, want 12000", c.Dir[C2S].Bytes)
	}
}

func TestStreamNumbering(t *testing.T) {
	tests := []struct {
		name        string
		pkts        []pkt
		wantStreams []int // stream of each packet
	}{
		{
			name: "reused ports with a new ISN start a new stream",
			pkts: append(append(handshake(0, 1000, 5000),
				pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: FIN | ACK, ipid: 3},
				pkt{t: ms(40), src: srv, dst: cli, seq: 5001, ack: 1002, flags: FIN | ACK, ipid: 101}),
				handshake(ms(100), 90000, 7000)...),
			wantStreams: []int{0, 0, 0, 0, 0, 1, 1, 1},
		},
		{
			name: "a retransmitted SYN stays in its stream",
			pkts: []pkt{
				{t: 0, src: cli, dst: srv, seq: 1000, flags: SYN, ipid: 1},
				{t: ms(1000), src: cli, dst: srv, seq: 1000, flags: SYN, ipid: 2},
				{t: ms(1010), src: srv, dst: cli, seq: 5000, ack: 1001, flags: SYN | ACK, ipid: 9},
			},
			wantStreams: []int{0, 0, 0},
		},
		{
			name: "streams are numbered in order of first packet",
			pkts: []pkt{
				{t: 0, src: "10.0.0.9:1111", dst: srv, seq: 1, flags: SYN},
				{t: ms(1), src: cli, dst: srv, seq: 1, flags: SYN},
				{t: ms(2), src: srv, dst: "10.0.0.9:1111", seq: 9, ack: 2, flags: SYN | ACK},
			},
			wantStreams: []int{0, 1, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs, _, err := scanAll(t, pcapOf(t, tt.pkts))
			if err != nil {
				t.Fatal(err)
			}
			if len(segs) != len(tt.wantStreams) {
				t.Fatalf("%d segments, want %d", len(segs), len(tt.wantStreams))
			}
			for i, s := range segs {
				if s.Stream != tt.wantStreams[i] {
					t.Errorf("packet %d: stream %d, want %d", i+1, s.Stream, tt.wantStreams[i])
				}
			}
		})
	}
}

func TestMidstreamCapture(t *testing.T) {
	// No handshake: the first packet comes from the server (lower port).
	pkts := []pkt{
		{t: 0, src: srv, dst: cli, seq: 777000, ack: 12345, flags: ACK | PSH, payload: 100},
		{t: ms(5), src: cli, dst: srv, seq: 12345, ack: 777100, flags: ACK},
	}
	segs, conns, err := scanAll(t, pcapOf(t, pkts))
	if err != nil {
		t.Fatal(err)
	}
	c := conns[0]
	if c.Handshake || c.Client.String() != cli || c.State() != StateMidstream {
		t.Errorf("client %v handshake %v state %v; want client %s (higher port), no handshake, midstream", c.Client, c.Handshake, c.State(), cli)
	}
	if segs[0].Dir != S2C {
		t.Errorf("first segment direction %v, want s2c", segs[0].Dir)
	}
	// Wireshark numbers a mid-stream direction from 1 at its first segment.
	if got := c.RelSeq(S2C, segs[0].SeqAbs); got != 1 {
		t.Errorf("relative seq of first segment %d, want 1", got)
	}
	if got := c.RelSeq(S2C, segs[1].AckAbs); got != 101 {
		t.Errorf("relative ack %d, want 101", got)
	}
}

func TestCaptureDuplicates(t *testing.T) {
	data := pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK, win: 502, payload: 500, ipid: 77}
	again := data
	again.t, again.iface = ms(30)+50*time.Microsecond, 1
	forwarded := data
	forwarded.t, forwarded.ttl = ms(30)+80*time.Microsecond, 63
	retrans := data
	retrans.t, retrans.ipid = ms(330), 78
	pkts := append(handshake(0, 1000, 5000), data, again, forwarded, retrans)
	segs, conns, err := scanAll(t, pcapngOf(t, pkts))
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, false, false, false, true, true, false}
	for i, s := range segs {
		if s.Duplicate != want[i] {
			t.Errorf("packet %d: duplicate=%v, want %v", i+1, s.Duplicate, want[i])
		}
	}
	if d := conns[0].Dir[C2S]; d.Packets != 6 || d.Duplicates != 2 {
		t.Errorf("c2s packets %d duplicates %d, want 6 and 2 (duplicates are still packets, as tshark counts them)", d.Packets, d.Duplicates)
	}
}

func TestTruncatedHeaders(t *testing.T) {
	pkts := append(handshake(0, 1000, 5000),
		// Header-only capture: payload length must come from the IP header.
		pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK, payload: 1400, snap: 14 + 20 + 20 + 10},
		// Cut inside the TCP header: undecodable, reported, skipped.
		pkt{t: ms(31), src: cli, dst: srv, seq: 2401, ack: 5001, flags: ACK, payload: 1400, snap: 14 + 20 + 12},
		// Cut inside the IP header.
		pkt{t: ms(32), src: cli, dst: srv, seq: 2401, ack: 5001, flags: ACK, payload: 1400, snap: 14 + 10},
		// TSO super-segment: IPv4 total length 0.
		pkt{t: ms(33), src: cli, dst: srv, seq: 2401, ack: 5001, flags: ACK, payload: 9000, ipTotalZero: true},
	)
	r, err := NewReader(bytes.NewReader(pcapOf(t, pkts)))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	var segs []Segment
	for sc.Scan() {
		segs = append(segs, *sc.Segment())
	}
	if len(segs) != 5 {
		t.Fatalf("%d TCP segments, want 5 (two undecodable skipped)", len(segs))
	}
	if s := segs[3]; s.PayloadLen != 1400 || s.Captured != 10 {
		t.Errorf("header-only: payload %d captured %d, want 1400 and 10", s.PayloadLen, s.Captured)
	}
	if s := segs[4]; s.PayloadLen != 9000 {
		t.Errorf("TSO segment payload %d, want 9000", s.PayloadLen)
	}
	st := sc.Stats()
	if st.Malformed != 2 || st.FirstMalformed != 5 || st.SuperSegments != 1 || st.HeaderOnly != 1 {
		t.Errorf("stats %+v: want 2 malformed from packet 5, 1 super-segment, 1 header-only", st)
	}
	ws, _ := sc.Warnings()
	if len(ws) != 2 || !strings.HasPrefix(ws[0].Error(), "packet 5: tcp: truncated header") || !strings.HasPrefix(ws[1].Error(), "packet 6: ipv4:") {
		t.Errorf("warnings %v: want packet 5 tcp and packet 6 ipv4 problems", ws)
	}
}

func TestReaderFormats(t *testing.T) {
	pkts := append(handshake(0, 1000, 5000), pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK, payload: 100})
	le := pcapOf(t, pkts)
	be := bigEndianPcap(t, le)
	var gz, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(le)
	zw.Close()
	ze, _ := zstd.NewWriter(&zs)
	ze.Write(pcapngOf(t, pkts))
	ze.Close()
	tests := []struct {
		name     string
		data     []byte
		format   Format
		compress string
	}{
		{"pcap nanoseconds little-endian", le, FormatPcap, ""},
		{"pcap nanoseconds big-endian", be, FormatPcap, ""},
		{"pcapng", pcapngOf(t, pkts), FormatPcapNG, ""},
		{"gzip pcap", gz.Bytes(), FormatPcap, "gzip"},
		{"zstd pcapng", zs.Bytes(), FormatPcapNG, "zstd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if r.Format() != tt.format || r.Compression() != tt.compress {
				t.Errorf("format %s %q, want %s %q", r.Format(), r.Compression(), tt.format, tt.compress)
			}
			sc := NewScanner(r)
			n := 0
			var last Segment
			for sc.Scan() {
				n++
				last = *sc.Segment()
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if n != 4 || last.PayloadLen != 100 || last.Time != testEpoch.Add(ms(30)).UnixNano() {
				t.Errorf("%d segments, last %+v", n, last)
			}
		})
	}
}

// bigEndianPcap rewrites a little-endian pcap in big-endian byte order.
func bigEndianPcap(t *testing.T, le []byte) []byte {
	out := make([]byte, 0, len(le))
	h := le[:24]
	var hb [24]byte
	binary.BigEndian.PutUint32(hb[0:], binary.LittleEndian.Uint32(h[0:]))
	binary.BigEndian.PutUint16(hb[4:], binary.LittleEndian.Uint16(h[4:]))
	binary.BigEndian.PutUint16(hb[6:], binary.LittleEndian.Uint16(h[6:]))
	for i := 8; i < 24; i += 4 {
		binary.BigEndian.PutUint32(hb[i:], binary.LittleEndian.Uint32(h[i:]))
	}
	out = append(out, hb[:]...)
	for rest := le[24:]; len(rest) > 0; {
		var rh [16]byte
		for i := 0; i < 16; i += 4 {
			binary.BigEndian.PutUint32(rh[i:], binary.LittleEndian.Uint32(rest[i:]))
		}
		n := int(binary.LittleEndian.Uint32(rest[8:]))
		out = append(out, rh[:]...)
		out = append(out, rest[16:16+n]...)
		rest = rest[16+n:]
	}
	return out
}

func TestBadFiles(t *testing.T) {
	pkts := append(handshake(0, 1000, 5000), pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK, payload: 100})
	good := pcapOf(t, pkts)
	huge := append([]byte(nil), good...)
	// Make the third record claim 4 GB.
	off := 24
	for i := 0; i < 2; i++ {
		off += 16 + int(binary.LittleEndian.Uint32(huge[off+8:]))
	}
	binary.LittleEndian.PutUint32(huge[off+8:], 0xfffffff0)
	unknownLink := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(unknownLink[20:], 147)
	// pcapng whose last packet block claims more bytes than the file has.
	overrun := pcapngOf(t, pkts)
	last := 0
	for off := 0; off+8 <= len(overrun); off += int(binary.LittleEndian.Uint32(overrun[off+4:])) {
		last = off
	}
	binary.LittleEndian.PutUint32(overrun[last+4:], binary.LittleEndian.Uint32(overrun[last+4:])+4096)

	tests := []struct {
		name       string
		data       []byte
		openErr    string
		segments   int
		scanErr    string
		unknownLTs int64
	}{
		{name: "empty", data: nil, openErr: "empty file"},
		{name: "not a capture", data: []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), openErr: "not a capture file"},
		{name: "cut mid-record", data: good[:len(good)-30], segments: 3, scanErr: "packet 4: truncated record"},
		{name: "cut in a record header", data: good[:24+16+len(pkts[0].frame(t))+5], segments: 1, scanErr: "packet 2: truncated record header"},
		{name: "4 GB record", data: huge, segments: 2, scanErr: "packet 3: record claims 4294967280 captured bytes"},
		{name: "unknown link type", data: unknownLink, segments: 0, unknownLTs: 4},
		{name: "pcapng block overruns the file", data: overrun, segments: 3, scanErr: "packet 4: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(tt.data))
			if tt.openErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.openErr) {
					t.Fatalf("open error %v, want %q", err, tt.openErr)
				}
				if !errors.Is(err, ErrNotCapture) {
					t.Errorf("open error %v does not wrap ErrNotCapture", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sc := NewScanner(r)
			n := 0
			for sc.Scan() {
				n++
			}
			if n != tt.segments {
				t.Errorf("%d segments before the damage, want %d", n, tt.segments)
			}
			err = sc.Err()
			if tt.scanErr == "" && err != nil || tt.scanErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.scanErr)) {
				t.Errorf("scan error %v, want prefix %q", err, tt.scanErr)
			}
			if got := sc.Stats().UnknownLink; got != tt.unknownLTs {
				t.Errorf("%d packets of unknown link type, want %d", got, tt.unknownLTs)
			}
		})
	}
}

func TestLinkTypes(t *testing.T) {
	// The same IPv4 TCP packet behind each supported link-layer header.
	ipPkt := pkt{src: cli, dst: srv, seq: 1, ack: 1, flags: ACK, payload: 10}.frame(t)[14:]
	ip6Pkt := pkt{src: "[2001:db8::1]:40000", dst: "[2001:db8::2]:80", seq: 1, ack: 1, flags: ACK, payload: 10}.frame(t)[14:]
	eth := func(et uint16, tags ...uint16) []byte {
		b := []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}
		for _, tpid := range tags {
			b = binary.BigEndian.AppendUint16(b, tpid)
			b = binary.BigEndian.AppendUint16(b, 100)
		}
		return binary.BigEndian.AppendUint16(b, et)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	sll := cat([]byte{0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0}, []byte{0x08, 0x00})
	sll2 := cat([]byte{0x08, 0x00, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6}, []byte{2, 0, 0, 0, 0, 1, 0, 0})
	pppoe := cat([]byte{0x11, 0, 0, 1}, binary.BigEndian.AppendUint16(nil, uint16(len(ipPkt)+2)), []byte{0, 0x21})
	tests := []struct {
		name string
		lt   layers.LinkType
		data []byte
		len  int
	}{
		{"ethernet", layers.LinkTypeEthernet, cat(eth(0x0800), ipPkt), 10},
		{"802.1Q", layers.LinkTypeEthernet, cat(eth(0x0800, 0x8100), ipPkt), 10},
		{"QinQ", layers.LinkTypeEthernet, cat(eth(0x0800, 0x88a8, 0x8100), ipPkt), 10},
		{"PPPoE in QinQ", layers.LinkTypeEthernet, cat(eth(0x8864, 0x88a8, 0x8100), pppoe, ipPkt), 10},
		{"MPLS", layers.LinkTypeEthernet, cat(eth(0x8847), []byte{0, 0x10, 0x01, 64}, ipPkt), 10},
		{"linux sll", layers.LinkTypeLinuxSLL, cat(sll, ipPkt), 10},
		{"linux sll2", layers.LinkTypeLinuxSLL2, cat(sll2, ipPkt), 10},
		{"raw", layers.LinkTypeRaw, ipPkt, 10},
		{"ipv4", layers.LinkTypeIPv4, ipPkt, 10},
		{"ipv6", layers.LinkTypeIPv6, ip6Pkt, 10},
		{"null little-endian", layers.LinkTypeNull, cat([]byte{2, 0, 0, 0}, ipPkt), 10},
		{"loop big-endian", layers.LinkTypeLoop, cat([]byte{0, 0, 0, 2}, ipPkt), 10},
		{"null BSD IPv6", layers.LinkTypeNull, cat([]byte{30, 0, 0, 0}, ip6Pkt), 10},
		{"ppp", layers.LinkTypePPP, cat([]byte{0xff, 0x03, 0x00, 0x21}, ipPkt), 10},
		{"ip-in-ip", layers.LinkTypeRaw, cat(ipInIP(ipPkt), ipPkt), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			var seg Segment
			p := &Packet{Number: 1, LinkType: tt.lt, Data: tt.data, CapLen: len(tt.data), WireLen: len(tt.data)}
			ok, err := d.Decode(p, &seg)
			if !ok || err != nil {
				t.Fatalf("decode: ok=%v err=%v", ok, err)
			}
			if seg.PayloadLen != tt.len || seg.SrcPort != 40000 {
				t.Errorf("payload %d port %d, want %d and 40000", seg.PayloadLen, seg.SrcPort, tt.len)
			}
		})
	}
}

// ipInIP returns an outer IPv4 header (protocol 4) for inner.
func ipInIP(inner []byte) []byte {
	h := make([]byte, 20)
	h[0] = 0x45
	binary.BigEndian.PutUint16(h[2:], uint16(20+len(inner)))
	h[8], h[9] = 64, 4
	copy(h[12:], []byte{192, 0, 2, 1, 192, 0, 2, 2})
	return h
}

// TestTimeJumpDoesNotSplitStreams: one packet a day ahead (a wild
// timestamp) does not make the live connections idle: their later packets
// stay in their streams, as in Wireshark; nor does a real 50-minute
// silence retire an open connection (outside a crowd, see
// TestIdleConnectionContinuesItsStream).
func TestTimeJumpDoesNotSplitStreams(t *testing.T) {
	pkts := handshake(0, 1000, 5000)
	pkts = append(pkts, pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK, win: 502, payload: 100, ipid: 3})
	pkts = append(pkts, pkt{t: 24 * time.Hour, src: "10.0.0.9:1234", dst: srv, seq: 7, flags: SYN, win: 1000, ipid: 9})
	pkts = append(pkts, pkt{t: ms(40), src: srv, dst: cli, seq: 5001, ack: 1101, flags: ACK, win: 500, ipid: 101})
	segs, _, err := scanAll(t, pcapOf(t, pkts))
	if err != nil {
		t.Fatal(err)
	}
	trk := NewTracker()
	retired := 0
	trk.OnRetire = func(*Conn) { retired++ }
	var streams []int
	for i := range segs {
		s := segs[i]
		c := trk.Track(&s)
		streams = append(streams, c.Stream)
		trk.Expire(s.Time) // a sweep at every packet: the worst case
	}
	if got := fmt.Sprint(streams); got != "[0 0 0 0 1 0]" || retired != 0 {
		t.Errorf("streams %s, %d retired: want [0 0 0 0 1 0], none retired", got, retired)
	}
	for i := 1; i <= 5; i++ {
		trk.Expire(segs[0].Time + int64(i)*10*60e9)
	}
	if retired != 0 {
		t.Errorf("an open connection was retired after 50 idle minutes among two")
	}
}

// TestIdleConnectionContinuesItsStream: a connection silent for 40
// minutes while other traffic flows stays one stream and one row. In a
// crowd (more live connections than the tracker keeps for good) it is
// retired (memory follows live connections), yet its next packet
// continues its stream, with its relative numbering, as in Wireshark, and
// is counted; a new SYN with another ISN on the same 4-tuple starts a new
// stream.
func TestIdleConnectionContinuesItsStream(t *testing.T) {
	for _, crowd := range []int{0, 1} {
		retiredBefore, continued := idleConnection(t, crowd)
		want := 0
		if crowd > 0 {
			want = 1
		}
		if retiredBefore != want || continued != int64(want) {
			t.Errorf("crowd %d: retired %d times while idle, %d continued, want %d", crowd, retiredBefore, continued, want)
		}
	}
}

// idleConnection is TestIdleConnectionContinuesItsStream with the
// tracker's crowd (0: the default): how often stream 0 was retired
// before its packet after the silence, and Continued.
func idleConnection(t *testing.T, crowd int) (retiredBefore int, continued int64) {
	pkts := handshake(0, 1000, 5000)
	pkts = append(pkts, pkt{t: ms(30), src: cli, dst: srv, seq: 1001, ack: 5001, flags: ACK, win: 502, payload: 100, ipid: 3})
	other := "10.0.0.7:2222"
	for i := 0; i < 40; i++ { // another connection talks every minute
		pkts = append(pkts, pkt{t: time.Duration(i+1) * time.Minute, src: other, dst: srv, seq: 1 + uint32(i*10), ack: 1, flags: ACK, win: 100, payload: 10, ipid: uint16(500 + i)})
	}
	pkts = append(pkts, pkt{t: 41 * time.Minute, src: cli, dst: srv, seq: 1101, ack: 5001, flags: ACK, win: 502, payload: 100, ipid: 4})
	pkts = append(pkts, pkt{t: 42 * time.Minute, src: cli, dst: srv, seq: 90000, flags: SYN, win: 502, ipid: 5})
	segs, _, err := scanAll(t, pcapOf(t, pkts))
	if err != nil {
		t.Fatal(err)
	}
	trk := NewTracker()
	trk.crowd = crowd
	retired := map[int]int{}
	trk.OnRetire = func(c *Conn) { retired[c.Stream]++ }
	var streams []int
	var rel int64
	before := 0
	for i := range segs {
		s := segs[i]
		if i == len(segs)-2 {
			before = retired[0]
		}
		c := trk.Track(&s)
		streams = append(streams, c.Stream)
		if i == len(segs)-2 {
			rel = c.RelSeq(s.Dir, s.SeqAbs)
		}
		trk.Expire(s.Time)
	}
	n := len(streams)
	if streams[n-2] != 0 {
		t.Errorf("crowd %d, after 41 minutes: stream %d, want stream 0", crowd, streams[n-2])
	}
	if rel != 101 {
		t.Errorf("crowd %d: relative seq %d after the silence, want 101", crowd, rel)
	}
	if streams[n-1] == 0 || streams[n-1] == 1 {
		t.Errorf("crowd %d: a new SYN with another ISN continued stream %d", crowd, streams[n-1])
	}
	return before, trk.Continued()
}

// TestLoneConnExact: a connection of one SYN, kept as a loneConn, is made
// again exactly as the Conn the SYN made (what a second packet, a
// duplicate check or the retirement then sees), and its SYN exactly as
// Track returned it (what the analysis replays), for SYNs of every kind;
// a SYN the record would not make again exactly is not kept so.
func TestLoneConnExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	addr := func(kind int) netip.Addr {
		var b [16]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		switch kind {
		case 0:
			return netip.AddrFrom4([4]byte(b[:4]))
		case 1:
			return netip.AddrFrom16(b)
		}
		return netip.AddrFrom16(netip.AddrFrom4([4]byte(b[:4])).As16()) // IPv4-mapped IPv6
	}
	trk := NewTracker()
	var made []*Conn
	trk.OnNew = func(c *Conn) { made = append(made, c) }
	for i := range 2000 {
		kind := i % 3
		seg := Segment{Frame: int64(i + 1), Time: rng.Int64N(1e18), Interface: int32(rng.IntN(4)),
			Src: addr(kind), Dst: addr(kind), SrcPort: uint16(rng.Uint32()), DstPort: uint16(rng.Uint32()),
			IPVersion: 4, TTL: uint8(rng.Uint32()), IPID: uint16(rng.Uint32()),
			Seq: rng.Uint32(), Ack: rng.Uint32(), Flags: SYN | Flags(rng.IntN(2))*PSH | Flags(rng.IntN(2))*ECE | Flags(rng.IntN(2))*CWR,
			Window: uint16(rng.Uint32()), WireLen: 54 + rng.IntN(100),
			Opt: Options{MSS: uint16(rng.Uint32()), WScale: int8(rng.IntN(16)) - 1, SACKPermitted: rng.IntN(2) == 0,
				HasTimestamp: rng.IntN(2) == 0, TSVal: rng.Uint32(), TSEcr: rng.Uint32()}}
		if i%7 == 0 && i > 0 { // the 4-tuple of the previous SYN, another ISN: reused ports
			prev := made[len(made)-1]
			seg.Src, seg.SrcPort, seg.Dst, seg.DstPort = prev.Client.Addr(), prev.Client.Port(), prev.Server.Addr(), prev.Server.Port()
		}
		seg.IPVersion = 6
		if seg.Src.Is4() {
			seg.IPVersion = 4
		}
		// What the record cannot hold: kept as a full Conn.
		full := i%11 == 5
		switch i % 4 {
		case 0:
			seg.IPVersion ^= 4 ^ 6 // an IPv4-mapped address in an IPv6 packet, or the reverse
		case 1:
			seg.Interface = 1 << 20
		case 2:
			seg.Captured = 1
		case 3:
			seg.WireLen = 1 << 17
		}
		if !full {
			seg.IPVersion, seg.Interface, seg.Captured, seg.WireLen = 6, seg.Interface&3, 0, seg.WireLen&1023
			if seg.Src.Is4() {
				seg.IPVersion = 4
			}
		}
		if !isLone(&seg) {
			t.Fatalf("SYN %d not kept alone", i)
		}
		c := trk.Track(&seg)
		if full {
			if seg.Lone || trk.conns[keyOf(seg.Src, seg.SrcPort, seg.Dst, seg.DstPort)] != c {
				t.Fatalf("SYN %d, not made again exactly, kept as lone", i)
			}
			if _, ok := c.LoneSYN(); ok {
				t.Fatalf("SYN %d: a LoneSYN for a full connection", i)
			}
			continue
		}
		if !seg.Lone {
			t.Fatalf("SYN %d not marked Lone", i)
		}
		want := *c
		k := keyOf(seg.Src, seg.SrcPort, seg.Dst, seg.DstPort)
		j, ok := trk.findLone(k)
		if !ok {
			t.Fatalf("SYN %d: no lone connection", i)
		}
		got := trk.lones.At(j).conn()
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("SYN %d: lone connection made again as\n%+v\nwant\n%+v", i, *got, want)
		}
		if syn, ok := got.LoneSYN(); !ok || syn != seg {
			t.Fatalf("SYN %d made again as\n%+v\nwant\n%+v", i, syn, seg)
		}
	}
}

// TestLoneCollisions: lone connections whose hashes collide (8 hashes for
// thousands) are found, made full by their second packet, retired when
// idle and flushed as with a hash each: the same connections, the same
// states.
func TestLoneCollisions(t *testing.T) {
	run := func(mask uint64) []string {
		trk := NewTracker()
		trk.loneMask = mask
		trk.crowd = 1000 // 3,000 SYNs are a crowd: idle ones retire
		var out []string
		trk.OnRetire = func(c *Conn) {
			v := *c
			v.Dir[C2S].ring, v.Dir[S2C].ring = nil, nil // pointers: printed as addresses
			out = append(out, fmt.Sprintf("%+v", v))
		}
		rng := rand.New(rand.NewPCG(5, 6))
		var syns []Segment
		for i := range 3000 {
			s := Segment{Frame: int64(i + 1), Time: 1e18 + int64(i)*1e7, Src: netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}),
				Dst: netip.AddrFrom4([4]byte{192, 0, 2, 1}), SrcPort: uint16(1024 + i), DstPort: 80, IPVersion: 4,
				Seq: rng.Uint32(), Flags: SYN, Opt: Options{WScale: -1}}
			trk.Track(&s)
			syns = append(syns, s)
			if i%3 == 0 && i > 0 { // a SYN/ACK for an earlier one
				p := syns[rng.IntN(len(syns))]
				a := Segment{Frame: s.Frame, Time: s.Time, Src: p.Dst, Dst: p.Src, SrcPort: p.DstPort, DstPort: p.SrcPort,
					IPVersion: 4, Seq: rng.Uint32(), Ack: p.Seq + 1, Flags: SYN | ACK, Opt: Options{WScale: -1}}
				trk.Track(&a)
			}
			if i == 2000 { // all idle: the clock moves maxClockStep a call
				trk.Expire(s.Time + 2*pressureIdle)
				if trk.Len() != 0 {
					t.Fatalf("%d connections left after they all were idle", trk.Len())
				}
			}
		}
		trk.Flush()
		return out
	}
	want, got := run(^uint64(0)), run(7)
	slices.Sort(want) // Expire retires in no order
	slices.Sort(got)
	if len(want) < 3000 { // and some again: continued after their retirement
		t.Fatalf("%d connections retired, want at least 3000", len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("with colliding hashes, %d retired differ", len(got))
	}
}

// TestFlushStreamOrder: Flush retires lone and full connections merged in
// stream order, with stream numbers below 2^32 (packed) and beyond.
func TestFlushStreamOrder(t *testing.T) {
	var wide uint64 = 1<<32 - 3
	for _, first := range []int{0, int(wide)} {
		trk := NewTracker()
		trk.next = first
		var got []int
		trk.OnRetire = func(c *Conn) { got = append(got, c.Stream) }
		for i := range 40 {
			s := Segment{Frame: int64(i + 1), Time: 1e18 + int64(i), Src: netip.AddrFrom4([4]byte{10, 0, 0, byte(i)}),
				Dst: netip.AddrFrom4([4]byte{192, 0, 2, 1}), SrcPort: 1000, DstPort: 80, IPVersion: 4, Seq: 7, Flags: SYN, Opt: Options{WScale: -1}}
			if i%3 == 0 {
				s.Flags = ACK // not lone
			}
			trk.Track(&s)
		}
		trk.Flush()
		if len(got) != 40 || !slices.IsSorted(got) || got[0] != first {
			t.Errorf("from stream %d: retired %v", first, got)
		}
	}
}

// TestLoneHandsSYN: the SYN of a connection kept as that SYN alone comes
// back exactly as Track returned it: as First of its second packet (and
// of no later one), or from its Conn when it retires (reused ports, the
// flush) — what the analysis replays instead of keeping a copy.
func TestLoneHandsSYN(t *testing.T) {
	trk := NewTracker()
	var retired []*Conn
	trk.OnRetire = func(c *Conn) { retired = append(retired, c) }
	cli, srv := netip.AddrFrom4([4]byte{10, 0, 0, 1}), netip.AddrFrom4([4]byte{192, 0, 2, 1})
	syn := func(frame int64, port uint16, seq uint32) Segment {
		return Segment{Frame: frame, Time: 1e18 + frame*1e6, Interface: 2, Src: cli, Dst: srv, SrcPort: port, DstPort: 80,
			IPVersion: 4, TTL: 64, IPID: uint16(frame), Seq: seq, Flags: SYN | ECE | CWR, Window: 64240, WireLen: 74,
			Opt: Options{MSS: 1460, WScale: 7, SACKPermitted: true, HasTimestamp: true, TSVal: 99}}
	}
	// A connection that goes on: its second and third packets.
	s1 := syn(1, 1000, 500)
	trk.Track(&s1)
	if !s1.Lone {
		t.Fatal("the SYN is not kept alone")
	}
	s2 := Segment{Frame: 2, Time: 1e18 + 2e6, Src: srv, Dst: cli, SrcPort: 80, DstPort: 1000, IPVersion: 4,
		Seq: 9000, Ack: 501, Flags: SYN | ACK, Opt: Options{WScale: -1}}
	trk.Track(&s2)
	if s2.Lone || s2.First == nil || *s2.First != s1 {
		t.Fatalf("second packet: Lone %v, First %+v, want\n%+v", s2.Lone, s2.First, s1)
	}
	s3 := Segment{Frame: 3, Time: 1e18 + 3e6, Src: cli, Dst: srv, SrcPort: 1000, DstPort: 80, IPVersion: 4,
		Seq: 501, Ack: 9001, Flags: ACK, Opt: Options{WScale: -1}, First: &s1, Lone: true} // stale fields cleared
	trk.Track(&s3)
	if s3.Lone || s3.First != nil {
		t.Fatalf("third packet: Lone %v, First %v", s3.Lone, s3.First)
	}
	// Ports reused by a SYN of another ISN: the first retires with its SYN.
	s4 := syn(4, 2000, 700)
	trk.Track(&s4)
	s5 := syn(5, 2000, 800)
	trk.Track(&s5)
	if len(retired) != 1 || !s5.Lone || s5.First != nil {
		t.Fatalf("reused ports: %d retired, Lone %v, First %v", len(retired), s5.Lone, s5.First)
	}
	if got, ok := retired[0].LoneSYN(); !ok || got != s4 {
		t.Fatalf("retired SYN %+v (%v), want\n%+v", got, ok, s4)
	}
	trk.Flush()
	if len(retired) != 3 {
		t.Fatalf("%d retired, want 3", len(retired))
	}
	for _, c := range retired[1:] {
		got, ok := c.LoneSYN()
		switch {
		case c.Stream == s5.Stream && (!ok || got != s5):
			t.Fatalf("flushed SYN %+v (%v), want\n%+v", got, ok, s5)
		case c.Stream != s5.Stream && ok:
			t.Fatalf("stream %d, of 3 packets, has a LoneSYN", c.Stream)
		}
	}
}

// TestExpireRetiresInStreamOrder: the open connections a crowd's sweep
// retires at once, SYNs alone among them, are handed on in stream order,
// as Flush hands on the rest, not in the tables' orders (a map's, a hash
// table's), which differ from run to run.
func TestExpireRetiresInStreamOrder(t *testing.T) {
	var pkts []pkt
	const n = 24
	for i := range n {
		c := fmt.Sprintf("10.0.0.1:%d", 41000+i)
		pkts = append(pkts, pkt{t: ms(i), src: c, dst: srv, seq: 1000, flags: SYN, win: 64240, ipid: 1})
		if i%3 == 1 {
			continue // a SYN alone (the tracker keeps it apart, as a flood's)
		}
		pkts = append(pkts,
			pkt{t: ms(i + 1), src: srv, dst: c, seq: 5000, ack: 1001, flags: SYN | ACK, win: 65160, ipid: 100},
			pkt{t: ms(i + 2), src: c, dst: srv, seq: 1001, ack: 5001, flags: ACK, win: 502, payload: 100, ipid: 2})
	}
	segs, _, err := scanAll(t, pcapOf(t, pkts))
	if err != nil {
		t.Fatal(err)
	}
	trk := NewTracker()
	trk.crowd = 1
	var order []int
	trk.OnRetire = func(c *Conn) { order = append(order, c.Stream) }
	last := segs[0].Time
	for i := range segs {
		trk.Track(&segs[i])
		last = segs[i].Time
	}
	trk.Expire(last + int64(pressureIdle) + 1e9) // every one idle past pressureIdle
	if len(order) != n {
		t.Fatalf("%d connections retired by one sweep, want %d", len(order), n)
	}
	if !slices.IsSorted(order) {
		t.Errorf("retired in the order %v, want stream order", order)
	}
}
