package analyze

import (
	"cmp"
	"fmt"
	"math"
	"net/netip"
	"runtime"
	"slices"
	"sort"

	"tcpviz/reassembly"
)

// DirStats are the statistics of one direction of one connection: what
// `tcpviz summary` prints in one row. Counts are of the packets sent in
// this direction. Fields whose Has* companion is false (or, for counts of
// samples, are zero) are not measurable.
type DirStats struct {
	Stream int
	Dir    reassembly.Direction
	Src    netip.AddrPort // sender of this direction
	Dst    netip.AddrPort
	// FirstTime is the time of the connection's first packet (ns since the
	// epoch) and Duration the connection's duration (ns), as `streams`.
	FirstTime, Duration int64

	Packets     int64 // packets sent, capture duplicates included (as tshark counts)
	DataPackets int64 // packets with payload (tcp.len > 0)
	DataBytes   int64 // payload bytes (sum of tcp.len)
	// UniqueBytes counts each byte of sequence space carrying payload once
	// (tcptrace's "unique bytes sent"): retransmitted and duplicated bytes
	// are not counted again, bytes never captured are not counted.
	UniqueBytes int64

	RetransPackets  int64 // tcp.analysis.retransmission (fast and spurious included)
	RetransBytes    int64 // their payload bytes
	FastRetrans     int64
	SpuriousRetrans int64
	OutOfOrder      int64
	LostSegments    int64
	DupAcks         int64 // duplicate ACKs this side sent
	ZeroWindows     int64 // zero-window advertisements this side sent
	WindowFull      int64

	MSS           int  // from this side's SYN; 0: not seen
	WScale        int  // shift this side offered in its SYN; -1: not offered or no SYN
	SACKPermitted bool // from this side's SYN
	Timestamps    bool // from this side's SYN
	HandshakeSeen bool // this side's SYN (or SYN/ACK) was captured

	// MaxRwnd is the largest window advertised, as Wireshark's
	// tcp.window_size: on this side's ACKs (scaled) and on its SYN (never
	// scaled); -1 if it sent neither.
	MaxRwnd int64

	// RTT of data sent in this direction: Wireshark's tcp.analysis.ack_rtt
	// on the other side's ACKs (an ACK exactly covering a segment's end,
	// timed from the segment's first transmission).
	RTTSamples                                         int64
	RTTMinMs, RTTMedianMs, RTTMeanMs, RTTMaxMs, RTTStd float64

	HasHandshakeRTT bool
	HandshakeRTTMs  float64 // tcp.analysis.initial_rtt of the connection

	// tcptrace-style RTT of data sent in this direction (Karn's rule: no
	// sample from a retransmitted segment; see karnDir), as tcptrace -l
	// prints "RTT samples/min/max/avg/stdev". KarnRTTStdevMs is 0 with two
	// samples or fewer, as in tcptrace (an empty cell in the summary).
	// SlowStart is where this direction's sender left slow start (by the
	// ACK clock; End is from the connection's first packet): Found is false
	// when it never did, or sent too little to tell.
	SlowStart SlowStart
	// RwndLimitedNs is the time the sender spent with the receiver's window
	// too full for another segment; ZeroWindowNs the time the windows this
	// side advertised stayed at zero.
	RwndLimitedNs, ZeroWindowNs int64
	// WindowMisread: more than a tenth of the data went out with the
	// flight past the receiver's window as read, which no sender does:
	// the window's scale is not what the capture shows (a SYN whose
	// options the snapshot length cut, gt_v6_any_loss: 1.3 KB windows
	// read raw for 60 KB in flight). The window then tells nothing of
	// what held the sender: RwndLimitedNs is 0 and the diagnosis names
	// no receive window.
	WindowMisread  bool
	KarnRTTSamples int64

	KarnRTTMinMs, KarnRTTAvgMs, KarnRTTMaxMs, KarnRTTStdevMs float64

	// ThroughputBps is 8 × UniqueBytes / the connection's duration, as
	// tcptrace's "throughput" (which is in bytes/s); 0 with HasThroughput
	// false when the duration is 0.
	HasThroughput bool
	ThroughputBps float64

	State string
	// Findings are what limited this direction, with their evidence,
	// most important first; Diagnosis says them in one line, and
	// FindingKinds lists their kinds (the findings column: kinds, most
	// important first, separated by ";").
	Findings     []Finding
	Diagnosis    string
	FindingKinds string
	// LossEpisodes counts loss episodes (a resend of bytes already sent
	// starts one; it ends when all sent before it is acknowledged);
	// QueueLossEpisodes those that began with the RTT near its peak (the
	// queue full: congestion; see lossRanks), of RankedLossEpisodes that
	// had a sample before them and were not proven spurious; RTTAtLossMs
	// the mean RTT when they began; RTTAtLossRank the mean fraction of
	// ordinary moments (outside loss episodes) whose RTT, taken the same
	// way, was lower: near 1 when losses come only with the queue full,
	// about half when they come at random moments.
	LossEpisodes, QueueLossEpisodes int64
	RTTAtLossMs, RTTAtLossRank      float64
	RankedLossEpisodes              int64 // episodes with an RTT sample before them, not proven spurious
	// EpisodeResent counts the data segments resent in loss episodes,
	// FirstEpisodeResent those of the first: after a slow start that
	// ended with a loss, whether it overshot the path (a burst of tail
	// drops, far more than later episodes) or not.
	EpisodeResent, FirstEpisodeResent int64

	// Path is what the path did to this direction's data, from wherever
	// the capture was taken (see Path): the truth beside Wireshark's flags.
	Path PathStats

	// The sender's state (lossEpisodes, at a sender-side capture): loss
	// episodes by kind, tail-loss probes, the median reduction factor β
	// (the window settled at after an episode over the flight at its
	// loss; HasBeta false when no episode was followed by data), and the
	// congestion control the reductions and growth show, with why.
	LossEpisodesFast, LossEpisodesRTO, TailLossProbes int64
	// LossEpisodesUndone: those of them proven spurious (Eifel, D-SACK).
	LossEpisodesUndone int64
	// EpisodeIntervalCV is the coefficient of variation of the segments
	// sent between loss episodes (EpisodeIntervals of them, slow start's
	// left out): well below 1 when a full queue drops at the same window
	// each time, about 1 for random loss.
	EpisodeIntervalCV    float64
	EpisodeIntervals     int
	HasEpisodeIntervalCV bool
	// lossWindows are the sender's windows at the loss, its flight at
	// the fast-retransmit episodes after the first (windowsOf): their
	// coefficient of variation near 0 when a full queue drops at the same
	// window each time; arrivedWindows the same as a receiver-side
	// capture sees them.
	lossWindows, arrivedWindows                lossWindows
	unanswered                                 float64 // the share of the ACKs that made room the sender let pass (senderHeld.unansweredShare)
	answerACKs                                 int     // of how many
	BetaMedian                                 float64
	BetaEpisodes                               int     // the episodes β was measured on
	ReductionVotes                             [3]int  // episodes whose reduction is Reno's, CUBIC's, none (VoteReno...)
	reductionsOff                              [3]int  // of the Reno and CUBIC votes, those far off their value (reductionsOff)
	split                                      epSplit // the loss episodes told from the drop events (lossEpisodes.split)
	afterSegs                                  int64   // the median window after the reductions, segments (lossEpisodes.afterMedian)
	keptLate                                   int     // loss episodes that kept a window the receiver's held, at Linux's third cut or later (lossEpisodes.keptLate)
	HasBeta                                    bool
	CongestionControl, CongestionControlReason string

	// Extras.
	InitialWindowBytes int64 // payload sent before the other side acknowledged any of it
	InitialWindowPkts  int64
	MaxBytesInFlight   int64
	KeepAlives         int64
	ZeroWindowProbes   int64
	WindowUpdates      int64
	TripleDupAcks      int64 // duplicate ACKs numbered 3 (what triggers fast retransmit)
	CaptureDuplicates  int64
	AckUnseen          int64
	MinRwnd            int64   // smallest advertised window over this side's ACKs (its SYN's if it sent no ACK); -1 if neither
	AvgRwnd            float64 // mean advertised window over this side's ACKs (its SYN's if it sent no ACK)
	IdleMaxMs          float64 // longest gap between two packets of this direction
	// IPIDMissing counts this side's packets that never reached the
	// capture point, by the gaps in its IPv4 IDs, when they go up by one a
	// packet (Linux's per-connection counter), each once final: an ID
	// seen up to ipidLate behind the highest (a packet the path reordered)
	// is not missing. HasIPIDMissing is false when the IDs do not go up so
	// (IPv6, random or constant IDs, too few packets).
	IPIDMissing    int64
	HasIPIDMissing bool
	// ipidLateData counts this side's data segments that reached the
	// capture behind a packet it sent after them (an IPv4 ID below the
	// highest seen): where the IDs are a per-connection counter
	// (HasIPIDMissing), the path reordered them, whatever their
	// sequence numbers say (a segment overtaken by a pure ACK or a
	// window update arrives in sequence).
	ipidLateData int64
	// ipidAfter: of the IDs never seen (IPIDMissing), those right after
	// another never seen; ipidPackets: the packets seen (ipidRun's).
	ipidAfter, ipidPackets int64
	// maxData: the largest data segment, bytes.
	maxData int64
	// AppLimitedNs is the time the sender, at a sender-side capture, had
	// room to send and sent nothing: an ACK opened the window and the
	// next data came later than a sender with data waiting would send it.
	AppLimitedNs int64
	// ProbeRTTDips is how many times, at a sender-side capture, the
	// flight fell to four segments for about 200 ms with nothing lost
	// and came back at once: BBR's ProbeRTT (probeRTT).
	ProbeRTTDips int
	// startupDrained: at a sender-side capture, before any loss signal,
	// the flight fell to half its peak or less within a few round trips
	// and stayed there: BBR's drain after startup (startupDrain).
	startupDrained bool
	// AppIdleWaits is how many times, at a sender-side capture, the
	// sender had nothing outstanding, the window open, and sent nothing
	// new for more than a round trip (at least 50 ms): its application
	// had no more (senderHeld).
	AppIdleWaits int
	// ArrivalGapNs is the time between data segments longer than a
	// quarter of the handshake's round trip (at least 2 ms) and than
	// twice the link's time for the segment after it (arrivalRate): at a
	// receiver-side capture, the time the sender sent nothing.
	ArrivalGapNs int64
	// arrivalIdles is how many times, at a receiver-side capture, the
	// sender's data arrived after a wait longer than the handshake's
	// round trip (at least 50 ms) with everything it had sent arrived
	// before (no hole), and went on where it stopped with the next IPv4
	// ID of its counter (it sent nothing in between, so nothing was lost
	// or resent), the receiver's window closed for less than half of it
	// and its last one room for the segment: the sender had no more to
	// send. arrivalIdleNs is the time of those waits, arrivalNs the time
	// from the first data segment to the last.
	arrivalIdles             int
	arrivalIdleNs, arrivalNs int64
	// burstOriginals, burstFollowers, burstLost, burstLostFollowers: the
	// segments sent first, of them sent back to back behind another;
	// those resent, of them so sent (burstTail).
	burstOriginals, burstFollowers, burstLost, burstLostFollowers int64
	// burstPaced: of burstOriginals, those the sender's pacing sent
	// (burstTail.paced).
	burstPaced int64
	// burstLone, burstLostLone: of burstOriginals, those sent with the
	// path near empty; of them, those resent (burstTail.lone).
	burstLone, burstLostLone int64
	// denseLost, denseShort, denseBase: of the originals resent, those
	// whose span was among the shortest, and the share of all originals'
	// spans there (burstTail.dense's short).
	denseLost, denseShort int64
	denseBase             float64
	// maxPerRTT is the most data that arrived within one handshake round
	// trip, from the data segment that began it (retransmissions
	// included, capture duplicates not): at a receiver-side capture, the
	// largest flight the sender had out, which the receiver's window
	// caps.
	maxPerRTT int64
	// ReorderedHoles counts the segments of the holes the receiver
	// reported in this direction's data (holeAck: every gap of its SACK
	// scoreboard, or the first hole duplicate ACKs report) that it then
	// acknowledged with no resend: data that came late, not lost.
	ReorderedHoles int64
	// DelayRanked: at a receiver-side capture, QueueLossEpisodes,
	// RankedLossEpisodes, RTTAtLossMs (then the one-way delay above its
	// minimum) and RTTAtLossRank rank the losses upstream by the one-way
	// delay (see owdTrack) instead of the RTT.
	DelayRanked bool
	// QueueDelayMs is the median RTT outside loss episodes above the
	// smallest: the queueing delay a standing queue adds.
	QueueDelayMs  float64
	HasQueueDelay bool
	// jitterMs is how much of QueueDelayMs the delay's steps from one
	// sample to the next account for (jitterSteps): not a queue's.
	jitterMs float64
	// LimitShares is the share of DataPhaseNs each limit held the sender
	// (receive_window, receiver_stall, application, bottleneck: the rest),
	// largest first; empty without a data phase.
	LimitShares []LimitShare
	// DataPhaseNs is the time from this direction's first data segment to
	// the last ACK of its data or its last data segment, the later.
	DataPhaseNs      int64
	SYNs, FINs, RSTs int64
	PureAcks         int64
	// BottleneckBps estimates the bottleneck rate of this direction's path
	// from the spacing of the receiver's ACKs within a flight; 0 when too
	// few ACKs allowed an estimate, or when the estimate would not be the
	// path's (see bottleneckRefused: ACKs from a nearby peer, a sender
	// held by the window or the application).
	BottleneckBps float64
}

