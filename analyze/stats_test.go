package analyze

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// dirCounts are the per-direction numbers compared with tshark.
type dirCounts struct {
	Packets, DataPackets, DataBytes                            int64
	Retrans, Fast, Spurious, OOO, Lost, DupAcks, ZeroWin, Full int64
	RTTSamples                                                 int64
	RTTMedianNs                                                float64
}

type dirKey struct {
	stream int
	src    string // addr:port of the sender
}

// TestSummaryMatchesTshark checks, per stream and direction, that packets,
// data packets, payload bytes, the flag counts and the ack_rtt samples
// (count and median) equal tshark's on every lab and real capture.
func TestSummaryMatchesTshark(t *testing.T) {
	var cases golden.Cases
	defer cases.Check(t, 4)
	files, err := golden.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	exact := 0
	for _, g := range files {
		t.Run(g.Name, func(t *testing.T) {
			cases.Need(t, g.Capture)
			if u, ok := golden.Unread[g.Name]; ok {
				t.Skipf("not read as tshark reads it yet (the stream test bounds it): %s", u.Why)
			}
			problems := compareSummary(t, g)
			if len(problems) == 0 {
				exact++
				return
			}
			if k, ok := knownAnalysisDifferences[g.Name]; ok && len(problems) <= k.Directions {
				t.Logf("%d directions differ (known, at most %d: %s): %s", len(problems), k.Directions, k.Why, problems[0])
				return
			} else if ok {
				t.Errorf("%d directions differ from tshark, at most %d known (%s)", len(problems), k.Directions, k.Why)
			}
			t.Errorf("%d directions differ from tshark:\n%s", len(problems), strings.Join(problems, "\n"))
		})
	}
	t.Logf("%d captures: %d with every direction equal to tshark", len(files), exact)
}

func compareSummary(t *testing.T, g *golden.File) []string {
	frames, a, conns := analyzeCapture(t, g.Capture)
	ours := map[dirKey]dirCounts{}
	for _, c := range conns {
		st := a.stats(c)
		for _, s := range st {
			ours[dirKey{s.Stream, s.Src.String()}] = dirCounts{
				s.Packets, s.DataPackets, s.DataBytes,
				s.RetransPackets, s.FastRetrans, s.SpuriousRetrans, s.OutOfOrder, s.LostSegments,
				s.DupAcks, s.ZeroWindows, s.WindowFull,
				s.RTTSamples, s.RTTMedianMs * 1e6,
			}
		}
	}
	theirs := map[dirKey]*dirCounts{}
	rtts := map[dirKey][]int64{}
	get := func(k dirKey) *dirCounts {
		if theirs[k] == nil {
			theirs[k] = &dirCounts{}
		}
		return theirs[k]
	}
	for _, fr := range g.Frames() {
		if fr.Str("stream") == "" {
			continue
		}
		src := fmt.Sprintf("%s:%s", fr.Str("src"), fr.Str("srcport"))
		dst := fmt.Sprintf("%s:%s", fr.Str("dst"), fr.Str("dstport"))
		if strings.Contains(fr.Str("src"), ":") {
			src = fmt.Sprintf("[%s]:%s", fr.Str("src"), fr.Str("srcport"))
			dst = fmt.Sprintf("[%s]:%s", fr.Str("dst"), fr.Str("dstport"))
		}
		k := dirKey{int(fr.Int("stream")), src}
		c := get(k)
		c.Packets++
		if n := fr.Int("len"); n > 0 {
			c.DataPackets++
			c.DataBytes += n
		}
		if tsharkCutAtSACK(fr) {
			// tshark shows no analysis for this frame (see
			// compareAnalysis): count what we computed for it, so the
			// rest is still checked against tshark.
			if f, ok := frames[fr.Int("frame")]; ok {
				countOurs(c, &rtts, k, dst, f.info)
				continue
			}
		}
		for _, x := range []struct {
			col string
			n   *int64
		}{{"retrans", &c.Retrans}, {"fast_retrans", &c.Fast}, {"spurious", &c.Spurious}, {"ooo", &c.OOO},
			{"lost", &c.Lost}, {"dupack", &c.DupAcks}, {"zero_win", &c.ZeroWin}, {"win_full", &c.Full}} {
			if fr.Flag(x.col) {
				*x.n++
			}
		}
		if ns := parseNs(fr.Str("ack_rtt")); ns >= 0 {
			rk := dirKey{k.stream, dst} // samples describe the other direction's data
			rtts[rk] = append(rtts[rk], ns)
		}
	}
	for k, v := range rtts {
		c := get(k)
		c.RTTSamples = int64(len(v))
		var st DirStats
		fillRTT(&st, samplesOf(v))
		c.RTTMedianNs = st.RTTMedianMs * 1e6
	}
	var problems []string
	for k, want := range theirs {
		got, ok := ours[k]
		if !ok {
			problems = append(problems, fmt.Sprintf("stream %d from %s: not found", k.stream, k.src))
			continue
		}
		if math.Abs(got.RTTMedianNs-want.RTTMedianNs) < 1 {
			got.RTTMedianNs = want.RTTMedianNs
		}
		if got != *want {
			problems = append(problems, fmt.Sprintf("stream %d from %s:\n  got  %+v\n  want %+v", k.stream, k.src, got, *want))
		}
	}
	slices.Sort(problems)
	return problems
}

