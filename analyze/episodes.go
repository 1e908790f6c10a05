package analyze

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// lossEpisodes is the one loss-episode tracker of a sender's direction,
// fed the data it sends and the ACKs it gets, in capture order: the cwnd
// graph draws what it finds (marks, ssthresh), the statistics count it
// (loss_episodes_*, beta_median). Numbers are sequence numbers of one
// space (relative or unwrapped), consistently.
//
// An episode starts at a segment resending bytes already sent, outside an
// episode — not a resend of bytes already acknowledged (Wireshark's
// spurious retransmission), not a zero-window probe, not a tail-loss probe
// (RFC 8985: the last segment sent again, earlier ones unacknowledged, no
// duplicate ACK: Linux stays open) — and ends when everything sent before
// it is acknowledged; one starts again at once at the ACK that ends the
// last while SACKed data, or data RACK deems lost, remains above it (see
// ack, lostAbove), and a timeout comes
// inside one too (the first unacknowledged segment resent twice). It is a
// fast retransmit when duplicate ACKs or SACK blocks came since the last
// new ACK, else a timeout; undone when proven spurious (see undo). Its
// ssthresh is measured, not assumed: the flight after the first burst of
// sends once it ended (see settle), the window the sender settled at
// (Linux sets cwnd to ssthresh on leaving recovery: Reno's half, CUBIC's
// 0.7), at least two segments; β is that over the flight when the first
// duplicate ACK or SACK came (fast retransmits only: after a timeout the
// window restarts from one segment). The diagnosis reads drop events, the
// same rule without re-entry (dropEvents), as the path's loss_events.
type lossEpisodes struct {
	started    bool
	firstData  int64 // the first data segment's start (the capture may begin mid-transfer)
	synSeen    bool  // the sender's SYN was seen (its owner says)
	high       int64 // highest end of data sent
	maxSeg     int64
	lastFlight int64
	inEpisode  bool
	episodeEnd int64
	rp         recoveryPoint // the episode's (see recoveryPoint)
	cumAck     int64
	haveAck    bool
	signals    int // duplicate ACKs and SACKed ACKs since the last new ACK
	// await: an episode ended; the next segment's flight is its ssthresh
	// (reentered: another began at once, at an ACK).
	await, reentered bool
	lossFlight       int64 // the flight when the episode started
	// awaitFlight: the ended episode's, its β's denominator; awaitMax
	// the most in flight since it ended (awaitSeen: some data was sent).
	awaitFlight, awaitMax int64
	awaitSeen             bool
	// drained: the ACK that ended the episode left nothing outstanding;
	// awaitAck the end of the first segment sent after (see settle).
	drained  bool
	awaitAck int64
	// awaitPaced: since the episode ended the sender sent again pacedGap
	// or more after its last send with no ACK between: paced, not
	// clocked by ACKs (see settle).
	awaitPaced bool
	// awaitIdle: the first send after the episode ended came after an
	// RTO without sending, nothing outstanding: Linux restarted its
	// window (tcp_cwnd_restart: halved once per RTO idle, at least the
	// initial window), so the flight after it measures the restart, not
	// ssthresh (see settle). lastSend: the last data segment's time
	// (lsndtime; 0 unknown).
	awaitIdle bool
	lastSend  int64
	lastAckAt int64 // the last ACK's time (0 none)
	movedAt   int64 // the last time the cumulative ACK moved (0 none)
	moved     bool  // the cumulative ACK moved since the first ACK seen
	fast, rto int64 // episodes by kind
	probes    int64 // tail-loss probes
	betas     []float64
	// reductions: each measured episode's window before and after, bytes,
	// and the cuts between them: 1, or 2 where recovery was entered again
	// as it ended (see twiceFrom; reductionVotes).
	reductions [][3]int64
	// restoreBy: the last reduction (reductions' last, its window
	// before restoreFrom) is watched until then (ns; 0 none): a flight
	// back at the window before it sooner than any algorithm regrows
	// one (restored) shows no cut held.
	restoreBy, restoreFrom int64
	restoreAt              int // its index in reductions
	// fillBy: the last reduction (reductions' last, at fillAt) is
	// revised up to the most in flight (fillMax) while the sender still
	// fills the window it left recovery with, until then (ns; 0 none):
	// the flight last grew by a segment or more to fillMark at
	// fillGrewAt (see refill).
	fillBy, fillMax, fillMark, fillGrewAt int64
	fillAt                                int
	// edge: the receiver's window's right edge, the last ACK's (if
	// edgeSet); awaitHeld: a send while the ended episode's window was
	// measured reached it (the flight was the receiver's, not a cut's).
	edge               int64
	edgeSet, awaitHeld bool
	// twiceFrom: recovery was entered again as an episode ended (the
	// drops' repair found more lost): Linux cut the window again, from
	// the one the first cut left; the window after the second episode
	// ends is measured against this one, the first's before both cuts
	// (awaitTwice, once it ended).
	twiceFrom, awaitTwice int64
	// flights: each measured episode's window before it, bytes, whether
	// or not its reduction votes (see windowsOf): a window after the
	// episode that something else held still leaves the window at the
	// loss a measurement.
	flights []int64
	// arrived: each fast-retransmit episode's window as a receiver-side
	// capture sees it, what had arrived above the cumulative ACK when its
	// resend came (the sender resent on the third duplicate ACK, with the
	// window it had then out beyond the hole; see arrivedWindows).
	arrived     []int64
	arrivedThis bool // the last episode's window is the last of arrived
	flightThis  bool // the ended episode's flight is the last of flights
	// keptLate: loss episodes at the keptFrom-th cut or later (epIndex),
	// of 4 segments or more, begun with the flight at the receiver's
	// window (epAtEdge), after which the flight came back within 10% of
	// the window before, the receiver's window having held the sender
	// through recovery (settle's hidden: no β); keptThis: the ended
	// episode is the last of them.
	keptLate int
	keptThis bool
	// cuts: the episodes at which Linux cut its ssthresh, less those it
	// undid: each fast retransmit's recovery and each timeout outside
	// one, not a timeout inside recovery or the timer firing again in
	// its loss state (tcp_enter_loss keeps ssthresh there), nor a
	// recovery entered again after a partial undo (one cut for both);
	// epCut: the episode under way counted one; epIndex: cuts when it
	// began (its own included); epAtEdge: it began with the flight at
	// the receiver's window (edge).
	cuts, epIndex int64
	epCut         bool
	epAtEdge      bool
	preSignal     int64 // the flight when the first signal since the last new ACK came
	// The last resends (rtx, rtxN of them so far), to tell a hole closed
	// by one from one closed by late data (reordSeen).
	rtx       *[64][3]int64 // seq, end, and the highest end sent before it
	rtxN      int
	rtxTop    int64 // the highest end of any resend rtx took (wasResent: none at or above it)
	reordSeen bool
	// silentRec: an ACK outside an episode SACKed data above a hole
	// that Linux's RACK deems lost (rackLost) and entered recovery for;
	// where the hole then closes with nothing resent (the segment came
	// late), Linux undid that recovery at once (tcp_try_undo_partial: no
	// retransmission out) — an episode no resend shows
	// (k11_cubic_jitter3_l05, kx_reno_jitter6_l1: the first reordering,
	// 3 ms and 6 ms of jitter, recovery left 0.1 ms later;
	// k13_cubic_jitter5_l05: a hole sent 35 ms before the data SACKed
	// above it). A resend ends it.
	silentRec bool
	// sends: the send times of new data, one mark a millisecond of
	// sending at most (the first segment sent at least 1 ms after the
	// last mark), from the cumulative ACK on: a segment went out within
	// a millisecond after the last mark at or below it (xmitOf).
	sends []sendMark
	// RACK's reordering window in quarters of the least RTT (reoSteps,
	// 0 standing for 1), grown by one at a D-SACK a round trip or more
	// after the last growth (reoAt) and kept for reoPersist recoveries
	// more (tcp_rack_update_reo_wnd: TCP_RACK_RECOVERY_THRESH).
	reoSteps, reoPersist int
	reoAt                int64
	// lateSeen: an original arrived late at the capture (lateOriginal):
	// it is no sender's, whose data leave in order, and its times are
	// not the sends RACK reads (rackLost).
	lateSeen bool
	// pathRTT: the handshake's round trip, SYN to the ACK of its SYN/ACK
	// (tcp.analysis.initial_rtt: the whole path's at any capture; 0
	// unknown), set by the owner; RACK's window is a quarter of it where
	// the least RTT seen is less than half of it (a capture between two
	// links, nearer the receiver, times only the trip beyond it).
	pathRTT int64
	// minRTT: the least round trip the tracker itself timed, from a mark
	// (sends) to the new ACK of data never resent, the same for the graph
	// and the statistics (rackLost's base); sackedMost: the most SACKed
	// above the cumulative ACK by an ACK since it last moved (RACK looks
	// again only when an ACK SACKs more).
	minRTT, sackedMost int64
	// Undo (see undo): the last episode's first resend and its timestamp,
	// whether it can still be proven spurious, whether it was, whether
	// its reduction was recorded; undone counts the episodes proven.
	firstSeq, firstEnd              int64
	firstTS                         uint32
	firstHasTS, undoable, eifelDone bool
	epUndone, settledThis           bool
	undone                          int64
	// Linux's partial undo without SACK (see partialUndo): the kind of
	// the episode on (a fast retransmit's), and the resends since it
	// began or began again: the first's timestamp (rtxTS, if rtxSet)
	// and the highest end (rtxEnd).
	epFast, rtxSet bool
	rtxTS          uint32
	rtxEnd         int64
	// renoDup: without SACK, Linux's count of the segments the duplicate
	// ACKs stand for (sacked_out: tcp_add_reno_sack, at most all but one
	// outstanding, tcp_limit_reno_sacked; a new ACK in recovery takes
	// back those it covers less one, tcp_remove_reno_sacks; one outside
	// recovery, in RFC 6582's hold, or a timeout resets it), in segments
	// of maxSeg (Linux counts packets of one MSS): partialUndo's re-entry
	// reads it.
	renoDup int64
	// sackSeen: an ACK carried SACK blocks; the last episode ended at
	// endedAt, its window measured until a round trip (rtt) later
	// without SACK (see settle).
	sackSeen     bool
	endedAt, rtt int64
	// renoHold: without SACK the last episode ended at an ACK of
	// exactly its end, holdAt: Linux stays in recovery until an ACK
	// above it (RFC 6582's rule against false fast retransmits), and
	// duplicate ACKs before one start none.
	renoHold bool
	holdAt   int64
	// holdLost: the ACK that ended a timeout's hold came after three
	// duplicate ACKs or more in it: Linux left the loss state and,
	// the next segment marked lost (tcp_newreno_mark_lost: sacked_out
	// at dupthresh outside recovery), entered recovery at once
	// (tcp_time_to_recover, tcp_enter_recovery): the resend that
	// follows is a fast retransmit (kx_cubic_nosack_l1: drawn as a
	// timeout, the window restarted from a segment).
	holdLost bool
	// Drop events, what the diagnosis reads of the path (dropEvents).
	drop dropEvents
	// split tells the episodes from the drop events one by one
	// (epSplit); begunAt: an episode began at the resend under way,
	// inside another as a timeout if begunIn.
	split            epSplit
	begunAt, begunIn bool
	// In an episode: the cumulative ACK at which its first unacknowledged
	// segment was last resent, and whether SACK blocks came since.
	headAt             int64
	headSet, sackSince bool
	// The data segments sent before each drop event began (at most
	// maxEpisodeStarts): a full queue drops at the same window every
	// time, so episodes come at regular intervals; random loss drops each
	// segment alike, and the intervals spread as an exponential's (their
	// coefficient of variation about 1).
	sent   int64
	starts []int64
}

const maxEpisodeStarts = 4096

// epSplit tells a direction's loss episodes (fast and rto) from its drop
// events (loss_events' rule: no re-entry) one by one, for the
// differential test of the two (TestEpisodesAgainstDropEvents): an
// episode begun at the resend that began a drop event is both; the
// others are the tracker's alone, each by its reason; a drop event that
// began no episode is the drop rule's alone.
type epSplit struct {
	both      int64 // an episode and a drop event begun at one resend
	inDrop    int64 // an episode begun at a resend, a drop event already on
	timeoutIn int64 // a timeout inside an episode: Linux's loss state
	reentry   int64 // recovery entered again at the ACK that ended the last
	partial   int64 // recovery entered again after a partial undo
	silent    int64 // recovery entered and undone with nothing resent
	// dropAlone: a drop event begun at a resend that began no episode:
	// the first resend of one entered again at an ACK (its drop event
	// had ended there), or one joined at the capture's start.
	dropAlone int64
}

// dropEvents is the loss-episode rule without re-entry: the drop events
// the diagnosis reads (lossEpisodes) and the path's loss_events (pathDir),
// each fed the resends it sees. A resend that is a loss signal (see
// noLossSignal) starts one unless one is under way; it lasts until
// everything sent before it (end) is acknowledged.
type dropEvents struct {
	in  bool
	end int64
	rp  recoveryPoint
}