// rangeSet is a set of disjoint [lo, hi) sequence ranges, sorted.
type rangeSet struct {
	r     [][2]uint64
	total int64
	limit int // the most ranges kept; 0: maxRanges
}

// maxRanges bounds a rangeSet: past it, the two ranges closest together
// are merged (the bytes between them counted as seen). Only a capture with
// more than that many holes never filled reaches it.
const maxRanges = 4096

func (rs *rangeSet) add(lo, hi uint64) {
	if hi <= lo {
		return
	}
	n := len(rs.r)
	if n == 0 || lo > rs.r[n-1][1] { // fast path: beyond the last range
		rs.r = append(rs.r, [2]uint64{lo, hi})
		rs.total += int64(hi - lo)
		rs.bound()
		return
	}
	if lo >= rs.r[n-1][0] { // overlaps or extends the last range
		if hi > rs.r[n-1][1] {
			rs.total += int64(hi - rs.r[n-1][1])
			rs.r[n-1][1] = hi
		}
		return
	}
	// General case: merge every range touching [lo, hi).
	i := sort.Search(n, func(k int) bool { return rs.r[k][1] >= lo })
	j := i
	nlo, nhi := lo, hi
	var covered int64
	for j < n && rs.r[j][0] <= hi {
		nlo = min(nlo, rs.r[j][0])
		nhi = max(nhi, rs.r[j][1])
		covered += int64(rs.r[j][1] - rs.r[j][0])
		j++
	}
	rs.total += int64(nhi-nlo) - covered
	rs.r = slices.Replace(rs.r, i, j, [2]uint64{nlo, nhi})
	rs.bound()
}

func (rs *rangeSet) bound() {
	if limit := cmp.Or(rs.limit, maxRanges); len(rs.r) <= limit {
		return
	}
	best, gap := 0, uint64(math.MaxUint64)
	for k := 0; k+1 < len(rs.r); k++ {
		if g := rs.r[k+1][0] - rs.r[k][1]; g < gap {
			best, gap = k, g
		}
	}
	rs.total += int64(gap)
	rs.r[best][1] = rs.r[best+1][1]
	rs.r = slices.Delete(rs.r, best+1, best+2)
}

// within is the bytes of [lo, hi) the set holds.
func (rs *rangeSet) within(lo, hi uint64) (n int64) {
	for i := sort.Search(len(rs.r), func(i int) bool { return rs.r[i][1] > lo }); i < len(rs.r) && rs.r[i][0] < hi; i++ {
		n += int64(min(rs.r[i][1], hi) - max(rs.r[i][0], lo))
	}
	return n
}

// dropBelow forgets the ranges that end at or below x.
func (rs *rangeSet) dropBelow(x uint64) {
	i := sort.Search(len(rs.r), func(i int) bool { return rs.r[i][1] > x })
	for _, r := range rs.r[:i] {
		rs.total -= int64(r[1] - r[0])
	}
	rs.r = slices.Delete(rs.r, 0, i)
}

// dirAcc accumulates one direction's statistics as segments arrive.
type dirAcc struct {
	s        DirStats
	unique   rangeSet
	rtt      nsList
	rwndSum  float64
	rwndN    int64
	lastTime int64
	idleMax  int64
	// initial window: data sent until the other side acks any of it.
	firstDataSeq uint64
	sawData      bool
	iwDone       bool
	// ACK dispersion, for the bottleneck estimate (see ackDispersion).
	ackSeen     bool
	lastAck     uint64
	lastAckTime int64
	rates       *rateHist
	rttMin      int64                      // smallest of rtt, 0 before the first
	recentRTT   [16]struct{ t, rtt int64 } // the latest samples, a ring
	recentAt    int
	cleanRTT    nsList // samples outside loss episodes (an even sample of them: cleanThin)
	cleanPeak   nsList // rttBefore at each of those samples: the RTT of ordinary moments
	cleanThin   thinned
	cleanSteps  jitterSteps // from one of those samples to the next
	win         windowState
	karn        karnDir // tcptrace-style RTT of this direction's data
	limits      *limits // made with the first data segment
	eps         lossEpisodes
	burst       burstTail
	ipid        ipidRun
	owd         *owdTrack // made with the first timestamped data segment
	lastArrival int64     // time of the last data segment
	arrivalZW   int64     // the receiver's window closed until then (windowState.closedUntil)
	arrivals    arrivalRate
	// The data arrived since rttBinStart, within a handshake round trip
	// of it (DirStats.maxPerRTT).
	rttBinStart, rttBinBytes int64
	hole                     *holeState // made with the first ACK of this direction's data or resend
}

