package analyze

import (
	"math"
	"slices"

	"tcpviz/reassembly"
)

// Series names of the congestion-window graph.
const (
	SeriesCwnd     = "cwnd-estimate"
	SeriesSsthresh = "ssthresh-estimate"
	SeriesFastLoss = "loss-fast-retransmit"
	SeriesRTOLoss  = "loss-timeout"
	// SeriesUndoneLoss marks an episode proven spurious (its window
	// restored), whatever its kind, over the mark of its kind.
	SeriesUndoneLoss = "loss-undone"
	// SeriesTLP marks a tail-loss probe (RFC 8985: the last segment sent
	// again with no duplicate ACK; Linux stays open, no reduction).
	SeriesTLP = "tail-loss-probe"
	// seriesArrived is, at a receiver-side capture, the bytes arrived over
	// the last round trip, drawn as cwnd-estimate.
	seriesArrived = "arrived-per-rtt"
	// SeriesPipe is the sender's pipe where the window drawn is BBR's.
	SeriesPipe = "pipe"
	// seriesPipeSeen is the pipe after each burst of sends, as the
	// scoreboard counts it (senderPipe.pipe): drawn as SeriesPipe in
	// BBR's view (bbrSeries), where no window model stands over it.
	seriesPipeSeen = "pipe-seen"
	// SeriesBDP is BBR's model of the path: the largest delivery rate of
	// the last ten round trips times the least RTT, in bytes; beside it,
	// for every sender, each round's delivery rate times the least RTT
	// (SeriesDelivery, in the graph's unit).
	SeriesBDP = "bdp-estimate"
	// seriesBBRCwnd is the window BBR sets from it (twice the BDP and
	// three segments), drawn as cwnd-estimate for a sender that does not
	// reduce on loss.
	seriesBBRCwnd = "cwnd-bbr"
	// The sender's congestion state as Linux names it, bands (Spans)
	// under the lines: disorder (entered at a duplicate ACK or one SACKing
	// new data, held while SACKed data is outstanding: disorderAfter),
	// recovery (a fast-retransmit episode), loss (a timeout's); open is
	// no band.
	SeriesDisorder  = "state-disorder"
	SeriesRecovery  = "state-recovery"
	SeriesLossState = "state-loss"
	// Where the window is unknown, bands (senderHeld): the receiver's
	// window held the sender, or it had nothing to send; the line there
	// is a lower bound.
	SeriesRwndHeld = "held-by-rwnd"
	SeriesAppHeld  = "held-by-app"
)

var cwndSeries = []string{SeriesCwnd, SeriesSsthresh, SeriesAdvertised, SeriesFastLoss, SeriesRTOLoss, SeriesUndoneLoss, SeriesTLP,
	SeriesDisorder, SeriesRecovery, SeriesLossState, SeriesRwndHeld, SeriesAppHeld}

// cwndGraph builds the congestion-window graph of direction o.Dir, as the ns-2
// studies plot it, estimated from a sender-side capture:
//   - cwnd-estimate: the window the sender allowed, read off a replica of
//     its scoreboard (senderPipe): after each burst of sends (the segments
//     sent before the next ACK), the bytes it counts in the network —
//     sent, less SACKed and deemed lost, plus resent (RFC 6675's pipe,
//     which Linux's cwnd caps; during recovery PRR sets cwnd to it) — at
//     the burst's first send, a step line. Outside loss recovery the
//     largest pipe of the last two round trips (the window changes little
//     within one, while the sender does not fill it at every moment), or
//     where the sender did not fill it Linux's window there (openWindow:
//     slow start's growth at each ACK of new data, drawn at the ACK,
//     until HyStart; congestion avoidance's, Reno's or CUBIC's curve,
//     while Linux counts the socket window-limited;
//     the restart after an idle RTO; the fall after an RTO unfilled), no
//     more than the receiver's window. Where
//     the receiver's window or the application held the sender back, the
//     line is what was used, a lower bound — except in a fast-retransmit
//     episode without SACK, or with SACK at ACKs that left the receiver's
//     window full (ackWithoutSend), where it is the window proportional rate
//     reduction set at the last ACK (prrState), which a held sender
//     does not fill, to the ssthresh of the algorithm the episodes voted
//     for (reductionVotes; until the first episode's reduction tells,
//     the steps wait: resolve); and in a timeout's loss state (and its
//     RFC 6582 hold without SACK), where it is above, the window Linux's
//     slow start grew there from one segment to ssthresh (lossState),
//     which a sender resending go-back-N does not fill;
//   - ssthresh-estimate: at each loss episode's start (lossEpisodes),
//     measured, not assumed: the bytes in flight after the first burst of
//     sends once the episode ended, the window the sender settled at
//     (Linux sets cwnd to ssthresh on leaving recovery: Reno's half,
//     CUBIC's 0.7), at least two segments; where another episode began at
//     once, the line's value then; half the line at the loss when the
//     capture ends or another loss comes first; for an undone episode
//     its algorithm's reduction of the window then, and at the ACK that
//     undid it the ssthresh Linux restored (undoSsthresh);
//   - receive-window: the receiver's advertised window;
//   - loss marks at each episode's start, as fast retransmit (duplicate
//     ACKs or SACK blocks came since the last new ACK, or recovery began
//     again at once) or timeout (none: the timer fired, in recovery too),
//     and undone over it when proven spurious (Eifel, D-SACK, a partial
//     undo: Linux restores the window), at the line's value then; tail-loss probes (no episode)
//     likewise;
//   - bands (Spans) of the congestion state, as Linux names it (disorder,
//     recovery, loss; open has none), and of the times the window is
//     unknown: the receiver's window or the application held the sender
//     (senderHeld, the summary's rwnd_limited_s and app_limited_s), one
//     band of each kind for holds less than a round trip apart.
//
// For a BBR sender (ccFacts.name: no reduction on loss, or BBR's
// ProbeRTT) the window drawn is BBR's model instead, the pipe beside it
// (bbrSeries). At a receiver-side capture, told by the
// handshake, the line is the data that arrived per round trip (arrived,
// atReceiver); callers say so on stderr too (see PathStats.Vantage).
func cwndGraph(recs []Record, o SeriesOptions) *Graph { return feed(newCwnd(o), recs) }

// cwndVotes draws the cwnd graph under the algorithm the whole
// connection's loss episodes vote for (reductionVotes), which the records
// tell only at their end: the line waits for the vote (deferred), and
// once one episode told, is drawn under it (first); a second builder
// (other), fed the same records, draws it from that moment under the
// other algorithm. Where the connection's votes name the other in the
// end (one reduction measured off, then many: ky_reno_30ms_j3's first
// recovery, out of slow start, had 52 segments in flight at the loss
// where the kernel's cwnd was 72, and 34 after it: CUBIC's 0.7), that
// graph is the one given.
type cwndVotes struct{ first, other *cwndBuilder }

func (c *cwndVotes) add(r *Record) {
	c.first.add(r)
	c.other.add(r)
}

func (c *cwndVotes) graph() *Graph {
	g := c.first.graph()
	if v, ok := c.first.knownFinal(); ok && v == c.other.forced {
		return c.other.graph()
	}
	return g
}

// knownFinal is the reduction the episodes voted for at the
// connection's end (call graph first), if it is Reno's or CUBIC's: the
// majority's, else the median reduction factor's, as the summary's
// congestion_control names it (ccFacts.name) and crossCheck draws the
// ssthresh.
func (b *cwndBuilder) knownFinal() (int, bool) { return b.ep.vote() }

// cwndBuilder builds Cwnd's graph record by record.
type cwndBuilder struct {
	f   *frame
	set seriesSet
	ep  lossEpisodes
	pp  senderPipe
	// The sends since the last ACK form a burst: the pipe after it is
	// the window the sender allowed, drawn from the burst's first send.
	burst      bool
	burstFrame int64
	burstTime  int64
	line       int64 // the line's last value, -1 before any
	lineTime   int64 // ... drawn from then
	lastFrame  int64 // the last burst drawn or held
	lastTime   int64
	// Outside recovery the window changes little within a round trip,
	// while the sender may not fill it at every moment (it waits for the
	// application, the receiver's window opens by less than a segment):
	// the line is the largest pipe of the last two round trips, recent holds
	// the bursts that can still be it (a decreasing maximum queue).
	recent []timedValue
	// The right edge of the receiver's window (its last ACK plus its
	// window), once an ACK gave one.
	rwndEdge int64
	haveWin  bool
	// The ssthresh of the last episode, measured: the window the sender
	// settles at once recovery ends (the flight with the first segment
	// sent after it: Linux sets cwnd to ssthresh on leaving recovery),
	// marked at the episode's start; pending until then.
	pending         bool
	pendingPoint    Point
	pendingFallback float64 // half the flight at the loss, if no segment follows
	settledAtAck    bool    // the tracker's next settled ssthresh was drawn at a re-entry
	// What each ssthresh drawn was measured after (crossCheck), and the
	// pending one's.
	ssBasis      []ssBasis
	pendingBasis ssBasis
	// lastSs: the last ssthresh drawn (-1 none); priorSs: the one before
	// the last episode's (-1 none: Linux's was infinite, slow start's),
	// which an undo restores (undoSsthresh); epSsDrawn: the last
	// episode's own was drawn.
	lastSs, priorSs float64
	epSsDrawn       bool
	priorAt         int // the point priorSs is (-1: none, or restored in between: partialUndo)
	// The last episode's mark, drawn once the next begins or the capture
	// ends (a D-SACK may prove it spurious after it ended): as undone
	// when markUndone.
	mark                Point
	markName            string
	hasMark, markUndone bool
	silentAt            Point // where Linux entered a recovery no resend shows (episodeEvent.silentEnter)
	// BBR's model: delivery-rate samples of the last ten round trips
	// (bytes/ns), the round's start and bytes delivered then.
	bw                    [10]float64
	bwN                   int
	bwStart, bwDelivered  int64
	bwMarks               []bwMark     // the ACKs of the last round trip (rateSample)
	bwRoundBest           float64      // the best rate sample of this round
	bdp, bbrW             int64        // BBR's model: its BDP and window
	bbrPrior, bbrConserve int64        // the window before recovery; conservation until
	bdpDrawn, bbrCwnd     int64        // last drawn
	bdpTime               int64        // the BDP estimate drawn from then
	pipeDrawn, pipeTime   int64        // the pipe last drawn (seriesPipeSeen), and when
	bbrInEp               bool         // in recovery, as the model last saw it
	bbrProbe              bool         // in ProbeRTT, as the model last saw it
	bbrProbePrior         int64        // the window before it
	bbrProbeEnd           int64        // when the model last left it (0: never)
	hs                    handshake    // the handshake's SYN, SYN/ACK and ACK times
	synSeen               [2]bool      // a SYN seen from each side (NoteNoHandshake)
	sackOK                [2]bool      // each direction's SYN offered SACK (Record.SACKOK)
	mruSyn                int64        // the most recent pure SYN's time (handshake)
	arr                   []timedValue // at a receiver: data arrived in the last round trip
	arrSum, arrDrawn      int64
	// At a receiver: the receiver's timestamps as first sent (t, TSval),
	// and the round trip they measure (smoothed as SRTT is).
	tsSent     []timedValue
	rcvRTT     int64
	bbrTime    int64 // the model's line drawn from then
	fullBW     float64
	fullRounds int
	bwFull     bool // startup over
	bbrDrained bool // and the queue it built drained: probing bandwidth
	// The congestion state's band: the state drawn since stateFrom ("",
	// open, draws none), the last episode's kind.
	state     string
	stateFrom Point
	epFast    bool
	// The window-unknown bands: what held the sender (senderHeld) from
	// the receiver's last window (rwnd, -1 none), the last new ACK's
	// time, the least ACK RTT; the band open from heldFrom to heldTo.
	held             senderHeld
	probeRTT         probeRTT // BBR's ProbeRTT, for the algorithm's name (ccFacts)
	rwnd             int64
	lastNewAck       int64
	newAckSeen       bool
	ackRTTMin        int64
	heldKind         heldKind
	heldFrom, heldTo Point
	lastAckSeq       int64
	epAck            int64 // lastAckSeq when the last episode began
	// disorder: Linux's, entered from open at a duplicate ACK or one
	// SACKing new data, kept while SACKed data is outstanding (without
	// SACK: duplicate ACKs since the last new one); see disorderAfter.
	disorder bool
	// In recovery, the pipe after the last ACK, while no send followed
	// it (ackWithoutSend).
	ackVals         [3]int64 // under Reno's PRR, CUBIC's, neither (0: no fall)
	ackPipeAt       Point
	ackPipeSet      bool
	lastNewAckFrame int64
	lastDataFrame   int64
	lastRec         Point // the last record's frame and time
	// PRR through a fast-retransmit episode, under Reno's and CUBIC's
	// ssthresh (by vote). Until the episodes tell which (the first's
	// reduction is measured once it ends), the line's steps wait in
	// deferred, each with its value under either and under neither
	// (the pipe alone); shown is the line's last value drawn then.
	prr [2]prrState
	// prrSlowStart: the last episode's PRR fell into slow start, under
	// Reno's and CUBIC's ssthresh (prrState.slowStart), as prrStart found
	// it.
	prrSlowStart [2]bool
	holdCwnd     [2]int64 // PRR's cwnd in RFC 6582's hold at a timeout, under Reno's and CUBIC's ssthresh
	// The window through a timeout's loss state, under Reno's and
	// CUBIC's ssthresh (lossState), and Linux's count of duplicate ACKs
	// there without SACK (lossDup), which starts once data above
	// lossHigh (snd_nxt at the timeout) went out.
	loss     [2]lossState
	lossDup  int64
	lossHigh int64
	deferred []deferredStep
	shown    int64
	wasIn    bool // in an episode before the last data segment
	// open: the window outside recovery where the sender did not fill
	// it (openWindow), under Reno's ssthresh after each loss episode,
	// CUBIC's, and neither's (unknown: see openReset).
	open [3]openWindow
	// flip: this builder draws, from the first vote known on, under the
	// other algorithm than that vote's (cwndVotes), forced (-1: not yet,
	// or not this builder).
	flip   bool
	forced int
	// before: the line's last step before the time window drawn
	// (hasBefore), drawn with its first step inside (drawLine).
	before    Point
	hasBefore bool
	// drawn: the last step drawn inside the time window (drawnAt: one was).
	drawn   Point
	drawnAt bool
}