// resend takes a resend, with high the highest end sent and ipid its
// IPv4 ID, and tells whether a drop event started there: one that is a
// loss signal starts one unless one is under way, in which any resend
// counts for its recovery point.
func (d *dropEvents) resend(high int64, ipid uint16, signal bool) bool {
	if d.in {
		d.rp.resend()
		return false
	}
	if !signal {
		return false
	}
	d.in, d.end = true, high
	d.rp.begin(ipid)
	return true
}

// newData takes new data from seq (high the highest end seen before it,
// ipid its IPv4 ID): the event lasts until the sender's recovery point is
// acknowledged (recoveryPoint), proven or not: a drop event does not
// begin again at once as an episode does, and on the two-sided lab runs
// (92) the unproven point makes the receiver's count the sender's on 70,
// the proven one alone on 64.
func (d *dropEvents) newData(seq, high int64, ipid uint16) {
	if p, _ := d.rp.newData(seq, high, ipid); d.in {
		d.end = max(d.end, p)
	}
}

// ack takes the cumulative ACK.
func (d *dropEvents) ack(ack int64) {
	if d.in && ack >= d.end {
		d.in = false
	}
}

// recoveryPoint tells, from the resend that began a drop event or a loss
// episode, where the sender's recovery point was when it is above the
// highest data seen: at a receiver-side (or middle) capture, where a
// queue dropped the top of the window before it. The first new data the
// sender sent after that resend begins at or above the point, and
// everything below it was sent before the resend. It is the point, proven,
// when no packet is missing between the two (the sender's IPv4 IDs, one
// a packet on Linux, count exactly the resends seen between them); with
// one missing, new data at the point may be lost too, and the point is
// below it. At the sender's own capture new data starts at the highest
// end sent: nothing changes.
type recoveryPoint struct {
	open  bool   // no new data since the resend
	id0   uint16 // the resend's IPv4 ID
	resNo uint16 // resends seen since
}

func (r *recoveryPoint) begin(ipid uint16) { *r = recoveryPoint{open: true, id0: ipid} }

// resend counts a resend seen after the first.
func (r *recoveryPoint) resend() {
	if r.open {
		r.resNo++
	}
}

// newData takes the first new data since (the others change nothing):
// its start where it shows the recovery point above high, else 0, and
// whether the IDs prove it.
func (r *recoveryPoint) newData(seq, high int64, ipid uint16) (int64, bool) {
	open := r.open
	r.open = false
	if !open || seq <= high {
		return 0, false
	}
	return seq, ipid == r.id0+r.resNo+1
}

// noLossSignal tells which resends of [seq, end) say nothing of a loss,
// with high the highest end sent and cumAck the cumulative ACK (if
// haveAck): spurious — of bytes already acknowledged (Wireshark's
// spurious retransmission), or a zero-window probe (zwp) — and tlp, a
// tail-loss probe (RFC 8985: the last segment sent again, earlier ones
// unacknowledged, and no signal — duplicate ACK or SACK — since the last
// new ACK: Linux stays open).
func noLossSignal(seq, end, high, cumAck int64, haveAck, signal, zwp bool) (spurious, tlp bool) {
	return haveAck && end <= cumAck || zwp, !signal && end == high && haveAck && seq > cumAck
}

// intervalCV is the coefficient of variation of the segments sent between
// one episode's start and the next's, the interval before the first (slow
// start) left out; ok is false with fewer than three intervals.
func (e *lossEpisodes) intervalCV() (cv float64, n int, ok bool) {
	if len(e.starts) < 4 {
		return 0, 0, false
	}
	var sum, sq float64
	n = len(e.starts) - 1
	for i := 1; i < len(e.starts); i++ {
		d := float64(e.starts[i] - e.starts[i-1])
		sum += d
		sq += d * d
	}
	mean := sum / float64(n)
	if mean <= 0 {
		return 0, 0, false
	}
	return math.Sqrt(max(sq/float64(n)-mean*mean, 0)) / mean, n, true
}

// ceilingSplit is how the windows at the losses (windowsOf) stand
// against the largest of them, top bytes: at of them within ceilingNear
// of it (and two segments), below of them under ceilingBelow of it.
type ceilingSplit struct {
	at, below int
	top       int64
}

// Where a queue overflows beside random drops, the windows at its
// overflows come within ceilingNear of the largest (its size and the
// path's product), the random drops' far below it: under ceilingBelow
// of it.
// A window below ceilingMin segments moves a segment at a time: too
// coarse to tell a ceiling.
const (
	ceilingNear  = 0.9
	ceilingBelow = 0.75
	ceilingMin   = 8
)

// ceiling splits the windows at the losses, the first (slow start's)
// left out as windowsOf leaves it (see ceilingSplit).

// ceilingOf splits windows (ceiling's), the first left out.
func ceilingOf(windows []int64, maxSeg int64) (c ceilingSplit) {
	if len(windows) < 2 {
		return c
	}
	fs := windows[1:]
	c.top = slices.Max(fs)
	for _, f := range fs {
		switch {
		case float64(f) >= ceilingNear*float64(c.top) && f >= c.top-2*maxSeg:
			c.at++
		case float64(f) < ceilingBelow*float64(c.top):
			c.below++
		}
	}
	return c
}

// arrivedWindows are the windows at the losses as a receiver-side
// capture sees them (arrived), read as the sender's flights are
// (windowsOf). The sender resent when the third duplicate ACK reached it:
// what had arrived above the cumulative ACK by the resend is what it had
// sent by then, its window at the loss, less what sat in the queue (a
// full queue's overflows leave their windows alike all the same; random
// drops' scatter).
func (e *lossEpisodes) arrivedWindows() lossWindows { return windowsOf(e.arrived, e.maxSeg) }

// lossWindows are the windows at the loss episodes after the first: how
// far apart (coefficient of variation over n, ok with two or more) and
// how they stand against their largest.
type lossWindows struct {
	cv   float64
	n    int
	ok   bool
	ceil ceilingSplit
	mean float64 // their mean, bytes
}

// windowsOf reads the windows at the losses, the first (slow start's)
// left out: how far apart they are (their coefficient of variation over
// n of them, ok with two or more: near 0 when a full queue drops at the
// same window each time; random drops come at any window), their mean,
// and how they stand against their largest (ceilingOf). The sender's are
// its flights at the fast-retransmit episodes measured, those proven
// spurious left out (flights); a receiver's what had arrived (arrived).
func windowsOf(windows []int64, maxSeg int64) lossWindows {
	w := lossWindows{ceil: ceilingOf(windows, maxSeg)}
	if len(windows) < 2 {
		return w
	}
	var sum, sq float64
	for _, f := range windows[1:] {
		x := float64(f)
		sum += x
		sq += x * x
	}
	n := len(windows) - 1
	w.mean = sum / float64(n)
	if n >= 2 && w.mean > 0 {
		w.cv, w.n, w.ok = math.Sqrt(max(sq/float64(n)-w.mean*w.mean, 0))/w.mean, n, true
	}
	return w
}

// episodeEvent is what one data segment did to the episodes.
type episodeEvent struct {
	start    bool  // an episode started here
	drop     bool  // a drop event started here (see dropIn)
	fast     bool  // ... by fast retransmit (else a timeout)
	settled  bool  // the last episode's ssthresh is known here
	ssthresh int64 // ... it
	idle     bool  // ... measured after an idle restart: not it (see settle)
	undone   bool  // the last episode was proven spurious here (see ack)
	// partial: a partial ACK at which Linux undid the fast retransmit's
	// reduction without SACK (see partialUndo): with start, recovery
	// entered again at once (reenter), else the episode is over, undone
	// (undoPartial; undone too).
	partial bool
	probe   bool // a tail-loss probe (no episode)
	// silentEnter: Linux entered recovery at this ACK with nothing to
	// show for it yet (see silentRec); silentUndo: the ACK closed that
	// hole with nothing resent: the episode, a fast retransmit's, undone
	// at once (counted in fast and undone).
	silentEnter, silentUndo bool
	// unseen: with start, the capture began inside an episode (its first
	// resend is of bytes it never saw sent): its kind, its window and its
	// reduction were before the capture, and it is counted as nothing.
	unseen bool
}

// epAck is what an ACK of the direction's data tells the tracker.
type epAck struct {
	ack           int64
	signal, above bool     // a duplicate ACK or SACK blocks; SACKed data above the ACK
	tsecr         uint32   // its timestamp echo, if hasTS
	hasTS         bool     //
	dsack         [2]int64 // its D-SACK block, if hasDSACK
	hasDSACK      bool     //
	// Its SACK blocks (nBlocks of them), for the holes between them
	// (resentInHole).
	blocks  [4][2]int64
	nBlocks int
	sack    bool // it carries SACK blocks
	cutOpt  bool // its SACK option cut by the snapshot length (cut)
	// Its time, and the least RTT of the direction's data so far (0
	// none): without SACK an ended episode's window is measured over a
	// round trip (see settle).
	time, rtt int64
	// The receiver's window it advertises (scaled; 0 or less unknown): its
	// right edge bounds what the sender may send (see restoreBy).
	win int64
}

// set makes a what an ACK tells the loss-episode tracker, the one
// reading of it for the summary (episodeAck, from the segment) and the
// cwnd graph (from its record): its cumulative ACK and SACK blocks (in
// one numbering), whether Wireshark called it a duplicate ACK, whether
// the snapshot length cut its SACK option (cut), its timestamp echo, its
// time and the direction's least RTT so far. (In place: an epAck is
// large, and an ACK's cost counts.)
func (a *epAck) set(ack int64, blocks [][2]int64, dup, cutOpt bool, tsecr uint32, hasTS bool, t, rtt, win int64) {
	// Field by field: the blocks past nBlocks, and dsack unless hasDSACK,
	// are not read, and zeroing them cost more than the rest.
	a.ack, a.signal, a.above, a.tsecr, a.hasTS = ack, dup || len(blocks) > 0, false, tsecr, hasTS
	a.hasDSACK, a.nBlocks, a.sack, a.cutOpt = false, 0, len(blocks) > 0, false
	a.time, a.rtt, a.win = t, rtt, win
	if cutOpt {
		a.cut()
	}
	for i, b := range blocks {
		a.above = a.above || b[1] > ack
		if i < len(a.blocks) {
			a.blocks[i], a.nBlocks = b, i+1
		}
	}
	if len(blocks) > 0 {
		var second [2]int64
		if len(blocks) > 1 {
			second = blocks[1]
		}
		if reassembly.IsDSACK(uint64(blocks[0][0]), uint64(blocks[0][1]), uint64(ack), len(blocks) > 1, uint64(second[0]), uint64(second[1])) {
			a.dsack, a.hasDSACK = blocks[0], true
		}
	}
}

// cut marks an ACK whose SACK option the snapshot length cut
// (reassembly.Options.SACKCut: IPv6 at 96 bytes, which keeps none of its
// blocks whole): its blocks are not all known (this tracker reads the
// whole ones only), but a receiver sends them while it holds data above a hole
// (RFC 2018): a loss signal, SACK seen, data SACKed above the ACK —
// whatever Wireshark calls the ACK (a window update, where the window
// grew: k24_reno_ipv6_l1, whose resend of a lost fast retransmit, RACK's
// in Linux, read as a timeout without it). Or a D-SACK of a duplicate
// arrival (RFC 2883), which holds nothing above: where the ACK covers
// all data sent, nothing is (ack).
func (a *epAck) cut() { a.signal, a.sack, a.above, a.cutOpt = true, true, true, true }

