package analyze

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"tcpviz/internal/capturetest"
	"tcpviz/reassembly"
)

// The time/sequence graphs against the link's log (see TestPathTruth):
// the segment a link dropped is drawn resent as a retransmission, whatever
// Wireshark calls the resend, and a segment the link reordered, not
// resent, as out-of-order.

// seqTruthSeg is one data segment of the graphed direction of a capture.
type seqTruthSeg struct {
	frame  int64
	seq    uint32 // raw
	length int
	ipid   uint16
	time   int64
}

// seqTruthCapture is the data connection of a capture: its data segments
// in the graphed direction, and which data series each frame is drawn in,
// by the path's verdict (path) and by Wireshark's flags alone (wire, as
// before the verdict existed).
type seqTruthCapture struct {
	snd, rcv   netip.AddrPort
	segs       []seqTruthSeg
	path, wire [2]map[int64]string // [tcptrace, stevens]: frame → series
}

// seqTruthRun reads the busiest connection of a capture and draws both
// time/sequence graphs of its main direction.
func seqTruthRun(t *testing.T, path string) *seqTruthCapture {
	t.Helper()
	first, err := Run(capturetest.Reader(t, path), RunOptions{Keep: -1})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	stream := first.Busiest
	var segs [2][]seqTruthSeg
	res, err := Run(capturetest.Reader(t, path), RunOptions{Keep: stream,
		OnSegment: func(c *reassembly.Conn, s *reassembly.Segment, _ *Record) {
			if c.Stream == stream && s.PayloadLen > 0 && !s.Duplicate {
				segs[s.Dir] = append(segs[s.Dir], seqTruthSeg{s.Frame, s.Seq, s.PayloadLen, s.IPID, s.Time})
			}
		}})
	if err != nil || res.Kept == nil {
		t.Fatalf("%s: stream %d: %v", path, stream, err)
	}
	c := res.Kept
	d := mainDirection(c)
	out := &seqTruthCapture{snd: c.Client, rcv: c.Server, segs: segs[d]}
	if d == reassembly.S2C {
		out.snd, out.rcv = c.Server, c.Client
	}
	o := SeriesOptions{Conn: c, Dir: d}
	draw := func(recs []Record) (m [2]map[int64]string) {
		for i, g := range []*Graph{tcptraceGraph(recs, o), stevensGraph(recs, o)} {
			m[i] = map[int64]string{}
			for _, s := range g.Series {
				switch s.Name {
				case SeriesData, SeriesRetrans, SeriesOutOfOrder, SeriesSpurious:
					for _, p := range s.Points {
						m[i][p.Frame] = s.Name
					}
				}
			}
		}
		return m
	}
	out.path = draw(res.Records)
	for i := range res.Records {
		res.Records[i].Info.Path = PathNone
	}
	out.wire = draw(res.Records)
	return out
}

// covers reports whether segment s holds byte seq (serial arithmetic).
func (s seqTruthSeg) covers(seq uint32) bool {
	return int32(seq-s.seq) >= 0 && int32(seq-(s.seq+uint32(s.length))) < 0
}

// fromSender reports whether a truth event is a data frame of the
// capture's graphed direction.
func (c *seqTruthCapture) fromSender(e truthEvent) bool {
	if e.Len <= 0 || e.Sport != c.snd.Port() || e.Dport != c.rcv.Port() {
		return false
	}
	a, err := netip.ParseAddr(e.Src)
	return err == nil && a.Unmap() == c.snd.Addr().Unmap()
}

func seqTruthFiles(t *testing.T, name string) (dir string, tx, rx string) {
	scen := truthScenarios(t)
	dir, ok := scen[name]
	if !ok {
		t.Skipf("no %s", name)
	}
	file := func(side string) string {
		f := filepath.Join(dir, name+"."+side+".pcap")
		if _, err := os.Stat(f); err != nil {
			f += "ng"
		}
		return f
	}
	return dir, file("tx"), file("rx")
}

var graphNames = [2]string{"tcptrace", "stevens"}