// deferredStep is a step of the line waiting for the algorithm: its
// value under Reno's PRR, CUBIC's, and neither's.
type deferredStep struct {
	p    Point
	vals [3]int64
}

// maxDeferred bounds the steps that wait for the algorithm; past it they
// are drawn as neither's.
const maxDeferred = 1 << 14

// knownVote is the reduction the episodes so far voted for, if they did
// and it is Reno's or CUBIC's.
//
// For the builder drawing under the other algorithm (cwndVotes: flip),
// once a vote is first known it is the other algorithm's, whatever the
// votes say after.
func (b *cwndBuilder) knownVote() (int, bool) {
	if b.forced >= 0 {
		return b.forced, true
	}
	v, ok := majorityVote(b.ep.reductionVotes())
	ok = ok && v != VoteNone
	if ok && b.flip {
		b.forced = VoteReno + VoteCubic - v
		return b.forced, true
	}
	return v, ok
}

// neitherVote indexes a deferred step's value under neither algorithm.
const neitherVote = 2

// resolve draws the deferred steps under the vote known now (else the
// pipe's values).
func (b *cwndBuilder) resolve() {
	if len(b.deferred) == 0 {
		return
	}
	i := neitherVote
	if v, ok := b.knownVote(); ok {
		i = v
	}
	b.resolveAs(i)
}

// resolveAs draws the deferred steps with their values under vote i.
func (b *cwndBuilder) resolveAs(i int) {
	last := b.shown
	for _, d := range b.deferred {
		if v := d.vals[i]; v != last {
			p := d.p
			p.V[0] = float64(v)
			b.drawLine(p)
			last, b.lineTime = v, p.Time
		}
	}
	b.line, b.deferred = last, b.deferred[:0]
}

// prrState follows Linux's proportional rate reduction (RFC 6937,
// tcp_cwnd_reduction) through a fast-retransmit episode: the window at
// the loss (prior), the ssthresh it reduces to, the bytes delivered and
// sent since the episode began, and cwnd as PRR set it at the last ACK
// that delivered data (-1 none yet). Where the sender does not fill it
// (the receive window or the application holds it), the pipe after a
// burst stays below cwnd; PRR's value is then the window.
type prrState struct {
	on                   bool
	prior, ss            int64
	delivered, out, cwnd int64
	// slowStart: cwnd fell below ssthresh, of HyStart's size (16 segments)
	// or more: Linux was in slow start there (tcp_in_slow_start), where
	// CUBIC's HyStart runs even in recovery and may set ssthresh to cwnd
	// (hystart_update: kz_cubic_200ms_l2, 56 to 32 in a re-entered
	// recovery); the window after it is then the one measured.
	slowStart bool
}

// prrStart begins PRR at a fast retransmit, from a window of prior
// bytes (under Reno's and CUBIC's: see lineUnder), to Reno's and CUBIC's
// ssthresh; none for a sender that does not reduce (BBR).
func (b *cwndBuilder) prrStart(priors [2]int64) {
	if _, ok := b.knownVote(); ok {
		b.resolve()
	}
	b.lossStop()
	seg := b.ep.maxSeg
	v, ok := majorityVote(b.ep.reductionVotes())
	for i := range b.prr {
		b.prrSlowStart[i] = b.prr[i].slowStart
		b.prr[i] = prrState{}
		if prior := priors[i]; seg > 0 && prior > 0 && !(ok && v == VoteNone) {
			b.prr[i] = prrState{on: true, prior: prior, ss: linuxSsthresh(i, (prior+seg/2)/seg) * seg, cwnd: -1}
		}
	}
}

// prrAck updates PRR's cwnd at an ACK that delivered newly bytes (pipe:
// the pipe after it; advanced: the cumulative ACK moved).
func (b *cwndBuilder) prrAck(newly, pipe int64, advanced bool) {
	for i := range b.prr {
		b.prr[i].ack(newly, pipe, advanced, b.ep.maxSeg)
	}
}

// ack is tcp_cwnd_reduction at one ACK, in bytes (seg: one segment):
// above ssthresh, out of what was delivered the share ssthresh/prior;
// below, what was delivered (one more segment when the cumulative ACK
// moved), up to ssthresh; at least the fast retransmit.
func (p *prrState) ack(newly, pipe int64, advanced bool, seg int64) {
	if !p.on || newly <= 0 {
		return
	}
	p.delivered += newly
	var snd int64
	if delta := p.ss - pipe; delta < 0 {
		snd = (p.ss*p.delivered+p.prior-1)/p.prior - p.out
	} else {
		snd = max(p.delivered-p.out, newly)
		if advanced {
			snd += seg
		}
		snd = min(delta, snd)
	}
	if p.out == 0 {
		snd = max(snd, seg)
	}
	p.cwnd = pipe + max(snd, 0)
	p.slowStart = p.slowStart || p.cwnd < p.ss && p.cwnd >= hystartLowWindow*seg
}

// prrStop ends PRR (the episode ended, or a timeout came).
func (b *cwndBuilder) prrStop() {
	b.prr[0].on, b.prr[1].on = false, false
}

// lossState follows Linux's window through a timeout's loss state, in
// bytes: tcp_enter_loss sets cwnd to the packets in flight plus one (one
// segment: every outstanding segment is deemed lost) and ssthresh (ss);
// then each ACK that moves the cumulative ACK grows it as outside
// recovery (tcp_cong_control: no cwnd reduction in the loss state, so
// tcp_cong_avoid): slow start by the segments it delivered up to
// ssthresh (tcp_slow_start), one segment per window's worth after
// (tcp_cong_avoid_ai; CUBIC's curve taken as Reno's line for the few
// round trips a loss state lasts). Without SACK the receiver holds what
// arrived above the hole, so a cumulative ACK after a resend can cover
// many segments at once and the window jumps to ssthresh, while the
// sender resending one segment after the other (go-back-N) leaves its
// pipe far below it: the line is this window, not the pipe.
type lossState struct {
	on            bool
	ss, cwnd, cnt int64 // cnt: segments delivered towards the next AI step
}

// grow adds what an ACK delivered (segments) to the window (seg bytes
// a segment).
func (l *lossState) grow(delivered, seg int64) {
	if !l.on || delivered <= 0 || seg <= 0 {
		return
	}
	if l.cwnd < l.ss { // tcp_slow_start
		w := min(l.cwnd+delivered*seg, l.ss)
		delivered -= (w - l.cwnd) / seg
		l.cwnd = w
		if delivered <= 0 {
			return
		}
	}
	w := max(l.cwnd/seg, 1) // tcp_cong_avoid_ai
	if l.cnt >= w {
		l.cnt = 0
		l.cwnd += seg
	}
	l.cnt += delivered
	if l.cnt >= w {
		d := l.cnt / w
		l.cnt -= d * w
		l.cwnd += d * seg
	}
}

// lossStart begins the loss state's window at a timeout, to the
// ssthresh tcp_enter_loss leaves under each algorithm: the recovery's
// where the timeout came in one (inRecovery: Linux sets none, snd_una is
// below high_seq), the last loss state's where the timer backed off with
// nothing acknowledged since (backoff: icsk_retransmits is not 0); else
// a reduction of the window then: PRR's in RFC 6582's hold (holdCwnd),
// the loss state's own after a new ACK in it, else the line's under that
// algorithm (lineUnder: where steps wait for the vote, each algorithm's
// window differs from the one shown meanwhile). None for
// a sender the episodes showed does not reduce (BBR).
func (b *cwndBuilder) lossStart(inRecovery, backoff bool) {
	seg := b.ep.maxSeg
	v, ok := majorityVote(b.ep.reductionVotes())
	for i := range b.loss {
		l := &b.loss[i]
		if seg <= 0 || ok && v == VoteNone {
			*l = lossState{}
			continue
		}
		w := b.timeoutWindow(i)
		ss := int64(0)
		switch {
		case inRecovery && b.prr[i].on:
			ss = b.prr[i].ss
		case backoff && l.on:
			ss = l.ss
		case b.holdCwnd[i] > 0:
			w = b.holdCwnd[i]
		case l.on:
			w = l.cwnd
		}
		if ss == 0 {
			ss = linuxSsthresh(i, (w+seg/2)/seg) * seg
		}
		*l = lossState{on: true, ss: ss, cwnd: seg}
	}
	b.lossDup, b.lossHigh = 0, b.pp.high
}

// timeoutWindow is the window a timeout reduces under algorithm i
// (Reno's or CUBIC's): the line's (lineUnder), or where no burst measured
// the open window since a fast retransmit's recovery ended, the ssthresh
// Linux set cwnd to at that end (tcp_end_cwnd_reduction), if above it:
// PRR's window, short of ssthresh where the pipe was, is no measure of it
// (k20_cubic_nosack_reverse_l1: the receiver's window held the sender
// after a recovery without SACK left PRR at 80 segments, ssthresh 92;
// the timer 0.29 s later set 64, 0.7 of 92, not 56).
func (b *cwndBuilder) timeoutWindow(i int) int64 {
	w := max(b.lineUnder(i), 0)
	if o := b.open[i]; o.recovered && o.w == 0 && o.ss > 0 {
		w = max(w, o.ss)
	}
	return w
}

// lossAck grows the loss state's window at an ACK (una: the cumulative
// ACK before it, dupacks Linux's count then; delivered: the bytes it
// newly acknowledged or SACKed): only an ACK that moves the cumulative
// ACK raises cwnd (tcp_may_raise_cwnd: FLAG_DATA_ACKED). Without SACK it
// counts the segments it covers less the duplicate ACKs that stood for
// some of them, at least one (tcp_remove_reno_sacks), and Linux counts
// duplicate ACKs in the loss state only once new data went out above
// snd_nxt at the timeout (tcp_process_loss), resetting them at a new ACK.
func (b *cwndBuilder) lossAck(una, delivered int64, dup bool) {
	if !b.loss[0].on && !b.loss[1].on {
		return
	}
	seg := max(b.ep.maxSeg, 1)
	n := (delivered + seg - 1) / seg
	switch {
	case b.pp.una > una && !b.pp.sack:
		n = max((b.pp.una-una+seg-1)/seg-b.lossDup, 1)
		b.lossDup = 0
	case b.pp.una > una:
	case dup && !b.pp.sack && b.pp.high > b.lossHigh:
		b.lossDup++
		return
	default:
		return
	}
	for i := range b.loss {
		b.loss[i].grow(n, seg)
	}
}