// data feeds a data segment of the direction sent at t (0 unknown): seq
// to end, the bytes in flight Wireshark gave it (-1 unknown), its
// analysis flags, its timestamp (tsval, if hasTS), its IPv4 ID (0 none).
func (e *lossEpisodes) data(seq, end, flight int64, flags Flag, tsval uint32, hasTS bool, t int64, ipid uint16) (ev episodeEvent) {
	e.maxSeg = max(e.maxSeg, end-seq)
	e.sent++
	if flight >= 0 {
		e.lastFlight = flight
	}
	if !e.started {
		e.firstData = seq
	}
	resent := e.started && seq < e.high
	var spurious, tlp bool // read only for a resend or in an episode
	if resent || e.inEpisode {
		spurious, tlp = noLossSignal(seq, end, e.high, e.cumAck, e.haveAck, e.signals > 0, flags&(SpuriousRetrans|ZeroWindowProbe) != 0)
	}
	if resent {
		if e.rtx == nil {
			e.rtx = new([64][3]int64)
		}
		e.rtx[e.rtxN%len(e.rtx)] = [3]int64{seq, end, e.high}
		e.rtxN++
		e.rtxTop = max(e.rtxTop, end)
	}
	if resent && !e.inEpisode && tlp && !spurious {
		e.probes++
		ev.probe = true
	}
	if resent && e.inEpisode {
		e.rp.resend()
	}
	if resent && !e.inEpisode && !spurious && !tlp {
		// Without SACK fast retransmit needs three duplicate ACKs
		// (RACK, which needs fewer, needs SACK), and none comes before an
		// ACK above the last episode's end when one ended exactly there
		// (renoHold): a resend then is the timer's.
		// Nor is a resend soon after an ACK that moved the cumulative
		// ACK the timer's: the ACK restarted it (tcp_rearm_rto), whose
		// least is minRTO. Linux entered recovery at or after that ACK
		// (k16_cubic_nosack_l15_100ms: leaving a timeout's loss state
		// with one duplicate ACK since the last new one, the head
		// resent 0.1 ms after it; k16_reno_nosack_jitter3_l1: an ACK
		// the path reordered made Linux's third duplicate ACK
		// Wireshark's second, 15 ms after the ACK moved). Away from the
		// sender a resend of the timer's that crossed the ACK on the
		// path is seen up to a round trip of the sender's side after
		// it: there, only a resend at once (atOnce); near the sender
		// (the capture's least RTT the whole path's), one within half
		// minRTO.
		soon := e.movedAt > 0 && t > 0 && (t-e.movedAt < atOnce || e.nearSender() && t-e.movedAt < minRTO/2)
		// And a fast retransmit is an ACK's doing: near the sender, a
		// resend not at once after the last ACK and a timeout's time
		// (RTT + 200 ms) after the cumulative ACK last moved, without
		// SACK (whose RACK has a timer of its own), is the timer's
		// whatever the duplicate ACKs before it
		// (k17_cubic_nosack_ackloss_l1: 42 duplicate ACKs that Linux,
		// its reordering degree raised, did not take for a loss, the
		// resend 14 ms after the last of them and 323 ms after the ACK
		// moved on a 100 ms path). Not at once alone does not tell: a
		// slow link's sender may send its fast retransmit some
		// milliseconds after the ACK (kz_reno_nosack_l2_geo: 10 ms at
		// 2 Mbit/s, 120 ms after the ACK moved on a 600 ms path).
		timer := !e.sackSeen && e.nearSender() && e.lastAckAt > 0 && e.movedAt > 0 && t > 0 && t-e.lastAckAt > atOnce && t-e.movedAt >= rtoOf(e.rtt)
		ev.start, ev.fast = true, (e.signals > 0 && (e.sackSeen || e.signals >= 3 && !e.renoHold) || e.holdLost) && !timer || soon
		if seq < e.firstData && !e.synSeen && !ev.fast && !e.moved && e.lastAckAt > 0 && t-e.lastAckAt < atOnce {
			e.joinUnseen(&ev)
		} else {
			e.begin(ev.fast)
			e.cut()
			e.begunAt = true
		}
		e.rp.begin(ipid)
		e.undoable, e.eifelDone = !ev.unseen, false
		e.firstSeq, e.firstEnd, e.firstTS, e.firstHasTS = seq, end, tsval, hasTS
	}
	if e.inEpisode && seq <= e.cumAck && end > e.cumAck {
		// The first unacknowledged segment resent again with no ACK
		// moving and no SACK since: only the timer does that (RACK
		// would need a later segment SACKed): a timeout in recovery,
		// Linux's loss state. So does a recovery's first resend of it
		// after a silence of a timeout since the last ACK, nothing sent
		// (NewReno after a partial ACK whose resend PRR held back:
		// kx_reno_nosack_q, 292 ms after the ACK on an 80 ms path); near
		// the sender, a timeout after the cumulative ACK last moved and
		// not at once after the last ACK, as duplicate ACKs do not
		// restart Linux's timer (kc_36ms_1m_q4k_nosack: 244 ms after the
		// partial ACK, 232 ms after a duplicate). Away from the sender
		// the ACKs' times are not the sender's (the receiver's side sees
		// the resend a round trip after the timer fired: the rule read
		// 9 timeouts for the kernel's 3 at kn_vsat_cubic_rto.rx).
		again := e.headSet && e.headAt == e.cumAck && !e.sackSince
		silent := e.epFast && !e.sackSeen && t > 0 && e.lastAckAt > 0 && e.lastSend <= e.lastAckAt &&
			(t-e.lastAckAt >= rtoOf(e.rtt) || e.nearSender() && e.movedAt > 0 && t-e.lastAckAt > atOnce && t-e.movedAt >= rtoOf(e.rtt))
		// So does a timeout's go-back-N that resent it already, the
		// ACKs having moved up to it and stopped, after a silence of a
		// timeout since they last moved: duplicate ACKs resend nothing
		// in Linux's loss state without SACK, the timer fires again
		// (k15_reno_nosack_l06: 312 ms on an 83 ms path, 16 duplicate
		// ACKs between, nothing sent since). They may let new data go:
		// near the sender a send since the last ACK changes nothing
		// (kc_70ms_3m_q9k_nosack_reno: 302 ms, a new segment at each of
		// 16 duplicates, the last 3 ms before the resend); away from it
		// (see silent) it is required.
		lossAgain := !e.epFast && !e.sackSeen && e.rtxEnd > e.cumAck && t > 0 && e.movedAt > 0 && (e.lastSend <= e.lastAckAt || e.nearSender()) && t-e.movedAt >= rtoOf(e.rtt)
		if (again || silent || lossAgain) && !spurious {
			ev.start, ev.fast = true, false
			if e.begunAt {
				// This very resend began the episode, a fast
				// retransmit's by the signals before it; the silence
				// since the last ACK says the timer sent it: one
				// timeout, not a fast retransmit and a timeout in it
				// (sharkfest SF20_Trace3: 5.1 s after 11 duplicate
				// ACKs, counted 1 + 1 where the graph drew one
				// timeout). Its ssthresh cut stays counted.
				e.fast--
				if e.arrivedThis {
					e.arrived, e.arrivedThis = e.arrived[:len(e.arrived)-1], false
				}
				e.begin(false)
				e.epCut, e.epIndex = true, e.cuts
			} else {
				e.begin(false)
				e.begunIn = true
			}
			e.rp.begin(ipid)
			e.begunAt = true
		}
		e.headAt, e.headSet, e.sackSince = e.cumAck, true, false
	}
	if resent && e.drop.resend(e.high, ipid, !spurious && !tlp) {
		ev.drop = true
		if len(e.starts) < maxEpisodeStarts {
			e.starts = append(e.starts, e.sent)
		}
		if e.begunAt {
			e.split.both++
		} else {
			e.split.dropAlone++
		}
	} else if e.begunAt && e.begunIn {
		e.split.timeoutIn++
	} else if e.begunAt {
		e.split.inDrop++
	}
	e.begunAt, e.begunIn = false, false
	if e.inEpisode && seq < e.high && !spurious {
		if !e.rtxSet {
			e.rtxTS, e.rtxSet = tsval, hasTS
		}
		e.rtxEnd = max(e.rtxEnd, end)
	}
	// In RFC 6582's hold (renoHold) Linux is still in recovery, its
	// window PRR's, not yet ssthresh (tcp_end_cwnd_reduction sets it at
	// the ACK above the hold): the flight there measures nothing
	// (k16_cubic_rwnd32_nosack_l1: 12 segments held, ssthresh 10).
	if e.await && (!e.inEpisode || e.reentered) && flight > 0 && !e.renoHold {
		if !e.awaitSeen && !e.reentered && e.started && e.haveAck && e.cumAck >= e.high && t > 0 && e.lastSend > 0 && t-e.lastSend > rtoOf(e.rtt) {
			e.awaitIdle = true
		}
		if !e.awaitSeen {
			e.awaitAck = end
		}
		if e.awaitSeen && e.lastAckAt < e.lastSend && t-e.lastSend >= pacedGap {
			e.awaitPaced = true
		}
		// Without SACK the duplicate ACKs stand for segments that left
		// the network (Linux's sacked_out, renoDup), and limited
		// transmit sends as many above the window: the window is the
		// flight less them (tcp_packets_in_flight).
		e.awaitMax, e.awaitSeen = max(e.awaitMax, flight-e.renoDup*e.maxSeg), true
		e.awaitHeld = e.awaitHeld || e.edgeSet && end >= e.edge-e.maxSeg
	}
	if e.fillBy > 0 {
		switch {
		case e.inEpisode || e.await || t <= 0 || t > e.fillBy || t-e.fillGrewAt > e.rtt/fillStall:
			e.refill()
		case flight >= e.fillMark+e.maxSeg:
			e.fillMark, e.fillGrewAt = flight, t
			fallthrough
		default:
			e.fillMax = max(e.fillMax, flight)
		}
	}
	if e.restoreBy > 0 {
		switch {
		case e.inEpisode || e.await || t <= 0 || t > e.restoreBy:
			e.restoreBy = 0
		case flight >= e.restoreFrom-e.maxSeg:
			e.restored(flight)
		}
	}
	if t > 0 {
		e.lastSend = t
	}
	if !e.started || seq >= e.high {
		e.markSend(seq, t)
	}
	if e.started && seq >= e.high {
		// An episode's end moves only to a proven point: an unproven one
		// past the sender's would swallow the episode Linux enters at
		// once when the new data at its point was lost too
		// (gt_mid_two_links at its middle capture).
		if p, proven := e.rp.newData(seq, e.high, ipid); proven && e.inEpisode {
			e.episodeEnd = max(e.episodeEnd, p)
		}
		e.drop.newData(seq, e.high, ipid)
	}
	if !e.started || end > e.high {
		e.high, e.started = end, true
	}
	return ev
}

// ackEdge is what every ACK tells the tracker before anything else: the
// least RTT so far, its time, the receiver's right edge (ack + win), and
// the end of a refill watch (lossSignal: a loss signal, or SACKed data
// above the ACK).
func (e *lossEpisodes) ackEdge(lossSignal bool, ack, t, rtt, win int64) {
	if rtt > 0 {
		e.rtt = rtt
	}
	if e.fillBy > 0 && (lossSignal || t <= 0 || t > e.fillBy || t-e.fillGrewAt > e.rtt/fillStall) {
		e.refill() // a loss signal (a D-SACK's included), or the watch is over (refill)
	}
	if t > 0 {
		e.lastAckAt = t
	}
	if win > 0 && (!e.haveAck || ack >= e.cumAck) { // an old ACK, reordered, moves no edge
		e.edge, e.edgeSet = ack+win, true
	}
}

// quiet reports whether an ACK at ack that tells nothing new — no loss
// signal, no SACK or D-SACK block, the cumulative ACK not moved — changes
// nothing past ackEdge: outside an episode with nothing to settle, undo or
// hold (renoDupAfter). The ACKs a side that sends no data gets, most ACKs
// of a bulk transfer's reverse direction. (ackEdge changes nothing it
// reads.)
func (e *lossEpisodes) quiet(ack int64) bool {
	return e.haveAck && ack <= e.cumAck && !e.inEpisode && !e.await &&
		!e.undoable && !e.drop.in && (!e.started || e.sackSeen || !e.renoHold)
}

// plainAck is ack for an ACK that is no duplicate ACK and carries no SACK
// option (none cut either) when it is quiet, without the epAck ack reads:
// it returns false, having done nothing, for any other.
func (e *lossEpisodes) plainAck(ack, t, rtt, win int64) bool {
	if !e.quiet(ack) {
		return false
	}
	e.ackEdge(false, ack, t, rtt, win)
	return true
}