// The summary's RTT median must be exact (the mean of the middle two for
// an even count).
func TestFillRTT(t *testing.T) {
	for _, tc := range []struct {
		ns             []int64
		min, med, mean float64
		max            float64
		samples        int64
	}{
		{nil, 0, 0, 0, 0, 0},
		{[]int64{3e6}, 3, 3, 3, 3, 1},
		{[]int64{4e6, 1e6, 3e6, 2e6}, 1, 2.5, 2.5, 4, 4},
		{[]int64{5e6, 1e6, 9e6}, 1, 5, 5, 9, 3},
	} {
		var st DirStats
		fillRTT(&st, samplesOf(tc.ns))
		if st.RTTSamples != tc.samples || st.RTTMinMs != tc.min || st.RTTMedianMs != tc.med || st.RTTMeanMs != tc.mean || st.RTTMaxMs != tc.max {
			t.Errorf("%v: got %+v", tc.ns, st)
		}
	}
}

var _ = reassembly.C2S

// countOurs adds our analysis of one frame to tshark's counts.
func countOurs(c *dirCounts, rtts *map[dirKey][]int64, k dirKey, dst string, info PacketInfo) {
	f := info.Flags
	for _, x := range []struct {
		flag Flag
		n    *int64
	}{{Retransmission, &c.Retrans}, {FastRetransmission, &c.Fast}, {SpuriousRetrans, &c.Spurious},
		{OutOfOrder, &c.OOO}, {LostSegment, &c.Lost}, {DupAck, &c.DupAcks}, {ZeroWindow, &c.ZeroWin}, {WindowFull, &c.Full}} {
		if f&x.flag != 0 {
			*x.n++
		}
	}
	if info.AckRTT >= 0 {
		rk := dirKey{k.stream, dst}
		(*rtts)[rk] = append((*rtts)[rk], info.AckRTT)
	}
}

// TestLossRanks: a loss episode is ranked among ordinary moments by the
// same measure (the largest RTT of the last round trip); episodes proven
// spurious, or without an RTT sample before them, are not ranked.
func TestLossRanks(t *testing.T) {
	var samples []int64
	for ms := int64(40); ms < 60; ms++ {
		samples = append(samples, ms*1e6) // minimum 40 ms, 95th percentile 59 ms
	}
	peaks := []int64{55e6, 56e6, 57e6, 58e6, 59e6} // with jitter, every round trip's peak is high
	lost := lossEpisode{rtt: 57e6, first: 1000, firstLen: 1000, resent: 1000}
	spurious := lost
	spurious.firstProven = true
	unsampled := lost
	unsampled.rtt = 0
	var st DirStats
	lossRanks(&st, samples, peaks, []lossEpisode{lost, spurious, lost, unsampled, {rtt: 59e6, resent: 2000, first: 0, firstLen: 1000, firstProven: true}})
	// 57 ms is 89% of the way from 40 to 59 ms: near the peak, yet in the
	// middle of the ordinary peaks; the last episode resent 1000 bytes
	// more than were proven spurious, so it is ranked.
	if st.RankedLossEpisodes != 3 || st.QueueLossEpisodes != 3 {
		t.Fatalf("ranked %d, near the peak %d; want 3, 3", st.RankedLossEpisodes, st.QueueLossEpisodes)
	}
	if want := (0.5 + 0.5 + 0.9) / 3; math.Abs(st.RTTAtLossRank-want) > 1e-9 {
		t.Errorf("RTTAtLossRank %.3f, want %.3f", st.RTTAtLossRank, want)
	}
}