// holeState is what holeAck keeps of the holes the receiver reported.
type holeState struct {
	// Without SACK: the first hole duplicate ACKs reported.
	open bool
	at   uint64
	// The ranges resent (a hole's data one of them covers was
	// repaired, not late) and those counted late, both from floor
	// on: the cumulative ACK 16 ACKs ago (cums, a ring), as far back
	// as an ACK the return path reordered is read; holeRanges each
	// at most (past it the closest merge: a hole between them counts
	// resent, not late).
	resent, late rangeSet
	floor        int64
	cums         [16]int64
	cumsN        int
	// With SACK (sack: a block seen): the receiver's scoreboard as
	// its ACKs told it, above the cumulative ACK cum.
	sack  bool
	cum   int64
	board sackBoard
}

// holes is the direction's holeState, made at its first use.
func (d *dirAcc) holes() *holeState {
	if d.hole == nil {
		d.hole = &holeState{resent: rangeSet{limit: holeRanges}, late: rangeSet{limit: holeRanges}}
	}
	return d.hole
}

// holeAck follows, for this direction's data, the holes the receiver
// reports: with SACK, every gap below the highest data SACKed (the
// receiver's scoreboard: a D-SACK block is not one); without, the first
// hole duplicate ACKs report. The data of a hole then acknowledged
// (cumulatively or SACKed) that no segment resent came late, not lost —
// the receiver saw it out of order (ReorderedHoles, each segment of it;
// as Linux's reordering detection, tcp_check_sack_reordering). Only the
// first hole counted once: 3 of the 22 data frames a link with 11 ms of
// jitter reordered (mx_156ms_4m_q10k_j11_l03_a3m_bbr), the others
// arriving behind a loss.
func (d *dirAcc) holeAck(s *reassembly.Segment, dup bool) {
	h := d.holes()
	if s.Opt.NSACK > 0 && !h.sack {
		h.sack, h.open = true, false
	}
	if h.sack {
		d.sackAck(s)
		return
	}
	if h.open && s.AckAbs > h.at {
		h.open = false
		d.lateIfNotResent(int64(h.at), int64(h.at)+1) // the first segment of the hole: the rest are not known missing
	}
	h.cum = max(h.cum, int64(s.AckAbs))
	d.moved(int64(s.AckAbs))
	if !h.open && dup {
		h.open, h.at = true, s.AckAbs
	}
}

// lateIfNotResent counts the segments of [lo, hi), data of a hole the
// receiver acknowledged, that no resend covered and none counted before:
// late (ReorderedHoles; a part of a segment counts one).
func (d *dirAcc) lateIfNotResent(lo, hi int64) {
	h := d.hole
	lo = max(lo, h.floor)
	// The parts no resend covered, less those counted before.
	var n int64
	at := uint64(lo)
	add := func(a, b uint64) {
		if b > a {
			n += int64(b-a) - h.late.within(a, b)
			h.late.add(a, b)
		}
	}
	for _, r := range h.resent.r {
		if r[1] <= at {
			continue
		}
		if r[0] >= uint64(hi) {
			break
		}
		add(at, r[0])
		at = max(at, r[1])
	}
	add(at, uint64(hi))
	if n > 0 {
		seg := max(d.eps.maxSeg, 1)
		d.s.ReorderedHoles += (n + seg - 1) / seg
	}
}

// sackSlack: how far past the data seen a SACK block may reach (sackAck).
const sackSlack = 1 << 16

// holeRanges bounds the ranges resent and counted late that holeAck keeps
// for a direction.
const holeRanges = 256

// moved keeps the cumulative ACK the receiver's latest ACK gave, and
// forgets the ranges below the one 16 ACKs before it.
func (d *dirAcc) moved(ack int64) {
	h := d.hole
	h.cums[h.cumsN%len(h.cums)] = ack
	h.cumsN++
	if h.cumsN >= len(h.cums) {
		h.floor = max(h.floor, h.cums[h.cumsN%len(h.cums)])
		h.resent.dropBelow(uint64(h.floor))
		h.late.dropBelow(uint64(h.floor))
	}
}

// sackAck reads an ACK of a SACK connection against the scoreboard: the
// parts of holes it acknowledges count late unless resent
// (lateIfNotResent), and its blocks join the scoreboard. An ACK older
// than the cumulative ACK so far (the return path reordered) tells only
// of the segment at its own cumulative ACK.
func (d *dirAcc) sackAck(s *reassembly.Segment) {
	h := d.hole
	// The blocks, but none empty or beyond the data seen by more than
	// sackSlack (Linux's tcp_is_sackblock_valid: not past snd_nxt): a
	// firewall that shifts the sequence numbers and not the SACK blocks
	// would put one far above, and every cumulative ACK below it would
	// read as a hole filled late (rl_200ms_5m_l2 with its blocks moved
	// 300,000,000 up: 735 segments late of 887). The slack is for a
	// receiver-side capture that records a segment after the ACK that
	// SACKs it (gt_nots_reorder's control connection: a 1-byte message).
	// Nor a D-SACK (RFC 2883): a duplicate fills no hole.
	var blocks [len(s.Opt.SACK)][2]int64
	n := 0
	_, _, dsack := s.DSACK()
	for i := range min(int(s.Opt.NSACK), len(s.Opt.SACK)) {
		lo, hi, ok := s.SACK(i)
		if !ok || i == 0 && dsack || d.eps.started && int64(hi) > d.eps.high+sackSlack {
			continue
		}
		blocks[n] = [2]int64{int64(lo), int64(hi)}
		n++
	}
	if own := int64(s.AckAbs); own < h.cum && n > 0 {
		// An ACK the return path reordered: the segment at its own
		// cumulative ACK had not arrived when data above it had (a block
		// above it; not a D-SACK), and a later ACK acknowledged it
		// (mx_108ms_2m_q4k_j11_l17_reno). Only that segment: the
		// receiver reports 3 or 4 blocks, so the gaps between them may
		// hold data it SACKed before.
		lowest := int64(math.MaxInt64)
		for _, b := range blocks[:n] {
			if b[0] > own {
				lowest = min(lowest, b[0])
			}
		}
		if lowest < math.MaxInt64 {
			d.lateIfNotResent(own, min(own+max(d.eps.maxSeg, 1), lowest, h.cum))
		}
	}
	ack := max(int64(s.AckAbs), h.cum)
	advanced := ack > h.cum
	if len(h.board.sacked) > 0 { // (no hole, no method value to make)
		h.board.filled(h.cum, advanced, ack, blocks[:n], d.lateIfNotResent)
	}
	h.board.deliver(h.cum, advanced, ack, blocks[:n])
	h.cum = ack
	d.moved(ack)
}

// owdTrack follows, for data with TCP timestamps, the one-way delay from
// the sender's clock to the capture point up to a constant (the arrival
// time less TSval, Linux's millisecond clock): at a receiver-side capture
// its rise above the minimum is the queueing delay on the way. Each data
// segment's delay, and the largest of the last 16 (the delay's recent
// peak), are kept (an even sample, as the RTT's), and the recent peak
// at each loss upstream: a gap in the sender's IPv4 IDs, or new data above
// a hole. A tail drop comes with the queue full; a random drop at any
// queue.
// maxOWDSamples bounds the delays kept (and the drops).
const maxOWDSamples = 1 << 12

type owdTrack struct {
	first         int64 // the first segment's arrival less TSval, ns
	tsFirst       uint32
	timeFirst     int64
	tsLast        uint32
	timeLast      int64
	high          uint64 // highest end of data
	recent        [16]int64
	at            int
	steps         jitterSteps // from one segment's delay to the next's
	samples, peak nsList      // an even sample of the data's (thin)
	thin          thinned
	drops         nsList
}