// ack feeds an ACK of the direction's data: the cumulative ACK, whether
// it signals a loss (a duplicate ACK, SACK blocks) and whether it SACKs
// data above the ACK (holes remain). An ACK that ends an episode while
// holes remain starts the next at once, as Linux enters recovery again
// when a retransmission was lost too (lost segments, or SACKed ones, are
// still outstanding; with SACK, also data RACK deems lost: lostAbove): a
// fast retransmit without a resend of its own yet —
// unless reordering was seen (a hole closed with nothing resent): Linux
// then waits for the holes (its reordering window and threshold grow).
func (e *lossEpisodes) ack(a *epAck) (ev episodeEvent) {
	ack, signal, above := a.ack, a.signal, a.above
	if a.cutOpt && e.started && ack >= e.high {
		above = false // a cut D-SACK: no data above the ACK to SACK (cut)
	}
	e.sackSeen = e.sackSeen || a.sack || a.above
	e.ackEdge(a.signal || above, a.ack, a.time, a.rtt, a.win)
	if !a.signal && !a.sack && !a.hasDSACK && e.quiet(ack) {
		return ev
	}
	partial, reenter := e.partialUndo(a), false
	if partial {
		ev.partial, e.eifelDone = true, true
		reenter = e.reentersAfterUndo(a.ack)
	} else {
		ev.undone = e.undo(a)
		if ev.undone && e.sackSeen && e.inEpisode && e.epFast && a.ack > e.cumAck && a.ack < e.episodeEnd && a.ack >= e.rtxEnd {
			// With SACK too Linux undoes at a partial ACK that proves
			// the originals arrived and leaves no resend outstanding
			// (tcp_try_undo_partial: retrans_out 0), and leaves
			// recovery (tcp_try_keep_open): the episode is over, its
			// window restored (kx_reno_jitter6_l1: undone 2 ms after
			// its resend, held open to the next loss 70 ms later, which
			// it swallowed).
			ev.partial = true
			e.inEpisode, e.await, e.reentered = false, false, false
		}
	}
	// A drained end, or one whose sender paces the window out, waits for
	// the sender's round trip, but not past a loss signal: the next
	// episode's window is the one to measure (see settle).
	hold := (e.drained || e.awaitPaced && e.sackSeen) && a.ack < e.awaitAck && !a.signal && !a.above
	if s := e.settle(a.time, hold); s.settled {
		ev.settled, ev.ssthresh, ev.idle = true, s.ssthresh, s.idle
	}
	newAck, acked := !e.haveAck || ack > e.cumAck, int64(0)
	if seg := max(e.maxSeg, 1); newAck && e.haveAck {
		acked = (ack - e.cumAck + seg - 1) / seg
	}
	switch {
	case !e.haveAck || ack > e.cumAck:
		if e.haveAck && e.signals > 0 && !e.wasResent(e.cumAck) {
			// A hole closed with nothing resent: the data came late.
			if e.silentRec && !e.inEpisode {
				ev.silentUndo = true
				e.fast++
				e.undone++
				e.split.silent++
			}
			e.reordSeen = true
		}
		e.silentRec = false
		// A timeout's loss state held at its end (RFC 6582) and left by
		// this ACK, after duplicate ACKs enough to mark the next segment
		// lost: Linux enters recovery at once (holdLost).
		e.holdLost = e.renoHold && ack > e.holdAt && !e.inEpisode && !e.epFast && e.signals >= 3
		if e.haveAck && !e.wasResent(ack-1) && a.time > 0 {
			if x, ok := e.xmitOf(ack - 1); ok && a.time > x && (e.minRTT == 0 || a.time-x < e.minRTT) {
				e.minRTT = a.time - x
			}
		}
		e.moved = e.moved || e.haveAck
		e.cumAck, e.haveAck, e.signals = ack, true, 0
		if a.time > 0 {
			e.movedAt = a.time
		}
		e.trimSends()
		e.renoHold = e.renoHold && ack <= e.holdAt
		if above { // a new ACK SACKing data above it: a hole remains, RACK's signal
			e.preSignal, e.signals = e.lastFlight, 1
		}
	case signal:
		if e.signals == 0 {
			e.preSignal = e.lastFlight
		}
		e.signals++
	}
	e.sackSince = e.sackSince || above
	e.reoWindow(a)
	if !e.silentRec && !e.inEpisode && a.sack && !newAck && e.rackLost(a) {
		e.silentRec, ev.silentEnter = true, true
	}
	if newAck {
		e.sackedMost = 0
	}
	e.sackedMost = max(e.sackedMost, e.sackedAboveCum(a))
	e.drop.ack(ack)
	if e.inEpisode && ack >= e.episodeEnd {
		e.inEpisode, e.await, e.awaitFlight, e.endedAt, e.awaitHeld = false, true, e.lossFlight, a.time, false
		e.awaitTwice, e.twiceFrom = e.twiceFrom, 0
		if !e.epUndone && e.reoPersist > 0 {
			// A recovery not undone wears the widened window down
			// (tcp_try_undo_recovery); once worn, it is one step again.
			if e.reoPersist--; e.reoPersist == 0 {
				e.reoSteps = 1
			}
		}
		e.drained = ack >= e.high
		e.renoHold, e.holdAt = !e.sackSeen && ack == e.episodeEnd, ack
		if ((above || e.sackSeen && e.lostAbove(ack)) && !e.reordSeen || e.resentInHole(a)) && e.high > ack {
			// The same drops' repair, not a drop event of its own
			// (drop), no β of its own (the window before it is the
			// one recovery left); the last episode's ssthresh is still
			// the flight of the next segment sent.
			undone := e.epUndone // Linux restored the window: one cut from it
			had := len(e.arrived)
			e.begin(true)
			e.cut()
			e.lossFlight, e.await, e.reentered = 0, true, true
			e.arrived, e.arrivedThis = e.arrived[:had], false // no window of its own
			e.split.reentry++
			if !undone {
				e.twiceFrom = e.awaitFlight
			}
			ev.start, ev.fast = true, true
		}
	}
	switch {
	case partial && reenter:
		e.reenter()
		ev.start, ev.fast = true, true
		e.split.partial++
	case partial:
		e.undoPartial()
		ev.undone = true
	}
	e.renoDupAfter(a, newAck, acked)
	return ev
}

// reentersAfterUndo reports whether, at a partial ACK of ack that undoes
// the fast retransmit's reduction (partialUndo), Linux enters recovery
// again at once: its count of duplicate ACKs (renoDup, less what this
// ACK takes back: tcp_remove_reno_sacks) still reaches three
// (tcp_time_to_recover's dupthresh) and leaves a segment outstanding
// unaccounted for, which tcp_newreno_mark_lost marks lost
// (tcp_limit_reno_sacked: sacked_out + 1 <= packets_out), and
// tcp_fastretrans_alert calls tcp_enter_recovery for it. Else no loss is
// evident any more and Linux leaves recovery with the window restored.
func (e *lossEpisodes) reentersAfterUndo(ack int64) bool {
	seg := max(e.maxSeg, 1)
	acked := (ack - e.cumAck + seg - 1) / seg
	dup := max(e.renoDup-max(acked-1, 0), 0)
	out := (e.high - ack + seg - 1) / seg
	return dup >= 3 && dup+1 <= out
}

// partialUndo reports whether ACK a is one at which Linux, in a fast
// retransmit's recovery without SACK, undoes its reduction
// (tcp_try_undo_partial): a partial ACK (the cumulative ACK moves, below
// the episode's end) that covers every resend since the episode began
// or began again (no retransmission left out: retrans_out is 0) and
// echoes a timestamp older than the first of them (tcp_packet_delayed:
// the originals arrived, late), or none was resent since recovery began
// again (Linux's retrans_stamp is 0 then, which tcp_packet_delayed takes
// as delayed: the kernels that recorded kz_vsat_cubic_nosack2 do). Linux then restores the window
// (tcp_undo_cwnd_reduction) and, where the duplicate ACKs still show the
// next segment lost (reentersAfterUndo), enters recovery again at once
// (tcp_newreno_mark_lost, tcp_enter_recovery): ack calls reenter and
// reports a fast retransmit's start; else the episode is over, undone:
// undoPartial. Both callers (the cwnd graph, the statistics) read the
// one decision from ack's event.
func (e *lossEpisodes) partialUndo(a *epAck) bool {
	delayed := !e.rtxSet || int32(a.tsecr-e.rtxTS) < 0
	return e.inEpisode && e.epFast && !e.sackSeen && !a.sack && a.hasTS && delayed &&
		e.haveAck && a.ack > e.cumAck && a.ack < e.episodeEnd && a.ack >= e.rtxEnd
}

// renoDupAfter follows Linux's count of duplicate ACKs without SACK
// (renoDup) after ACK a (newAck: it moved the cumulative ACK, by acked
// segments), the episode's state after it known.
func (e *lossEpisodes) renoDupAfter(a *epAck, newAck bool, acked int64) {
	if !e.started || e.sackSeen {
		return
	}
	seg := max(e.maxSeg, 1)
	switch {
	case newAck && e.inEpisode:
		e.renoDup = max(0, e.renoDup-max(acked-1, 0))
	case newAck:
		e.renoDup = 0
	case a.signal && (e.high-e.cumAck+seg-1)/seg > e.renoDup+1:
		e.renoDup++
	}
	if e.renoHold && !e.inEpisode {
		// RFC 6582's hold: each ACK resets the count (tcp_reset_reno_sack,
		// tcp_try_undo_recovery returning before tcp_add_reno_sack).
		e.renoDup = 0
	}
}

// reenter, after a partial undo (partialUndo), begins the next fast
// retransmit's episode at once: the one undone is over, its reduction
// taken again (from the same window: no β of its own), not counted as
// undone.
func (e *lossEpisodes) reenter() {
	had, cut, index := len(e.arrived), e.epCut, e.epIndex
	e.begin(true)
	e.epCut, e.epIndex = cut, index // the undone one's cut, taken again
	e.lossFlight = 0
	e.arrived, e.arrivedThis = e.arrived[:had], false // no window of its own
}

// undoPartial, after a partial undo (partialUndo) with no loss evident
// any more, ends the episode as undone: Linux leaves recovery with the
// window restored.
func (e *lossEpisodes) undoPartial() {
	e.inEpisode, e.await, e.reentered = false, false, false
	e.epUndone, e.undoable = true, false
	e.undone++
	e.uncut()
	e.dropArrived()
}

// dropArrived takes the last episode's window out of arrived, where it
// is the last: an episode proven spurious was no loss, as flights leaves
// it out.
func (e *lossEpisodes) dropArrived() {
	if e.arrivedThis {
		e.arrived = e.arrived[:len(e.arrived)-1]
		e.arrivedThis = false
	}
}

// lostAbove reports whether, at an ACK of ack that ends an episode with
// SACK in use, RACK deems data above it lost (RFC 8985; Linux's
// tcp_rack_detect_loss): some was sent before a resend the ACK covers
// (delivered: RACK's most recent delivery is later than that data's
// send, by more than the round trip the resend took) and, in recovery
// with no reordering seen, RACK's reordering window is 0
// (tcp_rack_reo_wnd). Linux then, leaving recovery at that ACK, enters
// it again at once (tcp_fastretrans_alert: tcp_identify_packet_loss,
// tcp_time_to_recover on lost_out): a fast retransmit, though no SACK
// block is left above the ACK (kw_cubic_sack_l2: its resend drawn as a
// timeout).
func (e *lossEpisodes) lostAbove(ack int64) bool {
	if e.rtx == nil {
		return false
	}
	for i := range min(e.rtxN, len(e.rtx)) {
		if r := e.rtx[i]; r[1] <= ack && r[2] > ack {
			return true
		}
	}
	return false
}

// resentInHole reports whether, at ACK a, one of the last resends lies
// in a hole it leaves: above the cumulative ACK, below its highest SACK
// block, in none. Linux keeps a resent segment marked lost until it is
// acknowledged or SACKed (lost_out: tcp_sacktag_one, tcp_clean_rtx_queue
// clear it), so at an ACK that ends recovery with one outstanding it
// enters recovery again at once (tcp_time_to_recover: lost_out), whatever
// reordering it saw, and resends nothing for it (kz_cubic_jitter3_l1:
// two recoveries re-entered at the ACK that ended the last, both holes
// above it resent already, reordering seen).
func (e *lossEpisodes) resentInHole(a *epAck) bool {
	if e.rtx == nil || a.nBlocks == 0 {
		return false
	}
	var top int64
	for _, b := range a.blocks[:a.nBlocks] {
		top = max(top, b[1])
	}
	for i := range min(e.rtxN, len(e.rtx)) {
		r := e.rtx[i]
		if r[0] < a.ack || r[1] > top {
			continue
		}
		covered := false
		for _, b := range a.blocks[:a.nBlocks] {
			covered = covered || b[0] <= r[0] && r[1] <= b[1]
		}
		if !covered {
			return true
		}
	}
	return false
}

// wasResent reports whether one of the last resends covered seq.
func (e *lossEpisodes) wasResent(seq int64) bool {
	if e.rtx == nil || seq >= e.rtxTop { // (above every resend: the usual new ACK)
		return false
	}
	for i := range min(e.rtxN, len(e.rtx)) {
		if r := e.rtx[i]; r[0] <= seq && seq < r[1] {
			return true
		}
	}
	return false
}

// undo reports whether a (the first such) proves the last episode begun by
// a resend spurious, as Linux undoes one (RFC 3522's Eifel, RFC 2883's
// D-SACK): the first ACK to cover the first resend echoes a timestamp
// older than the resend's (the original arrived), or a D-SACK block
// covers it (both arrived). An undone episode keeps its kind, is counted
// in undone, and tells nothing of the algorithm (no β, no vote: Linux
// restores the window).
func (e *lossEpisodes) undo(a *epAck) bool {
	if !e.undoable || e.epUndone {
		return false
	}
	proven := a.hasDSACK && a.dsack[0] <= e.firstSeq && a.dsack[1] >= e.firstEnd
	if !e.eifelDone && a.ack >= e.firstEnd {
		e.eifelDone = true
		proven = proven || a.hasTS && e.firstHasTS && int32(a.tsecr-e.firstTS) < 0
	}
	if !proven {
		return false
	}
	e.epUndone = true
	e.undone++
	e.uncut()
	if e.settledThis { // measured already: taken back
		e.betas = e.betas[:len(e.betas)-1]
		e.reductions = e.reductions[:len(e.reductions)-1]
		e.settledThis, e.restoreBy, e.fillBy = false, 0, 0
	}
	if e.flightThis {
		e.flights = e.flights[:len(e.flights)-1]
		e.flightThis = false
	}
	if e.keptThis {
		e.keptLate--
		e.keptThis = false
	}
	e.dropArrived()
	return true
}