// TestLossEpisodeProof: the first resend of an episode is proven spurious
// by a D-SACK block covering it (below the cumulative ACK) or by the first
// ACK past it echoing an older timestamp (Eifel); a later, equal echo
// proves nothing.
func TestLossEpisodeProof(t *testing.T) {
	ack := func(a uint64, tsecr uint32, sack ...reassembly.SACKBlock) *reassembly.Segment {
		s := &reassembly.Segment{AckAbs: a, Ack: uint32(a)}
		s.Opt.HasTimestamp, s.Opt.TSEcr = true, tsecr
		s.Opt.NSACK = uint8(copy(s.Opt.SACK[:], sack))
		return s
	}
	ep := lossEpisode{lo: 1000, hi: 9000, first: 1000, firstLen: 1000, resent: 2000, tsval: 100, hasTS: true}
	for _, tc := range []struct {
		name     string
		acks     []*reassembly.Segment
		proven   bool
		spurious bool
	}{
		{"eifel", []*reassembly.Segment{ack(9000, 90)}, true, false},
		{"eifel, then the second resend d-sacked", []*reassembly.Segment{ack(9000, 90), ack(9000, 120, reassembly.SACKBlock{Left: 5000, Right: 6000})}, true, true},
		{"echo of the resend itself", []*reassembly.Segment{ack(9000, 100)}, false, false},
		{"d-sack of the first resend", []*reassembly.Segment{ack(2000, 100), ack(9000, 120, reassembly.SACKBlock{Left: 1000, Right: 2000})}, true, false},
		{"plain sack", []*reassembly.Segment{ack(500, 99, reassembly.SACKBlock{Left: 2000, Right: 3000})}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &limits{lossEps: []lossEpisode{ep}}
			for _, s := range tc.acks {
				l.proveSpurious(s)
			}
			e := l.lossEps[0]
			if e.firstProven != tc.proven || e.spurious() != tc.spurious {
				t.Errorf("first resend proven %v, episode spurious %v; want %v, %v", e.firstProven, e.spurious(), tc.proven, tc.spurious)
			}
		})
	}
}

// TestIPIDRunCounter: IDs that step forward by one, some lost (a gap)
// and some late (up to ipidLate behind), are a counter whose missing
// count is the IDs never seen; IDs a host shares with its other
// connections, which leave more gaps than packets, are no such counter
// (ndpi__fix2: 407 "missing" beside 175 data segments, read as loss).
func TestIPIDRunCounter(t *testing.T) {
	var r ipidRun
	id := uint16(65450) // wraps at 65535
	for i := range 200 {
		id++
		switch {
		case i%20 == 5: // lost
		case i%10 == 3: // late: comes after the next two
		default:
			r.add(id)
		}
		if i%10 == 5 {
			r.add(id - 2)
		}
	}
	if miss, _, ok := r.missing(); !ok || miss != 10 {
		t.Errorf("a counter with 10 lost and 20 late: missing %d (%v), want 10", miss, ok)
	}
	var shared ipidRun
	for i := range 200 {
		shared.add(uint16(1000 + 4*i)) // three other packets between each two
	}
	if miss, _, ok := shared.missing(); ok {
		t.Errorf("IDs shared with other connections read as this one's counter: %d missing", miss)
	}
}

// TestIPIDLateNotDuplicates: a copy of a segment the network duplicated
// carries the ID of the first, behind the highest seen, but its bytes
// were seen: it is no reordered data (ndpi__fix2, every segment of its
// server twice: 105 of 258 read as late before). Nor is it a packet of
// the counter: the server's 1,268 packets hold 690 IDs, and the 381 IDs
// skipped between them are the ones its other connection took (stream
// 1's 381), a host's counter, not 381 packets lost (the copies, counted
// as packets come late, had taken the count to 1).
func TestIPIDLateNotDuplicates(t *testing.T) {
	golden.NeedCorpus(t)
	st := mainStats(t, filepath.Join(golden.SharedCaptures(), "real", "ndpi__fix2.pcap"))
	if st.HasIPIDMissing || st.ipidLateData != 0 {
		t.Errorf("IDs a counter %v (%d missing), %d data segments behind a later ID; want a shared counter and none", st.HasIPIDMissing, st.IPIDMissing, st.ipidLateData)
	}
}

