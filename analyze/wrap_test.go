package analyze

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// wireshark is what Wireshark shows of a packet's analysis: every column
// of PacketInfo that tshark prints (not the tcptrace RTT, not the path).
type wireshark struct {
	flags                             Flag
	dupNum                            int
	dupOf, bif, ackRTT, acked, window int64
	scale                             int32
}

func wiresharkOf(i PacketInfo) wireshark {
	return wireshark{i.Flags, i.DupAckNum, i.DupAckOf, i.BytesInFlight, i.AckRTT, i.AckedFrame, i.Window, i.ScaleFactor}
}

// pair is one direction of a 4-tuple: its sender and receiver.
type pair [2]netip.AddrPort

func pairOf(s *reassembly.Segment) pair {
	return pair{netip.AddrPortFrom(s.Src, s.SrcPort), netip.AddrPortFrom(s.Dst, s.DstPort)}
}

// readSegments reads every TCP segment of a capture, as the scanner
// gives them (nil if it is not a capture).
func readSegments(t testing.TB, path string) []reassembly.Segment {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := reassembly.NewReader(f)
	if err != nil {
		return nil
	}
	sc := reassembly.NewScanner(r)
	var segs []reassembly.Segment
	for sc.Scan() {
		s := *sc.Segment()
		s.First = nil
		segs = append(segs, s)
	}
	return segs
}

// shifted returns copies of segs with shift[p] added to the sequence
// numbers p sends and to the ACK (with the ACK flag) and SACK numbers
// that acknowledge them, as if each direction's ISN had been moved, and
// their tracking cleared (Track is to see them anew).
func shifted(segs []reassembly.Segment, shift map[pair]uint32) []reassembly.Segment {
	out := make([]reassembly.Segment, len(segs))
	for i, s := range segs {
		p := pairOf(&s)
		fwd, rev := shift[p], shift[pair{p[1], p[0]}]
		s.Seq += fwd
		if s.Flags&reassembly.ACK != 0 {
			s.Ack += rev
		}
		for j := range s.Opt.NSACK {
			s.Opt.SACK[j].Left += rev
			s.Opt.SACK[j].Right += rev
		}
		s.Stream, s.SeqAbs, s.AckAbs, s.ConnFirstTime, s.Base = 0, 0, 0, 0, [2]uint64{}
		s.Dir, s.ClientSYNSeen, s.Duplicate, s.Lone, s.Note, s.First = 0, false, false, false, 0, nil
		out[i] = s
	}
	return out
}

// analyzeSegments tracks and analyses segs (as shifted returns them),
// giving Wireshark's columns and the stream by frame.
func analyzeSegments(segs []reassembly.Segment, loops bool) (map[int64]wireshark, map[int64]int) {
	trk := reassembly.NewTracker()
	a := newAnalyzer()
	a.loopsOnly = loops
	out, streams := map[int64]wireshark{}, map[int64]int{}
	for i := range segs {
		s := &segs[i]
		c := trk.Track(s)
		out[s.Frame] = wiresharkOf(a.segment(c, s))
		streams[s.Frame] = s.Stream
	}
	trk.Flush()
	return out, streams
}

// acrossWrap is the shift that moves the middle of each direction's
// sequence numbers to just above 2^32, so that its absolute numbers cross
// 2^32 halfway through — without making any number 0: Wireshark reads a
// raw 0 as "none yet" (its nextseq, lastack, maxseqtobeacked), and there
// its own flags change.
func acrossWrap(segs []reassembly.Segment) map[pair]uint32 {
	type span struct{ lo, hi uint64 }
	spans := map[pair]*span{}
	used := map[pair]map[uint32]bool{}
	mark := func(p pair, v uint32) {
		if used[p] == nil {
			used[p] = map[uint32]bool{}
		}
		used[p][v] = true
	}
	for _, s := range segs {
		p := pairOf(&s)
		sp := spans[p]
		if sp == nil {
			sp = &span{s.SeqAbs, s.SeqAbs}
			spans[p] = sp
		}
		sp.lo, sp.hi = min(sp.lo, s.SeqAbs), max(sp.hi, s.SeqAbs+uint64(s.PayloadLen))
		mark(p, s.Seq)
		mark(p, s.Seq+uint32(s.PayloadLen))
		mark(p, s.Seq+uint32(s.PayloadLen)+1)
		if s.Flags&reassembly.ACK != 0 {
			mark(pair{p[1], p[0]}, s.Ack)
		}
	}
	shift := map[pair]uint32{}
	for p, sp := range spans {
		d := -uint32(sp.lo+(sp.hi-sp.lo)/2) + 1013
		for used[p][-d] { // that number would become 0
			d++
		}
		shift[p] = d
	}
	return shift
}

// rawDependent lists the streams where Wireshark's analysis depends on
// the raw numbers themselves, so that moving the ISNs changes what tshark
// shows too: a segment that is neither a SYN nor carries the ACK flag (a
// RST, mostly), whose ACK field Wireshark takes, raw (often 0), for an ACK
// and compares with the other side's raw numbers (tshark shows other
// bytes in flight for gt_nosack_loss.rx.pcap shifted); and a number that
// is 0 in the capture, which Wireshark reads as "none yet" (a RST with
// sequence number 0 before a SYN/ACK, in ndpi__rtsp.pcap).
func rawDependent(segs []reassembly.Segment, streams map[int64]int) map[int]bool {
	out := map[int]bool{}
	for _, s := range segs {
		end := s.Seq + uint32(s.PayloadLen)
		if s.Flags&(reassembly.SYN|reassembly.FIN) != 0 {
			end++
		}
		if s.Flags&(reassembly.SYN|reassembly.ACK) == 0 || s.Seq == 0 || end == 0 || s.Flags&reassembly.ACK != 0 && s.Ack == 0 {
			out[streams[s.Frame]] = true
		}
	}
	return out
}