// settle, at an ACK at now: the ended episode's ssthresh is the flight
// after the first burst of sends once it ended (the segments before the
// next ACK: Linux leaves recovery with cwnd at ssthresh and fills it at
// once; where its pacing spreads that fill, the reduction measured is
// revised as the flight grows: refill), at least two segments; without SACK the largest flight of the
// round trip after it ended (the cumulative ACK that ends NewReno's
// recovery frees the whole window at once, and the sender fills it
// over more than one burst). Where the sender came back after an idle
// RTO (awaitIdle) the flight measured Linux's restarted window: no
// measurement (idle), no β. Where the ACK that ended it left nothing
// outstanding (drained: the receive window had held the sender through
// recovery), the flight starts again from nothing and Linux paces it out
// at its rate, a window over a smoothed round trip: it is measured until
// ack covers the first segment sent after the end (awaitAck), the sender's
// own round trip (kx_reno_rwnd, a 48 KB window: its first burst, two
// segments, passed for an ssthresh of 2 where the kernel set 41), or a
// loss signal (hold, told by ack). So is, with SACK, an end after which
// the sender paced the window out (awaitPaced: a send pacedGap or more
// after the last with no ACK between them; Linux paces at 1.2 windows a
// smoothed round trip, sk_pacing_ca_ratio, so the first ACK after the
// end comes before the flight reached ssthresh where that round trip is
// long: k32_cubic_rwnd96_l05, a 400 ms path, two segments every 14 ms
// after its recoveries, 42 segments in flight at the first ACK for the
// kernel's ssthresh 47, measured 0.62 of the window before and the
// algorithm left unknown; without SACK half the round trip is measured
// already).
// finish settles what is pending whatever the time (now < 0).
func (e *lossEpisodes) settle(now int64, hold bool) (ev episodeEvent) {
	if !e.await || !e.awaitSeen || hold && !e.reentered {
		return ev
	}
	if !e.sackSeen && now >= 0 && e.rtt > 0 && !e.reentered && now-e.endedAt < e.rtt/2 {
		return ev
	}
	ev.settled, ev.ssthresh, ev.idle = true, max(e.awaitMax, 2*e.maxSeg), e.awaitIdle
	reentered, held := e.reentered, e.awaitHeld
	e.await, e.reentered, e.awaitSeen, e.awaitMax, e.awaitIdle, e.awaitHeld, e.awaitPaced = false, false, false, 0, false, false, false
	// A drained end that shows no reduction gives no β: the flight at
	// the loss was what the receiver's window held, and Linux halved a
	// larger cwnd out of sight (kx_reno_rwnd: 82 segments, 41 in
	// flight, ssthresh 41).
	hidden := e.drained && 10*ev.ssthresh >= 9*e.awaitFlight
	// Nor does a window after it below Reno's half of the one before (by
	// more than a segment and 15%): no algorithm reduces that far at a
	// fast retransmit, something else held the sender after it — the
	// receiver's window, the application (kz_cubic_rwnd32: a 32 KB
	// window closing to 3 segments after two recoveries voted Reno's
	// half; see crossCheck).
	seg := max(e.maxSeg, 1)
	half := linuxSsthresh(VoteReno, (e.awaitFlight+seg/2)/seg) * seg
	short := float64(ev.ssthresh) < float64(half)-max(float64(seg), 0.15*float64(half))
	// Nor does a reduction measured in recovery entered again at once:
	// PRR's flight, under the second reduction (kw_cubic_sack_l2: 113
	// segments, 50 in the re-entered recovery, Linux's 115 to 80 then
	// 56, voted Reno's half and drew the first recoveries under it); a
	// window that shows no reduction there (BBR's: within 15%) stands.
	compounded := reentered && 100*ev.ssthresh < 85*e.awaitFlight
	if hidden && !e.epUndone && !ev.idle && e.awaitFlight >= 4*seg && e.epAtEdge && e.epIndex >= keptFrom {
		e.keptLate++
		e.keptThis = e.undoable
	}
	if e.awaitFlight > 0 && !e.epUndone && !ev.idle && !hidden && len(e.flights) < maxEpisodeStarts {
		e.flights = append(e.flights, e.awaitFlight)
		e.flightThis = e.undoable
	}
	if e.awaitFlight > 0 && !e.epUndone && !ev.idle && !hidden && !short && !compounded && len(e.reductions) < maxEpisodeStarts {
		e.betas = append(e.betas, float64(ev.ssthresh)/float64(e.awaitFlight))
		e.reductions = append(e.reductions, [3]int64{e.awaitFlight, ev.ssthresh, 1})
		e.settledThis = e.undoable
		if now > 0 && e.rtt > 0 && e.sackSeen && !held && !reentered && !e.drained && float64(ev.ssthresh) <= fillBelow*float64(e.awaitFlight) {
			e.fillBy, e.fillMax, e.fillMark, e.fillGrewAt, e.fillAt = e.endedAt+e.rtt, ev.ssthresh, ev.ssthresh, now, len(e.reductions)-1
		}
		if now > 0 && e.rtt > 0 && 100*ev.ssthresh < 85*e.awaitFlight && !held && e.sackSeen && !e.reordSeen && !e.lateSeen && e.awaitFlight >= restoreMin*seg {
			e.restoreBy, e.restoreFrom, e.restoreAt = now+restoreRTTs*e.rtt, e.awaitFlight, len(e.reductions)-1
		}
	}
	// The second of two cuts in a row (twiceFrom), measured against the
	// window before both: β is the factor of each (k26_reno_reverse_l05:
	// Linux's 491 segments cut to 245, recovery entered again at its end,
	// 242 to 122; neither had a β of its own before). A window after it
	// below Reno's half twice over, by the same margin as short, is not
	// a reduction.
	// One that shows no reduction is no vote: the first episode's own
	// window, measured in the second, voted already (one loss event, one
	// vote: minBBRVotes).
	if from := e.awaitTwice; from > 0 && !e.epUndone && !ev.idle && len(e.reductions) < maxEpisodeStarts && 100*ev.ssthresh < 85*from {
		quarter := linuxSsthresh(VoteReno, linuxSsthresh(VoteReno, (from+seg/2)/seg)) * seg
		if float64(ev.ssthresh) >= float64(quarter)-max(float64(seg), 0.15*float64(quarter)) {
			e.betas = append(e.betas, math.Sqrt(float64(ev.ssthresh)/float64(from)))
			e.reductions = append(e.reductions, [3]int64{from, ev.ssthresh, 2})
			e.settledThis = e.undoable
		}
	}
	e.awaitTwice = 0
	return ev
}

// restoreRTTs: a flight back at the window before a reduction within
// this many round trips (the least) of its measurement was not cut
// (restored). BBR leaves recovery with its window before it
// (prior_cwnd: bbr_set_cwnd_to_recover_or_restore): the flight its
// recovery's packet conservation lowered comes back as soon as the
// pacing sends it (k31_bbr_rwnd64_l1, held by a 64 KB window: 55
// segments, 36–39 after its recoveries for a round trip, then 55 again,
// read as CUBIC's 0.7). Reno and CUBIC regrow a cut of a window of
// restoreMin segments or more in more round trips: Reno's segment a
// round trip, CUBIC's half of one in its Reno-friendly region, far more
// on its curve, from the 8 (Reno) or 5 (CUBIC) segments that separate
// the window after the cut from one segment under the window before.
// Smaller windows come back sooner (kv_reno_3pct_40ms: 5 segments, 2
// after, 4 again within a round trip); so do windows Linux restored in
// an undo no capture proves, under reordering (rl_45ms_20m_l15_nosack:
// 24, 16, 23 in a fifth of one), and without SACK, whose flight counts
// what the duplicate ACKs stand for (kq_cubic_nosack_geo: 28, 21, 27):
// none of those is watched.
const restoreRTTs = 2

// pacedGap: a send this long after the last with no ACK between them
// was paced, not clocked by ACKs (see settle).
const pacedGap = 1e6

// restoreMin is the least window, in segments, whose reduction is
// watched for a restore (restoreRTTs).
const restoreMin = 16

// restored takes the last reduction back as none: the flight came back
// to the window before it (restoreRTTs), the cut measured was held by
// something else for a while (BBR's recovery, the receiver's window).
func (e *lossEpisodes) restored(flight int64) {
	e.restoreBy = 0
	i := e.restoreAt
	if i != len(e.reductions)-1 || e.reductions[i][0] != e.restoreFrom || e.reductions[i][2] != 1 {
		return // taken back (undo), or another measured since
	}
	e.reductions[i][1] = min(flight, e.restoreFrom)
	e.betas[i] = float64(e.reductions[i][1]) / float64(e.restoreFrom)
}

// refill ends the watch of the last reduction's window after (fillBy):
// the most in flight while the sender still filled the window it left
// recovery with, up to the window before, is that window. Linux sets
// cwnd to ssthresh as recovery ends (tcp_end_cwnd_reduction) but queues
// no more than its pacing rate allows (TCP small queues: about a
// millisecond at 1.2 windows a smoothed round trip; BBR paces outright),
// so on a fast path it fills the window over the ACKs that follow, not
// in the first burst after the end that settle measures
// (ak_590ms_43m_b09, CUBIC at 43 Mbit/s: 2.8 MB in flight at the first
// ACK after a 5.6 MB window, read as Reno's half; 4.0 MB a round trip
// later, 0.73). A sender clocked by ACKs fills its window at once and
// grows it by a segment a round trip after: the watch ends once the
// flight has not grown by a segment for a fillStall-th of a round trip;
// a loss signal, a new episode, a round trip after the end or the
// capture's end end it too. Watched only where the first burst read
// fillBelow of the window before or less, where Reno's half and CUBIC's
// 0.7 are to be told apart: above it CUBIC's own growth over a long
// round trip would pass for a refill (kn_geo_cubic_loss: 46 segments
// after 67, as the kernel's ssthresh, 53 within its 600 ms). A window
// one segment above the first burst's is left as it was: at a few
// segments that is Reno's growth a round trip after
// (mx_30ms_3m_q7k_l13_reno_nots: 3 segments after 6, 4 within the round
// trip, read as CUBIC's 0.7). Unlike the restore watch (restoreRTTs), it
// runs where data came late too (ak_590ms_43m_b09 had): there an undo
// no capture proves would pass for a refill, back at the window before;
// on the labelled and kernel senders none did (no name changed but
// ak_590ms_43m_b09's, to CUBIC).
func (e *lossEpisodes) refill() {
	e.fillBy = 0
	i := e.fillAt
	if i != len(e.reductions)-1 || e.reductions[i][2] != 1 {
		return // another measured since
	}
	if after := min(e.fillMax, e.reductions[i][0]); after > e.reductions[i][1]+e.maxSeg {
		e.reductions[i][1] = after
		e.betas[i] = float64(after) / float64(e.reductions[i][0])
	}
}

// fillStall, fillBelow: see refill.
const (
	fillStall = 4
	fillBelow = 0.6
)

// finish settles what the capture's end leaves pending.
func (e *lossEpisodes) finish() episodeEvent {
	if e.fillBy > 0 {
		e.refill()
	}
	return e.settle(-1, false)
}

// lateOriginal tells the tracker of an original the path found late at
// the capture (it does not see those as data: they are no resends).
func (e *lossEpisodes) lateOriginal() { e.lateSeen = true }

// sendMark is when new data from seq on began to go out (lossEpisodes.sends).
type sendMark struct{ seq, t int64 }

// maxSendMarks bounds lossEpisodes.sends: past it the oldest half goes
// (a second of sending at most: the holes older marks would time RACK
// deemed lost long before, and a hole below every mark is not timed);
// before the first ACK (a capture that may never show one) far fewer.
const (
	maxSendMarks      = 1 << 10
	maxSendMarksNoAck = 64
)

// markSend records new data [seq, …) sent at t (0 unknown).
func (e *lossEpisodes) markSend(seq, t int64) {
	if t <= 0 {
		return
	}
	if n := len(e.sends); n > 0 && t-e.sends[n-1].t < 1e6 {
		return
	}
	limit := maxSendMarks
	if !e.haveAck {
		limit = maxSendMarksNoAck
	}
	if len(e.sends) >= limit {
		e.sends = append(e.sends[:0], e.sends[limit/2:]...)
	}
	e.sends = append(e.sends, sendMark{seq, t})
}

// trimSends drops the marks below the cumulative ACK but the last.
func (e *lossEpisodes) trimSends() {
	i := sort.Search(len(e.sends), func(i int) bool { return e.sends[i].seq > e.cumAck })
	if i > 1 {
		e.sends = append(e.sends[:0], e.sends[i-1:]...)
	}
}

