package join

import (
	"math"
	"path/filepath"
	"testing"

	"tcpviz/internal/golden"
)

// FuzzJoin joins a bundled tx/rx pair after the fuzzer's edits of the
// downstream capture (packets dropped, repeated, moved in time, fields
// changed): the join never panics, never says a negative delay, and its
// counts add up.
func FuzzJoin(f *testing.F) {
	dir := filepath.Join(golden.Testdata(), "truth-extra")
	load := func(k string) *Capture { return readCapture(f, filepath.Join(dir, "gt_nosack_loss."+k+".pcap")) }
	tx, rx := load("tx"), load("rx")
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 200, 0, 17, 99})
	f.Add([]byte{255, 255, 0, 0, 128, 64, 32, 16, 8, 4, 2, 1})
	f.Fuzz(func(t *testing.T, edits []byte) {
		down := clone(rx)
		up := clone(tx)
		// Each three bytes: which connection, which packet, what to do.
		for i := 0; i+2 < len(edits); i += 3 {
			c := down.Conns[int(edits[i])%len(down.Conns)]
			if i%2 == 1 {
				c = up.Conns[int(edits[i])%len(up.Conns)]
			}
			d := int(edits[i+1]) & 1
			if len(c.Pkts[d]) == 0 {
				continue
			}
			k := int(edits[i+1]) * 7 % len(c.Pkts[d])
			p := &c.Pkts[d][k]
			switch edits[i+2] % 8 {
			case 0: // dropped
				c.Pkts[d] = append(c.Pkts[d][:k], c.Pkts[d][k+1:]...)
			case 1: // repeated
				c.Pkts[d] = append(c.Pkts[d][:k+1], c.Pkts[d][k:]...)
			case 2: // moved back in time
				p.Time -= int64(edits[i+2]) * 1e6
			case 3: // moved far ahead
				p.Time += int64(edits[i+2]) * 1e9
			case 4:
				p.Seq ^= uint32(edits[i+2]) << 8
			case 5:
				p.TSVal, p.SACK, p.IPID = 0, 0, 0
			case 6:
				p.Dup = !p.Dup
			case 7:
				p.Wire, p.Len = uint16(edits[i+2])*300, uint16(edits[i+2])*250
			}
		}
		res, err := Join([]*Capture{down, up})
		if err != nil {
			return
		}
		for _, h := range res.Hops {
			if math.IsNaN(h.Clock.Offset) || math.IsInf(h.Clock.Offset, 0) {
				t.Fatalf("clock offset %v", h.Clock.Offset)
			}
			for _, ch := range h.Conns {
				for d := range ch.Dir {
					dh := &ch.Dir[d]
					if dh.OWD.Min < 0 || dh.Queue.Min < 0 {
						t.Fatalf("negative delay: %+v %+v", dh.OWD, dh.Queue)
					}
					if dh.Matched != int64(len(dh.Pairs)) || dh.LostData != int64(len(dh.Lost)) {
						t.Fatalf("counts: %d matched, %d pairs, %d lost, %d listed", dh.Matched, len(dh.Pairs), dh.LostData, len(dh.Lost))
					}
					if dh.Matched+dh.LostData+dh.LostAcks > dh.Sent {
						t.Fatalf("%d matched + %d + %d lost of %d sent", dh.Matched, dh.LostData, dh.LostAcks, dh.Sent)
					}
					for _, p := range dh.Pairs {
						if p.OWD < 0 || p.Queue < 0 || p.Queue > p.OWD {
							t.Fatalf("pair %+v", p)
						}
					}
				}
			}
		}
	})
}
