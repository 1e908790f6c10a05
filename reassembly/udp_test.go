package reassembly

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"tcpviz/internal/udpbuild"
)

type seenDatagram struct {
	frame     int64
	flow      int
	dir       Direction
	proto     uint8
	length    int
	payload   []byte
	fragments int
}

// scanDatagrams reads a capture with the datagram path on.
func scanDatagrams(t *testing.T, capture []byte) ([]seenDatagram, []Segment, *Scanner) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	var dgs []seenDatagram
	sc.Datagrams(func(dg *Datagram, f *Flow) {
		dgs = append(dgs, seenDatagram{dg.Frame, dg.Flow, dg.Dir, dg.Proto, dg.Length, append([]byte(nil), dg.Payload...), dg.Fragments})
	})
	var segs []Segment
	for sc.Scan() {
		segs = append(segs, *sc.Segment())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return dgs, segs, sc
}

func payloadOf(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = seed + byte(i*13)
	}
	return b
}

var (
	v4a = netip.MustParseAddrPort("10.0.0.1:40000")
	v4b = netip.MustParseAddrPort("10.0.0.2:5201")
	v6a = netip.MustParseAddrPort("[fd00::1]:40000")
	v6b = netip.MustParseAddrPort("[fd00::2]:5201")
)

// TestFragmentedUDPReassembled: IPv4 and IPv6 datagrams split into
// fragments, in order and out of order, come out whole at the fragment
// that completes them; a datagram missing a fragment is counted once as
// incomplete and never handed over; TCP fragments are still counted and
// skipped; flows are numbered in order of first datagram.
func TestFragmentedUDPReassembled(t *testing.T) {
	p4 := payloadOf(3000, 1)
	p6 := payloadOf(2500, 2)
	d4 := udpbuild.Datagram{Src: v4a, Dst: v4b, Payload: p4, ID: 77}
	d6 := udpbuild.Datagram{Src: v6a, Dst: v6b, Payload: p6, ID: 0x01020304}
	f4 := d4.Fragments(1480) // 3 fragments
	f6 := d6.Fragments(1232) // 3 fragments
	d4b := udpbuild.Datagram{Src: v4b, Dst: v4a, Payload: payloadOf(2000, 3), ID: 78}
	f4b := d4b.Fragments(1000) // 3 fragments, one lost
	d6b := udpbuild.Datagram{Src: v6a, Dst: v6b, Payload: payloadOf(1800, 4), ID: 9}
	f6b := d6b.Fragments(1000) // 2 fragments, out of order
	small := udpbuild.Datagram{Src: v4a, Dst: v4b, Payload: []byte("hello"), ID: 79}
	// A TCP datagram in fragments: counted and skipped.
	tcpFrag := udpbuild.Datagram{Src: v4a, Dst: v4b, Proto: 6, Payload: payloadOf(100, 5), ID: 80}.Fragments(48)

	var frames []udpbuild.Frame
	at := time.Duration(0)
	add := func(b []byte) {
		at += time.Millisecond
		frames = append(frames, udpbuild.Frame{T: at, Data: b})
	}
	add(small.Packet())                                                       // 1: flow 0, whole
	add(f4[0])                                                                // 2
	add(f4[1])                                                                // 3
	add(f4[2])                                                                // 4: completes d4 (flow 0)
	add(f6[2])                                                                // 5: IPv6, last first
	add(f6[0])                                                                // 6
	add(f6[1])                                                                // 7: completes d6 (flow 1)
	add(f4b[0])                                                               // 8
	add(f4b[2])                                                               // 9: f4b[1] never comes
	add(f6b[1])                                                               // 10
	add(f6b[0])                                                               // 11: completes d6b (flow 1)
	add(tcpFrag[0])                                                           // 12
	add(tcpFrag[1])                                                           // 13
	add(udpbuild.Datagram{Src: v4b, Dst: v4a, Payload: []byte("x")}.Packet()) // 14: flow 0, reverse
	dgs, segs, sc := scanDatagrams(t, udpbuild.Pcap(frames))
	if len(segs) != 0 {
		t.Errorf("%d TCP segments, want 0 (the TCP datagram was fragmented)", len(segs))
	}
	want := []struct {
		frame     int64
		flow      int
		dir       Direction
		payload   []byte
		fragments int
	}{
		{1, 0, C2S, small.Payload, 0},
		{4, 0, C2S, p4, 3},
		{7, 1, C2S, p6, 3},
		{11, 1, C2S, d6b.Payload, 2},
		{14, 0, S2C, []byte("x"), 0},
	}
	if len(dgs) != len(want) {
		t.Fatalf("%d datagrams, want %d: %+v", len(dgs), len(want), dgs)
	}
	for i, w := range want {
		g := dgs[i]
		if g.frame != w.frame || g.flow != w.flow || g.dir != w.dir || g.fragments != w.fragments || g.proto != ProtoUDP {
			t.Errorf("datagram %d: frame %d flow %d dir %v fragments %d proto %d, want frame %d flow %d dir %v fragments %d",
				i, g.frame, g.flow, g.dir, g.fragments, g.proto, w.frame, w.flow, w.dir, w.fragments)
		}
		if g.length != len(w.payload) || !bytes.Equal(g.payload, w.payload) {
			t.Errorf("datagram %d: %d bytes (%d captured), want %d, or the bytes differ", i, g.length, len(g.payload), len(w.payload))
		}
	}
	st := sc.DatagramStats()
	if st.Incomplete != 1 || st.FirstIncomplete != 8 {
		t.Errorf("incomplete %d (first at packet %d), want 1 (first at packet 8)", st.Incomplete, st.FirstIncomplete)
	}
	if st.Reassembled != 3 || st.Fragments != 10 || st.UDP != 5 {
		t.Errorf("stats %+v, want 3 reassembled from 10 fragments, 5 UDP datagrams", st)
	}
	if ds := sc.Stats(); ds.Fragments != 12 {
		t.Errorf("decoder counted %d fragments, want 12 (10 UDP, 2 TCP)", ds.Fragments)
	}
}

