package reassembly

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// pkt describes a synthetic TCP packet for tests.
type pkt struct {
	t           time.Duration // since the capture start
	src, dst    string        // "10.0.0.1:1234"
	seq, ack    uint32
	flags       Flags
	win         uint16
	payload     int
	ipid        uint16
	ttl         uint8
	iface       int
	opts        []layers.TCPOption
	snap        int // truncate the frame to this many bytes (0: no)
	ipTotalZero bool
}

var testEpoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// frame serialises p as an Ethernet frame.
func (p pkt) frame(t testing.TB) []byte {
	t.Helper()
	sa, sp := splitHostPort(t, p.src)
	da, dp := splitHostPort(t, p.dst)
	tcp := &layers.TCP{
		SrcPort: layers.TCPPort(sp), DstPort: layers.TCPPort(dp),
		Seq: p.seq, Ack: p.ack, Window: p.win,
		FIN: p.flags&FIN != 0, SYN: p.flags&SYN != 0, RST: p.flags&RST != 0,
		PSH: p.flags&PSH != 0, ACK: p.flags&ACK != 0, Options: p.opts,
	}
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}}
	var ip gopacket.SerializableLayer
	if sa.To4() != nil {
		eth.EthernetType = layers.EthernetTypeIPv4
		ttl := p.ttl
		if ttl == 0 {
			ttl = 64
		}
		v4 := &layers.IPv4{Version: 4, TTL: ttl, Id: p.ipid, Protocol: layers.IPProtocolTCP, SrcIP: sa, DstIP: da, Flags: layers.IPv4DontFragment}
		tcp.SetNetworkLayerForChecksum(v4)
		ip = v4
	} else {
		eth.EthernetType = layers.EthernetTypeIPv6
		v6 := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolTCP, SrcIP: sa, DstIP: da}
		tcp.SetNetworkLayerForChecksum(v6)
		ip = v6
	}
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(buf, opts, eth, ip, tcp, gopacket.Payload(make([]byte, p.payload))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if p.ipTotalZero {
		b[14+2], b[14+3] = 0, 0
	}
	return b
}

func splitHostPort(t testing.TB, s string) (net.IP, int) {
	t.Helper()
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		t.Fatal(err)
	}
	port := 0
	for _, c := range p {
		port = port*10 + int(c-'0')
	}
	return net.ParseIP(h), port
}

// pcapOf writes the packets as a microsecond pcap file.
func pcapOf(t testing.TB, pkts []pkt) []byte {
	t.Helper()
	var out bytes.Buffer
	w := pcapgo.NewWriterNanos(&out)
	if err := w.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		t.Fatal(err)
	}
	for _, p := range pkts {
		data := p.frame(t)
		ci := gopacket.CaptureInfo{Timestamp: testEpoch.Add(p.t), CaptureLength: len(data), Length: len(data)}
		if p.snap > 0 && p.snap < len(data) {
			data = data[:p.snap]
			ci.CaptureLength = p.snap
		}
		if err := w.WritePacket(ci, data); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

// pcapngOf writes the packets as pcapng with two Ethernet interfaces.
func pcapngOf(t testing.TB, pkts []pkt) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := pcapgo.NewNgWriterInterface(&out, pcapgo.NgInterface{Name: "eth0", LinkType: layers.LinkTypeEthernet, SnapLength: 65535, TimestampResolution: 9}, pcapgo.DefaultNgWriterOptions)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddInterface(pcapgo.NgInterface{Name: "eth1", LinkType: layers.LinkTypeEthernet, SnapLength: 65535, TimestampResolution: 9}); err != nil {
		t.Fatal(err)
	}
	for _, p := range pkts {
		data := p.frame(t)
		ci := gopacket.CaptureInfo{Timestamp: testEpoch.Add(p.t), CaptureLength: len(data), Length: len(data), InterfaceIndex: p.iface}
		if err := w.WritePacket(ci, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// scanAll reads a capture and returns copies of its segments and the
// connections in stream order, as they were when they retired (the last
// time, for a stream that continued after its retirement).
func scanAll(t testing.TB, capture []byte) ([]Segment, []*Conn, error) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	sc := NewScanner(r)
	var conns []*Conn
	sc.Tracker().OnRetire = func(c *Conn) {
		for len(conns) <= c.Stream {
			conns = append(conns, nil)
		}
		conns[c.Stream] = c
	}
	var segs []Segment
	for sc.Scan() {
		segs = append(segs, *sc.Segment())
	}
	return segs, conns, sc.Err()
}