// xmitOf is when the new data at seq went out, within a millisecond
// after it (false: not known).
func (e *lossEpisodes) xmitOf(seq int64) (int64, bool) {
	i := sort.Search(len(e.sends), func(i int) bool { return e.sends[i].seq > seq })
	if i == 0 {
		return 0, false
	}
	return e.sends[i-1].t, true
}

// rackLost tells whether, at ACK a, Linux's RACK (RFC 8985,
// tcp_rack_detect_loss) deems the hole at the cumulative ACK lost: data
// sent after it was SACKed, and sent later by more than the reordering
// window — 0 before any reordering was seen once three segments or more
// are SACKed (tcp_rack_reo_wnd: sacked_out at tp->reordering), else a
// quarter of the least RTT a step (reoWindow), at most the RTT: the
// tracker's own (minRTT), or the handshake's where that is more than
// twice it (pathRTT: a capture between two links times only the trip
// beyond it). RACK looks again only where an ACK SACKs more than any
// before it at the same cumulative ACK (tcp_rack_mark_lost needs
// rack.advanced: something newly SACKed). The caller asks only at
// ACKs that leave the cumulative ACK where it was: one that moves it
// times the hole by the last segment it covered (tcp_clean_rtx_queue's
// tcp_rack_advance sets RACK's RTT last), sent before the hole, and
// deems nothing lost then (k13_reno_jitter3_l06: a hole sent 22 ms
// before the data SACKed above it, the ACK that SACKed it moving the
// cumulative ACK over a late segment; Linux stayed in disorder).
func (e *lossEpisodes) rackLost(a *epAck) bool {
	sacked, top := e.sackedAboveCum(a), int64(0)
	for i, b := range a.blocks[:a.nBlocks] {
		if b[1] > e.cumAck && !(i == 0 && a.hasDSACK) {
			top = max(top, b[1])
		}
	}
	if sacked == 0 || e.maxSeg == 0 || sacked <= e.sackedMost {
		return false
	}
	// Three segments SACKed: more than two of the largest sent, at least
	// 536 bytes (a 309-byte message SACKed above a 1-byte one is one
	// segment, not 300: an iperf3 control connection).
	if !e.reordSeen && sacked > 2*max(e.maxSeg, 536) {
		return true
	}
	// The send times are the capture's: at a receiver-side capture they
	// are arrivals, and the least RTT (from data to its ACK) the
	// receiver's own delay, under a millisecond; at one where originals
	// arrive late (a receiver's or one between links) they are not the
	// sender's either: not told there (gt_mid_jitter_ackloss between its
	// links: 5 recoveries more, none the sender's). Nor on a path so short
	// that a quarter of its RTT is within twice the marks' millisecond.
	if e.minRTT < 1e6 || e.lateSeen {
		return false
	}
	base := e.minRTT
	if e.pathRTT > 2*base {
		base = e.pathRTT
	}
	if base < 8e6 {
		return false
	}
	hole, ok := e.xmitOf(e.cumAck)
	last, ok2 := e.xmitOf(top - 1)
	return ok && ok2 && last-hole > min(int64(max(e.reoSteps, 1))*(base/4), base)+rackSlack
}

// rackSlack: xmitOf times a send by its millisecond mark, up to a
// millisecond early, so a gap within it of RACK's window does not tell.
const rackSlack = 1e6

// sackedAboveCum is the bytes a's SACK blocks cover above the cumulative
// ACK, a D-SACK block left out (it reports data received twice).
func (e *lossEpisodes) sackedAboveCum(a *epAck) (n int64) {
	for i, b := range a.blocks[:a.nBlocks] {
		if b[1] > e.cumAck && !(i == 0 && a.hasDSACK) {
			n += b[1] - max(b[0], e.cumAck)
		}
	}
	return n
}

// reoWindow follows what widens RACK's reordering window: a D-SACK (a
// segment received twice: a resend was spurious) a round trip or more
// after the last widening adds a step, kept for 16 recoveries
// (tcp_rack_update_reo_wnd) — once reordering was seen and something
// was resent (tcp_dsack_seen ignores the others).
func (e *lossEpisodes) reoWindow(a *epAck) {
	if a.hasDSACK && e.reordSeen && e.rtxN > 0 && (e.reoAt == 0 || a.time-e.reoAt >= e.minRTT) {
		e.reoSteps = min(max(e.reoSteps, 1)+1, 0xff)
		e.reoPersist, e.reoAt = 16, a.time
	}
}

// atOnce is how soon after an ACK a sender's resend is the ACK's doing
// as a sender-side capture sees it: Linux sends a fast retransmit while
// it processes the ACK (about 0.1 ms on the lab's captures).
const atOnce = 2e6

// nearSender: the least RTT the tracker timed is the whole path's (at
// least 9/10 of the handshake's): the capture sees the sender's sends
// and ACKs about when the sender did.
func (e *lossEpisodes) nearSender() bool {
	return e.pathRTT > 0 && e.minRTT > 0 && 10*e.minRTT >= 9*e.pathRTT
}

// begin starts an episode, as a fast retransmit or a timeout.
func (e *lossEpisodes) begin(fast bool) {
	e.silentRec = false
	e.inEpisode, e.episodeEnd, e.await, e.reentered = true, e.high, false, false
	e.twiceFrom, e.awaitTwice = 0, 0
	e.rp = recoveryPoint{} // data's begins it at the resend that began the episode
	e.awaitSeen, e.awaitMax, e.awaitIdle, e.drained, e.awaitHeld, e.awaitPaced = false, 0, false, false, false, false
	e.headSet = false
	e.undoable, e.epUndone, e.settledThis, e.flightThis, e.keptThis = false, false, false, false, false
	e.epFast, e.rtxSet, e.rtxEnd = fast, false, 0
	// The window at the loss: the flight when the first duplicate ACK
	// or SACK came, before the sender sent on them.
	e.lossFlight = e.lastFlight
	if fast && e.signals > 0 && e.preSignal > 0 {
		e.lossFlight = e.preSignal
	}
	if !fast {
		e.lossFlight = 0 // a timeout restarts from one segment: no β
	}
	if fast {
		e.fast++
		e.arrivedThis = len(e.arrived) < maxEpisodeStarts
		if e.arrivedThis {
			e.arrived = append(e.arrived, e.high-e.cumAck)
		}
	} else {
		e.arrivedThis = false
		e.rto++
		e.renoDup = 0 // every outstanding segment deemed lost (tcp_enter_loss)
	}
	e.epCut, e.epIndex = false, e.cuts
	e.epAtEdge = e.edgeSet && e.edge-e.high <= 2*max(e.maxSeg, 1)
}

// joinUnseen begins the episode the sender was already in when the
// capture began: its first resend is of bytes the capture never saw sent
// (below its first data, the sender's SYN unseen), at once after an ACK
// (atOnce), with the cumulative ACK not yet moved in the capture and too
// few signals seen to make it a fast retransmit. The episode's start, and
// so its kind, the window it cut and the cut, were before the capture: it
// is followed as a recovery (Linux resends on ACKs only in recovery),
// counted as no episode, with no reduction and nothing to undo
// (kn_vsat_cubic_rto cut 5 s in, in the kernel's recovery: the resend 71
// µs after a duplicate ACK had been counted a timeout and drawn with 5.8 s
// of the loss state). Where the SYN was seen, an original missing below
// the first data was lost before the capture point (tcptrace's
// single_byte_rexmit, a timeout); where three duplicate ACKs or SACK
// blocks came first, the capture saw a fast retransmit begin
// (chrissanders-packets' tcp_dupack); where the cumulative ACK moved, the
// capture saw the sender open; and a resend after a silence is the
// timer's whatever came before (kb_540ms_1m_q15k_l3_nosack cut at 24.503
// s, the kernel in disorder: two duplicate ACKs seen, 0.53 s of silence,
// its timeout): each of those is judged as any resend.
func (e *lossEpisodes) joinUnseen(ev *episodeEvent) {
	fast, arrived := e.fast, len(e.arrived)
	e.begin(true)
	e.fast, e.arrived, e.arrivedThis = fast, e.arrived[:arrived], false
	e.lossFlight = 0
	ev.fast, ev.unseen = true, true
}

// cut counts the episode just begun as a cut of ssthresh (cuts).
func (e *lossEpisodes) cut() {
	e.cuts++
	e.epCut, e.epIndex = true, e.cuts
}