// TestIPIDRunCopiesNotPackets: a packet come late whose ID was seen (a
// copy the network made) neither takes back an ID missing nor counts as
// a packet of the counter.
func TestIPIDRunCopiesNotPackets(t *testing.T) {
	var r ipidRun
	for i := range 100 {
		id := uint16(500 + i)
		if i%10 == 4 {
			continue // lost
		}
		r.add(id)
		if i%2 == 0 && i > 10 {
			r.add(id - 1) // a copy of the one before, or nothing where it was lost
		}
	}
	if miss, _, ok := r.missing(); !ok || miss != 10 {
		t.Errorf("a counter with 10 lost and copies: missing %d (%v), want 10", miss, ok)
	}
	var shared ipidRun // every other ID skipped, every packet again after the next: 60 IDs, 59 skipped, 119 packets
	for i := range 60 {
		shared.add(uint16(2 * i))
		if i > 0 {
			shared.add(uint16(2 * (i - 1)))
		}
	}
	if miss, _, ok := shared.missing(); ok {
		t.Errorf("IDs every other one skipped, each seen twice, read as a counter: %d missing", miss)
	}
}

// TestArrivalSpacingIsNoWait: at a receiver-side capture behind a slow
// link, segments that arrive at the link's own spacing (1,000 bytes every
// 12 ms: more than a quarter of the 10 ms round trip) are no wait of the
// sender's: not counted as time it sent nothing (ak_10ms_1m_b02_nosack at
// its receiver, 1 Mbit/s behind a standing queue, read as an application
// that sent nothing 100% of the transfer); a pause of 300 ms is. A
// transfer too short to know the link's rate (arrivalKnown segments)
// counts its gaps as before.
func TestArrivalSpacingIsNoWait(t *testing.T) {
	for _, tt := range []struct {
		segments int
		wantMs   float64
	}{{200, 300}, {64, 300}, {65, 300}, {30, 300 + 28*12}} {
		cv := newConv(t, 1000, 5000)
		cv.send(seg{dir: c2s, flags: reassembly.SYN, win: 65535})
		cv.send(seg{dir: s2c, ack: 1, flags: reassembly.SYN, win: 65535, dtMs: 0.1})
		cv.send(seg{dir: c2s, seq: 1, ack: 1, win: W, dtMs: 10})
		seq := uint32(1)
		for i := range tt.segments {
			dt := 12.0
			if i == tt.segments/2 {
				dt = 300
			}
			cv.send(seg{dir: c2s, seq: seq, ack: 1, n: mss, win: W, dtMs: dt})
			seq += mss
			if i%2 == 1 {
				cv.send(seg{dir: s2c, seq: 1, ack: seq, win: 60 * W, dtMs: 0.05})
			}
		}
		c := cv.trk.Track(&reassembly.Segment{Src: cliAddr.Addr(), Dst: srvAddr.Addr(), SrcPort: cliAddr.Port(), DstPort: srvAddr.Port(), Seq: 1001 + seq - 1, Ack: 5001, Flags: reassembly.ACK})
		st := cv.a.stats(c)
		if again := cv.a.stats(c); again[c2s].AppLimitedNs != st[c2s].AppLimitedNs {
			t.Errorf("%d segments: read twice, %d ns then %d", tt.segments, st[c2s].AppLimitedNs, again[c2s].AppLimitedNs)
		}
		if v := st[c2s].Path.Vantage; v != VantageReceiver {
			t.Fatalf("vantage %v, want the receiver's", v)
		}
		if got := float64(st[c2s].AppLimitedNs) / 1e6; math.Abs(got-tt.wantMs) > 5 {
			t.Errorf("%d segments: %.0f ms of waits counted, want %.0f", tt.segments, got, tt.wantMs)
		}
	}
}

// TestArrivalRateIdle: the idle waits (arrivalIdles) follow the same
// rule as the gaps: a pause counts, the link's spacing does not, before
// the rate is known as after.
func TestArrivalRateIdle(t *testing.T) {
	var a arrivalRate
	var st DirStats
	var now int64
	for i := range 100 {
		gap := int64(12e6)
		if i == 10 || i == 80 {
			gap = 300e6
		}
		if i > 0 {
			a.judge(&st, arrivalGap{gap: gap, n: 1000, wait: true, idle: gap > minArrivalIdle})
		}
		now += gap
		a.add(&st, now, 1000)
	}
	if st.arrivalIdles != 2 || st.arrivalIdleNs != 600e6 || st.ArrivalGapNs != 600e6 {
		t.Errorf("%d idle waits of %d ns, %d ns of gaps; want the two pauses", st.arrivalIdles, st.arrivalIdleNs, st.ArrivalGapNs)
	}
}