// TestSeqTruthDrops: at the capture before the link (the sender's side)
// every transmission the link dropped is followed by a resend, which both
// graphs draw as a retransmission; after the link (the receiver's side)
// the first copy to arrive of a dropped segment's bytes, the repair, too.
func TestSeqTruthDrops(t *testing.T) {
	for _, name := range []string{"gt_vsat_reno_loss", "gt_reverse_loss", "gt_bufferbloat_tail"} {
		t.Run(name, func(t *testing.T) {
			dir, tx, rx := seqTruthFiles(t, name)
			events := readTruth(t, filepath.Join(dir, name+".truth.jsonl.gz"))
			caps := map[string]*seqTruthCapture{"tx": seqTruthRun(t, tx), "rx": seqTruthRun(t, rx)}
			before, after := "tx", "rx"
			if caps["tx"].snd.Port() == 5201 { // the server sends (REVERSE)
				before, after = "rx", "tx"
			}
			b, a := caps[before], caps[after]
			var drops []truthEvent
			for _, e := range events {
				if (e.Event == "loss" || e.Event == "queue") && b.fromSender(e) {
					drops = append(drops, e)
				}
			}
			if len(drops) == 0 {
				t.Fatal("no drops of the data in the link's log")
			}
			// The resends at the sender's side: the next transmission of the
			// dropped transmission's first byte.
			var resends, repairs []int64
			for _, dr := range drops {
				best := -1
				for i, s := range b.segs {
					if s.seq == dr.Seq && (dr.IPID == 0 || s.ipid == dr.IPID) && (best < 0 || s.time <= dr.Time.UnixNano()) {
						best = i
					}
				}
				if best < 0 {
					continue
				}
				for _, s := range b.segs[best+1:] {
					if s.covers(dr.Seq) {
						resends = append(resends, s.frame)
						break
					}
				}
				// After the link: the first copy of those bytes to arrive
				// after the drop.
				for _, s := range a.segs {
					if s.time > dr.Time.UnixNano() && s.covers(dr.Seq) {
						repairs = append(repairs, s.frame)
						break
					}
				}
			}
			check := func(side string, c *seqTruthCapture, frames []int64) {
				for g := range graphNames {
					n, wire := map[string]int{}, map[string]int{}
					for _, f := range frames {
						n[c.path[g][f]]++
						wire[c.wire[g][f]]++
						if s := c.path[g][f]; s != SeriesRetrans {
							t.Errorf("%s %s %s: frame %d, a resend of dropped bytes, drawn as %q, want %q", name, side, graphNames[g], f, s, SeriesRetrans)
						}
					}
					t.Logf("%s %s %s: %d resends of dropped bytes drawn as %v (by Wireshark's flags: %v)", name, side, graphNames[g], len(frames), n, wire)
				}
			}
			if len(resends) < len(drops)*9/10 {
				t.Errorf("%s: only %d of %d drops resent at the sender's side", name, len(resends), len(drops))
			}
			check(before, b, resends)
			check(after, a, repairs)
		})
	}
}

// TestSeqTruthReorder: after a link that reorders but drops nothing, a
// segment the link reordered and the sender did not resend is drawn as
// out-of-order, never as a retransmission, in both graphs.
func TestSeqTruthReorder(t *testing.T) {
	const name = "gt_jitter_reorder"
	dir, tx, rx := seqTruthFiles(t, name)
	events := readTruth(t, filepath.Join(dir, name+".truth.jsonl.gz"))
	b, a := seqTruthRun(t, tx), seqTruthRun(t, rx)
	var high uint32
	// The sender's resends: segments starting below the highest byte sent.
	var resends []seqTruthSeg
	for i, s := range b.segs {
		if i > 0 && int32(s.seq-high) < 0 {
			resends = append(resends, s)
		}
		if e := s.seq + uint32(s.length); i == 0 || int32(e-high) > 0 {
			high = e
		}
	}
	resent := func(seq uint32) bool {
		for _, s := range resends {
			if s.covers(seq) {
				return true
			}
		}
		return false
	}
	at := map[[2]uint32]int64{} // (seq, IPv4 ID) → frame after the link
	for _, s := range a.segs {
		at[[2]uint32{s.seq, uint32(s.ipid)}] = s.frame
	}
	var frames []int64
	for _, e := range events {
		if e.Event != "reorder" || !a.fromSender(e) {
			continue
		}
		f, ok := at[[2]uint32{e.Seq, uint32(e.IPID)}]
		if !ok || resent(e.Seq) {
			continue
		}
		frames = append(frames, f)
	}
	if len(frames) < 10000 {
		t.Fatalf("only %d reordered segments not resent found after the link", len(frames))
	}
	// Nothing was lost: every resend was spurious, proven by the
	// receiver's D-SACKs at the sender's side, by both copies after the
	// link.
	for g := range graphNames {
		n := map[string]int{}
		for _, s := range resends {
			n[b.path[g][s.frame]]++
		}
		after := 0
		for _, name := range a.path[g] {
			if name == SeriesSpurious {
				after++
			}
		}
		t.Logf("%s %s: the sender's %d resends drawn as %v; %d spurious after the link", name, graphNames[g], len(resends), n, after)
		if n[SeriesSpurious] != len(resends) || after != len(resends) {
			t.Errorf("%s %s: %d resends, %d drawn spurious before the link, %d after", name, graphNames[g], len(resends), n[SeriesSpurious], after)
		}
	}
	for g := range graphNames {
		n, wire := map[string]int{}, map[string]int{}
		for _, f := range frames {
			n[a.path[g][f]]++
			wire[a.wire[g][f]]++
		}
		t.Logf("%s rx %s: %d reordered segments, not resent, drawn as %v (by Wireshark's flags: %v)", name, graphNames[g], len(frames), n, wire)
		if n[SeriesRetrans] > 0 || n[SeriesSpurious] > 0 {
			t.Errorf("%s rx %s: %d reordered segments drawn as retransmissions, %d as spurious ones", name, graphNames[g], n[SeriesRetrans], n[SeriesSpurious])
		}
		if bad := len(frames) - n[SeriesOutOfOrder]; bad > len(frames)/100 {
			t.Errorf("%s rx %s: %d of %d reordered segments not drawn as out-of-order: %v", name, graphNames[g], bad, len(frames), n)
		}
	}
}