// lossStop ends the loss state's window.
func (b *cwndBuilder) lossStop() {
	b.loss[0].on, b.loss[1].on = false, false
}

func newCwnd(o SeriesOptions) graphBuilder {
	other := newCwndBuilder(o)
	other.flip = true
	return &cwndVotes{first: newCwndBuilder(o), other: other}
}

// newCwndBuilder is a builder of the cwnd graph drawn under the vote
// known as the records come (cwndVotes).
func newCwndBuilder(o SeriesOptions) *cwndBuilder {
	f := newFrame(GraphCwnd, o)
	f.g.Y = Axis{Label: "bytes", Unit: "B"}
	f.g.Columns = []string{"bytes"}
	b := &cwndBuilder{f: f, set: seriesSet{thin: o.Thin}, line: -1, rwnd: -1, forced: -1, lastSs: -1, priorSs: -1, priorAt: -1}
	b.open[VoteReno].ca, b.open[VoteCubic].ca = caReno, caCubic
	return b
}

// flush ends a burst: the pipe after it, at its first send, when it
// changed the line.
func (b *cwndBuilder) flush() {
	if !b.burst {
		return
	}
	b.burst = false
	v := b.pp.pipe()
	pipe := v
	rwndHeld := b.haveWin && b.pp.high+b.pp.maxSeg > b.rwndEdge
	if rwndHeld && v < b.line && !b.ep.inEpisode {
		// Held by the receive window (less than a segment left in it):
		// the pipe says nothing of cwnd, which does not fall for it; the
		// window the sender allowed is the smaller of the two. Not in a
		// loss episode: after a timeout the sender resends from the
		// cumulative ACK on, and the window is far above it; in fast
		// recovery cwnd falls whatever held the flight, PRR's window
		// below (k27_reno_rwnd40_l05: held at the 49 KB window through
		// recovery, the line read 27 segments after it for the kernel's
		// 20).
		line := b.line
		if n := len(b.deferred); n > 0 {
			// Steps wait for the algorithm: the line under neither
			// (without SACK it does not fall in recovery) is no window
			// either algorithm kept; the lower of theirs is held, and
			// each one's window after the episode starts at its own
			// ssthresh (openWindow.burst: atSsthresh).
			line = min(line, b.deferred[n-1].vals[VoteReno], b.deferred[n-1].vals[VoteCubic])
		}
		v = max(v, min(line, b.rwnd))
	}

	var opened [3]int64 // the open window's, under each vote
	if !b.ep.inEpisode {
		// The largest of the last two round trips, but never above the
		// receiver's window now, unless the flight is (a window that
		// shrank under the data already out).
		v = max(v, b.rwndAllowed(b.roundMax(b.burstTime, v)))
		opened = [3]int64{v, v, v}
		if !b.prr[0].on && !b.prr[1].on && !b.loss[0].on && !b.loss[1].on {
			for i := range b.open {
				w := b.open[i].burst(b.burstTime, b.pp.pipe(), v, b.pp.high-b.pp.una, b.pp.high, b.pp.una, b.pp.maxSeg, b.rto(), b.atSsthresh(i))
				opened[i] = max(v, b.rwndAllowed(w))
			}
			v = opened[neitherVote]
		}
	} else {
		b.recent = b.recent[:0]
		opened = [3]int64{v, v, v}
	}
	// PRR's window, which the sender did not fill.
	vals := opened
	for i, p := range b.prr {
		if p.on && p.cwnd > v {
			vals[i] = p.cwnd
		}
	}
	for i, l := range b.loss {
		// The loss state's window where the sender did not fill it, no
		// more than the receiver's window allowed.
		w := l.cwnd
		if b.rwnd >= 0 {
			w = min(w, b.rwnd)
		}
		if l.on && w > vals[i] {
			vals[i] = w
		}
	}
	wait := false // the step waits for the algorithm (deferred)
	if vals[0] != v || vals[1] != v || len(b.deferred) > 0 {
		if vote, known := b.knownVote(); known && len(b.deferred) == 0 {
			v = vals[vote]
		} else {
			wait = true
		}
	}
	if v <= 0 {
		return
	}
	if b.f.inTime(b.burstTime) {
		b.lastFrame, b.lastTime = b.burstFrame, b.burstTime
		b.drawBBR(b.burstFrame, b.burstTime, pipe)
	}
	if wait {
		if len(b.deferred) == 0 {
			b.shown = b.line
		}
		b.deferred = append(b.deferred, deferredStep{Point{Frame: b.burstFrame, Time: b.burstTime}, vals})
		b.line = v
		if len(b.deferred) >= maxDeferred {
			b.resolveAs(neitherVote)
		}
		return
	}
	if v != b.line {
		b.drawLine(Point{Frame: b.burstFrame, Time: b.burstTime, V: [3]float64{float64(v)}})
		b.line, b.lineTime = v, b.burstTime
	}
}

// ackWithoutSend: in recovery an ACK that no send followed before the
// next left cwnd where PRR set it then (tcp_cwnd_reduction: the pipe and
// the segments it lets go, which a sender held by the receiver's window
// or the application does not send): the line falls to it at that ACK,
// PRR's window under each algorithm's ssthresh (prrState; without SACK
// its pipe counts each duplicate ACK as a segment delivered, as Linux's
// tcp_add_reno_sack does), and with SACK under neither the pipe, without
// no fall.
//
// Steps waiting for the algorithm (deferred) keep waiting: the fall
// waits with them, under each algorithm's line.
func (b *cwndBuilder) ackWithoutSend() {
	if !b.ackPipeSet {
		return
	}
	if n := len(b.deferred); n > 0 {
		d := deferredStep{p: b.ackPipeAt}
		for i, v := range b.deferred[n-1].vals {
			d.vals[i] = v
			if w := b.ackVals[i]; w > 0 {
				d.vals[i] = min(v, w)
			}
		}
		b.deferred = append(b.deferred, d)
		if len(b.deferred) >= maxDeferred {
			b.resolveAs(neitherVote)
		}
		return
	}
	i := neitherVote
	v, ok := b.knownVote()
	if ok {
		i = v
	}
	if !ok && (b.ackVals[0] != b.ackVals[neitherVote] || b.ackVals[1] != b.ackVals[neitherVote]) && b.line > 0 {
		// The fall differs by algorithm (PRR's window where the
		// receiver's window held the sender): it waits for the vote.
		d := deferredStep{p: b.ackPipeAt}
		for j, w := range b.ackVals {
			d.vals[j] = b.line
			if w > 0 {
				d.vals[j] = min(b.line, w)
			}
		}
		b.shown = b.line
		b.deferred = append(b.deferred, d)
		b.line = d.vals[neitherVote]
		return
	}
	w := b.ackVals[i]
	if w <= 0 || w >= b.line {
		return
	}
	p := b.ackPipeAt
	p.V[0] = float64(w)
	b.drawLine(p)
	b.drawnTo(p)
	b.line, b.lineTime = w, p.Time
}

// emitSsthresh marks the pending episode's ssthresh at its start,
// measured or (guessed) not.
func (b *cwndBuilder) emitSsthresh(v float64, guessed bool) {
	b.pendingBasis.guessed = guessed
	if b.pending {
		p := b.pendingPoint
		p.V[0] = v
		b.set.add(SeriesSsthresh, Steps, p)
		if len(b.ssBasis) < maxEpisodeStarts {
			b.ssBasis = append(b.ssBasis, b.pendingBasis)
		}
		b.lastSs, b.epSsDrawn = v, true
	}
	b.pending = false
}

// undoSsthresh draws, at ACK r where the last episode was proven
// spurious, the ssthresh Linux set on entering it and the one it
// restored. Linux entered recovery (or loss) and set ssthresh, its
// algorithm's reduction of the window then, as at any episode — drawn at
// the episode's start where nothing was measured yet (guessed, as at a
// loss again before the window was seen: crossCheck draws the
// algorithm's value) — and at the undo restored prior_ssthresh where it
// is above (tcp_undo_cwnd_reduction): what tcp_current_ssthresh gave on
// entering, the ssthresh before the episode or three quarters of cwnd
// then if more (kw_reno_jitter4_l05: 12, 8 at the entry, 12 again at
// the undo 15 ms later). Where there was none before (slow start's,
// infinite, which the undo restores), a step line cannot draw it:
// neither is drawn, as before, lest the entry's value last to the next
// episode.
func (b *cwndBuilder) undoSsthresh(r *Record) {
	if b.priorSs < 0 {
		b.pending = false
		return
	}
	if b.pending {
		b.emitSsthresh(b.pendingFallback, true)
	}
	if !b.epSsDrawn || !b.f.inTime(r.Time) {
		return
	}
	v := b.restoredSs(b.pendingBasis.window)
	if v <= b.lastSs { // Linux restores only one above the ssthresh it set
		return
	}
	b.set.add(SeriesSsthresh, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{v}})
	if len(b.ssBasis) < maxEpisodeStarts {
		basis := b.pendingBasis
		basis.kind, basis.prior, basis.priorAt = ssUndone, b.priorSs, b.priorAt
		b.ssBasis = append(b.ssBasis, basis)
	}
	b.lastSs, b.epSsDrawn = v, false
}

// restoredSs is the ssthresh an undo of the last episode restores, the
// window at its start given: Linux's prior_ssthresh, tcp_current_ssthresh
// on entering — the ssthresh before (priorSs; -1 none: infinite, and so
// is the result) or 3/4 of cwnd if more.
func (b *cwndBuilder) restoredSs(window int64) float64 {
	if b.priorSs < 0 {
		return -1
	}
	seg := max(b.ep.maxSeg, 1)
	w := (window + seg/2) / seg
	return max(b.priorSs, float64((w>>1+w>>2)*seg))
}

// ssBasis is what an ssthresh drawn was measured after: the window at
// the loss (the line then) and the episode's kind.
type ssBasis struct {
	window int64
	// under: the line at the loss under Reno's and CUBIC's window, where
	// the vote was not known then (lineUnder): the window the algorithm
	// voted for reduced.
	under [2]int64
	kind  uint8
	// guessed: not measured — no data after the episode before the
	// next loss or the capture's end (half the line at the loss is
	// drawn), recovery entered again at once, or the receive window
	// holding the sender when it was measured.
	guessed bool
	// afterRecovery: a fast retransmit less than the least RTO after
	// the last fast retransmit's recovery ended (see crossCheck);
	// hystart: that recovery's PRR fell into slow start under CUBIC's
	// ssthresh, where HyStart may have lowered it (prrState.slowStart).
	afterRecovery, hystart bool
	// hold: a timeout in RFC 6582's hold, PRR's window there under
	// Reno's and CUBIC's ssthresh (0: none), the window it reduces.
	hold [2]int64
	// prior: for ssUndone, the ssthresh before the episode undone, the
	// point priorAt's (-1: none; computed, restored at a partial undo
	// Linux entered recovery again at).
	prior   float64
	priorAt int
}

const (
	ssFast              = iota // a fast retransmit's
	ssTimeout                  // a timeout's
	ssTimeoutInRecovery        // a timeout in recovery, or the timer backing off: Linux keeps the ssthresh
	ssReentry                  // recovery entered again at once: from the last ssthresh
	ssUndone                   // restored by an undo (undoSsthresh): the one before the episode, or 3/4 of the window then
)