// TestISNShiftKeepsWiresharkColumns: Wireshark's analysis of a connection
// does not depend on where its initial sequence numbers lie — its flags,
// duplicate-ACK numbers, bytes in flight and ack_rtt are those of the
// numbers relative to the ISN, compared by serial arithmetic — and
// neither may ours: on every bundled and corpus capture, each direction's
// numbers moved to cross 2^32 halfway through give the same columns
// (apart from the streams where tshark's depends on them too, see
// rawDependent; scripts/
// tshark-shifted-golden.sh checks those against tshark itself).
func TestISNShiftKeepsWiresharkColumns(t *testing.T) {
	checked, excluded := 0, 0
	for _, path := range golden.Captures() {
		segs := readSegments(t, path)
		if len(segs) == 0 || len(segs) > 400000 {
			continue
		}
		want, streams := analyzeSegments(shifted(segs, nil), false)
		got, _ := analyzeSegments(shifted(segs, acrossWrap(segs)), false)
		skip := rawDependent(segs, streams)
		excluded += len(skip)
		var diffs []string
		for _, s := range segs {
			if g, w := got[s.Frame], want[s.Frame]; g != w && !skip[streams[s.Frame]] {
				diffs = append(diffs, fmt.Sprintf("frame %d: %+v, unshifted %+v", s.Frame, g, w))
			}
		}
		checked++
		if len(diffs) > 0 {
			t.Errorf("%s: %d frames differ with the ISNs shifted across 2^32, e.g.\n%s", filepath.Base(path), len(diffs), strings.Join(diffs[:min(3, len(diffs))], "\n"))
		}
	}
	if least := golden.AtLeast(100, 20); checked < least {
		t.Errorf("only %d captures checked, at least %d must be", checked, least)
	}
	t.Logf("%d captures checked (%d streams where tshark depends on the raw numbers left out)", checked, excluded)
}

// TestShiftedMatchesTshark: bundled captures with their ISNs moved across
// 2^32 by scripts/tshark-shifted-golden.sh, which recorded tshark's
// analysis of the moved capture: the same segments moved in memory give
// tshark's flags, duplicate-ACK numbers, bytes in flight, ack_rtt and
// windows on every frame — also where tshark's analysis depends on the
// raw numbers (see rawDependent).
func TestShiftedMatchesTshark(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "tshark-shifted")
	raw, err := os.ReadFile(filepath.Join(dir, "shifts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var cases golden.Cases
	defer cases.Check(t, 4)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:]
	for _, line := range lines {
		var capture string
		var c2s, s2c uint32
		var server uint16
		if _, err := fmt.Sscanf(line, "%s\t%d\t%d\t%d", &capture, &c2s, &s2c, &server); err != nil {
			t.Fatalf("shifts.tsv: %q: %v", line, err)
		}
		name := strings.ReplaceAll(strings.TrimPrefix(capture, "testdata/"), "/", "__")
		t.Run(name, func(t *testing.T) {
			path := golden.Resolve(capture)
			cases.Need(t, path)
			g, err := golden.Load(filepath.Join(dir, name+".tsv.gz"))
			if err != nil {
				t.Fatal(err)
			}
			segs := readSegments(t, path)
			shift := map[pair]uint32{}
			for _, s := range segs {
				if p := pairOf(&s); s.DstPort == server {
					shift[p] = c2s
				} else if s.SrcPort == server {
					shift[p] = s2c
				}
			}
			moved := shifted(segs, shift)
			trk := reassembly.NewTracker()
			a := newAnalyzer()
			ours := map[int64]*analyzed{}
			for i := range moved {
				s := &moved[i]
				c := trk.Track(s)
				info := a.segment(c, s)
				var irtt int64
				if cs := a.state(c); cs != nil {
					irtt = cs.firstRTT
				}
				ours[s.Frame] = &analyzed{seg: *s, info: info, irtt: irtt}
			}
			var problems []string
			for _, fr := range g.Frames() {
				got, ok := ours[fr.Int("frame")]
				if !ok || fr.Str("stream") == "" {
					continue
				}
				if uint32(fr.Int("seq_raw")) != got.seg.Seq {
					t.Fatalf("frame %d: raw seq %d, tshark's shifted capture %d: not the same shift", fr.Int("frame"), got.seg.Seq, fr.Int("seq_raw"))
				}
				if d := frameDiffs(fr, got); len(d) > 0 {
					problems = append(problems, fmt.Sprintf("frame %d: %s", fr.Int("frame"), strings.Join(d, ", ")))
				}
			}
			if len(problems) > 0 {
				t.Errorf("%d frames differ from tshark on the shifted capture:\n%s", len(problems), strings.Join(problems[:min(10, len(problems))], "\n"))
			}
		})
	}
}
