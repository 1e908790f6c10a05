package analyze

import (
	"math"
	"slices"
)

// senderPipe is a replica of a sender's scoreboard, built from a
// sender-side capture: what it sent, what came back acknowledged or
// SACKed, what it must deem lost. Its pipe is the bytes the sender counts
// as in the network (RFC 6675's pipe, Linux's tcp_packets_in_flight:
// sent − SACKed − lost + retransmitted), the quantity its congestion
// window caps. After a send the sender could not follow with another,
// the pipe is the window it allowed: cwnd, or less when the receive
// window or the application held it back.
//
// Loss is deemed as Linux does by default: RACK (RFC 8985; a segment
// sent before one since delivered is lost once a reordering window has
// passed, none in recovery until reordering is seen), every outstanding
// segment at a retransmission timeout, and, without SACK, NewReno's
// rules (RFC 6582): each duplicate ACK stands for a segment that left
// the network. A segment resent is in flight once, until delivered or
// deemed lost again.
type senderPipe struct {
	segs []pipeSeg // outstanding segments in sequence order, from head
	// live[i] leads, through segments SACKed, to the first at or after i
	// that is not (a path-compressed forward pointer: SACKed segments are
	// skipped in amortized constant time by the SACK and loss scans).
	live []int32
	// prevSACK: the last ACK's blocks (already marked).
	prevSACK [4][2]int64
	head     int
	scan     int // segments before it need no loss check
	started  bool
	una      int64 // highest cumulative ACK
	high     int64 // highest end sent
	inNet    int64 // the pipe, in bytes
	sack     bool  // SACK in use (else duplicate ACKs count deliveries)
	dupacks  int64 // without SACK: duplicate ACKs since the last new ACK
	maxSeg   int64
	// RACK: the latest transmission among segments delivered, the RTT it
	// took and the least RTT seen.
	rackXmit, rackRTT, minRTT int64
	minRTTAt                  int64 // when minRTT last fell (BBR's min_rtt_stamp)
	// rackLast: RACK's RTT as Linux keeps it (tp->rack.rtt_us), that
	// of the last segment an ACK delivered in the order Linux takes
	// them (see ack), the one loss detection waits on (detectLoss).
	rackLast int64
	// reordering: Linux's degree of reordering, tp->reordering, in
	// segments (see ack); 0 before any. reordSeen: the event that raises
	// it (whether or not it rose) came once at least (tp->reord_seen,
	// counted by the same tcp_check_sack_reordering: RACK's window waits
	// on it, detectLoss).
	reordSeen  bool
	reordering int64
	fack       int64 // highest SACKed end
	nSacked    int   // outstanding segments SACKed
	sackMarks  int64 // segments SACKed so far, each once
	delivered  int64 // bytes acknowledged or SACKed, each once
	// rated: the bytes delivered, for the delivery rate, counted as the
	// throughput graph's delivery rate counts them: with SACK as
	// delivered, without it each duplicate ACK a segment delivered when
	// it comes and a new ACK what it covers less those (reno).
	rated     int64
	reno      renoDelivery
	lostBytes int64 // bytes RACK deemed lost
	// cutScan: segments before it were sent too early to be the arrival
	// a duplicate ACK with a cut SACK option stands for (cutSACK); cut
	// holds the block made for it.
	cutScan int
	cut     [1][2]int64
}

type pipeSeg struct {
	seq, end              int64
	xmit                  int64 // its last transmission, ns
	sacked, lost, retrans bool
}

// counted is the bytes a segment adds to the pipe.
func (s *pipeSeg) counted() int64 {
	if s.sacked || s.lost && !s.retrans {
		return 0
	}
	return s.end - s.seq
}

// update applies f to segment i, keeping the pipe's sum.
func (p *senderPipe) update(i int, f func(*pipeSeg)) {
	s := &p.segs[i]
	p.inNet -= s.counted()
	was := s.sacked
	f(s)
	p.inNet += s.counted()
	if s.sacked != was {
		p.nSacked++
		p.sackMarks++
		p.live[i] = int32(i + 1)
	}
}

// nextLive is the first segment at or after i not SACKed (len(segs) if
// none).
func (p *senderPipe) nextLive(i int) int {
	r := i
	for r < len(p.segs) && int(p.live[r]) != r {
		r = int(p.live[r])
	}
	for i < r { // compress the path
		n := int(p.live[i])
		p.live[i] = int32(r)
		i = n
	}
	return r
}

// find is the index of the first outstanding segment ending after seq.
func (p *senderPipe) find(seq int64) int {
	out := p.segs[p.head:]
	i, _ := slices.BinarySearchFunc(out, seq, func(s pipeSeg, seq int64) int {
		if s.end <= seq {
			return -1
		}
		return 1
	})
	return p.head + i
}