// crossCheck checks each measured ssthresh against the reduction of the
// algorithm most episodes voted for (reductionVotes: Reno's half, CUBIC's
// 717/1024 of the window at the loss in whole segments, at least two;
// after a timeout in recovery the recovery's, which Linux keeps): where
// the measurement is within a segment or 15% of it, the line takes the
// algorithm's value, which the measurement (a flight, one segment's
// granularity, the sender's last burst or growth in it) can only
// approach; elsewhere the measurement stands. Where nothing was measured
// (guessed), and after a timeout (the window restarts from one segment:
// the flight when the episode ends is slow start's, not ssthresh), the
// algorithm's value is drawn; so at a re-entry (recovery entered again
// at once: the window reduced is the last ssthresh, and the flight after
// it, PRR's window freed far below ssthresh at its end and paced out, does
// not measure it); and where a fast retransmit's measurement is below
// Reno's half of the window at the loss by more than a segment and 15%:
// no algorithm reduces that far at a fast retransmit (tcp_init_cwnd_reduction
// sets ssthresh from cwnd, at least the line), so something else held
// the sender after it — the application (kz_cubic_app2m_l05: kernel 115
// then 80, the flight after 43), the receiver's window, pacing.
//
// Where no algorithm is named (unknown: the episodes' cuts, at windows of
// a few segments, do not tell Reno's half from CUBIC's 0.7), a value both
// algorithms' checks give is drawn: whichever the sender ran, Linux set
// it (kc_36ms_1m_q4k_nosack, a CUBIC sender named unknown: windows of 3
// and 4 segments, the kernel's ssthresh 2 under both rules, the flight
// measured 3).
func (b *cwndBuilder) crossCheck(g *Graph, vote int) {
	ss := g.lookup(SeriesSsthresh)
	if ss != nil {
		ss.unpack()
	}
	if ss == nil || ss.Unthinned > 0 || len(ss.Points) != len(b.ssBasis) || b.ep.maxSeg <= 0 {
		return
	}
	if vote == VoteReno || vote == VoteCubic {
		for i, v := range b.checkedSsthresh(ss.Points, vote) {
			ss.Points[i].V[0] = v
		}
		return
	}
	reno, cubic := b.checkedSsthresh(ss.Points, VoteReno), b.checkedSsthresh(ss.Points, VoteCubic)
	for i := range ss.Points {
		if reno[i] == cubic[i] {
			ss.Points[i].V[0] = reno[i]
		}
	}
}

// checkedSsthresh is crossCheck's value for each ssthresh point under
// vote (Reno or CUBIC).
func (b *cwndBuilder) checkedSsthresh(points []Point, vote int) []float64 {
	seg := b.ep.maxSeg
	prev, prevWant := -1.0, -1.0
	final := make([]float64, 0, len(points)) // each point's value, checked
	for i := range points {
		p, basis := points[i], b.ssBasis[i]
		w := (basis.window + seg/2) / seg
		if u := basis.under[vote]; u > 0 {
			w = (u + seg/2) / seg
		}
		if basis.kind == ssUndone {
			// Linux's prior_ssthresh (undoSsthresh): the ssthresh before
			// the episode, or 3/4 of the window at its start if more.
			prior := basis.prior
			if basis.priorAt >= 0 && basis.priorAt < len(final) {
				prior = final[basis.priorAt]
			}
			p.V[0] = max(prior, prev, float64((w>>1+w>>2)*seg))
			prev, prevWant = p.V[0], p.V[0]
			final = append(final, p.V[0])
			continue
		}
		if basis.kind == ssReentry && prev > 0 {
			w = (int64(prev) + seg/2) / seg // the window it reduces is the last ssthresh
		}
		// Soon after a recovery the window at the loss was at least the
		// ssthresh the algorithm set for it (Linux's cwnd when it ended):
		// where the line was below it the sender did not fill its
		// window, nor will the flight after this episode measure the
		// next ssthresh — unless CUBIC's HyStart may have lowered that
		// ssthresh in the recovery (ssBasis.hystart).
		floor := (int64(prevWant) + seg/2) / seg
		held := basis.kind == ssFast && basis.afterRecovery && !(vote == VoteCubic && basis.hystart) && prevWant > 0 && floor > w
		if held {
			w = floor
		}
		if h := (basis.hold[vote] + seg/2) / seg; basis.kind == ssTimeout && h > w {
			w = h
		}
		want := float64(linuxSsthresh(vote, w) * seg)
		keep := basis.kind == ssTimeoutInRecovery && prev > 0
		if keep {
			want = prev
		}
		// A measurement short of the algorithm's reduction (Reno's half
		// where CUBIC's HyStart may have lowered ssthresh in the
		// recovery before) measured something else holding the sender.
		ref := float64(linuxSsthresh(VoteReno, w) * seg)
		if vote == VoteCubic && !basis.hystart {
			ref = want
		}
		short := basis.kind == ssFast && p.V[0] < ref-max(float64(seg), 0.15*ref)
		if keep || held || short || basis.kind == ssReentry && prev > 0 || w >= 2 && (basis.guessed || basis.kind == ssTimeout || basis.kind == ssTimeoutInRecovery || math.Abs(p.V[0]-want) <= max(float64(seg), 0.15*want)) {
			p.V[0] = want
		}
		prev, prevWant = p.V[0], want
		final = append(final, p.V[0])
	}
	return final
}

type timedValue struct{ t, v int64 }

// drawLine adds a step of the cwnd line at p. The line follows the whole
// capture; where a time window is drawn (--from, --to) only what it shows
// is drawn, the step in force at its start first, and the last step drawn
// lasts to the window's last send (see graph): the window shows the line
// the whole graph has there.
func (b *cwndBuilder) drawLine(p Point) {
	if !b.f.inTime(p.Time) {
		if r := b.f.o.Time; r.HasMin && p.Time-b.f.start < r.Min {
			b.before, b.hasBefore = p, true
		}
		return
	}
	if b.hasBefore {
		b.set.add(SeriesCwnd, Steps, b.before)
		b.hasBefore = false
	}
	b.set.add(SeriesCwnd, Steps, p)
	b.drawn, b.drawnAt = p, true
}

// drawnTo marks p, inside the time window, as the line's last moment
// drawn so far (lastFrame, lastTime).
func (b *cwndBuilder) drawnTo(p Point) {
	if b.f.inTime(p.Time) {
		b.lastFrame, b.lastTime = p.Frame, p.Time
	}
}

// rto is the sender's retransmission timeout as Linux sets it from the
// latest RTT (rtoOf).
func (b *cwndBuilder) rto() int64 { return rtoOf(b.rtt()) }

// rtt is the latest RTT (RACK's), else the least.
func (b *cwndBuilder) rtt() int64 {
	if b.pp.rackRTT > 0 {
		return b.pp.rackRTT
	}
	return b.pp.minRTT
}

// openReset starts the open window again at a loss episode's start, with
// the ssthresh it set under Reno's and CUBIC's reduction (PRR's, or the
// loss state's after a timeout); none under neither's, or for a sender
// that does not reduce (BBR). CUBIC's curve starts from PRR's window at
// the loss (openWindow.reset).
func (b *cwndBuilder) openReset() {
	for i := range b.open {
		ss, w := int64(0), int64(0)
		switch {
		case i == neitherVote:
		case b.prr[i].on:
			ss, w = b.prr[i].ss, b.prr[i].prior
		case b.loss[i].on:
			ss = b.loss[i].ss
		}
		b.open[i].reset(ss, w, b.ep.maxSeg, b.loss[i%2].on)
	}
}

// lineUnder is the line's value under algorithm i (Reno's, CUBIC's,
// neither's): the last step waiting for the vote, where one waits (the
// open window grew differently under each: openWindow.avoid), else the
// line.
func (b *cwndBuilder) lineUnder(i int) int64 {
	if n := len(b.deferred); n > 0 {
		return b.deferred[n-1].vals[i]
	}
	return b.line
}

// linesUnder is the line's value under Reno's and CUBIC's window
// (lineUnder), at least 0.
func (b *cwndBuilder) linesUnder() [2]int64 {
	return [2]int64{max(b.lineUnder(VoteReno), 0), max(b.lineUnder(VoteCubic), 0)}
}

// atSsthresh tells whether, under algorithm i, the open window after a
// fast retransmit's episode starts at its ssthresh, Linux's cwnd then
// (tcp_end_cwnd_reduction), rather than at the first burst after it
// (openWindow.burst), which falls short wherever something held the
// sender — the receiver's window, an end that left nothing outstanding,
// pacing (the window jumps from PRR's to ssthresh and is paced out over
// the round trip: kh_reno_1m_3pct; kf_100ms_8m_q60k_l1, CUBIC, 60
// segments in the first burst for Linux's 80, the next cut 0.7 of 80) —
// under Reno and CUBIC alike; under neither there is no ssthresh.
// CUBIC's HyStart runs in recovery where PRR's window fell under
// ssthresh (prrState.slowStart) and could lower ssthresh to it, but none
// of the 112 kernel runs on this machine did (HyStart's round, begun
// before the loss, ends only when the cumulative ACK passes it);
// measuring the burst there cost kf_100ms_8m_q60k_l1 ssthresh 82% of 17
// (100% at ssthresh), k10_cubic_app2m_l07 and kw_cubic_sack_l2 2 points
// of cwnd.
func (b *cwndBuilder) atSsthresh(i int) bool {
	return i < neitherVote
}

// priorsAtLoss is the window a fast retransmit reduces under Reno's and
// CUBIC's growth: the line's (linesUnder), or where the receiver's window
// held the sender below it, the open window (openWindow): Linux's cwnd
// grew past the flight there, in slow start up to twice it
// (tcp_is_cwnd_limited), and tcp_init_cwnd_reduction takes its ssthresh
// from that cwnd (kz_cubic_rwnd32: 54 segments, 27 in flight, ssthresh 37);
// or, by a segment at most, the window Reno's growth reached at ACKs the
// flight has not shown yet (openWindow.unseen).
func (b *cwndBuilder) priorsAtLoss() [2]int64 {
	w := b.linesUnder()
	for i := range w {
		if u := b.open[i].unseen; u > w[i] && u <= w[i]+b.ep.maxSeg {
			w[i] = u
		}
		if b.rwnd >= 0 && b.open[i].w > b.rwnd {
			w[i] = max(w[i], b.open[i].w)
		}
	}
	return w
}

// rwndAllowed is the window w no more than the receiver's last window.
func (b *cwndBuilder) rwndAllowed(w int64) int64 {
	if b.rwnd >= 0 {
		return min(w, b.rwnd)
	}
	return w
}

// openAck grows the window outside recovery at ACK r, which delivered
// delivered bytes (openWindow.ack; above: it SACKs data above the ACK,
// epAck's), and draws it there when it rose
// above the line; where steps wait for the vote, a step more, so the
// line under each algorithm at a loss (lineUnder) has the growth of the
// ACKs since the last send (congestion avoidance's while the sender,
// window-limited a round before, drains what it sent).
func (b *cwndBuilder) openAck(r *Record, delivered int64, above bool) {
	var ws [3]int64
	for i := range b.open {
		ws[i] = b.rwndAllowed(b.open[i].ack(r.Time, delivered, b.pp.maxSeg, above))
	}
	vote, known := b.knownVote()
	if !known {
		vote = neitherVote
	}
	w := ws[vote]
	if b.line < 0 {
		return
	}
	if n := len(b.deferred); n > 0 {
		// Steps wait for the vote: one more where the window under
		// some algorithm rose above the line under it (lineUnder).
		d := deferredStep{p: Point{Frame: r.Frame, Time: r.Time}, vals: b.deferred[n-1].vals}
		for i, wi := range ws {
			d.vals[i] = max(d.vals[i], wi)
		}
		if d.vals != b.deferred[n-1].vals && n < maxDeferred {
			b.deferred = append(b.deferred, d)
			b.line = d.vals[neitherVote]
		}
		return
	}
	if !known && (ws[0] != w || ws[1] != w) && max(ws[0], ws[1], w) > b.line {
		// The windows differ by algorithm (the ssthresh of the last
		// episode): the step waits for the vote.
		d := deferredStep{p: Point{Frame: r.Frame, Time: r.Time}}
		for i, wi := range ws {
			d.vals[i] = max(b.line, wi)
		}
		b.shown = b.line
		b.deferred = append(b.deferred, d)
		b.line = d.vals[neitherVote]
		return
	}
	if w <= b.line {
		return
	}
	p := Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(w)}}
	b.drawLine(p)
	b.drawnTo(p)
	b.line, b.lineTime = w, r.Time
	b.recent = append(b.recent[:0], timedValue{r.Time, w})
}

