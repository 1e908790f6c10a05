package reassembly

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopacket/gopacket/layers"

	"tcpviz/internal/gencap"
	"tcpviz/internal/golden"
)

// decodeBothWays decodes one packet with the hand-written fast path and
// with the general gopacket path, and reports any difference: result,
// error text, every Segment field, and the counts. It returns whether the
// fast path handled the packet.
func decodeBothWays(p *Packet, fast, slow *Decoder) (bool, error) {
	var tmp Segment
	handled, _ := (&Decoder{}).decodeFast(p, &tmp)
	var sf, ss Segment
	okF, errF := fast.Decode(p, &sf)
	okS, errS := slow.Decode(p, &ss)
	if okF != okS || fmt.Sprint(errF) != fmt.Sprint(errS) {
		return handled, fmt.Errorf("fast path: %v, %v; gopacket: %v, %v", okF, errF, okS, errS)
	}
	if sf != ss {
		return handled, fmt.Errorf("segments differ:\nfast     %+v\ngopacket %+v", sf, ss)
	}
	if fast.Stats != slow.Stats {
		return handled, fmt.Errorf("counts differ:\nfast     %+v\ngopacket %+v", fast.Stats, slow.Stats)
	}
	return handled, nil
}

// TestFastDecodeMatchesGopacket decodes every packet of every capture both
// ways and requires identical results. It also requires the fast path to
// have handled most packets, so that it cannot pass by never running.
func TestFastDecodeMatchesGopacket(t *testing.T) {
	files := golden.Captures()
	if len(files) < 10 {
		if _, err := os.Stat(golden.SharedCaptures()); err != nil {
			t.Logf("../shared/captures not present: %d bundled captures only", len(files))
		} else {
			t.Fatalf("only %d captures found", len(files))
		}
	}
	var total, handledTotal int64
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			continue // not a capture we read: nothing to compare
		}
		fast, slow := &Decoder{}, &Decoder{noFast: true}
		handled := 0
		for r.Next() {
			p := r.Packet()
			h, err := decodeBothWays(p, fast, slow)
			if err != nil {
				t.Fatalf("%s: packet %d (link type %d): %v", filepath.Base(name), p.Number, p.LinkType, err)
			}
			if h {
				handled++
			}
		}
		t.Logf("%s: %d of %d packets on the fast path", filepath.Base(name), handled, fast.Stats.Packets)
		total += fast.Stats.Packets
		handledTotal += int64(handled)
	}
	t.Logf("%d captures, %d packets, %d on the fast path", len(files), total, handledTotal)
	if handledTotal < total/2 {
		t.Errorf("fast path handled only %d of %d packets", handledTotal, total)
	}
}

// FuzzFastDecode decodes arbitrary frames of the link types the fast path
// knows (and a few it does not) both ways: results must be identical.
func FuzzFastDecode(f *testing.F) {
	v4 := pkt{src: cli, dst: srv, seq: 1, ack: 1, flags: ACK, payload: 10, opts: []layers.TCPOption{{OptionType: 8, OptionLength: 10, OptionData: make([]byte, 8)}}}.frame(f)
	v6 := pkt{src: "[2001:db8::1]:40000", dst: "[2001:db8::2]:80", seq: 1, ack: 1, flags: SYN | ACK, payload: 0}.frame(f)
	for _, frame := range [][]byte{v4, v6} {
		ip := frame[14:]
		vlan := append(append(append([]byte{}, frame[:12]...), 0x81, 0x00, 0x00, 0x05), frame[12:]...)
		sll := append([]byte{0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, frame[12], frame[13]}, ip...)
		sll2 := append([]byte{frame[12], frame[13], 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0}, ip...)
		for _, c := range []struct {
			lt   layers.LinkType
			data []byte
		}{
			{layers.LinkTypeEthernet, frame}, {layers.LinkTypeEthernet, vlan},
			{layers.LinkTypeLinuxSLL, sll}, {layers.LinkTypeLinuxSLL2, sll2},
			{layers.LinkTypeRaw, ip}, {layers.LinkTypeIPv4, ip}, {layers.LinkTypeIPv6, ip}, {12, ip}, {14, ip},
			{layers.LinkTypeNull, ip},
		} {
			f.Add(uint16(c.lt), c.data, uint16(len(c.data)))
			f.Add(uint16(c.lt), c.data[:len(c.data)-15], uint16(len(c.data)))
		}
	}
	// Every encapsulation and link type of testdata/tunnels.
	for _, tc := range gencap.Tunnels() {
		r, err := NewReader(bytes.NewReader(tc.Capture()))
		if err != nil {
			f.Fatal(err)
		}
		for i := 0; i < 20 && r.Next(); i++ {
			p := r.Packet()
			f.Add(uint16(p.LinkType), append([]byte(nil), p.Data...), uint16(p.WireLen))
		}
	}
	f.Fuzz(func(t *testing.T, lt uint16, data []byte, wire uint16) {
		p := &Packet{Number: 1, LinkType: layers.LinkType(lt), Data: data, CapLen: len(data), WireLen: max(int(wire), len(data))}
		if _, err := decodeBothWays(p, &Decoder{}, &Decoder{noFast: true}); err != nil {
			t.Fatal(err)
		}
	})
}