// pipe is the bytes in the network as the sender counts them, at least
// zero; without SACK each duplicate ACK stands for one segment delivered.
func (p *senderPipe) pipe() int64 {
	n := p.inNet
	if !p.sack {
		n -= p.dupacks * p.maxSeg
	}
	return max(n, 0)
}

// timeout: a retransmission timeout deems every outstanding segment not
// SACKed lost (Linux's tcp_enter_loss). One outside recovery (calm: open
// or disorder) with three segments or more SACKed takes the degree of
// reordering back to the default: the duplicates were a loss's, not
// reordering's (tcp_enter_loss: "suggests that the degree of reordering
// is over-estimated").
func (p *senderPipe) timeout(calm bool) {
	if calm && p.nSacked >= defaultReordering {
		p.reordering = min(p.reordering, defaultReordering)
	}
	for i := p.head; i < len(p.segs); i++ {
		if !p.segs[i].sacked {
			p.update(i, func(s *pipeSeg) { s.lost, s.retrans = true, false })
		}
	}
	p.dupacks = 0
	p.scan = p.head
}

// data feeds a data segment sent at time now.
func (p *senderPipe) data(seq, end, now int64) {
	p.maxSeg = max(p.maxSeg, end-seq)
	if !p.started {
		p.started, p.una, p.high = true, seq, seq
	}
	if seq < p.high { // a resend: in flight again, as retransmitted
		for i := p.find(max(seq, p.una)); i < len(p.segs) && p.segs[i].seq < end; i++ {
			p.update(i, func(s *pipeSeg) {
				if !s.sacked {
					s.lost, s.retrans = true, true
				}
				s.xmit = now
			})
			p.scan = min(p.scan, i)
		}
	}
	if end > p.high {
		from := max(seq, p.high)
		if seq > p.high { // bytes the capture missed were sent too
			from = p.high
		}
		p.segs = append(p.segs, pipeSeg{seq: from, end: end, xmit: now})
		p.live = append(p.live, int32(len(p.segs)-1))
		p.inNet += end - from
		p.high = end
	}
	p.reno.maxSeg, p.reno.highSent = p.maxSeg, p.high
}

// sackCut is what an ACK's SACK option the snapshot length cut tells
// (Record.SACKCut, Record.SACKPart): that it was cut (cut), and of the
// block after the whole ones the bytes captured (part: 4 or more, its
// left edge; more, the leading bytes of its right edge) and what they
// read (block, the right edge's unknown bytes zero).
type sackCut struct {
	cut   bool
	part  uint8
	block [2]int64
}