func (d *dirAcc) owdData(s *reassembly.Segment, idGap bool) {
	t := d.owd
	v := s.Time - int64(s.Opt.TSVal)*1e6
	end := s.SeqAbs + uint64(s.PayloadLen)
	if t == nil {
		t = &owdTrack{first: v, tsFirst: s.Opt.TSVal, timeFirst: s.Time, high: end}
		d.owd = t
	}
	v -= t.first
	t.steps.add(v)
	t.recent[t.at%len(t.recent)] = v
	t.at++
	drop := idGap || s.SeqAbs > t.high
	t.high = max(t.high, end)
	keep := t.thin.take()
	if drop || keep {
		peak := v
		for _, r := range t.recent[:min(t.at, len(t.recent))] {
			peak = max(peak, r)
		}
		if drop && t.drops.len() < maxOWDSamples {
			t.drops.add(peak)
		}
		if keep {
			t.samples.add(v)
			t.peak.add(peak)
			t.thin.fill(maxOWDSamples, &t.samples, &t.peak)
		}
	}
	t.tsLast, t.timeLast = s.Opt.TSVal, s.Time
}

// ranks places the delay's recent peak at each drop among the ordinary
// moments' (see lossRanks), when the sender's clock ticks in milliseconds
// (within 2% over at least a second): the same evidence as the RTT's at a
// sender-side capture.
func (t *owdTrack) ranks(st *DirStats, sc *scratch) {
	if t == nil || t.drops.len() == 0 || !t.msClock() {
		return
	}
	eps := make([]lossEpisode, t.drops.len())
	for i := range eps {
		// Delays are kept relative to the first: shifted so the smallest is positive, as lossRanks wants of an RTT.
		eps[i].rtt = t.drops.at(i)
	}
	samples, peaks := sc.copy(0, &t.samples), sc.copy(1, &t.peak)
	shift := slices.Min(samples)
	for i := range samples {
		samples[i] -= shift - 1
		peaks[i] -= shift - 1
	}
	for i := range eps {
		eps[i].rtt -= shift - 1
	}
	lossRanks(st, samples, peaks, eps)
	st.DelayRanked = st.RankedLossEpisodes > 0
}

// queueDelay sets, at a receiver-side capture, QueueDelayMs from the
// one-way delay: its median above its minimum.
func (t *owdTrack) queueDelay(st *DirStats, sc *scratch) {
	if t == nil || t.samples.len() < 8 || !t.msClock() {
		return
	}
	c := sc.copy(0, &t.samples)
	med, _ := median(c) // sorts c
	st.HasQueueDelay, st.QueueDelayMs = true, float64(med-c[0])/1e6
	st.jitterMs = t.steps.jitterMs()
}

// msClock tells whether the sender's timestamps tick in milliseconds
// (Linux, the BSDs, macOS; not 4 or 10 ms clocks), over at least a
// second: at 400 to 1300 ticks a second of arrival time, as a queue that
// grows makes the clock seem slow (seen: 507 Hz, a queue that grew to 9.6
// s over a 9.9 s transfer) and one that drains fast.
func (t *owdTrack) msClock() bool {
	if t.timeLast-t.timeFirst < 1e9 {
		return false
	}
	hz := float64(uint32(t.tsLast-t.tsFirst)) / (float64(t.timeLast-t.timeFirst) / 1e9)
	return hz >= 400 && hz <= 1300
}

// ipidRun follows the IPv4 IDs of one side's packets: Linux numbers a
// connection's packets one by one, so the IDs skipped over are packets
// that never reached the capture point. A step forward of 2 to 64 counts
// the IDs between as missing, a packet up to ipidLate behind the highest
// (late, reordered) takes one back, and a larger jump either way (a packet
// not of the counter: a reply from another socket) is left out.
type ipidRun struct {
	set          bool
	hi           uint16
	n, fwd, late int64 // packets; of them, steps of +1 to +64 from the highest, and up to ipidLate behind it
	lateData     int64 // of late, those that carried bytes first seen at the capture
	reused       int64 // of late, those whose ID was seen already (copies)
	// The IDs of the last ipidLate up to hi that were seen (seen, a
	// bitmap made with the first step forward, by offset from the first
	// ID; span: hi's): an ID leaving it is final, missing if never seen,
	// so that gone counts the IDs missing and goneAfter those right after
	// another missing one (see diagnose's runDrops), packets come late
	// and all.
	seen            *[ipidLate / 64]uint64
	span            int64
	gone, goneAfter int64
	prevGone        bool
}

// final counts the IDs of the window still open as the window leaves
// them, and returns the IDs missing and those right after another.
func (r *ipidRun) final() (gone, after int64) {
	gone, after, prev := r.gone, r.goneAfter, r.prevGone
	if r.seen == nil {
		return gone, after
	}
	for off := max(r.span-ipidLate+1, 0); off <= r.span; off++ {
		miss := r.seen[off%ipidLate/64]&(1<<(off%64)) == 0
		if miss {
			gone++
			if prev {
				after++
			}
		}
		prev = miss
	}
	return gone, after
}

// advance moves the window step IDs forward: the IDs leaving it are
// final; the ID at the new top was seen.
func (r *ipidRun) advance(step int64) {
	if r.seen == nil {
		r.seen = new([ipidLate / 64]uint64)
		r.seen[0] = 1 // the first ID, offset 0
	}
	for i := int64(1); i <= step; i++ {
		off := r.span + i // enters; off-ipidLate, in its slot, leaves
		if old := off - ipidLate; old >= 0 {
			miss := r.seen[old%ipidLate/64]&(1<<(old%64)) == 0
			if miss {
				r.gone++
				if r.prevGone {
					r.goneAfter++
				}
			}
			r.prevGone = miss
		}
		r.seen[off%ipidLate/64] &^= 1 << (off % 64)
	}
	r.span += step
	r.seen[r.span%ipidLate/64] |= 1 << (r.span % 64)
}

func (r *ipidRun) add(id uint16) (skipped int64) {
	r.n++
	if !r.set {
		r.set, r.hi = true, id
		return 0
	}
	step := int16(id - r.hi)
	switch {
	case step >= 1 && step <= 64:
		r.fwd++
		r.advance(int64(step))
		r.hi = id
		return int64(step) - 1
	case step < 0 && step >= -ipidLate:
		r.late++
		if off := r.span + int64(step); r.seen != nil && off > r.span-ipidLate && off >= 0 {
			bit := &r.seen[off%ipidLate/64]
			if *bit&(1<<(off%64)) != 0 {
				r.reused++
			}
			*bit |= 1 << (off % 64)
		}
	}
	return 0
}

// ipidLate is how far behind the highest ID a packet may come late: a
// path that reorders ACKs (17-20 ms of jitter) delivers some over a
// hundred behind (gt_jitter_reorder: 41 of 12,906 more than 64 behind,
// counted lost before).
const ipidLate = 1024

// missing returns the IDs never seen (counted once final, as runDrops
// reads them: a packet come late is not missing), and whether the IDs are a
// per-connection counter at all: at least 20 packets, 90% of them a small
// step forward or a little behind the highest (late: a path that
// reorders the ACKs, mx_280ms_16m_j17_l19_b07's 116 of 373 with 17 ms of
// jitter, left 69% forward and its 29 lost ACKs untold). More missing
// than half the packets seen is a counter other connections share (a
// host's own: ndpi__fix2, 407 "missing" beside 175 data segments), not
// losses. The packets counted there are the IDs seen, once each: a copy
// the network made carries its original's ID (ndpi__fix2's server, whose
// every segment came twice: 1,268 packets, 690 IDs and 381 skipped, the
// IDs its other connection took).
// With the IDs missing it returns those right after another missing
// one (final's), for runDrops.
func (r *ipidRun) missing() (gone, after int64, ok bool) {
	gone, after = r.final()
	if r.n < 20 || 10*(r.fwd+r.late) < 9*(r.n-1) || 2*gone > r.n-r.reused {
		return 0, 0, false
	}
	return gone, after, true
}

// limits follows, for data sent in one direction, slow start and the time

// the receiver's window held the sender back; and for windows this side
// advertises, how long they stayed closed.
type limits struct {
	ss slowStart
	// The time the receiver's window and the application held the
	// sender back (senderHeld).
	held        senderHeld
	probeRTT    probeRTT // BBR's ProbeRTT (DirStats.ProbeRTTDips)
	drain       startupDrain
	rwndLimited int64
	appLimited  int64 // see DirStats.AppLimitedNs
	// Loss episodes, and whether the queue had grown before each: the
	// evidence that tells congestion loss from random loss. An episode is
	// the tracker's drop event (dirAcc.eps.drop): it starts with a
	// segment that resends bytes already sent and ends when the receiver
	// acknowledges everything sent before it.
	hiSeq     uint64 // highest end of data sent
	hiSet     bool
	episodes  int64
	resent    int64         // segments resent in episodes
	firstSent int64         // of them, in the first
	lossEps   []lossEpisode // at most maxLossRTT
	epKept    bool          // the current episode is the last of lossEps
}