// TestFragmentsHeaderOnly: a header-only capture still yields the
// fragmented datagram, with its full length and what was captured of its
// start.
func TestFragmentsHeaderOnly(t *testing.T) {
	d := udpbuild.Datagram{Src: v4a, Dst: v4b, Payload: payloadOf(3000, 7), ID: 5}
	var frames []udpbuild.Frame
	for i, f := range d.Fragments(1480) {
		frames = append(frames, udpbuild.Frame{T: time.Duration(i) * time.Millisecond, Data: f, Snap: 96})
	}
	dgs, _, _ := scanDatagrams(t, udpbuild.Pcap(frames))
	if len(dgs) != 1 {
		t.Fatalf("%d datagrams, want 1", len(dgs))
	}
	if g := dgs[0]; g.length != 3000 || !bytes.Equal(g.payload, d.Payload[:96-14-20-8]) {
		t.Errorf("length %d, %d bytes captured; want 3000 and the first %d", g.length, len(g.payload), 96-14-20-8)
	}
}

// TestFragmentFloodBounded: a flood of first fragments that never
// complete keeps the table within its bounds and counts each one as
// incomplete.
func TestFragmentFloodBounded(t *testing.T) {
	var frames []udpbuild.Frame
	const n = 3 * fragMaxPending
	for i := range n {
		d := udpbuild.Datagram{Src: v4a, Dst: v4b, Payload: payloadOf(2000, byte(i)), ID: uint32(i)}
		frames = append(frames, udpbuild.Frame{T: time.Duration(i) * time.Microsecond, Data: d.Fragments(1480)[0]})
	}
	r, err := NewReader(bytes.NewReader(udpbuild.Pcap(frames)))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	sc.Datagrams(nil)
	maxPending, maxBytes := 0, 0
	for sc.r.Next() {
		p := sc.r.Packet()
		if ok, _ := sc.dec.Decode(p, &sc.seg); !ok && sc.dec.ip.frame == p.Number {
			sc.dg.add(&sc.dec.ip, p)
		}
		maxPending = max(maxPending, len(sc.dg.frags.pending))
		maxBytes = max(maxBytes, sc.dg.frags.bytes)
	}
	sc.dg.flush()
	if maxPending > fragMaxPending || maxBytes > fragMaxBytes {
		t.Errorf("held %d datagrams, %d bytes; limits %d, %d", maxPending, maxBytes, fragMaxPending, fragMaxBytes)
	}
	if st := sc.DatagramStats(); st.Incomplete != n {
		t.Errorf("%d incomplete, want %d", st.Incomplete, n)
	}
	if len(sc.dg.frags.queue) > 2*fragMaxPending+1024 {
		t.Errorf("queue of %d entries", len(sc.dg.frags.queue))
	}
}