// ack feeds an ACK of the direction's data at time now: the cumulative
// ACK, its SACK blocks, whether it is a duplicate ACK, whether the
// sender is in loss recovery, and whether the snapshot length cut its
// SACK option (Record.SACKCut: an ACK below the data outstanding whose
// blocks are not captured SACKs the arrival that prompted it — the block
// its first block's bytes tell, partSACK, or the one its timing does,
// cutSACK — whatever Wireshark calls it: where the receiver's window
// grew, a window update, not a duplicate ACK).
func (p *senderPipe) ack(ack int64, sacks [][2]int64, dup, recovery bool, cut sackCut, now int64) {
	if !p.started {
		return
	}
	if cut.cut && len(sacks) == 0 && p.sack && ack <= p.una {
		b, ok, told := p.partSACK(cut, ack)
		if !told {
			b, ok = p.cutSACK(now)
		}
		if ok {
			p.cut[0] = b
			sacks = p.cut[:]
		}
	}
	if len(sacks) > 0 {
		p.sack = true
	}
	// Linux's tcp_check_sack_reordering: the lowest original never
	// resent that an ACK delivered (acknowledged or SACKed) below the
	// highest SACKed end before it (prior_fack) raises tp->reordering to
	// the segments from it to the highest SACKed end after the ACK (the
	// cumulative ACK where nothing SACKed is left).
	priorFack, reord := max(p.fack, p.una), int64(math.MaxInt64)
	// RACK's RTT (rackLast) is that of the last segment delivered as
	// Linux takes them: the SACKed first, in sequence order
	// (tcp_sacktag_write_queue sorts the blocks), then the ones the
	// cumulative ACK covers (tcp_clean_rtx_queue), each setting
	// tp->rack.rtt_us whether or not it was sent after the latest
	// (tcp_rack_advance; only rack.mstamp waits for that). An ACK that
	// fills a hole and SACKs above it thus leaves RACK waiting the hole's
	// RTT, not the SACKed segment's: k35_reno_44m_q9k_j2 (an ACK of a
	// segment sent 192 ms before, SACKing one sent 152 ms before, the
	// next hole marked lost by the reordering timer 42 ms later, min_rtt/4
	// past the hole's RTT: the kernel's cwnd 8 while the pipe read one
	// lost at once and the window 7, ssthresh 3 for the kernel's 4).
	cumLast, sackLast, sackLastSeq := int64(-1), int64(-1), int64(-1)
	delivered := func(s *pipeSeg, cum bool) {
		p.delivered += s.end - s.seq
		if !s.retrans {
			reord = min(reord, s.seq)
		}
		rtt := now - s.xmit
		if s.retrans && p.minRTT > 0 && rtt < p.minRTT {
			return // the original's ACK, not the resend's: no sample
		}
		switch {
		case cum:
			cumLast = rtt
		case s.seq > sackLastSeq:
			sackLast, sackLastSeq = rtt, s.seq
		}
		if s.xmit >= p.rackXmit {
			p.rackXmit, p.rackRTT = s.xmit, rtt
		}
		if rtt > 0 && (p.minRTT == 0 || rtt < p.minRTT) {
			p.minRTT, p.minRTTAt = rtt, now
		}
	}
	delivered0 := p.delivered
	if ack > p.una {
		acked := int64(0)
		for p.head < len(p.segs) && p.segs[p.head].seq < ack {
			s := &p.segs[p.head]
			if s.end > ack { // partly acknowledged
				p.update(p.head, func(s *pipeSeg) { s.seq = ack })
				break
			}
			if !s.sacked {
				delivered(s, true)
				acked++
			}
			p.inNet -= s.counted()
			if s.sacked {
				p.nSacked--
			}
			p.head++
		}
		p.una = ack
		if !p.sack {
			// NewReno: the segments a new ACK covers include those the
			// duplicate ACKs stood for (Linux's tcp_remove_reno_sacks).
			p.dupacks = max(0, p.dupacks-max(acked-1, 0))
			if !recovery {
				p.dupacks = 0
			}
		}
		if p.head > 1024 && p.head > len(p.segs)/2 {
			n := copy(p.segs, p.segs[p.head:])
			p.segs = p.segs[:n]
			for i := range n { // pointers run forward, never below head
				p.live[i] = max(p.live[i+p.head], int32(p.head)) - int32(p.head)
			}
			p.live = p.live[:n]
			p.scan -= p.head
			p.cutScan = max(p.cutScan-p.head, 0)
			p.head = 0
		}
		p.scan = max(p.scan, p.head)
		if n := p.delivered - delivered0; !p.sack {
			p.rated += p.reno.advance(n)
		} else {
			p.rated += n
		}
		delivered0 = p.delivered
	} else if dup && !p.sack {
		p.rated += p.reno.dupack(ack)
		if int64(len(p.segs)-p.head) > p.dupacks+1 {
			p.dupacks++
		}
	}
	prev := p.prevSACK
	p.prevSACK = [4][2]int64{}
	for j, b := range sacks {
		if j < len(p.prevSACK) {
			p.prevSACK[j] = b
		}
		if b[1] <= p.una || slices.Contains(prev[:], b) {
			continue // a D-SACK, or a block the last ACK marked already
		}
		for i := p.nextLive(p.find(b[0])); i < len(p.segs) && p.segs[i].end <= b[1]; i = p.nextLive(i + 1) {
			if p.segs[i].seq >= b[0] {
				delivered(&p.segs[i], false)
				p.update(i, func(s *pipeSeg) { s.sacked = true })
			}
		}
		p.fack = max(p.fack, b[1])
	}
	p.rated += p.delivered - delivered0 // SACKed
	switch {
	case cumLast >= 0:
		p.rackLast = cumLast
	case sackLast >= 0:
		p.rackLast = sackLast
	}
	if mss := p.maxSeg; p.sack && mss > 0 && reord < priorFack {
		p.reordering = max(p.reordering, defaultReordering, min((max(p.fack, p.una)-reord+mss-1)/mss, maxReordering))
		p.reordSeen = true
	}
	p.detectLoss(recovery, now)
}

// Linux's degrees of reordering, in segments: the default and the most
// (net.ipv4's tcp_reordering and tcp_max_reordering).
const (
	defaultReordering = 3
	maxReordering     = 300
)

// reorderingHigh tells whether Linux's degree of reordering is above its
// default (tcp_may_raise_cwnd: cwnd then grows at any ACK of forward
// progress, a new SACK's too, not only at a new cumulative ACK).
func (p *senderPipe) reorderingHigh() bool { return p.reordering > defaultReordering }