// uncut takes the episode's cut back: Linux undid it.
func (e *lossEpisodes) uncut() {
	if e.epCut {
		e.cuts--
		e.epCut = false
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// betaMedian is the median reduction factor of the episodes whose
// ssthresh was measured.
func (e *lossEpisodes) betaMedian() (float64, bool) {
	if len(e.betas) == 0 {
		return 0, false
	}
	b := slices.Clone(e.betas)
	slices.Sort(b)
	if n := len(b); n%2 == 1 {
		return b[n/2], true
	}
	return (b[len(b)/2-1] + b[len(b)/2]) / 2, true
}

// vote is the reduction the episodes measured, Reno's or CUBIC's, as
// congestionControl names the algorithm: a majority of the episodes'
// votes, else the median reduction factor (medianVote).
func (e *lossEpisodes) vote() (int, bool) {
	votes := e.reductionVotes()
	if best, ok := majorityVote(votes); ok {
		off := e.reductionsOff()
		return best, best != VoteNone && !offMostly(votes, off, best) && clearerThanChance(votes, off, best)
	}
	v, ok := medianVote(e.betaMedian())
	return v, ok && medianTells(v, votes, len(e.betas))
}

// medianTells reports whether a median reduction that stands for vote v
// (medianVote), from episodes episodes without a majority, names the
// algorithm: one episode at least voted for it (k32_bbr_rwnd96_l1, BBR
// held by a 96 KB window: one cut of 84 segments to 72, none, one to
// 47 that the window's dip made, Reno's half; their median, 0.71, was
// named CUBIC), and Reno's half needs minMedianReno of them.
func medianTells(v int, votes [3]int, episodes int) bool {
	return votes[v] > 0 && (v != VoteReno || episodes >= minMedianReno)
}

// reductionVotes tells, episode by episode, whose reduction the window
// after it matches (in segments of maxSeg, as Linux counts them): Reno's
// and NewReno's half, CUBIC's 717/1024 (0.7 in Linux's integers), both at
// least two segments, or none (BBR's, within 15%); an episode from fewer
// than 4 segments, or as near to two of them, tells nothing.
func (e *lossEpisodes) reductionVotes() (v [3]int) {
	e.eachReduction(func(vote int, _ bool) { v[vote]++ })
	return v
}

// reductionsOff is, vote by vote (reductionVotes: Reno's, CUBIC's), how
// many of the reductions that voted for it were more than offReduction
// of the window from its value: a cut to neither.
func (e *lossEpisodes) reductionsOff() (n [3]int) {
	e.eachReduction(func(vote int, off bool) {
		if off {
			n[vote]++
		}
	})
	return n
}

// offReduction: a reduction further than this share of the window
// before it (and a segment) from both Reno's half and CUBIC's 0.7 is
// neither's. On the kernel and labelled runs, 95% of Reno's and CUBIC's
// reductions came within 0.067 of their value (Linux's integers, PRR's
// settling), the reductions of BBR's episodes that cut its window at all
// 0.075 and more but a few (k25_bbr_lossless_q80k: 12 of 13 from 100 to
// 82–84 segments, 0.12–0.14 off CUBIC's 70, 0.84 of the window).
const offReduction = 0.07

// eachReduction hands each episode's reduction that tells (see
// reductionVotes) to f: its vote, and whether it was off
// (reductionsOff).
func (e *lossEpisodes) eachReduction(f func(vote int, off bool)) {
	if e.maxSeg <= 0 {
		return
	}
	seg := func(b int64) int64 { return (b + e.maxSeg/2) / e.maxSeg }
	for _, r := range e.reductions {
		before, after := seg(r[0]), seg(r[1])
		if before < minTellingWindow {
			continue
		}
		if float64(after) >= 0.85*float64(before) {
			f(VoteNone, false)
			continue
		}
		reno, cubic := linuxSsthresh(VoteReno, before), linuxSsthresh(VoteCubic, before)
		if r[2] == 2 { // two cuts in a row (twiceFrom)
			reno, cubic = linuxSsthresh(VoteReno, reno), linuxSsthresh(VoteCubic, cubic)
		}
		if !e.sackSeen && after == cubic && cubic == reno+1 {
			// Without SACK Linux's Reno grows cwnd on the ACK that ends
			// NewReno's recovery, so the flight after it is its
			// ssthresh or a segment more: at CUBIC's, a segment above
			// Reno's (windows of 5 to 8), the cut tells neither
			// (kb_40ms_2m_q6k_nosack_reno: the kernel's 5 cut to 2,
			// read 3, 29 of 32 such cuts named CUBIC).
			continue
		}
		dr, dc := abs64(after-reno), abs64(after-cubic)
		off := float64(min(dr, dc)) > max(1, offReduction*float64(before))
		switch {
		case dr < dc:
			f(VoteReno, off)
		case dc < dr:
			f(VoteCubic, off)
		}
	}
}

// minTellingWindow: a reduction from fewer segments tells nothing
// (reductionVotes).
const minTellingWindow = 4

// linuxSsthresh is the ssthresh, in segments, that Linux's Reno (half)
// or CUBIC (717/1024, its integer 0.7) sets from a window of w segments,
// at least two.
func linuxSsthresh(vote int, w int64) int64 {
	if vote == VoteCubic {
		return max(w*717/1024, 2)
	}
	return max(w/2, 2)
}

// facts is what the episodes tell of the sender's congestion control,
// with dips ProbeRTT dips seen beside them (ccFacts); the summary reads
// the same from DirStats (congestionControl).
func (e *lossEpisodes) facts(dips int) ccFacts {
	beta, hasBeta := e.betaMedian()
	return ccFacts{votes: e.reductionVotes(), off: e.reductionsOff(), beta: beta, hasBeta: hasBeta, betaEpisodes: len(e.betas),
		episodes: e.fast + e.rto, undone: e.undone, keptLate: e.keptLate, probeRTTDips: dips, afterSegs: e.afterMedian()}
}

// afterMedian is the median window after the reductions measured, in
// segments (0: none measured).
func (e *lossEpisodes) afterMedian() int64 {
	if e.maxSeg <= 0 || len(e.reductions) == 0 {
		return 0
	}
	after := make([]int64, len(e.reductions))
	for i, r := range e.reductions {
		after[i] = (r[1] + e.maxSeg/2) / e.maxSeg
	}
	slices.Sort(after)
	return after[len(after)/2]
}

// bbrMinWindow is BBR's least window, in segments (tcp_bbr.c:
// bbr_cwnd_min_target): Reno's and CUBIC's least ssthresh is two.
const bbrMinWindow = 4

// majorityVote is the reduction more than half the episodes that tell
// voted for, if one is.
func majorityVote(v [3]int) (int, bool) {
	told := v[VoteReno] + v[VoteCubic] + v[VoteNone]
	best := slices.Index(v[:], slices.Max(v[:]))
	return best, told > 0 && 2*v[best] > told
}

// clearerThanChance tells whether majorityVote's majority best is more
// than chance: from minTestedVotes votes on, a Reno or CUBIC majority
// that as many fair coin tosses give more often than chanceMajority (the
// binomial tail) names no algorithm, nor does the median then. It is
// judged after offMostly (a majority of cuts to neither is BBR's or
// none), and only for the name and the graph's final vote: while the
// capture is read, the line follows majorityVote. On the kernel and
// labelled senders every majority named from six votes or more was at
// most 0.23 by chance (5 of 7,
// gt_j2_tail30k), but one: heldout-1226k's mx_22ms_17m_j8_l05_nosack_nots,
// CUBIC without SACK or timestamps under 8 ms of jitter, 7 of 12 to
// Reno's half (0.39 by chance), its factors from 0.38 to 0.80, named
// Reno. BBR's majorities of none are not tested: its cuts are none
// whatever their share.
func clearerThanChance(v, off [3]int, best int) bool {
	if best == VoteNone {
		return true
	}
	// The other algorithm's votes far off its value (reductionsOff) are
	// no evidence against best.
	told := v[VoteReno] + v[VoteCubic] + v[VoteNone] - off[VoteReno+VoteCubic-best]
	return told < minTestedVotes || chance(v[best], told) <= chanceMajority
}

// chance is how often k or more of n fair coin tosses come up heads.
func chance(k, n int) float64 {
	return distuv.Binomial{N: float64(n), P: 0.5}.Survival(float64(k) - 1)
}

// minTestedVotes, chanceMajority: see clearerThanChance.
const (
	minTestedVotes = 6
	chanceMajority = 0.3
)

// medianVote is the reduction the median reduction factor β stands for
// where no majority of the episodes voted (congestionControl): Reno's
// half up to renoMedianTop, CUBIC's 0.7 from cubicMedianLow to
// cubicMedianTop, none told below 0.35 (timeouts, or the application
// slowed), between the two (near neither), from cubicMedianTop (too far
// from CUBIC's 0.7 to be its cuts, short of keeping the window) or from
// 0.85 (BBR's, which needs more: minBBRVotes).
func medianVote(beta float64, hasBeta bool) (int, bool) {
	switch {
	case !hasBeta || beta < 0.35 || beta >= cubicMedianTop || nearNeither(beta):
		return 0, false
	case asPrinted(beta) <= renoMedianTop:
		return VoteReno, true
	}
	return VoteCubic, true
}

// nearNeither tells whether a median reduction is between renoMedianTop
// and cubicMedianLow, as the reason prints it (asPrinted).
func nearNeither(beta float64) bool {
	b := asPrinted(beta)
	return b > renoMedianTop && b < cubicMedianLow
}

// asPrinted is a reduction factor to the two decimals the reason prints:
// the median of cuts at 0.6 and 0.7 is 0.6499… in floating point, and
// reads 0.65.
func asPrinted(beta float64) float64 { return math.Round(beta*100) / 100 }

// renoMedianTop, cubicMedianLow: a median reduction without a majority
// between them is near neither Reno's half nor CUBIC's 0.7, and names no
// algorithm. Of the 354 kernel and labelled senders, the median decided
// for four: two CUBIC ones at 0.67 and 0.76, and two CUBIC ones under
// small windows and jitter named Reno at 0.56 and 0.58
// (kz_cubic_150ms_44m_q9k_j2: 7–10 segments, the kernel's ssthresh a
// segment above the flight after four of six recoveries; heldout-1226j's
// mx_38ms_17m_q13k_j13, 13 ms of jitter); it named no Reno sender.
const (
	renoMedianTop  = 0.55
	cubicMedianLow = 0.65
)

// cubicMedianTop: a median reduction without a majority from here to
// 0.85 names no algorithm. 95% of CUBIC's cuts on the kernel and
// labelled runs fall within 0.067 of its 0.7 (offReduction); the medians
// that named CUBIC there were 0.67 and 0.76, and
// k37_bbr_rwnd150_l1_120ms (BBR under a 150 KB window, 12 reductions
// with no majority, a median of 0.85 by rounding) was named CUBIC.
const cubicMedianTop = 0.8

// offMostly tells whether most of the votes for best, and two or more,
// were off its value (reductionsOff): a cut to neither algorithm's, for
// the summary's name and the graph's line alike (one alone may be an
// application's: ap_180ms_6m_a1200k_l04, CUBIC held by it, 44 to 35
// segments in its one episode).
func offMostly(v, off [3]int, best int) bool {
	return best != VoteNone && 2*off[best] > v[best] && off[best] >= 2
}

// minOffBBR, offBBRBeta: most reductions off both Reno's and CUBIC's
// value (offMostly), minOffBBR of them or more, their median at
// offBBRBeta or above, are BBR's: its flight after a loss comes back to
// what its pacing sends, neither algorithm's cut (k34_bbr_q40k_40ms, a
// 40 KB queue: 19 of 22 off, median 0.83; k25_bbr_lossless_q80k, 12 of
// 13 at 0.82–0.84 of the window). Of the 246 Reno and CUBIC senders of
// the labelled and kernel runs none had most of its cuts off; fewer off,
// or a lower median, may be an application's or a receiver's window's.
const (
	minOffBBR  = 5
	offBBRBeta = 0.75
)

// voteSaid names a reduction voted for.
var voteSaid = [...]string{VoteReno: "Reno's half", VoteCubic: "CUBIC's 0.7"}

// Reduction votes, by kind (DirStats.ReductionVotes).
const (
	VoteReno = iota
	VoteCubic
	VoteNone
)

// congestionControl names the congestion control a direction's sender
// runs, from what a sender-side capture shows of it (ccFacts.name), and
// why. Unknown when the capture is not at the sender (the flight seen
// is not the sender's).
func congestionControl(st *DirStats) (cc, reason string) {
	switch {
	case st.DataPackets == 0:
		return "", ""
	case st.Path.Vantage != VantageSender:
		return "unknown", "not a sender-side capture: the flight seen is not the sender's"
	}
	f := ccFacts{votes: st.ReductionVotes, off: st.reductionsOff, beta: st.BetaMedian, hasBeta: st.HasBeta, betaEpisodes: st.BetaEpisodes,
		episodes: st.LossEpisodesFast + st.LossEpisodesRTO, undone: st.LossEpisodesUndone, keptLate: st.keptLate, probeRTTDips: st.ProbeRTTDips, afterSegs: st.afterSegs,
		ssFlight: st.SlowStart.Flight, maxFlight: st.MaxBytesInFlight, mss: int64(st.MSS),
		// Behind a nearby peer the ACK clock is the peer's: its rounds
		// say nothing of the sender's slow start (the statistics clear it).
		ssDelay: st.SlowStart.Found && st.SlowStart.Reason == SlowStartDelay && !st.Path.NearbyPeer,
		drained: st.startupDrained && !st.Path.NearbyPeer, unanswered: st.unanswered, answerACKs: st.answerACKs}
	if st.Duration > 0 {
		f.appShare = float64(st.AppLimitedNs) / float64(st.Duration)
	}
	if st.burstOriginals > 0 {
		f.paced = float64(st.burstPaced) / float64(st.burstOriginals)
	}
	return f.name()
}

// ccFacts is what a sender's loss episodes (lossEpisodes) and its flight
// (probeRTT) show of its congestion control: the one input of the one
// decision (ccFacts.name) that the summary's congestion_control and the
// cwnd graph's view (bbrSeries) both read.
type ccFacts struct {
	votes            [3]int  // reductionVotes
	off              [3]int  // reductionsOff
	beta             float64 // betaMedian, if hasBeta
	hasBeta          bool    //
	betaEpisodes     int     // the episodes β was measured over
	episodes, undone int64   // loss episodes, fast and timeout; of them undone
	keptLate         int     // lossEpisodes.keptLate
	afterSegs        int64   // lossEpisodes.afterMedian
	probeRTTDips     int     // probeRTT.dips
	// How slow start ended, from the statistics (the summary's; the
	// graph reads only whether the name is BBR's and leaves it unset):
	// by HyStart's delay rule with no loss before (SlowStartDelay), the
	// flight then and the most after it, and the share of the transfer
	// the application held the sender (hystartTells).
	ssDelay             bool
	ssFlight, maxFlight int64
	mss                 int64 // the sender's announced MSS (0 unknown)
	// paced: the share of the sender's segments its pacing sent
	// (burstTail), from the statistics (see pacedTells).
	paced    float64
	appShare float64
	// The summary's too: BBR's drain after startup seen (startupDrain;
	// not behind a nearby peer, whose ACK clock it is), and the share of
	// answerACKs ACKs that made room the sender let pass with no new data
	// (senderHeld.unansweredShare): drainTells.
	drained    bool
	unanswered float64
	answerACKs int
}

// hystartTells reports whether slow start's end names CUBIC where no
// reduction does: it ended without a loss when the round trip grew
// (HyStart's delay rule, which Linux's CUBIC has, on by default, and
// its Reno lacks: Reno doubles its window until a loss or the
// receiver's window stops it) at a window HyStart watches
// (hystartLowWindow segments; not markofu-pcaps' ftp-uploadfailed, a
// public capture, at 7 KB), the sender was not held by its application
// (whose rate stops the growth whatever the algorithm:
// ap_300ms_12m_a6m_reno), and the window went on growing after it to
// hystartGrowth times the flight at the end (CUBIC's congestion
// avoidance; BBR's startup leaves at a bandwidth plateau, drains its
// queue and then keeps about its flight: mx_580ms_10m_a7m_b06_bbr,
// 1.21). On the labelled and kernel captures, slow start ended by delay
// in 14 CUBIC transfers, 1 Reno and 1 BBR; the rule names 6 CUBIC ones
// no reduction had named, and neither other.
func (f ccFacts) hystartTells() bool {
	return f.ssDelay && f.probeRTTDips == 0 && f.appShare < 0.05 && f.mss > 0 && f.ssFlight >= hystartLowWindow*f.mss &&
		float64(f.maxFlight) >= hystartGrowth*float64(f.ssFlight)
}

// hystartGrowth: see hystartTells.
const hystartGrowth = 1.5

// name names the algorithm and says why: whose reduction most of the
// loss episodes match, window by window in segments (reductionVotes: at
// a few segments CUBIC's 0.7 rounds to what looks like Reno's half as a
// ratio), else the median reduction factor (Reno and NewReno halve the
// window, CUBIC keeps 0.7 of it, BBR does not reduce on loss), or BBR's
// ProbeRTT; where that leaves it unknown, or names Reno or CUBIC from
// fewer than two measured reductions (HyStart's rule alone included), a
// window kept through a loss late in the transfer under the receiver's
// window (keptLate). Unknown when nothing tells: no
// loss episode followed by data and no ProbeRTT.
func (f ccFacts) name() (cc, reason string) {
	cc, reason = f.reductionName()
	if f.pacedTells() && (cc == "cubic" && f.betaEpisodes > 0 || cc == "unknown" && f.episodes >= pacedEpisodes) {
		return "bbr", fmt.Sprintf("%s; but it paced its sends (%s of its segments went out with neither an ACK nor a send in the %.0f ms, and twice its least gap between two segments, before them), as BBR does: Reno and CUBIC send on the ACKs, and with Linux's pacing on still two segments at a time (at most 48%% so sent on the kernel and labelled runs); BBR's flight falls from its probe to its cruise at a loss, which behind a small queue reads as CUBIC's cut",
			reason, percent(f.paced), pacedGap/1e6)
	}
	if cc == "unknown" && f.drainTells() {
		return "bbr", reason + "; but the flight fell to half its peak or less after slow start with nothing lost and the sender still sending: BBR's drain after its startup (Reno and CUBIC lower their window only at a loss)"
	}
	if f.keptLate > 0 && (cc == "unknown" || cc != "bbr" && f.betaEpisodes < 2) {
		return "bbr", fmt.Sprintf("%s under the receiver's window left the window where it was, at Linux's cut %d of the window or later: its Reno keeps it at the first cut at most, CUBIC at the second (%s)",
			words.Plural(int64(f.keptLate), "loss episode"), keptFrom, reason)
	}
	return cc, reason
}

// pacedTells reports whether the sender paced most of its sends
// (pacedBBR of them or more: burstTail), as BBR does; Reno and CUBIC send
// on the ACKs. Linux paces them too where the fq qdisc or
// SO_MAX_PACING_RATE asks for it, at 1.2 times the window a round trip
// in congestion avoidance, but two segments at a time at least
// (tcp_tso_autosize), which reads as sent on the ACKs: CUBIC and Reno
// with iperf3 --fq-rate (internal pacing) behind 2–10 Mbit/s links sent
// 0.13–0.28 so (testdata/labelled/paced-1206.scenarios, six runs),
// as without it (0.29), BBR beside them 0.73–0.75. Of the 254 kernel
// and labelled senders, BBR's 20 of 33 were at 0.5 or more (up to 0.93),
// Reno's and CUBIC's at most 0.48: Reno behind 1 Mbit/s links
// (kf_26ms_1m_q4k_reno, mx_24ms_1m_q4k_l15_reno), whose segments there
// go out one at an ACK and one 6–13 ms later; the bar sits clear of it.
// name reads it where the cuts name CUBIC (BBR behind a queue of a few
// packets, whose flight falls from its probe to its cruise at each
// loss, 0.6–0.75 of it: kb_40ms_3m_q6k_bbr, kc_50ms_2m_q5k_bbr, 23 of 31
// and 18 of 20 reductions read as CUBIC's; mx_464ms_18m_q8k_bbr, 2 of 2,
// at windows of 90 segments) or nothing (no data after the losses, cuts
// that disagree) after pacedEpisodes loss episodes or more: a transfer
// that lost nothing is not read from its pacing (an interactive
// sender's segments go out alone). A Reno name, whose halves are not how
// BBR's cuts look, stands.
func (f ccFacts) pacedTells() bool {
	return f.paced >= pacedBBR
}

// pacedTells' thresholds.
const (
	pacedBBR      = 0.6
	pacedEpisodes = 2
)

// drainTells reports whether a drain after slow start (startupDrain)
// names BBR: the application did not hold the sender (under 5% of the
// transfer, and it answered all but drainUnanswered of minAnswerACKs or
// more ACKs that made room: ap_300ms_12m_a6m_reno, Reno at an
// application's 6 Mbit/s, let 0.73 of 2,618 pass; the lossless BBR runs
// of k36_ 0.11–0.15).
func (f ccFacts) drainTells() bool {
	return f.drained && f.appShare < 0.05 && f.answerACKs >= minAnswerACKs && f.unanswered < drainUnanswered
}

// drainUnanswered: see drainTells; below the 0.38 of the least
// application-held sender the diagnosis's unansweredApp was read from.
const drainUnanswered = 0.3

// keptFrom: held by a receiver's window W, Linux's Reno and CUBIC grow
// cwnd to at most twice the flight in slow start and not at all after
// it (tcp_is_cwnd_limited), and each loss multiplies cwnd by β (an RTO's
// ssthresh too), so a loss episode after which the flight came back
// within 10% of the window before (cwnd still 0.9 W or more) can be
// Reno's first (2W to W) and CUBIC's first or second (2W, 1.4W, 0.98W),
// no later one. BBR leaves recovery with the window it had before
// (prior_cwnd). On the 273 kernel and labelled senders (k34_–k36_
// included), such windows of 4 segments or more came at the first
// episode only in the 72 Reno runs, at the first or second in the 174
// CUBIC ones, and at the third or later in all nine BBR runs under a
// receive window (the first such at their third to sixth episode).
const keptFrom = 3

// reductionName names the algorithm from the reductions, or ProbeRTT,
// or HyStart (name).
func (f ccFacts) reductionName() (cc, reason string) {
	if !f.hasBeta {
		if f.episodes == 0 && f.probeRTTDips > 0 {
			return "bbr", "no loss episode; " + probeRTTSaid(f.probeRTTDips)
		}
		if f.hystartTells() {
			return "cubic", fmt.Sprintf("no reduction measured; slow start ended without a loss when the round trip grew (HyStart's delay rule: CUBIC's, not Reno's), the flight then %s and up to %s after it",
				kb(f.ssFlight), kb(f.maxFlight))
		}
		if f.episodes == 0 {
			return "unknown", "no loss episode: no reduction shows the algorithm"
		}
		if f.undone == f.episodes {
			return "unknown", fmt.Sprintf("all %d loss episodes proven spurious and undone: no reduction shows the algorithm", f.episodes)
		}
		return "unknown", "no data after the loss episodes: no reduction measured"
	}
	b := f.beta
	why := fmt.Sprintf("window after loss %.2f of the window before (median of %s)", b, words.Plural(int64(f.betaEpisodes), "episode"))
	// Episode by episode, whose reduction it was, where the windows
	// tell; the median decides without a majority.
	v := f.votes
	if best, ok := majorityVote(v); ok {
		told := v[VoteReno] + v[VoteCubic] + v[VoteNone]
		votes := fmt.Sprintf("%s; %d of %s", why, v[best], words.Plural(int64(told), "reduction"))
		if offMostly(v, f.off, best) && f.off[best] >= minOffBBR && f.beta >= offBBRBeta {
			return "bbr", votes + fmt.Sprintf(" nearer %s, but %d of them more than %.0f%% of the window off it, the median %.2f: cuts to neither Reno's half nor CUBIC's 0.7, as BBR's to its flight through a loss",
				voteSaid[best], f.off[best], 100*offReduction, b)
		}
		if offMostly(v, f.off, best) {
			return "unknown", votes + fmt.Sprintf(" nearer %s, but %d of them more than %.0f%% of the window off it: a cut to neither Reno's half nor CUBIC's 0.7 (BBR's to its flight through a loss, or one an application or a receiver's window made)",
				voteSaid[best], f.off[best], 100*offReduction)
		}
		if !clearerThanChance(v, f.off, best) {
			other := VoteReno + VoteCubic - best
			counted := ""
			if f.off[other] > 0 {
				counted = fmt.Sprintf(" (of the %d not far off their value)", told-f.off[other])
			}
			return "unknown", votes + fmt.Sprintf(" nearer %s, a majority fair coin tosses give %.0f%% of the time%s: no clearer than chance",
				voteSaid[best], 100*chance(v[best], told-f.off[other]), counted)
		}
		switch best {
		case VoteCubic:
			return "cubic", votes + " to CUBIC's 0.7 (717/1024 of the window in segments, as Linux rounds it), not Reno's half"
		case VoteReno:
			return "reno", votes + " to Reno's half, not CUBIC's 0.7"
		}
		if v[VoteNone] < minBBRVotes && f.probeRTTDips > 0 {
			return "bbr", votes + " none, and " + probeRTTSaid(f.probeRTTDips)
		}
		if v[VoteNone] < minBBRVotes {
			return "unknown", votes + " none: one loss episode that kept the window is BBR's, or a reduction Linux undid; too few to tell"
		}
		return "bbr", votes + " none: no reduction on loss, as BBR"
	}
	switch v, ok := medianVote(b, true); {
	case b < 0.35:
		return "unknown", why + ": below any algorithm's reduction (timeouts, or the application slowed)"
	case ok && !medianTells(v, f.votes, f.betaEpisodes):
		if f.votes[VoteReno]+f.votes[VoteCubic]+f.votes[VoteNone] == 0 {
			return "unknown", why + fmt.Sprintf(": near %s, but no episode's own cut told Reno's half from CUBIC's 0.7 (from windows of %d segments or fewer both are two; without SACK, at 5 to 8, a cut to CUBIC's is Reno's grown a segment)",
				voteSaid[v], minTellingWindow)
		}
		if f.votes[v] == 0 {
			return "unknown", why + fmt.Sprintf(": near %s, but no episode's own cut was (%d to Reno's half, %d to CUBIC's 0.7, %d none): the middle of cuts that disagree",
				voteSaid[v], f.votes[VoteReno], f.votes[VoteCubic], f.votes[VoteNone])
		}
		return "unknown", why + ": near Reno's half, but from too few episodes, whose cuts disagree"
	case ok && v == VoteReno:
		return "reno", why + ": Reno/NewReno halve it"
	case ok:
		return "cubic", why + ": CUBIC keeps 0.7"
	case nearNeither(b):
		return "unknown", why + fmt.Sprintf(": between Reno's half and CUBIC's 0.7, near neither, and no majority of the episodes' own cuts (%d to Reno's half, %d to CUBIC's 0.7, %d none)",
			f.votes[VoteReno], f.votes[VoteCubic], f.votes[VoteNone])
	case b < 0.85:
		return "unknown", why + fmt.Sprintf(": too far above CUBIC's 0.7 for its cuts (%d to Reno's half, %d to CUBIC's 0.7, %d none), short of keeping the window", f.votes[VoteReno], f.votes[VoteCubic], f.votes[VoteNone])
	}
	if f.afterSegs > 0 && f.afterSegs < bbrMinWindow {
		// Kept at two or three segments, the windows were too small for
		// Reno's or CUBIC's cut to show (both stop at two: from three,
		// CUBIC's 0.7 is two, and a flight of two or three after a
		// window as small reads as kept), and under BBR's least: an
		// application's trickle or a tiny path, not BBR
		// (mx_26ms_3m_q4k_j3_a1m_nosack_reno, Reno at an application's
		// 1 Mbit/s: 34 episodes, the median window after them 3
		// segments, was named BBR; the other 337 kernel and labelled
		// senders' names stand).
		return "unknown", why + fmt.Sprintf(": the window after the losses %s (median), too small for Reno's or CUBIC's cut to show (both stop at two), and under BBR's least of %d",
			words.Plural(f.afterSegs, "segment"), bbrMinWindow)
	}
	if f.betaEpisodes < minBBRVotes && f.probeRTTDips > 0 {
		return "bbr", why + ", and " + probeRTTSaid(f.probeRTTDips)
	}
	if f.betaEpisodes < minBBRVotes {
		return "unknown", why + ": one loss episode that kept the window is BBR's, or a reduction Linux undid; too few to tell"
	}
	return "bbr", why + ": no reduction on loss, as BBR"
}

// probeRTTSaid says what BBR's ProbeRTT showed: dips (probeRTT.dips).
func probeRTTSaid(dips int) string {
	return fmt.Sprintf("the flight fell to four segments for about 200 ms and came back at once (%s), as BBR's ProbeRTT does", words.Plural(int64(dips), "time"))
}

// minMedianReno is how many episodes a median reduction near Reno's
// half must come from where the episodes' votes had no majority. On the
// kernel and labelled runs the median decided five times, from two to
// four episodes; the two near Reno's half, from two episodes each, were CUBIC
// under a receive window, one cut read as CUBIC's and one far below it
// (k26_cubic_rwnd48_l05: 42 to 29 segments, then 29 to 12 where the
// kernel cut 29 to 20 and the flight stayed low; rw_90ms_11m_w32_l04).
// The cwnd graph then draws its measured ssthresh unchecked
// (lossEpisodes.vote), as for any sender whose algorithm is unknown.
const minMedianReno = 3

// minBBRVotes is how many loss episodes must keep the window for BBR to
// be named: one alone may be a reduction Linux undid unseen (Reno under
// 4–5 ms of jitter, one episode each: ro_30ms_20m_j4_reno,
// ro_40ms_20m_j5_reno, named BBR); every BBR run of the labelled and
// kernel corpora keeps it at three or more.
const minBBRVotes = 2