// TestUDPFlowNumbering: flows are numbered per protocol in order of first
// packet, both directions in one flow, src the first sender.
func TestUDPFlowNumbering(t *testing.T) {
	c := netip.MustParseAddrPort("10.0.0.3:53")
	icmp := udpbuild.Datagram{Src: v4a, Dst: v4b, Proto: 1, Payload: payloadOf(40, 1)}
	frames := []udpbuild.Frame{
		{T: 1, Data: udpbuild.Datagram{Src: v4a, Dst: v4b, Payload: []byte("a")}.Packet()},
		{T: 2, Data: icmp.Packet()},
		{T: 3, Data: udpbuild.Datagram{Src: v4a, Dst: c, Payload: []byte("bb")}.Packet()},
		{T: 4, Data: udpbuild.Datagram{Src: v4b, Dst: v4a, Payload: []byte("ccc")}.Packet()},
		{T: 5, Data: udpbuild.Datagram{Src: v4b, Dst: v4a, Proto: 1, Payload: payloadOf(8, 1)}.Packet()},
	}
	r, err := NewReader(bytes.NewReader(udpbuild.Pcap(frames)))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	var got []string
	sc.Datagrams(func(dg *Datagram, f *Flow) {
		got = append(got, f.Src.String()+">"+f.Dst.String()+" "+string(rune('0'+dg.Proto%10))+string(rune('0'+f.Index))+dg.Dir.String())
	})
	var flows []*Flow
	sc.Flows().OnRetire = func(f *Flow) { flows = append(flows, f) }
	for sc.Scan() {
	}
	want := []string{
		"10.0.0.1:40000>10.0.0.2:5201 70c2s",
		"10.0.0.1:0>10.0.0.2:0 10c2s",
		"10.0.0.1:40000>10.0.0.3:53 71c2s",
		"10.0.0.1:40000>10.0.0.2:5201 70s2c",
		"10.0.0.1:0>10.0.0.2:0 10s2c",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("datagram %d: %q, want %q", i, got[i], want[i])
		}
	}
	if len(flows) != 3 || flows[0].Bytes != [2]int64{1, 3} || flows[1].Bytes != [2]int64{40, 8} {
		t.Errorf("flows %d; first bytes %v, want [1 3]; icmp %v, want [40 8]", len(flows), flows[0].Bytes, flows[1].Bytes)
	}
}

// FuzzDatagrams feeds sequences of arbitrary raw IP packets (split at
// 0xff 0xfe) through the datagram path: it never panics, datagrams are
// never longer on the wire than IP allows, and every held fragment is
// released or counted at the end.
func FuzzDatagrams(f *testing.F) {
	d := udpbuild.Datagram{Src: v4a, Dst: v4b, Payload: payloadOf(300, 1), ID: 3}
	d6 := udpbuild.Datagram{Src: v6a, Dst: v6b, Payload: payloadOf(300, 2), ID: 4}
	var seed []byte
	for _, fr := range append(d.Fragments(104), d6.Fragments(104)...) {
		seed = append(append(seed, fr[14:]...), 0xff, 0xfe)
	}
	f.Add(seed)
	f.Add(d.Packet()[14:])
	f.Fuzz(func(t *testing.T, data []byte) {
		var frames []udpbuild.Frame
		for i, part := range bytes.Split(data, []byte{0xff, 0xfe}) {
			// raw IP in an Ethernet frame
			frame := append([]byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00}, part...)
			if len(part) > 0 && part[0]>>4 == 6 {
				frame[12], frame[13] = 0x86, 0xdd
			}
			frames = append(frames, udpbuild.Frame{T: time.Duration(i) * time.Second, Data: frame})
		}
		r, err := NewReader(bytes.NewReader(udpbuild.Pcap(frames)))
		if err != nil {
			t.Fatal(err)
		}
		sc := NewScanner(r)
		sc.Datagrams(func(dg *Datagram, _ *Flow) {
			if dg.Length < 0 || dg.Length > ipMaxDatagram || len(dg.Payload) > dg.Length && dg.Proto == ProtoUDP {
				t.Fatalf("datagram of %d bytes, %d captured", dg.Length, len(dg.Payload))
			}
		})
		for sc.Scan() {
		}
		if n := len(sc.dg.frags.pending); n != 0 || sc.dg.frags.bytes != 0 {
			t.Fatalf("%d datagrams, %d bytes still held after the end", n, sc.dg.frags.bytes)
		}
	})
}