// roundMax adds the burst value v at time t and gives the largest of the
// last two round trips (of the latest RTT sample).
func (b *cwndBuilder) roundMax(t, v int64) int64 {
	rtt := 2 * max(b.pp.rackRTT, b.pp.minRTT)
	q := b.recent
	for len(q) > 0 && q[len(q)-1].v <= v {
		q = q[:len(q)-1]
	}
	q = append(q, timedValue{t, v})
	i := 0
	for i < len(q)-1 && q[i].t < t-rtt {
		i++
	}
	if i > 0 {
		q = append(q[:0], q[i:]...)
	}
	b.recent = q
	return q[0].v
}

func (b *cwndBuilder) add(r *Record) {
	f, o := b.f, &b.f.o
	b.handshake(r)
	b.lastRec = Point{Frame: r.Frame, Time: r.Time}
	if r.Dir == o.Dir.Reverse() && r.Flags&(reassembly.SYN|reassembly.FIN|reassembly.RST) == 0 {
		b.rwnd = r.Window // the receiver's last window, as the summary's
	}
	if r.Dir == o.Dir {
		if r.Len == 0 || r.Info.Flags&CaptureDuplicate != 0 {
			return
		}
		n := int64(r.Len)
		end := r.Seq + n
		b.arrived(r, n)
		b.wasIn = b.ep.inEpisode
		var ev episodeEvent
		if r.Info.Path != PathReordered { // a late original is no resend (as the statistics')
			ev = b.ep.data(r.Seq, end, r.Info.BytesInFlight, r.Info.Flags, r.TSVal, r.HasTS, r.Time, r.IPID)
		} else {
			b.ep.lateOriginal()
		}
		if ev.start {
			b.flush() // the sends before a timeout are a burst of their own
			if !ev.fast {
				b.holdCwnd = [2]int64{}
				if !b.wasIn && b.ep.renoHold {
					// PRR's window in the hold, under either algorithm:
					// the one the timeout reduces (tcp_enter_loss).
					for i, p := range b.prr {
						if p.on {
							b.holdCwnd[i] = p.cwnd
						}
					}
				}
				b.lossStart(b.wasIn && b.epFast, b.wasIn && !b.epFast && b.lastAckSeq == b.epAck)
				b.pp.timeout(!b.wasIn)
				b.prrStop()
			} else {
				b.prrStart(b.priorsAtLoss())
			}
			b.episode(r, ev.fast, b.pendingFallback, true)
			if ev.unseen {
				// Begun before the capture: no mark, no ssthresh
				// (lossEpisodes.joinUnseen).
				b.hasMark, b.pending = false, false
			}
		}
		if ev.probe && b.f.inTime(r.Time) {
			b.set.add(SeriesTLP, Marks, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(max(b.line, 0))}})
		}
		b.probeRTT.data(r.Time, n, r.Info.BytesInFlight, b.rwnd, r.Info.Flags&Retransmission != 0, b.ackRTTMin)
		kind, from, rwndFrom := b.held.data(r.Time, n, r.Info.BytesInFlight, b.rwnd, ev.start, b.ep.inEpisode,
			r.Info.Flags&Retransmission != 0, b.newAckSeen, b.lastNewAck, b.ackRTTMin)
		now := Point{Frame: r.Frame, Time: r.Time}
		switch {
		case rwndFrom > 0: // the window until an ACK made room, then the application
			room := Point{Frame: b.held.roomFrame, Time: from}
			b.hold(heldRwnd, Point{Frame: b.lastDataFrame, Time: rwndFrom}, room)
			b.hold(heldApp, room, now)
		case kind == heldApp: // since the ACK that made room
			b.hold(kind, Point{Frame: b.lastNewAckFrame, Time: from}, now)
		default: // since the last data segment
			b.hold(kind, Point{Frame: b.lastDataFrame, Time: from}, now)
		}
		b.lastDataFrame = r.Frame
		b.moveState(r)
		if ev.start {
			b.openReset()
		}
		for i := range b.open {
			b.open[i].send(r.Time, b.pp.high-b.pp.una, b.ep.maxSeg, b.rto())
		}
		b.pp.data(r.Seq, end, r.Time)
		for i := range b.prr {
			b.prr[i].out += n
		}
		if !b.burst {
			b.burst, b.burstFrame, b.burstTime = true, r.Frame, r.Time
		}
		b.ackPipeSet = false
		return
	}
	if r.Dir != o.Dir.Reverse() || !r.HasAck || r.Flags&reassembly.SYN != 0 {
		return
	}
	if r.HasTS && (len(b.tsSent) == 0 || int32(int64(r.TSVal)-b.tsSent[len(b.tsSent)-1].v) > 0) && len(b.tsSent) < 1<<16 {
		b.tsSent = append(b.tsSent, timedValue{r.Time, int64(r.TSVal)})
	}
	if !b.burst {
		b.ackWithoutSend()
	}
	b.flush()
	if r.Window >= 0 && r.Flags&reassembly.RST == 0 && f.inTime(r.Time) {
		b.set.add(SeriesAdvertised, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(r.Window)}})
	}
	dup := r.Info.Flags&DupAck != 0
	var a epAck
	a.set(r.Ack, r.SACK[:r.NSACK], dup, r.SACKCut, r.TSEcr, r.HasTS, r.Time, b.ackRTTMin, r.Window)
	b.rateSample(r.Frame, r.Time)
	wasIn := b.ep.inEpisode
	ev := b.ep.ack(&a)
	if wasIn && !b.ep.inEpisode && !b.epFast && b.line > 0 {
		// A timeout's episode ended: Linux leaves its loss state with
		// cwnd as slow start grew it there (tcp_process_loss,
		// tcp_try_undo_recovery: no reduction at the end, unlike
		// recovery's tcp_end_cwnd_reduction), so the line's last value
		// is one of the last round trips' windows (roundMax).
		b.recent = append(b.recent[:0], timedValue{r.Time, b.line})
	}
	if ev.silentEnter {
		b.silentAt = Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(max(b.line, 0))}}
	}
	if ev.silentUndo {
		// A recovery Linux entered and undid with nothing resent
		// (lossEpisodes.silentRec): its mark, undone, where it began;
		// the window and ssthresh stay as they were (Linux restores
		// them).
		b.drawMark()
		if b.f.inTime(b.silentAt.Time) {
			b.set.add(SeriesFastLoss, Marks, b.silentAt)
			b.set.add(SeriesUndoneLoss, Marks, b.silentAt)
		}
	}
	if ev.undone {
		b.markUndone = true
		b.undoSsthresh(r)
	}
	if ev.partial {
		b.partialUndo(r, ev.start)
	}
	b.settle(ev)
	if len(b.deferred) > 0 {
		if _, ok := b.knownVote(); ok {
			b.resolve()
		}
	}
	if ev.start && !ev.partial {
		// Recovery again at once: the last episode's window is the one
		// recovery brought the sender to (PRR ends at ssthresh), not
		// measured (nothing was sent after it): where PRR did not reach
		// ssthresh the pipe is below it. The new episode reduces from
		// that ssthresh (Linux's cwnd when it re-enters).
		b.episode(r, true, float64(max(b.line, 0)), true)
		b.pendingBasis.kind = ssReentry
		b.settledAtAck = true
		b.prrStart(b.linesUnder())
		b.openReset()
	}
	delivered, lost := b.pp.delivered, b.pp.lostBytes
	marks, dupacks, una := b.pp.sackMarks, b.pp.dupacks, b.pp.una
	var endVals [3]int64 // the fall to ssthresh where this ACK ends a recovery (endReduction)
	endFall := false
	b.pp.ack(r.Ack, r.SACK[:r.NSACK], dup, b.ep.inEpisode, sackCut{r.SACKCut, r.SACKPart, r.SACK[min(r.NSACK, len(r.SACK)-1)]}, r.Time)
	// Without SACK Linux holds recovery after an ACK of exactly its
	// end (RFC 6582; lossEpisodes.renoHold), PRR still setting cwnd at
	// each ACK (tcp_cwnd_reduction while tcp_in_cwnd_reduction).
	hold := b.ep.renoHold && b.epFast && !b.pp.sack
	if hold && !b.ep.inEpisode {
		// Each ACK in the hold resets Linux's count of duplicate ACKs
		// (tcp_reset_reno_sack, tcp_try_undo_recovery returning before
		// tcp_add_reno_sack): one there delivers nothing, nor lowers the
		// pipe.
		b.pp.dupacks = 0
	}
	// The loss state's hold likewise (tcp_process_loss: recovered,
	// tcp_try_undo_recovery keeps it while snd_una is high_seq, and
	// returns before tcp_add_reno_sack): its window stays, duplicate
	// ACKs there count for nothing.
	lossHold := b.ep.renoHold && !b.epFast && !b.pp.sack && !b.ep.inEpisode
	if lossHold {
		b.pp.dupacks = 0
	}
	b.lossAck(una, b.pp.delivered-delivered, dup && !lossHold)
	if !b.ep.inEpisode && !lossHold && (b.loss[0].on || b.loss[1].on) {
		// The loss state ended at this ACK: the line keeps the window
		// it grew to (see the end of a timeout's episode above).
		if v, ok := b.knownVote(); ok && len(b.deferred) == 0 && b.loss[v].cwnd > b.line {
			b.recent = append(b.recent[:0], timedValue{r.Time, b.loss[v].cwnd})
		}
		b.lossStop()
	}
	if (!b.ep.inEpisode || !b.epFast) && !hold {
		if !b.ep.inEpisode && b.epFast && !ev.start && !ev.undone && !ev.partial && !b.markUndone {
			endVals, endFall = b.endReduction()
		}
		b.prrStop()
	} else if !b.pp.sack {
		// Linux counts a duplicate ACK as one segment delivered, and a
		// new ACK as those it covers less those the duplicates stood
		// for, at least one (tcp_add_reno_sack, tcp_remove_reno_sacks).
		newly := int64(0)
		switch {
		case b.pp.una > una:
			newly = max(b.pp.delivered-delivered-dupacks*b.pp.maxSeg, b.pp.maxSeg)
		case b.pp.dupacks > dupacks:
			newly = b.pp.maxSeg
		}
		b.prrAck(newly, b.pp.pipe(), b.pp.una > una)
	} else {
		// With SACK what the ACK newly acknowledged or SACKed
		// (tcp_cwnd_reduction's newly_acked_sacked), for PRR's window
		// where the receiver's window holds the sender (see below).
		b.prrAck(b.pp.delivered-delivered, b.pp.pipe(), b.pp.una > una)
	}
	progress := b.pp.una > una || b.pp.reorderingHigh() && b.pp.delivered > delivered
	if progress && !b.ep.inEpisode && !hold && !lossHold && !b.prr[0].on && !b.prr[1].on && !b.loss[0].on && !b.loss[1].on {
		// Linux raises cwnd only at an ACK of new data
		// (tcp_may_raise_cwnd: FLAG_DATA_ACKED), by what it acknowledged
		// or SACKed (tcp_cong_control's acked_sacked); once its degree of
		// reordering is above the default (senderPipe.reordering) at any
		// ACK of forward progress, a new SACK too (FLAG_FORWARD_PROGRESS:
		// k32_cubic_rwnd48_l1_j2, jittered, its cwnd 52 to 65 in disorder
		// on SACKs alone, ssthresh 45 where the line grew only to 52).
		newly := b.pp.delivered - delivered
		if !b.pp.sack {
			// Without SACK what the duplicate ACKs stood for was counted
			// delivered at them (tcp_add_reno_sack), where cwnd did not
			// grow: a new ACK delivers the rest, at least a segment
			// (tcp_remove_reno_sacks).
			newly = max(newly-dupacks*b.pp.maxSeg, b.pp.maxSeg)
		}
		b.openAck(r, newly, a.above)
	}
	if !b.ep.inEpisode {
		for i := range b.open {
			b.open[i].hystart(r.Time, r.Ack, b.pp.high, r.Info.AckRTT, b.pp.maxSeg)
		}
	}
	b.disorderAfter(dup, b.pp.sackMarks > marks, a.above)
	b.bbrAck(r.Time, b.pp.delivered-delivered, b.pp.lostBytes-lost, b.ep.inEpisode && !b.bbrInEp, b.bbrInEp && !b.ep.inEpisode)
	b.bbrInEp = b.ep.inEpisode
	b.ackPipeSet, b.ackPipeAt = b.ep.inEpisode && b.pp.sack, Point{Frame: r.Frame, Time: r.Time}
	if b.ackPipeSet {
		pipe := b.pp.pipe()
		b.ackVals = [3]int64{pipe, pipe, pipe}
		// PRR's cwnd is the pipe and what it lets go (tcp_cwnd_reduction:
		// sndcnt, from prr_delivered − prr_out), which grows by what the
		// ACKs deliver while nothing goes out — the receiver's window full
		// (tcp_snd_wnd_test), or the application with nothing to send —
		// up to ssthresh, where Linux leaves it when recovery ends
		// (tcp_end_cwnd_reduction). A sender that could send sends it
		// before the next ACK; one that did not was held.
		for i, p := range b.prr {
			if p.on && p.cwnd > pipe {
				b.ackVals[i] = p.cwnd
			}
		}
	} else if b.prr[0].on || b.prr[1].on {
		// Without SACK the pipe alone is too coarse (Linux's count of
		// duplicate ACKs is not the pipe's): PRR's window.
		b.ackPipeSet = true
		b.ackVals = [3]int64{max(b.prr[0].cwnd, 0), max(b.prr[1].cwnd, 0), 0}
	}
	if endFall {
		// The recovery ended at this ACK with PRR's window above
		// ssthresh: the line falls to it if no send follows before the
		// next ACK (ackWithoutSend; a send measures the window).
		b.ackPipeSet, b.ackVals, b.ackPipeAt = true, endVals, Point{Frame: r.Frame, Time: r.Time}
	}
	if r.Window >= 0 {
		b.rwndEdge, b.haveWin = r.Ack+r.Window, true
	}
	if r.Info.AckRTT >= 0 && (b.ackRTTMin == 0 || r.Info.AckRTT < b.ackRTTMin) {
		b.ackRTTMin = r.Info.AckRTT
	}
	b.held.ack(r.Time, r.Frame, b.pp.high-r.Ack, r.Window, !b.newAckSeen || r.Ack > b.lastAckSeq, wasIn)
	if !b.newAckSeen || r.Ack > b.lastAckSeq {
		b.newAckSeen, b.lastNewAck, b.lastAckSeq, b.lastNewAckFrame = true, r.Time, r.Ack, r.Frame
	}
	b.moveState(r)
}