// lossEpisode is what is known of one loss episode: the RTT just before
// it began (rttBefore, 0 without a sample), the bytes it resent, and how
// many of them the receiver reported by D-SACK (RFC 2883) as received
// twice. An episode whose resent bytes were all D-SACKed was no loss: a
// reordering (delay jitter reorders) made the sender resend early, at a
// moment that says nothing about the queue.
type lossEpisode struct {
	rtt             int64
	lo, hi          uint64 // the sequence range it resent within
	resent, dsacked int64
	// The first resend, [first, first+firstLen), and its TSval: proven
	// spurious (firstProven) when the receiver D-SACKs it, or when the
	// first ACK past it echoes an older timestamp (Eifel, RFC 3522).
	first       uint64
	firstLen    int64
	tsval       uint32
	hasTS       bool
	eifelDone   bool
	firstProven bool
}

// spurious tells whether every byte the episode resent was proven
// received before: no loss, a reordering.
func (e *lossEpisode) spurious() bool {
	return e.firstProven && e.dsacked >= e.resent-e.firstLen
}

// proveSpurious reads ACK s for proof that the recent loss episodes'
// resends were not needed: the first ACK past an episode's first resend
// echoing an older timestamp (Eifel), and the D-SACK block, if s has one
// (RFC 2883: the first block, below the cumulative ACK or inside the
// second block), credited to the episode whose range it lies in. A D-SACK
// may come after the episode ended: the original, arriving late, already
// moved the cumulative ACK past it.
func (l *limits) proveSpurious(s *reassembly.Segment) {
	o := &s.Opt
	if len(l.lossEps) == 0 {
		return
	}
	ack := s.AckAbs
	for i := len(l.lossEps) - 1; i >= 0 && i >= len(l.lossEps)-4; i-- {
		if e := &l.lossEps[i]; !e.eifelDone && ack > e.first {
			e.eifelDone = true
			if e.hasTS && o.HasTimestamp && o.TSEcr != 0 && int32(o.TSEcr-e.tsval) < 0 {
				e.firstProven = true
			}
		}
	}
	lo, hi, dup := s.DSACK()
	if !dup {
		return
	}
	for i := len(l.lossEps) - 1; i >= 0 && i >= len(l.lossEps)-4; i-- {
		if e := &l.lossEps[i]; lo >= e.lo && lo < e.hi {
			if lo < e.first+uint64(e.firstLen) && hi > e.first {
				e.firstProven = true
			} else {
				e.dsacked += int64(hi - lo)
			}
			return
		}
	}
}

// rttBefore is the largest RTT sample of the last round trip (the last
// 1.5 minimum RTTs), 0 when there is none: what the queue looked like
// just before a loss was noticed.
func (d *dirAcc) rttBefore() int64 {
	var best int64
	now, within := d.lastTime, d.rttMin*3/2
	for i := range d.recentRTT { // (by index: ranging over the array copied it)
		if r := &d.recentRTT[i]; r.rtt > 0 && now-r.t <= within {
			best = max(best, r.rtt)
		}
	}
	return best
}

// maxCleanRTT bounds the samples kept outside loss episodes.
const maxCleanRTT = 1 << 14

// maxLossRTT bounds the loss episodes kept.
const maxLossRTT = 4096

// queueFull: a loss whose RTT just before it had climbed this fraction of
// the way from the minimum to the high RTTs of the direction (their 95th
// percentile) came with the queue (nearly) full. Tail drops come only
// then; random losses come at any queue.
const queueFull = 0.8

// queueRank: loss episodes that began near the RTT's peak are congestion
// loss only if the RTT then was, on average, above this fraction of
// ordinary moments. Delay jitter puts the largest RTT of any round trip
// near the peak, and random losses come at any moment: their mean rank
// is about half (0.44–0.68 on the recorded runs with 2–10 ms of jitter
// and 0.5–2% loss), tail drops' near the top (0.74–1).
const queueRank = 0.7

// episodeAck makes a what ACK s (a duplicate ACK if dup) tells the
// loss-episode tracker, its SACK blocks in absolute numbers (epAck.set).
func episodeAck(a *epAck, s *reassembly.Segment, dup bool, rtt, win int64) {
	if s.Opt.NSACK == 0 { // most ACKs: no blocks to unwrap
		a.set(int64(s.AckAbs), nil, dup, s.Opt.SACKCut, s.Opt.TSEcr, s.Opt.HasTimestamp, s.Time, rtt, win)
		return
	}
	var blocks [len(s.Opt.SACK)][2]int64
	for i := range int(s.Opt.NSACK) {
		blocks[i] = [2]int64{int64(s.NearAck(s.Opt.SACK[i].Left)), int64(s.NearAck(s.Opt.SACK[i].Right))}
	}
	a.set(int64(s.AckAbs), blocks[:s.Opt.NSACK], dup, s.Opt.SACKCut, s.Opt.TSEcr, s.Opt.HasTimestamp, s.Time, rtt, win)
}

// episode follows loss episodes for a data segment [seq, seq+n); late
// tells that the path found it an original that arrived late (reordered
// before a receiver-side capture), which resent nothing.
func (l *limits) episode(d *dirAcc, s *reassembly.Segment, seq uint64, n int64, start, late bool) {
	end := seq + uint64(n)
	if start { // the one episode tracker's (lossEpisodes) start
		l.episodes++
		l.epKept = len(l.lossEps) < maxLossRTT
		if l.epKept {
			l.lossEps = append(l.lossEps, lossEpisode{rtt: d.rttBefore(), lo: seq, hi: l.hiSeq,
				first: seq, firstLen: min(int64(l.hiSeq-seq), n), tsval: s.Opt.TSVal, hasTS: s.Opt.HasTimestamp})
		}
	}
	if d.eps.drop.in && n > 0 && seq < l.hiSeq && !late {
		if l.epKept {
			e := &l.lossEps[len(l.lossEps)-1]
			e.resent += min(int64(l.hiSeq-seq), n)
			e.lo = min(e.lo, seq)
		}
		l.resent++
		if l.episodes == 1 {
			l.firstSent++
		}
	}
	if !l.hiSet || end > l.hiSeq {
		l.hiSeq, l.hiSet = end, true
	}
}

// Window state of the advertising side, kept in dirAcc itself: it is
// cheap and every direction advertises.
type windowState struct {
	lastWin     int64 // latest advertised (scaled) window, -1 none
	zwOpen      bool
	zwStart     int64
	zeroWinTime int64
}

func (d *dirAcc) init() {
	d.s.MaxRwnd, d.s.MinRwnd, d.s.WScale = -1, -1, -1
	d.win.lastWin = -1
}

