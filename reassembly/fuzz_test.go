package reassembly

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopacket/gopacket/layers"

	"tcpviz/internal/golden"
)

// seedCaptures adds the first bytes of real and malformed captures to a
// fuzz corpus.
func seedCaptures(f *testing.F, add func([]byte)) {
	for _, dir := range []string{"real", "malformed", "lab"} {
		names, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), dir, "*"))
		for i, n := range names {
			if i%3 != 0 && dir == "real" { // a sample is enough
				continue
			}
			data, err := os.ReadFile(n)
			if err != nil {
				continue
			}
			add(data[:min(len(data), 4096)])
		}
	}
}

// FuzzReader feeds arbitrary bytes to the whole read path: format
// detection, decompression, record reading, decoding and tracking. It must
// never panic, and unwrapped numbers must keep their raw low 32 bits.
func FuzzReader(f *testing.F) {
	f.Add(pcapOf(f, handshake(0, 1000, 5000)))
	f.Add(pcapngOf(f, handshake(0, 0xfffffff0, 5000)))
	f.Add(variantOf(f, pcapOf(f, handshake(0, 1000, 5000)), 0xa1b2cd34, 8)) // patched libpcaps' records
	f.Add(variantOf(f, pcapOf(f, handshake(0, 1000, 5000)), 0xa1b2c3d4, 4))
	seedCaptures(f, func(b []byte) { f.Add(b) })
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		sc := NewScanner(r)
		sc.Tracker().OnRetire = func(c *Conn) {
			// Zeek's view of whatever came: one of its states, a history
			// of its letters.
			st, h, _ := c.ZeekState()
			if !strings.Contains(" S0 S1 SF REJ S2 S3 RSTO RSTR RSTOS0 RSTRH SH SHR OTH ", " "+st+" ") || strings.Trim(h, "^SsHhAaDdFfRrTtWwIiQq") != "" {
				t.Fatalf("stream %d: Zeek state %q, history %q", c.Stream, st, h)
			}
		}
		for n := 0; sc.Scan() && n < 10000; n++ {
			s := sc.Segment()
			if uint32(s.SeqAbs) != s.Seq {
				t.Fatalf("frame %d: unwrapped seq %#x lost raw %#x", s.Frame, s.SeqAbs, s.Seq)
			}
			if s.Flags&ACK != 0 && uint32(s.AckAbs) != s.Ack {
				t.Fatalf("frame %d: unwrapped ack %#x lost raw %#x", s.Frame, s.AckAbs, s.Ack)
			}
			if s.PayloadLen < 0 || s.Captured < 0 || s.Captured > s.PayloadLen {
				t.Fatalf("frame %d: payload %d captured %d", s.Frame, s.PayloadLen, s.Captured)
			}
		}
		if err := sc.Err(); err != nil && !strings.HasPrefix(err.Error(), "packet ") {
			t.Fatalf("scan error %q does not name the packet", err)
		}
	})
}

// FuzzDecode feeds arbitrary frames of every supported link type to the
// decoder.
func FuzzDecode(f *testing.F) {
	frame := pkt{src: cli, dst: srv, seq: 1, ack: 1, flags: ACK, payload: 10}.frame(f)
	for _, lt := range []layers.LinkType{layers.LinkTypeEthernet, layers.LinkTypeRaw, layers.LinkTypeLinuxSLL, layers.LinkTypeLinuxSLL2, layers.LinkTypeNull, layers.LinkTypePPP, layers.LinkTypeFDDI} {
		f.Add(uint16(lt), frame, uint16(len(frame)))
		f.Add(uint16(lt), frame[14:], uint16(len(frame)-14))
	}
	f.Fuzz(func(t *testing.T, lt uint16, data []byte, wire uint16) {
		var d Decoder
		var seg Segment
		p := &Packet{Number: 1, LinkType: layers.LinkType(lt), Data: data, CapLen: len(data), WireLen: max(int(wire), len(data))}
		ok, err := d.Decode(p, &seg)
		if ok && err != nil {
			t.Fatalf("ok with error %v", err)
		}
		if ok && (seg.PayloadLen < 0 || seg.Captured > seg.PayloadLen) {
			t.Fatalf("payload %d captured %d", seg.PayloadLen, seg.Captured)
		}
	})
}

// TestMalformedCaptures reads every deliberately broken capture of the
// shared corpus: no panic; an error that stops the scan names the packet;
// packets before the damage are still returned.
func TestMalformedCaptures(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), "malformed", "*"))
	if len(names) == 0 {
		t.Skip("../shared/captures/malformed not present")
	}
	for _, n := range names {
		t.Run(filepath.Base(n), func(t *testing.T) {
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewReader(bytes.NewReader(data))
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("open error spans lines: %q", err)
				}
				t.Logf("refused: %v", err)
				return
			}
			sc := NewScanner(r)
			segs := 0
			for sc.Scan() {
				segs++
			}
			if err := sc.Err(); err != nil {
				if !strings.HasPrefix(err.Error(), "packet ") || strings.Contains(err.Error(), "\n") {
					t.Errorf("scan error %q: want one line starting with the packet number", err)
				}
				t.Logf("%d segments, then: %v", segs, err)
			}
		})
	}
}