// partialUndo follows Linux at a partial ACK that undid a fast
// retransmit's reduction without SACK (lossEpisodes.partialUndo): the
// window goes back to the one before the episode (tcp_undo_cwnd_reduction:
// prior_cwnd). Where the tracker found recovery entered again at once
// (reenter: lossEpisodes.reentersAfterUndo, tcp_newreno_mark_lost then
// tcp_enter_recovery), a new fast-retransmit episode reduces from that
// window again, PRR restarted; else Linux left recovery, the episode
// undone and the line at the window restored.
func (b *cwndBuilder) partialUndo(r *Record, reenter bool) {
	prior := max(b.line, 0)
	if b.prr[0].on {
		prior = b.prr[0].prior
	}
	if reenter {
		// Linux restored prior_ssthresh here, then entered recovery
		// again from it: the one the next undo restores (undoSsthresh).
		restored := b.restoredSs(b.pendingBasis.window)
		b.episode(r, true, b.pendingFallback, true)
		b.priorSs, b.priorAt = restored, -1
		b.pendingBasis.window, b.pendingBasis.under = prior, [2]int64{prior, prior} // the ssthresh of the window restored
		b.pendingFallback = float64(max(prior/2, 2*b.ep.maxSeg))
		b.prrStart([2]int64{prior, prior})
		return
	}
	b.markUndone = true
	if _, known := b.knownVote(); !known && len(b.deferred) > 0 {
		// Steps wait for the vote: the window restored waits with them,
		// each algorithm's PRR's prior (under neither the line's).
		d := deferredStep{p: Point{Frame: r.Frame, Time: r.Time}, vals: b.deferred[len(b.deferred)-1].vals}
		for i, p := range b.prr {
			if p.on {
				d.vals[i] = max(d.vals[i], p.prior)
			}
		}
		d.vals[neitherVote] = max(d.vals[neitherVote], prior)
		b.prrStop()
		b.deferred = append(b.deferred, d)
		b.line = d.vals[neitherVote]
		if len(b.deferred) >= maxDeferred {
			b.resolveAs(neitherVote)
		}
		b.recent = append(b.recent[:0], timedValue{r.Time, b.line})
		return
	}
	b.prrStop()
	if prior > b.line {
		b.resolve()
		p := Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(prior)}}
		b.drawLine(p)
		b.drawnTo(p)
		b.line, b.lineTime = prior, r.Time
	}
	b.recent = append(b.recent[:0], timedValue{r.Time, max(b.line, prior)})
}

// endReduction follows Linux at an ACK that ended a fast retransmit's
// recovery: cwnd is set to ssthresh (tcp_end_cwnd_reduction), where PRR's
// window was above it too. Without SACK PRR's window is the flight less
// the segments the duplicate ACKs stand for plus what it lets go, which
// can stay far above ssthresh to the end where the recovery sent new data
// (kx_cubic_nosack_200ms_l1: 63 segments at the end, ssthresh 39); the
// flight then exceeds the window and nothing is sent that would measure
// it. It gives the line's value under Reno's PRR and CUBIC's, lowered to
// their ssthresh (none under neither: no fall), and whether one fell;
// the line falls to it at that ACK where no send follows before the next
// (ackWithoutSend), under the vote known or with the steps that wait for
// it — none where no vote is known and none waits (the line is then the
// pipe's, whatever the algorithm; BBR's never is). Where PRR's window is
// below ssthresh the sender paces the jump out and the first burst after
// the end measures it (atSsthresh).
func (b *cwndBuilder) endReduction() (ws [3]int64, fall bool) {
	if _, known := b.knownVote(); !known && len(b.deferred) == 0 || b.line < 0 {
		return ws, false
	}
	for i := range ws[:neitherVote] {
		if p := b.prr[i]; p.on && p.ss > 0 && b.lineUnder(i) > p.ss {
			ws[i], fall = p.ss, true
		}
	}
	return ws, fall
}

// disorderAfter follows Linux's open and disorder states at an ACK (a
// duplicate, one that SACKed new data, one with SACKed data above it):
// an ACK that is neither of the first two is not looked at in open
// (tcp_ack_is_dubious), so SACKed data outstanding alone does not leave
// it; in disorder, the state holds while SACKed data is outstanding
// (tcp_try_to_open's left_out), without SACK while duplicate ACKs came
// since the last new one.
func (b *cwndBuilder) disorderAfter(dup, newlySACKed, above bool) {
	if !b.disorder {
		b.disorder = dup || newlySACKed
		return
	}
	if b.pp.sack {
		b.disorder = above
	} else {
		b.disorder = b.ep.signals > 0
	}
}

// moveState follows the congestion state after record r: recovery or
// loss in an episode (by its kind), disorder with duplicate ACKs or SACK
// blocks since the last new ACK, else open; the band of the state left
// is drawn.
func (b *cwndBuilder) moveState(r *Record) {
	s := ""
	switch {
	case b.ep.inEpisode && b.epFast:
		s = SeriesRecovery
	case b.ep.inEpisode:
		s = SeriesLossState
	case b.disorder:
		s = SeriesDisorder
	}
	if s == b.state {
		return
	}
	to := Point{Frame: r.Frame, Time: r.Time}
	b.band(b.state, b.stateFrom, to)
	b.state, b.stateFrom = s, to
}

// band draws a band of series name from one point to another, when the
// graph's time window holds some of it.
func (b *cwndBuilder) band(name string, from, to Point) {
	if name == "" || !(b.f.inTime(from.Time) || b.f.inTime(to.Time)) {
		return
	}
	b.set.add(name, Spans, from)
	b.set.add(name, Spans, to)
}

// hold extends the window-unknown band by what held the sender from start
// until end (senderHeld): holds of one kind less than a round trip apart
// are one band.
func (b *cwndBuilder) hold(kind heldKind, start, end Point) {
	if kind == heldNo {
		return
	}
	if kind == b.heldKind && start.Time-b.heldTo.Time <= max(b.ackRTTMin, b.pp.minRTT) {
		b.heldTo = end
		return
	}
	b.endHold()
	b.heldKind, b.heldFrom, b.heldTo = kind, start, end
}

// endHold draws the open window-unknown band.
func (b *cwndBuilder) endHold() {
	switch b.heldKind {
	case heldRwnd:
		b.band(SeriesRwndHeld, b.heldFrom, b.heldTo)
	case heldApp:
		b.band(SeriesAppHeld, b.heldFrom, b.heldTo)
	}
	b.heldKind = heldNo
}

// bwMark is an ACK's time and the bytes delivered by then.
type bwMark struct{ t, delivered int64 }

// maxBWMarks bounds cwndBuilder.bwMarks: the ACKs of a round trip, far
// more than any window's (Linux's cwnd clamp is 10,000 segments).
const maxBWMarks = 1 << 16

// rateSample takes, at each ACK, the delivery rate over the round trip
// (the least RTT) before it, as Linux's rate samples span one (the best
// of a round: a fixed round's mean reads BBR's bandwidth, and its BDP,
// about a tenth low, and its drain never ends: k15_bbr_lossless_40ms);
// keeps each round's best, and follows BBR's startup: it ends once
// three rounds in a row grew the largest rate by less than a quarter.
func (b *cwndBuilder) rateSample(frame, now int64) {
	rtt := max(b.pp.minRTT, 1e6)
	if n := len(b.bwMarks); n > 0 && now < b.bwMarks[n-1].t || n >= maxBWMarks {
		// The capture's clock stepped back (the marks before it would
		// hold every one after until it caught up), or ACKs too many
		// for a round trip: the rate starts again from here.
		b.bwMarks, b.bwRoundBest, b.bwStart = b.bwMarks[:0], 0, 0
	}
	b.bwMarks = append(b.bwMarks, bwMark{now, b.pp.rated})
	i := 0
	for i+1 < len(b.bwMarks) && b.bwMarks[i+1].t <= now-rtt {
		i++
	}
	b.bwMarks = b.bwMarks[i:]
	if m := b.bwMarks[0]; m.t <= now-rtt && now > m.t {
		b.bwRoundBest = max(b.bwRoundBest, float64(b.pp.rated-m.delivered)/float64(now-m.t))
	}
	switch {
	case b.bwStart == 0:
		b.bwStart, b.bwDelivered = now, b.pp.rated
	case now-b.bwStart >= rtt:
		b.bw[b.bwN%len(b.bw)] = max(b.bwRoundBest, float64(b.pp.rated-b.bwDelivered)/float64(now-b.bwStart))
		if b.f.inTime(now) {
			// Each round's rate in the graph's unit: the bytes it
			// delivers in the least RTT, against the window (and, in
			// BBR's view, the BDP: the largest of ten of them).
			b.set.add(SeriesDelivery, Steps, Point{Frame: frame, Time: now, V: [3]float64{b.bw[b.bwN%len(b.bw)] * float64(b.pp.minRTT)}})
		}
		b.bwRoundBest = 0
		b.bwN++
		b.bwStart, b.bwDelivered = now, b.pp.rated
		bw := slices.Max(b.bw[:min(b.bwN, len(b.bw))])
		b.bdp = int64(bw * float64(b.pp.minRTT))
		if bw >= 1.25*b.fullBW {
			b.fullBW, b.fullRounds = bw, 0
		} else if b.fullRounds++; b.fullRounds >= 3 {
			b.bwFull = true
		}
	}
}