func (d *dirAcc) add(cs *connState, s *reassembly.Segment, info *PacketInfo) {
	st := &d.s
	o := &cs.stats[(s.Dir^1)&1] // the other direction's (the &1 drops the bounds check)
	if st.Packets > 0 {
		if gap := s.Time - d.lastTime; gap > d.idleMax {
			d.idleMax = gap
		}
	}
	d.lastTime = s.Time
	st.Packets++
	n := int64(s.PayloadLen)
	inOrder := false // after a wait, everything before arrived, and this goes on from it
	if n > 0 {
		st.DataPackets++
		st.DataBytes += n
		lo := s.SeqAbs
		if s.Flags&thSYN != 0 {
			lo++
		}
		if d.lastArrival != 0 && s.Time-d.lastArrival > minArrivalIdle {
			inOrder = len(d.unique.r) == 1 && d.unique.r[0][1] == lo
		}
		d.unique.add(lo, lo+uint64(n))
		if !d.sawData {
			d.sawData, d.firstDataSeq = true, lo
		}
		if !d.iwDone && info.Flags&Retransmission == 0 && info.Flags&CaptureDuplicate == 0 {
			st.InitialWindowBytes += n
			st.InitialWindowPkts++
		}
	}
	if n > 0 && info.Flags&CaptureDuplicate == 0 {
		lo := int64(s.SeqAbs)
		if s.Flags&thSYN != 0 {
			lo++
		}
		if d.lastArrival != 0 {
			gap := s.Time - d.lastArrival
			w := arrivalGap{gap: gap, n: n, wait: gap > max(2e6, cs.firstRTT/4), idle: inOrder && d.arrivalIdle(cs, o, s, gap, n)}
			if w.wait || w.idle {
				d.arrivals.judge(st, w)
			}
			st.arrivalNs += max(gap, 0) // (a capture clock stepped back adds nothing)
		}
		d.lastArrival = s.Time
		d.arrivals.add(st, s.Time, n)
		d.arrivalZW = o.win.closedUntil(s.Time)
		if r := cs.firstRTT; r > 0 {
			if s.Time-d.rttBinStart >= r {
				d.rttBinStart, d.rttBinBytes = s.Time, 0
			}
			d.rttBinBytes += n
			st.maxPerRTT = max(st.maxPerRTT, d.rttBinBytes)
		}
		var ev episodeEvent
		// An original the path found late (at a receiver-side capture:
		// reordered on the way) is no resend: the tracker does not see it.
		if info.Path != PathReordered {
			if d.eps.started && lo < d.eps.high { // a resend, whatever Wireshark calls it
				d.holes().resent.add(uint64(lo), uint64(lo+n))
			}
			ev = d.eps.data(lo, lo+n, info.BytesInFlight, info.Flags, s.Opt.TSVal, s.Opt.HasTimestamp, s.Time, s.IPID)
		} else {
			d.eps.lateOriginal()
		}
		// A tail-loss probe or a resend already known unneeded is no
		// loss (burstTail).
		d.burst.data(lo, lo+n, s.Time, ev.probe || info.Flags&SpuriousRetrans != 0, ev.probe && info.Flags&SpuriousRetrans == 0)
		d.dataLimits(cs, o, s, n, info, ev.drop)
	}
	f := info.Flags
	if s.Flags&thSYN != 0 {
		st.SYNs++
		d.eps.synSeen = true
	}
	if s.Flags&thFIN != 0 {
		st.FINs++
	}
	if s.Flags&thRST != 0 {
		st.RSTs++
	}
	if f&CaptureDuplicate != 0 {
		st.CaptureDuplicates++
		return
	}
	var skipped int64
	if s.IPVersion == 4 && s.Flags&(thSYN|thRST) == 0 {
		// Not a reset: Linux answers segments for a socket gone with
		// resets of its own (ID 0: ak_28ms_2m_b02's receiver, 232 after
		// the transfer, which left its 18 lost ACKs untold).
		late := d.ipid.late
		skipped = d.ipid.add(s.IPID)
		if n > 0 && d.ipid.late > late && (info.Path == PathNew || info.Path == PathReordered) {
			// Bytes first seen here: not a copy the network duplicated
			// (ndpi__fix2: every segment twice, the copy with the ID of
			// the first).
			d.ipid.lateData++
		}
	}
	if n > 0 && s.Opt.HasTimestamp {
		d.owdData(s, skipped > 0)
	}
	if s.Flags&(thSYN|thACK) == thSYN {
		// A SYN advertises a window too (unscaled, as Wireshark counts
		// it): the largest of a side that sent nothing else.
		st.MaxRwnd = max(st.MaxRwnd, info.Window)
	}
	if f&CaptureDuplicate == 0 {
		ack := int64(0)
		if s.Flags&thACK != 0 {
			ack = int64(s.AckAbs)
		}
		o.burst.rev(s.Time, ack)
	}
	if s.Flags&thACK != 0 {
		if n == 0 && s.Flags&(thSYN|thFIN|thRST) == 0 {
			st.PureAcks++
		}
		w := info.Window
		st.MaxRwnd = max(st.MaxRwnd, w)
		if st.MinRwnd < 0 || w < st.MinRwnd {
			st.MinRwnd = w
		}
		d.rwndSum += float64(w)
		d.rwndN++
		// This ACK ends the other direction's initial window once it
		// acknowledges some of its data.
		if o.sawData && !o.iwDone && s.AckAbs > o.firstDataSeq {
			o.iwDone = true
		}
		if o.sawData {
			o.ackDispersion(s.AckAbs, s.Time)
		}
		if s.Flags&thSYN == 0 {
			o.eps.pathRTT = cs.firstRTT // the whole path's round trip (lossEpisodes.pathRTT)
			if o.limits != nil {
				o.limits.held.ack(s.Time, s.Frame, o.eps.high-int64(s.AckAbs), w, !o.eps.haveAck || int64(s.AckAbs) > o.eps.cumAck, o.eps.inEpisode)
			}
			// A plain ACK (no duplicate, no SACK option) that tells the
			// tracker nothing new needs no epAck (plainAck).
			if s.Opt.NSACK != 0 || s.Opt.SACKCut || f&DupAck != 0 || !o.eps.plainAck(int64(s.AckAbs), s.Time, o.rttMin, w) {
				a := &cs.ack // set whole by episodeAck (no zeroing of a fresh one)
				episodeAck(a, s, f&DupAck != 0, o.rttMin, w)
				o.eps.ack(a)
			}
			if o.sawData {
				o.holeAck(s, f&DupAck != 0)
			}
		}
		if o.limits != nil {
			if !o.limits.ss.result.Found {
				o.limits.ss.ack(s.Time, int64(s.AckAbs), *info, s.Opt.TSVal, s.Opt.HasTimestamp)
			}
			o.limits.proveSpurious(s)
		}
		d.window(s, w)
	}
	if f != 0 { // most segments carry no flag
		d.countFlags(f, n, info.DupAckNum)
	}
	st.MaxBytesInFlight = max(st.MaxBytesInFlight, info.BytesInFlight)
}

// countFlags counts the flags f of a segment with n bytes of payload.
func (d *dirAcc) countFlags(f Flag, n int64, dupAckNum int) {
	st := &d.s
	if f&Retransmission != 0 {
		st.RetransPackets++
		st.RetransBytes += n
	}
	count := func(flag Flag, c *int64) {
		if f&flag != 0 {
			*c++
		}
	}
	count(FastRetransmission, &st.FastRetrans)
	count(SpuriousRetrans, &st.SpuriousRetrans)
	count(OutOfOrder, &st.OutOfOrder)
	count(LostSegment, &st.LostSegments)
	count(DupAck, &st.DupAcks)
	count(ZeroWindow, &st.ZeroWindows)
	count(WindowFull, &st.WindowFull)
	count(KeepAlive, &st.KeepAlives)
	count(ZeroWindowProbe, &st.ZeroWindowProbes)
	count(WindowUpdate, &st.WindowUpdates)
	count(AckUnseen, &st.AckUnseen)
	if dupAckNum == 3 {
		st.TripleDupAcks++
	}
}

// dataLimits follows slow start and receiver-window limitation for a data
// segment of this direction (o: the other direction's).
func (d *dirAcc) dataLimits(cs *connState, o *dirAcc, s *reassembly.Segment, n int64, info *PacketInfo, start bool) {
	l := d.limits
	rw := o.win.lastWin
	if l == nil {
		l = &limits{ss: newSlowStart(0)}
		d.limits = l
	}
	l.ss.rwnd, l.ss.lag = rw, cs.hs.lag(s.Dir)
	if !l.ss.result.Found { // a PacketInfo copied for nothing, otherwise
		l.ss.data(s.Time, int64(s.SeqAbs), n, *info, s.Opt.TSEcr, s.Opt.HasTimestamp)
	}
	l.episode(d, s, s.SeqAbs, n, start, info.Path == PathReordered)
	l.probeRTT.data(s.Time, n, info.BytesInFlight, rw, info.Flags&Retransmission != 0, d.rttMin)
	l.drain.data(s.Time, n, info.BytesInFlight, rw, d.rttMin, info.Flags&Retransmission != 0 || d.eps.signals > 0 || d.eps.sackSeen || d.eps.fast+d.eps.rto > 0 || s.Flags&reassembly.CWR != 0)
	kind, from, rwndFrom := l.held.data(s.Time, n, info.BytesInFlight, rw, start, d.eps.drop.in, info.Flags&Retransmission != 0, d.ackSeen, d.lastAckTime, d.rttMin)
	if rwndFrom > 0 {
		l.rwndLimited += from - rwndFrom
	}
	switch kind {
	case heldRwnd:
		l.rwndLimited += s.Time - from
	case heldApp:
		l.appLimited += s.Time - from
	}
}

// arrivalRate follows the fastest rate data arrived at, over blocks of
// arrivalSpan segments averaging three quarters of the largest or more:
// at a receiver-side capture behind a bottleneck, its rate (the segments
// come spaced by their serialization there; a shorter block would read
// jitter's bunching as the rate, a block of small segments an
// application's pace). A gap no longer than that rate takes to deliver
// the segment after it twice over is the link's spacing, not a wait of
// the sender's: at 1 Mbit/s a full segment takes 12 ms, more than a
// quarter of a round trip under 48 ms (ArrivalGapNs). The gaps of the
// first arrivalKnown segments wait (pending) and are judged once that
// many arrived, against the rate if a block gave one, else as they are;
// those of a shorter transfer count as they are. (An application that
// sends one full segment at a steady pace looks the same: its gaps are
// not counted either.) It is not the bottleneck estimate
// (dirAcc.ackDispersion): that one is read only at the end, and leaves
// out as pauses the very gaps judged here (longer than a quarter of the
// round trip: at 1 Mbit/s on a 10 ms path, every one).
type arrivalRate struct {
	start   int64 // arrival of the segment before the block's first
	bytes   int64 // the block's bytes so far
	k, n    int   // the block's segments so far; all segments
	maxSeg  int64 // the largest segment
	best    float64
	pending []arrivalGap
}