// TestHoleAckCountsEachHole: the receiver's ACKs as a sender-side capture
// sees them (segments of 1000 bytes). Each hole of its SACK scoreboard
// that closes with nothing resent counts its segments late, not only the
// first hole; a resent hole counts none; an ACK the return path reordered
// (older than the cumulative ACK so far) counts the one segment at its
// own cumulative ACK if it SACKed data above it, and nothing counts
// twice.
func TestHoleAckCountsEachHole(t *testing.T) {
	ack := func(cum uint64, blocks ...[2]uint32) *reassembly.Segment {
		s := &reassembly.Segment{AckAbs: cum, Ack: uint32(cum)}
		for i, b := range blocks {
			s.Opt.SACK[i] = reassembly.SACKBlock{Left: b[0], Right: b[1]}
		}
		s.Opt.NSACK = uint8(len(blocks))
		return s
	}
	for _, tt := range []struct {
		name   string
		resent [][2]uint64
		acks   []*reassembly.Segment
		want   int64
	}{
		{"two holes, both late", nil, []*reassembly.Segment{
			ack(0, [2]uint32{1000, 2000}),
			ack(0, [2]uint32{4000, 5000}, [2]uint32{1000, 2000}),
			ack(5000)}, 3}, // [0, 1000) and [2000, 4000)
		{"two holes, the first resent", [][2]uint64{{0, 1000}}, []*reassembly.Segment{
			ack(0, [2]uint32{1000, 2000}),
			ack(0, [2]uint32{4000, 5000}, [2]uint32{1000, 2000}),
			ack(5000)}, 2},
		{"a hole SACKed late, then acknowledged", nil, []*reassembly.Segment{
			ack(0, [2]uint32{1000, 2000}),
			ack(0, [2]uint32{3000, 4000}, [2]uint32{1000, 2000}),
			ack(0, [2]uint32{1000, 4000}),
			ack(4000)}, 2}, // [2000, 3000) SACKed, then [0, 1000)
		{"a D-SACK fills no hole", nil, []*reassembly.Segment{
			ack(0, [2]uint32{3000, 4000}),
			ack(0, [2]uint32{1200, 1400}, [2]uint32{1000, 2000}, [2]uint32{3000, 4000})}, 1}, // [1000, 2000) only
		{"an ACK the return path reordered", nil, []*reassembly.Segment{
			ack(1000, [2]uint32{2000, 3000}), // the receiver had it all before
			ack(5000),
			ack(1000, [2]uint32{3000, 4000}, [2]uint32{2000, 3000}), // older: 1000-2000 was missing then
			ack(1000, [2]uint32{2000, 3000})},                       // older still: the same hole
			1}, // [1000, 2000) closed by ack(5000), then nothing new
		{"a block beyond the data sent (sequence numbers shifted, not the blocks)", nil, []*reassembly.Segment{
			ack(0, [2]uint32{300001000, 300002000}),
			ack(0, [2]uint32{300003000, 300004000}, [2]uint32{300001000, 300002000}),
			ack(4000)}, 0},
		{"reordered ACKs alone", nil, []*reassembly.Segment{
			ack(1000),
			ack(6000),
			ack(1000, [2]uint32{4000, 5000}, [2]uint32{2000, 3000})}, 1}, // only the segment at 1000: the gaps between blocks may hold data SACKed before
	} {
		d := &dirAcc{}
		d.eps.maxSeg, d.eps.started, d.eps.high = 1000, true, 10000
		for _, r := range tt.resent {
			d.holes().resent.add(r[0], r[1])
		}
		for _, a := range tt.acks {
			d.holeAck(a, false)
		}
		if d.s.ReorderedHoles != tt.want {
			t.Errorf("%s: %d segments late, want %d", tt.name, d.s.ReorderedHoles, tt.want)
		}
	}
	// A hole part resent, part late, then read again by an ACK the
	// return path reordered that reaches past it (segments of 1500):
	// the late part counts once, and the data past it, which that ACK
	// shows came after data above it, once more.
	d := &dirAcc{}
	d.eps.maxSeg, d.eps.started, d.eps.high = 1500, true, 10000
	d.holes().resent.add(1000, 1500)
	for _, a := range []*reassembly.Segment{
		ack(1000, [2]uint32{2000, 2100}),
		ack(2100),                        // [1500, 2000) late, [1000, 1500) resent
		ack(4000),                        // no hole
		ack(1000, [2]uint32{2500, 4000}), // older: [1000, 2500) missing then, [2000, 2500) late too
	} {
		d.holeAck(a, false)
	}
	if d.s.ReorderedHoles != 2 {
		t.Errorf("a hole part resent: %d segments late, want 2", d.s.ReorderedHoles)
	}
}