// bbrAck moves BBR's window (Linux's BBR v1, bbr_set_cwnd) on an ACK
// that delivered acked bytes and had lost ones deemed lost: towards
// 2/ln 2 times the BDP in startup and while the queue it built drains
// (bbr_check_drain: until the pipe is down to a quarter above the BDP
// and three segments), twice it after, and three TSO goals above either
// (tsoGoal); up by no more than acked a time, and once the
// bandwidth stopped growing down to that target at once (min(cwnd +
// acked, target): kn_bbr_loss's 500 segments after its drain, where a
// window that never fell read 700); packet conservation for the first
// round of loss recovery (the pipe, no less), the window from before
// restored when it ends; four segments in ProbeRTT (the pipe down to
// four once the least RTT has not fallen for probeRTTAfter), the window
// before it restored after.
func (b *cwndBuilder) bbrAck(now, acked, lost int64, entered, left bool) {
	if b.bwN == 0 || b.pp.minRTT == 0 {
		return
	}
	pipe := b.pp.pipe()
	if b.bwFull && 4*pipe <= 5*b.bdp+12*b.pp.maxSeg {
		// Drained: the pipe within a quarter of the BDP (and three
		// segments) — Linux compares with its own max-filtered rate,
		// which ours reads a few percent low: at the BDP exactly, a
		// drain the kernel ended would go on by a hair
		// (k19_bbr_lossless_q500k: the pipe down to 104 KB against 101
		// KB and three segments; 81.2% -> 91.0% of its probes), and
		// the pipe falls through the quarter within a round trip.
		b.bbrDrained = true
	}
	gain := 2.0
	if !b.bbrDrained {
		gain = 2 / math.Ln2
	}
	target := int64(gain*float64(b.bdp)) + 3*b.tsoGoal()
	w := max(b.bbrW-lost, b.pp.maxSeg)
	switch {
	case b.bbrW == 0:
		w = max(pipe, target/2)
	case entered:
		b.bbrPrior, b.bbrConserve = b.bbrW, now+b.pp.minRTT
		w = pipe + acked
	case left:
		w = max(w, min(b.bbrPrior, target))
	}
	switch {
	case b.ep.inEpisode && now < b.bbrConserve:
		w = max(w, pipe+acked)
	case b.bwFull:
		w = min(w+acked, target)
	case w < target:
		w += acked
	}
	switch {
	case b.bwFull && !b.ep.inEpisode && pipe <= 4*b.pp.maxSeg && (b.bbrProbe || now-max(b.pp.minRTTAt, b.bbrProbeEnd) >= probeRTTAfter):
		// ProbeRTT: four segments, the window before it kept
		// (bbr_save_cwnd), once the least RTT has not fallen for 10 s
		// (bbr_min_rtt_win_sec) nor been probed — not whenever the pipe
		// falls as low, as it does after a recovery whose cumulative
		// jump left as little out under a receiver's window
		// (k31_bbr_rwnd64_l1: 2 segments, Linux's window restored to
		// 136, drawn at four for a round trip).
		if !b.bbrProbe {
			b.bbrProbe, b.bbrProbePrior = true, b.bbrW
		}
		w = 4 * b.pp.maxSeg
	case b.bbrProbe:
		// Out of it, the window before restored (bbr_check_probe_rtt_done),
		// not regrown an ACK at a time.
		b.bbrProbe, b.bbrProbeEnd = false, now
		w = max(w, min(b.bbrProbePrior, target))
	}
	b.bbrW = max(w, 4*b.pp.maxSeg)
}

// tsoGoal is the bytes of BBR's TSO goal (bbr_tso_segs_goal): the
// segments its pacing rate sends in a millisecond (the rate >> 10,
// sk_pacing_shift; the largest delivery rate here, which the pacing
// rate follows but for its gain), at least two (one below 1.2 Mbit/s,
// bbr_min_tso_segs), at most tsoMaxBytes and 127 segments. Its window
// keeps three of them above the BDP's gain (bbr_quantization_budget).
func (b *cwndBuilder) tsoGoal() int64 {
	seg := b.pp.maxSeg
	if b.bwN == 0 {
		return 2 * seg
	}
	bw := slices.Max(b.bw[:min(b.bwN, len(b.bw))]) * 1e9 // bytes a second
	bytes := min(int64(bw/1024), tsoMaxBytes)
	segs := min(max(bytes/max(seg, 1), 2), 127)
	if bw < 1.2e6/8 {
		segs = 1
	}
	return segs * seg
}

// tsoMaxBytes: the most a TSO goal holds (bbr_tso_segs_goal: a legacy
// GSO packet, 64 KB, less a byte and MAX_TCP_HEADER's 320).
const tsoMaxBytes = 65536 - 1 - 320

// probeRTTAfter: the model enters ProbeRTT once the least RTT has not
// fallen, nor been probed, for this long: Linux's 10 s
// (bbr_min_rtt_win_sec), less a second for the RTT samples the capture
// times that the kernel's do not (a least RTT it sets later).
const probeRTTAfter = 9e9

// drawBBR draws BBR's model at time t, the BDP and BBR's window, and
// the pipe then (a segment's change or more), which its view draws
// under that window.
func (b *cwndBuilder) drawBBR(frame, t, pipe int64) {
	if b.pipeTime == 0 || abs64(pipe-b.pipeDrawn) >= b.pp.maxSeg {
		b.set.add(seriesPipeSeen, Steps, Point{Frame: frame, Time: t, V: [3]float64{float64(pipe)}})
		b.pipeDrawn, b.pipeTime = pipe, t
	}
	if b.bbrW == 0 {
		return
	}
	if b.bdp != b.bdpDrawn {
		b.set.add(SeriesBDP, Steps, Point{Frame: frame, Time: t, V: [3]float64{float64(b.bdp)}})
		b.bdpDrawn, b.bdpTime = b.bdp, t
	}
	// The window it allows: no more than the receiver's (Linux sends
	// min(cwnd, snd_wnd); k32_bbr_rwnd48_l05, a 48 KB window under a
	// model of twice its BDP), unless the pipe is over four times that
	// window: its scale is misread (senderHeld.misread; a window that
	// dips in recovery, holding out-of-order data, still caps it).
	w := b.bbrW
	if 4*b.rwnd >= pipe {
		w = b.rwndAllowed(w)
	}
	if abs64(w-b.bbrCwnd) >= b.pp.maxSeg { // a segment's change or more
		b.set.add(seriesBBRCwnd, Steps, Point{Frame: frame, Time: t, V: [3]float64{float64(w)}})
		b.bbrCwnd, b.bbrTime = w, t
	}
}

// drawMark draws the last episode's mark: its kind's, and where it was
// proven spurious the undone mark over it. An undone episode keeps its
// kind, as the summary counts it (loss_episodes_fast or _rto, and
// loss_episodes_undone): Linux entered recovery or loss for it
// (tcp_enter_recovery, tcp_enter_loss) before it undid the reduction
// (tcp_try_undo_partial, tcp_try_undo_recovery, tcp_try_undo_dsack).
func (b *cwndBuilder) drawMark() {
	if b.hasMark {
		b.set.add(b.markName, Marks, b.mark)
		if b.markUndone {
			b.set.add(SeriesUndoneLoss, Marks, b.mark)
		}
	}
	b.hasMark, b.markUndone = false, false
}

// settle draws the ssthresh the tracker measured, unless drawn already
// where recovery began again at once, or the episode was undone.
func (b *cwndBuilder) settle(ev episodeEvent) {
	switch {
	case ev.settled && b.markUndone:
		b.pending = false // undone: Linux restores ssthresh, the line keeps the last
	case ev.settled && !b.settledAtAck:
		// Where the receive window held the sender then, or the
		// application (nothing more to send: a transfer's end), the
		// flight measured it, not ssthresh: not a measurement.
		held := b.haveWin && b.pp.high+b.pp.maxSeg > b.rwndEdge || b.heldKind == heldApp || ev.idle
		b.emitSsthresh(float64(ev.ssthresh), held)
	}
	b.settledAtAck = b.settledAtAck && !ev.settled
}

// episode marks a loss episode's start at r; settle is the last
// episode's ssthresh if it is still pending (guessed: not measured).
func (b *cwndBuilder) episode(r *Record, fast bool, settle float64, guessed bool) {
	// A timeout in recovery: the episode before it not over (its end not
	// acknowledged). One after it ended — also in RFC 6582's hold, the
	// end acknowledged exactly, where Linux is still in recovery but
	// snd_una == high_seq — sets a new ssthresh (tcp_enter_loss).
	inRecovery := b.wasIn && b.epFast && !fast
	// Linux left that recovery with cwnd at its ssthresh
	// (tcp_end_cwnd_reduction), which only a reduction, or a sender
	// short of filling it for an RTO (tcp_cwnd_application_limited), at
	// least 200 ms (TCP_RTO_MIN) and a round trip, lowers.
	afterRecovery := fast && !b.wasIn && b.epFast && b.ep.fast > 1 && !b.markUndone &&
		r.Time-b.ep.endedAt < max(200e6, b.ep.rtt)
	// A timeout again in a timeout's episode with nothing newly
	// acknowledged since it began (the timer backing off): Linux keeps
	// the ssthresh (tcp_enter_loss reduces in loss only when no
	// retransmission is counted since the last new ACK).
	backoff := b.wasIn && !b.epFast && !fast && b.lastAckSeq == b.epAck
	b.epFast, b.epAck = fast, b.lastAckSeq
	flight := max(b.line, 0)
	hold := b.holdCwnd
	b.holdCwnd = [2]int64{}
	if b.atReceiver() {
		flight = b.arrSum
	}
	name := SeriesRTOLoss
	if fast {
		name = SeriesFastLoss
	}
	if b.pending { // a loss again before the last episode's window was seen
		b.emitSsthresh(settle, guessed)
	}
	b.drawMark()
	b.priorSs, b.priorAt, b.epSsDrawn = b.lastSs, len(b.ssBasis)-1, false
	if b.f.inTime(r.Time) {
		b.mark, b.markName, b.hasMark = Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(flight)}}, name, true
		b.pending = true
		b.pendingPoint = Point{Frame: r.Frame, Time: r.Time}
		under := b.linesUnder()
		for i, p := range b.prr {
			switch {
			case fast && p.on:
				under[i] = p.prior // the window PRR reduces (priorsAtLoss)
			case !fast:
				under[i] = b.timeoutWindow(i)
			}
		}
		b.pendingBasis = ssBasis{window: flight, under: under, kind: ssFast, afterRecovery: afterRecovery, hystart: fast && b.prrSlowStart[VoteCubic]}
		if !fast {
			b.pendingBasis.hold = hold
		}
		switch {
		case inRecovery || backoff:
			b.pendingBasis.kind = ssTimeoutInRecovery
		case !fast:
			b.pendingBasis.kind = ssTimeout
		}
		b.pendingFallback = float64(max(flight/2, 2*b.ep.maxSeg))
	}
}