// arrivalGap is a gap between two data segments that may be a wait of the
// sender's: longer than a quarter of the round trip (wait: ArrivalGapNs),
// or an idle wait (idle: arrivalIdle); n is the bytes of the segment
// after it.
type arrivalGap struct {
	gap, n     int64
	wait, idle bool
}

// arrivalSpan is how many segments a block holds; the gaps wait for
// arrivalKnown segments, whose fastest full block is the link's rate
// (fewer may all span the sender's own waits: tcptrace's bad_ack_code,
// 17 segments with 8 waits between them).
const (
	arrivalSpan  = 16
	arrivalKnown = 4 * arrivalSpan
)

// add takes a data segment of n bytes arrived at t; with the
// arrivalKnown-th, the gaps that waited are judged.
func (a *arrivalRate) add(st *DirStats, t, n int64) {
	a.n++
	a.maxSeg = max(a.maxSeg, n)
	if a.n == 1 {
		a.start = t
		return
	}
	a.bytes += n
	if a.k++; a.k == arrivalSpan {
		// A full block: its bytes over the time since the segment
		// before it.
		if dt := t - a.start; dt > 0 && 4*a.bytes >= 3*arrivalSpan*a.maxSeg {
			a.best = max(a.best, float64(a.bytes)/float64(dt))
		}
		a.start, a.bytes, a.k = t, 0, 0
	}
	if a.n == arrivalKnown {
		for _, w := range a.pending {
			a.count(st, w)
		}
		a.pending = nil
	}
}

// judge takes gap w: before arrivalKnown segments it waits (pending);
// after, it counts (count).
func (a *arrivalRate) judge(st *DirStats, w arrivalGap) {
	if a.n < arrivalKnown {
		a.pending = append(a.pending, w)
		return
	}
	a.count(st, w)
}

// count counts gap w as a wait of the sender's, unless the link's rate
// is known and it is the link's spacing.
func (a *arrivalRate) count(st *DirStats, w arrivalGap) {
	if a.best > 0 && float64(w.gap) <= 2*float64(w.n)/a.best {
		return
	}
	w.tally(st)
}

// tally counts gap w in st: as a wait, an idle wait, or both.
func (w arrivalGap) tally(st *DirStats) {
	if w.wait {
		st.ArrivalGapNs += w.gap
	}
	if w.idle {
		st.arrivalIdles++
		st.arrivalIdleNs += w.gap
	}
}

// flush counts into st, as they are, the gaps of a transfer too short to
// judge them (fewer than arrivalKnown segments); it leaves a's own state
// as it was, so the statistics read twice read the same.
func (a *arrivalRate) flush(st *DirStats) {
	for _, w := range a.pending {
		w.tally(st)
	}
}

// minArrivalIdle is the shortest wait that counts as the sender's own
// (DirStats.arrivalIdles), however short the round trip.
const minArrivalIdle = 50e6

// arrivalIdle tells whether data segment s of n bytes, arrived gap after
// the last with everything before it in, ended a wait of the sender's
// own (DirStats.arrivalIdles): longer than 1.25 times the handshake's
// round trip, from the receiver's last new ACK where one came after the last
// segment (a delayed ACK, up to 40 ms and more, is the receiver's wait,
// not the sender's: in the collapsed transfers behind a queue of two or
// three packets every round trip an ACK-clocked sender waits for it read
// as one), the next IPv4 ID of the sender's counter (it sent nothing in between),
// the receiver's window closed for less than half of it (a closed window
// held the sender, and its probes into it are the next byte with the
// next ID) and its last one room for the segment.
func (d *dirAcc) arrivalIdle(cs *connState, o *dirAcc, s *reassembly.Segment, gap, n int64) bool {
	rcv := &o.win
	r, rw := cs.firstRTT, rcv.lastWin
	since := gap
	if last := s.Time - gap; d.lastAckTime > last {
		since = s.Time - d.lastAckTime
	}
	return r > 0 && 4*since > 5*r && s.IPVersion == 4 && d.ipid.set && s.IPID == d.ipid.hi+1 && (rw < 0 || rw >= n) &&
		2*(rcv.closedUntil(s.Time)-d.arrivalZW) < gap
}

// closedUntil is the time the window was zero until t (t not before the
// last window seen).
func (ws *windowState) closedUntil(t int64) int64 {
	if ws.zwOpen {
		return ws.zeroWinTime + t - ws.zwStart
	}
	return ws.zeroWinTime
}

// window follows the windows this side advertises: how long they were 0.
func (d *dirAcc) window(s *reassembly.Segment, w int64) {
	if s.Flags&(thSYN|thFIN|thRST) != 0 {
		return
	}
	ws := &d.win
	ws.lastWin = w
	switch {
	case w == 0 && !ws.zwOpen:
		ws.zwOpen, ws.zwStart = true, s.Time
	case w > 0 && ws.zwOpen:
		ws.zwOpen = false
		ws.zeroWinTime += s.Time - ws.zwStart
	}
}

func (d *dirAcc) addRTT(ns int64) {
	d.rtt.add(ns)
	if d.eps.drop.in {
		return // timed from a first transmission, across a loss: not the queue's
	}
	d.cleanSteps.add(ns)
	d.recentRTT[d.recentAt%len(d.recentRTT)] = struct{ t, rtt int64 }{d.lastTime, ns}
	d.recentAt++
	if d.cleanThin.take() {
		if n := d.cleanRTT.len(); n == d.cleanRTT.room() && n >= maxCleanRTT/16 && n < maxCleanRTT {
			// A long connection: room for all at once, not a
			// doubling's worth of copies on the way.
			d.cleanRTT.grow(maxCleanRTT - n)
			d.cleanPeak.grow(maxCleanRTT - n)
		}
		d.cleanRTT.add(ns)
		d.cleanPeak.add(d.rttBefore())
		d.cleanThin.fill(maxCleanRTT, &d.cleanRTT, &d.cleanPeak)
	}
	if d.rttMin == 0 || ns < d.rttMin {
		d.rttMin = ns
	}
}