// partSACK is the block the first SACK block of a cut option stood for,
// of which the left edge is known (told; not where fewer than its 4 bytes
// were captured, or it starts no segment outstanding): where it lies below
// the cumulative ACK, a D-SACK of a duplicate arrival (RFC 2883), which
// SACKs nothing new; where it starts at or below the sender's (a
// reordered old ACK's), nothing either: Linux takes it for no SACK
// (tcp_is_sackblock_valid: a block must start above snd_una;
// k31_reno_j3_l1_v6, IPv6 at 96 bytes: an ACK of 1466 with a block from
// 2894 after one of 4322, read by its timing as SACKing 11462, a hole
// Linux never saw); else the receiver holds [left, R), R the end of a
// segment, and the arrival that prompted the ACK extends what is SACKed
// from left already by a segment or more (RFC 2018: the first block holds
// the latest arrival): R is the least segment end from the first segment
// not SACKed on — a run SACKed beyond it included, which the arrival
// joined to the block — whose leading bytes are those captured (IPv6 with
// timestamps at 96 bytes keeps two of the right edge's four: an end within
// 64 KB). None fitting, nothing is SACKed. An ACK that repeats the block
// unextended (a window update while the receiver holds data above a
// hole) is read as one more arrival all the same: its bytes do not tell
// the two apart.
func (p *senderPipe) partSACK(cut sackCut, ack int64) (_ [2]int64, ok, told bool) {
	if cut.part < 4 {
		return [2]int64{}, false, false
	}
	left := cut.block[0]
	if left < ack || left <= p.una {
		return [2]int64{}, false, true
	}
	i := p.find(left)
	if i >= len(p.segs) || p.segs[i].seq != left {
		return [2]int64{}, false, false
	}
	j := p.nextLive(i)
	if j >= len(p.segs) {
		return [2]int64{}, false, true
	}
	if cut.part == 4 {
		return [2]int64{left, p.segs[j].end}, true, true
	}
	// The right edge's unknown bytes: 8 − part of them, the span of
	// values they allow from its leading bytes (block[1] with them zero).
	lo, span := cut.block[1], int64(1)<<(8*(8-cut.part))
	k := j
	if p.segs[j].end < lo {
		k = max(p.find(lo-1), j) // the first segment ending at lo or after
	}
	if k < len(p.segs) && p.segs[k].end < lo+span {
		return [2]int64{left, p.segs[k].end}, true, true
	}
	return [2]int64{}, false, true
}

// cutSACK is the block an ACK below the data outstanding whose SACK
// option the snapshot length cut stood for at time now (a duplicate ACK
// or, where the window grew, a window update): the segment whose
// arrival prompted it, taken as the last original sent a round trip
// (RACK's, else the least) before the ACK — arrivals come in the order
// sent and a dropped segment prompts no ACK, so the holes are skipped
// by time — or where
// that one is SACKed already, the next not SACKed above it.
// k19_cubic_ipv6_q20k (IPv6 at 96 bytes: every SACK block cut) had its
// pipe read far above the kernel's, RACK marking nothing lost without
// SACKed segments above the holes.
func (p *senderPipe) cutSACK(now int64) ([2]int64, bool) {
	rtt := p.rackRTT
	if rtt <= 0 {
		rtt = p.minRTT
	}
	if rtt <= 0 {
		return [2]int64{}, false
	}
	i := max(p.cutScan, p.head)
	last := -1
	for ; i < len(p.segs); i++ {
		s := &p.segs[i]
		if s.retrans || s.lost {
			continue
		}
		if s.xmit > now-rtt {
			break
		}
		last = i
	}
	if last >= 0 {
		p.cutScan = last
	} else {
		last = max(p.cutScan, p.head)
	}
	for j := p.nextLive(last); j < len(p.segs); j = p.nextLive(j + 1) {
		if s := &p.segs[j]; !s.retrans && !s.lost && s.seq >= p.una {
			return [2]int64{s.seq, s.end}, true
		}
	}
	return [2]int64{}, false
}

// detectLoss marks lost, as RACK does, the segments sent before the
// latest delivered one once its RTT and the reordering window have
// passed since they were sent.
func (p *senderPipe) detectLoss(recovery bool, now int64) {
	if p.rackXmit == 0 || !p.sack {
		return // without SACK Linux marks only the head, which it resends
	}
	var reo int64
	if p.reordSeen || !recovery && p.nSacked < 3 {
		reo = min(p.minRTT/4, p.rackRTT)
	}
	advance := true
	for i := p.nextLive(p.scan); i < len(p.segs); i = p.nextLive(i + 1) {
		if advance {
			p.scan = i // those before it are SACKed
		}
		s := &p.segs[i]
		if s.sacked || s.lost && !s.retrans {
			if advance {
				p.scan = i + 1
			}
			continue
		}
		if s.xmit >= p.rackXmit {
			if !s.retrans {
				break // sent in order after it, as are the rest
			}
			advance = false
			continue
		}
		if now-s.xmit >= p.rackLast+reo {
			p.lostBytes += s.end - s.seq
			p.update(i, func(s *pipeSeg) { s.lost, s.retrans = true, false })
			if advance {
				p.scan = i + 1
			}
			continue
		}
		advance = false
	}
}