func (b *cwndBuilder) graph() *Graph {
	b.flush()
	b.settle(b.ep.finish())
	// Steps still waiting at the end for a majority of votes are drawn
	// under the algorithm the connection's episodes name (knownFinal:
	// the median reduction where the votes tie), the one its ssthresh
	// is drawn under (crossCheck) and the summary names, not under
	// neither (k35_cubic_9m_q361k_j12_a5p5m: one recovery entered again
	// at once measured no reduction, the next two of CUBIC's, a tie; its
	// line was the flight, 115–233 segments in recovery where PRR left
	// the kernel's cwnd at ssthresh, 260, and 169 after it where the
	// application-paced sender left the kernel's 188 unfilled).
	if _, known := b.knownVote(); !known && !b.flip {
		if v, ok := b.knownFinal(); ok {
			b.resolveAs(v)
		}
	}
	b.resolve()
	b.drawMark()
	b.band(b.state, b.stateFrom, b.lastRec)
	b.endHold()
	switch {
	case !b.f.o.Time.bounded():
		if b.line > 0 && b.lastTime > b.lineTime { // the lines last to the last send
			b.set.add(SeriesCwnd, Steps, Point{Frame: b.lastFrame, Time: b.lastTime, V: [3]float64{float64(b.line)}})
		}
	case b.lastTime > 0 && b.f.inTime(b.lastTime):
		// A time window with sends in it: the step in force at its
		// start if none came inside, the last step drawn to its last
		// send. (Without a send inside, nothing: the window is empty.)
		if b.hasBefore {
			b.set.add(SeriesCwnd, Steps, b.before)
			b.drawn, b.drawnAt = b.before, true
		}
		if b.drawnAt && b.lastTime > b.drawn.Time {
			b.set.add(SeriesCwnd, Steps, Point{Frame: b.lastFrame, Time: b.lastTime, V: b.drawn.V})
		}
	}
	if b.bbrCwnd > 0 && b.lastTime > b.bbrTime {
		b.set.add(seriesBBRCwnd, Steps, Point{Frame: b.lastFrame, Time: b.lastTime, V: [3]float64{float64(b.bbrCwnd)}})
	}
	if b.bdpDrawn > 0 && b.lastTime > b.bdpTime { // the BDP estimate lasts as the line does
		b.set.add(SeriesBDP, Steps, Point{Frame: b.lastFrame, Time: b.lastTime, V: [3]float64{float64(b.bdpDrawn)}})
	}
	if b.pipeTime > 0 && b.lastTime > b.pipeTime {
		b.set.add(seriesPipeSeen, Steps, Point{Frame: b.lastFrame, Time: b.lastTime, V: [3]float64{float64(b.pipeDrawn)}})
	}
	if b.pending { // the capture ended before a round after recovery
		b.emitSsthresh(b.pendingFallback, true)
	}
	g := b.f.g
	g.Series = b.set.list(append(cwndSeries, SeriesBDP, SeriesDelivery, seriesBBRCwnd, seriesPipeSeen, seriesArrived)...)
	if b.atReceiver() {
		atReceiver(g)
	} else {
		cc := b.congestionControl()
		if vote, ok := b.ep.vote(); ok {
			b.crossCheck(g, vote)
		} else if vote, ok := namedVote[cc]; ok {
			b.crossCheck(g, vote)
		} else if cc != "bbr" {
			b.crossCheck(g, VoteNone)
		}
		bbrSeries(g, cc == "bbr")
		g.Series = slices.DeleteFunc(g.Series, func(s Series) bool { return s.Name == seriesArrived })
		b.closeSsthresh(g)
	}
	if b.held.misread() {
		// A window the sender ran past held nothing (senderHeld.misread):
		// its scale was not what the capture shows (no handshake, or a
		// SYN whose options the snapshot length cut), and drawn as read
		// it would be a window of a few KB under a flight of 150 (a
		// capture begun after the handshake).
		g.Series = slices.DeleteFunc(g.Series, func(s Series) bool { return s.Name == SeriesRwndHeld || s.Name == SeriesAdvertised })
		g.Notes = append(g.Notes, Warning{Kind: NoteWindowMisread})
	}
	if !b.synSeen[0] || !b.synSeen[1] {
		// Either SYN unseen: SACK permitted and window scaling need both.
		// (From the records: the Conn a pipelined scan hands the builder
		// is the one of its first packet.)
		g.Notes = append(g.Notes, Warning{Kind: NoteNoHandshake})
	}
	capWindow(g)
	return g
}

// congestionControl names the sender's algorithm as the summary's
// congestion_control does: from the direction's statistics where the
// graph was given those of a sender-side capture (SeriesOptions.Stats:
// facts of the whole transfer, HyStart's end of slow start and BBR's
// drain, that the graph's records alone do not gather; elsewhere they
// say unknown), else from the graph's own loss episodes and ProbeRTT
// dips (ccFacts.name). The view follows it: BBR's model, or
// Reno's or CUBIC's ssthresh where the episodes left the vote unknown
// (k36_cubic_q500k_100ms: one loss after HyStart's end, CUBIC's 0.7 of
// the window, not Reno's half).
func (b *cwndBuilder) congestionControl() string {
	if st := b.f.o.Stats; st != nil && st.Path.Vantage == VantageSender && st.CongestionControl != "" {
		return st.CongestionControl
	}
	cc, _ := b.ep.facts(b.probeRTT.dips).name()
	return cc
}

// namedVote is the reduction of a congestion control named (voteSaid).
var namedVote = map[string]int{"reno": VoteReno, "cubic": VoteCubic}

// readStats takes the direction's statistics (statsReader), for both
// builders.
func (c *cwndVotes) readStats(st *DirStats) { c.first.f.o.Stats, c.other.f.o.Stats = st, st }

// closeSsthresh draws the last ssthresh to the line's last send, as the
// line lasts (graph): a step line's last step has no length otherwise,
// and a connection of one episode drew no ssthresh at all
// (k36_cubic_q500k_100ms: one point at 9.7 s). After crossCheck, whose
// points are the episodes'.
func (b *cwndBuilder) closeSsthresh(g *Graph) {
	ss := g.lookup(SeriesSsthresh)
	if ss == nil || b.lastTime == 0 || b.f.o.Time.bounded() && !b.f.inTime(b.lastTime) {
		return
	}
	ss.unpack()
	if n := len(ss.Points); n > 0 && ss.Points[n-1].Time < b.lastTime {
		ss.Points = append(ss.Points, Point{Frame: b.lastFrame, Time: b.lastTime, V: ss.Points[n-1].V})
	}
}

// handshake notes the times of the client's SYN, the server's SYN/ACK
// and the client's ACK of it.
func (b *cwndBuilder) handshake(r *Record) {
	if r.Flags&reassembly.SYN != 0 {
		b.synSeen[r.Dir] = true
		b.ep.synSeen = b.ep.synSeen || r.Dir == b.f.o.Dir
		// SACK in use from the handshake on, as the SYNs agree (RFC
		// 2018; each direction's last SYN, as the tracker keeps it), not
		// from the first block seen: IPv6 at 96 bytes keeps none whole
		// (senderPipe.ack on a cut option).
		b.sackOK[r.Dir] = r.SACKOK
		b.pp.sack = b.pp.sack || b.sackOK[0] && b.sackOK[1]
	}
	// The handshake's round trip as the statistics take it
	// (tcp.analysis.initial_rtt: the most recent pure SYN to the first
	// pure ACK), for the loss-episode tracker (lossEpisodes.pathRTT).
	switch {
	case r.Flags&(reassembly.SYN|reassembly.ACK) == reassembly.SYN:
		b.mruSyn = r.Time
	case r.Flags&(reassembly.SYN|reassembly.ACK) == reassembly.ACK && b.mruSyn != 0 && b.ep.pathRTT == 0:
		b.ep.pathRTT = r.Time - b.mruSyn
	}
	if r.Info.Flags&CaptureDuplicate == 0 {
		b.hs.add(r.Dir, r.Flags&reassembly.SYN != 0, r.Flags&reassembly.ACK != 0, r.Time, r.TSVal, r.TSEcr, r.HasTS)
	}
}

// atReceiver tells from the handshake whether the capture is nearer the
// receiver of the graphed direction than its sender: the capturing end
// answers at once, the far one a round trip later.
func (b *cwndBuilder) atReceiver() bool {
	return b.hs.nearerReceiver(b.f.o.Dir)
}

// arrived follows, for a receiver-side capture, the bytes that arrived
// over the last round trip (from the receiver's timestamp to the data
// echoing it, smoothed; else the handshake's): the sender's flight, one
// one-way delay earlier; drawn when it moved by a segment.
func (b *cwndBuilder) arrived(r *Record, n int64) {
	rtt := b.hs.rtt()
	if rtt <= 0 {
		return
	}
	if r.HasTS { // the round trip since the receiver sent the timestamp echoed
		for len(b.tsSent) > 1 && int32(b.tsSent[1].v-int64(r.TSEcr)) <= 0 {
			b.tsSent = b.tsSent[1:]
		}
		if len(b.tsSent) > 0 && b.tsSent[0].v == int64(r.TSEcr) {
			if sample := r.Time - b.tsSent[0].t; b.rcvRTT == 0 {
				b.rcvRTT = sample
			} else {
				b.rcvRTT += (sample - b.rcvRTT) / 8
			}
		}
	}
	if b.rcvRTT > 0 {
		rtt = b.rcvRTT
	}
	b.arr = append(b.arr, timedValue{r.Time, n})
	b.arrSum += n
	i := 0
	for i < len(b.arr) && b.arr[i].t <= r.Time-rtt {
		b.arrSum -= b.arr[i].v
		i++
	}
	if i > 0 {
		b.arr = append(b.arr[:0], b.arr[i:]...)
	}
	if abs64(b.arrSum-b.arrDrawn) >= max(b.pp.maxSeg, n) && b.f.inTime(r.Time) {
		b.set.add(seriesArrived, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(b.arrSum)}})
		b.arrDrawn = b.arrSum
	}
}

// atReceiver makes a receiver-side capture's graph: the bytes that
// arrived per round trip are the line, no ssthresh nor BBR's model (not
// measurable there), nor the bands where the sender's window was unknown
// (senderHeld reads the flight, which a receiver sees as the data not yet
// arrived less what it acknowledged: a bulk transfer read as held by its
// application throughout, k39_cubic_j3_l05_80ms), and a note says what
// the line is.
func atReceiver(g *Graph) {
	out := g.Series[:0]
	for _, s := range g.Series {
		switch s.Name {
		case SeriesCwnd, SeriesSsthresh, SeriesBDP, SeriesDelivery, seriesBBRCwnd, seriesPipeSeen, SeriesRwndHeld, SeriesAppHeld:
			continue
		case seriesArrived:
			s.Name = SeriesCwnd
		}
		out = append(out, s)
	}
	g.Series = out
	g.Notes = append(g.Notes, Warning{Kind: NoteReceiverFlight})
}

// bbrSeries: for a BBR sender (ccFacts.name), the window drawn is BBR's
// own (its model: a cap its pacing keeps the flight under), the pipe is
// drawn as the scoreboard counts it (not the window models of Reno and
// CUBIC, which would grow where BBR's pacing, not its window, held the
// flight) beside the BDP estimate, and no ssthresh (BBR has none); for
// others BBR's series are left out. Each round's delivery rate (times the
// least RTT) is drawn for every sender: the window above it is what the
// path queued.
func bbrSeries(g *Graph, bbr bool) {
	out := g.Series[:0]
	for _, s := range g.Series {
		switch {
		case s.Name == SeriesCwnd && bbr:
			continue
		case s.Name == seriesPipeSeen && bbr:
			s.Name = SeriesPipe
		case s.Name == seriesBBRCwnd && bbr:
			s.Name = SeriesCwnd
		case s.Name == SeriesSsthresh && bbr:
			continue
		case s.Name == SeriesBDP || s.Name == seriesBBRCwnd || s.Name == seriesPipeSeen:
			if !bbr {
				continue
			}
		}
		out = append(out, s)
	}
	g.Series = out
	if bbr {
		g.Notes = append(g.Notes, Warning{Kind: NoteBBRCap})
		onLine(g)
	}
}

// onLine puts the loss, undo and probe marks on the window drawn (BBR's
// cap, its value at each mark's frame, or its first where the mark came
// before it: a capture begun mid-transfer): they were placed on the
// line of the Reno and CUBIC models while the sender was not yet named,
// and floated off the cap. Frames, not times: a capture's clock may step
// back.
func onLine(g *Graph) {
	line := g.lookup(SeriesCwnd)
	if line == nil || line.size() == 0 {
		return
	}
	var fs []int64
	var vs []float64
	line.each(func(p Point) { fs, vs = append(fs, p.Frame), append(vs, p.V[0]) })
	for i := range g.Series {
		s := &g.Series[i]
		switch s.Name {
		case SeriesFastLoss, SeriesRTOLoss, SeriesUndoneLoss, SeriesTLP:
		default:
			continue
		}
		s.unpack()
		for j, p := range s.Points {
			// The line's last step at or before the mark.
			k, _ := slices.BinarySearch(fs, p.Frame+1)
			s.Points[j].V[0] = vs[max(k-1, 0)]
		}
	}
}

// capWindow: a receive window far above the rest of the graph (Linux
// grows it to megabytes) would flatten it: the y axis stops at 1.5 times
// the largest other value and the window line leaves the top.
func capWindow(g *Graph) {
	var top, win float64
	for _, sr := range g.Series {
		sr.each(func(p Point) {
			if sr.Name == SeriesAdvertised {
				win = max(win, p.V[0])
			} else {
				top = max(top, p.V[0])
			}
		})
	}
	if top > 0 && win > 3*top && !g.Zoom.HasYMax {
		g.Zoom.YMax, g.Zoom.HasYMax = 1.5*top, true
	}
}