// stats returns the statistics of both directions of connection c, as
// accumulated so far (indexed by reassembly.C2S and S2C).
func (a *analyzer) stats(c *reassembly.Conn) [2]DirStats {
	var out [2]DirStats
	var raw [2]float64 // bottleneck estimates before refusal
	cs := a.state(c)
	if cs == nil {
		cs = a.scratchState()
		if syn, ok := c.LoneSYN(); ok {
			var info PacketInfo
			a.add(cs, true, c, &syn, &info) // a connection that only sent a SYN
		}
	}
	var path [2]PathStats
	var karn *[2]karnSum // nil: cs has it
	if a.ahead != nil {
		path, karn = a.ahead.stats(c)
	} else {
		path = a.path.stats(c)
	}
	for d := reassembly.C2S; d <= reassembly.S2C; d++ {
		acc := &cs.stats[d]
		st := acc.s
		acc.arrivals.flush(&st)
		st.Stream, st.Dir = c.Stream, d
		src, dst := c.Client, c.Server
		if d == reassembly.S2C {
			src, dst = dst, src
		}
		st.Src, st.Dst = src, dst
		st.FirstTime, st.Duration = c.FirstTime, c.Duration()
		di := &c.Dir[d]
		st.MSS, st.WScale = int(di.MSS), int(di.WScale)
		st.SACKPermitted, st.Timestamps, st.HandshakeSeen = di.SACKPermitted, di.Timestamps, di.SYN
		st.UniqueBytes = acc.unique.total
		st.IdleMaxMs = float64(acc.idleMax) / 1e6
		if acc.rwndN > 0 {
			st.AvgRwnd = acc.rwndSum / float64(acc.rwndN)
		} else if st.MaxRwnd >= 0 {
			// A side that advertised a window only in its SYN: that one
			// window is its smallest and its mean too.
			st.MinRwnd, st.AvgRwnd = st.MaxRwnd, float64(st.MaxRwnd)
		}
		if cs.firstRTT != 0 {
			st.HasHandshakeRTT, st.HandshakeRTTMs = true, float64(cs.firstRTT)/1e6
		}
		if dur := c.Duration(); dur > 0 {
			st.HasThroughput = true
			st.ThroughputBps = float64(st.UniqueBytes) * 8 / (float64(dur) / 1e9)
		}
		fillRTT(&st, &acc.rtt)
		if karn != nil {
			karn[d].fill(&st)
		} else {
			acc.karn.fill(&st)
		}
		if l := acc.limits; l != nil {
			if ss := l.ss.finish(); ss.Found {
				st.SlowStart = ss
				st.SlowStart.End -= c.FirstTime
			}
			st.RwndLimitedNs = l.rwndLimited
			if st.WindowMisread = l.held.misread(); st.WindowMisread {
				st.RwndLimitedNs = 0
			}
			st.AppLimitedNs = l.appLimited
			st.ProbeRTTDips, st.startupDrained = l.probeRTT.dips, l.drain.found
			st.AppIdleWaits = l.held.idles
			st.unanswered, st.answerACKs = l.held.unansweredShare()
			st.DataPhaseNs = max(l.held.lastData, acc.lastAckTime) - l.held.firstData
			st.LossEpisodes, st.EpisodeResent, st.FirstEpisodeResent = l.episodes, l.resent, l.firstSent
			s := a.sc.copy(0, &acc.cleanRTT)
			lossRanks(&st, s, a.sc.copy(1, &acc.cleanPeak), l.lossEps)
			if len(s) >= 8 && acc.rttMin > 0 {
				med, _ := median(s)
				st.HasQueueDelay, st.QueueDelayMs = true, float64(med-acc.rttMin)/1e6
				st.jitterMs = acc.cleanSteps.jitterMs()
			}
		}
		st.ZeroWindowNs = acc.win.zeroWinTime
		if acc.win.zwOpen {
			st.ZeroWindowNs += c.LastTime - acc.win.zwStart
		}
		st.IPIDMissing, st.ipidAfter, st.HasIPIDMissing = acc.ipid.missing()
		st.ipidPackets = acc.ipid.n
		st.maxData = acc.arrivals.maxSeg
		st.ipidLateData = acc.ipid.lateData
		raw[d] = acc.bottleneck()
		st.State = string(c.State())
		st.Path = path[d]
		if st.Path.Vantage != VantageSender {
			// The waits after ACKs are the sender's only where it is
			// captured; the ack_rtt holds the path's queue only from a
			// point before it.
			st.AppLimitedNs, st.ProbeRTTDips, st.AppIdleWaits, st.startupDrained = 0, 0, 0, false
			if st.Path.Vantage != VantageMiddle {
				st.HasQueueDelay, st.QueueDelayMs, st.jitterMs = false, 0, 0
			}
		}
		if st.Path.Vantage == VantageReceiver {
			// The ack_rtt here is the receiver's ACK delay: the loss
			// episodes are ranked by the one-way delay instead, and the
			// sender's pauses are the gaps in what arrives.
			st.AppLimitedNs = st.ArrivalGapNs
			st.QueueLossEpisodes, st.RankedLossEpisodes, st.RTTAtLossMs, st.RTTAtLossRank = 0, 0, 0, 0
			acc.owd.ranks(&st, &a.sc)
			acc.owd.queueDelay(&st, &a.sc)
		}
		st.LossEpisodesFast, st.LossEpisodesRTO, st.TailLossProbes = acc.eps.fast, acc.eps.rto, acc.eps.probes
		st.LossEpisodesUndone = acc.eps.undone
		st.split = acc.eps.split
		acc.eps.finish()
		st.BetaMedian, st.HasBeta = acc.eps.betaMedian()
		st.BetaEpisodes = len(acc.eps.betas)
		st.ReductionVotes, st.reductionsOff, st.keptLate = acc.eps.reductionVotes(), acc.eps.reductionsOff(), acc.eps.keptLate
		st.afterSegs = acc.eps.afterMedian()
		st.EpisodeIntervalCV, st.EpisodeIntervals, st.HasEpisodeIntervalCV = acc.eps.intervalCV()
		b := &acc.burst
		st.burstOriginals, st.burstFollowers, st.burstLost, st.burstLostFollowers = b.originals, b.followers, b.lost, b.lostFollowers
		st.burstPaced = b.paced
		st.burstLone, st.burstLostLone = b.lone, b.lostLone
		st.denseShort, st.denseLost, st.denseBase = b.dense.short()
		st.lossWindows, st.arrivedWindows = windowsOf(acc.eps.flights, acc.eps.maxSeg), acc.eps.arrivedWindows()
		st.CongestionControl, st.CongestionControlReason = congestionControl(&st)
		if st.Path.NearbyPeer {
			// The ACK clock is the nearby peer's: rounds of microseconds
			// say nothing of the sender's slow start on the long path.
			st.SlowStart = SlowStart{}
		}
		out[d] = st
	}
	for d := range out {
		st, rcv := &out[d], &out[1-d]
		st.LimitShares = limitShares(st, rcv)
		st.Findings = diagnose(st, rcv, raw[d])
		st.Diagnosis, st.FindingKinds = sentence(st.Findings), kinds(st.Findings)
		if _, refused := bottleneckRefused(st, rcv); !refused {
			st.BottleneckBps = raw[d]
		}
	}
	// The sample lists and the scratch were read outside the heap (slab.Vec).
	runtime.KeepAlive(a)
	runtime.KeepAlive(cs)
	return out
}

// lossRanks places the RTT before each loss episode (its rttBefore) in the
// direction's RTTs outside loss episodes, leaving out the episodes proven
// spurious by D-SACK: QueueLossEpisodes counts those near the top of the
// samples (queueFull of the way from the minimum to the 95th percentile:
// the queue was full), RTTAtLossMs is their mean, and RTTAtLossRank their
// mean rank among the same measure at ordinary moments (peaks, rttBefore
// at each sample): with delay jitter, the largest RTT of a round trip is
// near the peak at any moment, and only the rank tells a loss that came
// with the queue full from one that came at random. It sorts s and p in
// place.
func lossRanks(st *DirStats, s, p []int64, eps []lossEpisode) {
	if len(s) < 8 || len(eps) == 0 {
		return
	}
	slices.Sort(s)
	slices.Sort(p)
	lo, hi := float64(s[0]), float64(s[len(s)*95/100])
	var sum, rank float64
	var n int64
	for _, e := range eps {
		if e.rtt <= 0 || e.spurious() {
			continue
		}
		v := float64(e.rtt)
		if hi > lo && (v-lo)/(hi-lo) >= queueFull {
			st.QueueLossEpisodes++
		}
		sum += v
		rank += rankIn(p, e.rtt)
		n++
	}
	if n == 0 {
		return
	}
	st.RTTAtLossMs = sum / float64(n) / 1e6
	st.RTTAtLossRank = rank / float64(n)
	st.RankedLossEpisodes = n
}

// rankIn is the fraction of sorted below v, ties counted half: the
// mid-rank of v among them.
func rankIn(sorted []int64, v int64) float64 {
	below, _ := slices.BinarySearch(sorted, v)
	above := below
	for above < len(sorted) && sorted[above] == v {
		above++
	}
	return (float64(below) + float64(above-below)/2) / float64(len(sorted))
}

// fillRTT computes the RTT columns from the samples (ns). The median of an
// even number of samples is the mean of the two middle ones.
func fillRTT(st *DirStats, r *nsList) {
	n := r.len()
	st.RTTSamples = int64(n)
	if n == 0 {
		return
	}
	r.sort()
	var sum float64
	for i := range n {
		sum += float64(r.at(i))
	}
	mean := sum / float64(n)
	var sq float64
	for i := range n {
		d := float64(r.at(i)) - mean
		sq += d * d
	}
	med := float64(r.at(n / 2))
	if n%2 == 0 {
		med = (float64(r.at(n/2-1)) + float64(r.at(n/2))) / 2
	}
	st.RTTMinMs = float64(r.at(0)) / 1e6
	st.RTTMaxMs = float64(r.at(n-1)) / 1e6
	st.RTTMeanMs = mean / 1e6
	st.RTTMedianMs = med / 1e6
	if n > 1 {
		st.RTTStd = math.Sqrt(sq/float64(n-1)) / 1e6
	}
}

func kb(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", (n+512)/1024)
}

// jitterSteps follows how far a delay (an RTT, a one-way delay) moves
// from one sample to the next. A queue's delay moves slowly, each packet
// waiting about as long as the one before; jitter (a delay drawn for
// each packet, as netem's) moves it at every packet: with delays spread
// evenly over 2J, a step is 2J/3 on average, and the median lies about J
// above the least. The median's rise above the least is a standing
// queue's only beyond that.
type jitterSteps struct {
	prev      int64
	n, sumAbs int64 // steps, and their sizes added up (ns)
	seen      bool
}

func (j *jitterSteps) add(v int64) {
	if j.seen {
		d := v - j.prev
		if d < 0 {
			d = -d
		}
		j.n++
		j.sumAbs += d
	}
	j.prev, j.seen = v, true
}

// jitterMs is the rise of the median above the least that jitter alone
// makes (3/2 of the mean step), ms; 0 before two steps.
func (j *jitterSteps) jitterMs() float64 {
	if j.n < 2 {
		return 0
	}
	return 1.5 * float64(j.sumAbs) / float64(j.n) / 1e6
}
