package analyze

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"tcpviz/reassembly"
)

// TestSenderPipe follows a scoreboard through SACKed holes, RACK's loss
// marking, a resend and a timeout, with the pipe checked at each step.
func TestSenderPipe(t *testing.T) {
	var p senderPipe
	p.sack = true
	ns := int64(0)
	for i := range int64(10) { // ten segments of 1000 bytes, 10 µs apart
		p.data(i*1000, i*1000+1000, ns)
		ns += 10_000
	}
	if got := p.pipe(); got != 10000 {
		t.Fatalf("pipe after ten sends %d, want 10000", got)
	}
	ns += 100e6 // one round trip: the first acknowledged, then [2000, 5000) SACKed
	p.ack(1000, nil, false, false, sackCut{}, ns-1000)
	p.ack(1000, [][2]int64{{2000, 5000}}, true, false, sackCut{}, ns)
	// Segment [1000, 2000) was sent before segments since delivered, and
	// three are SACKed: RACK deems it lost at once (no reordering window).
	if got := p.pipe(); got != 10000-1000-3000-1000 {
		t.Errorf("pipe with a hole and three SACKed %d, want 5000", got)
	}
	p.data(1000, 2000, ns+1000) // its resend is in flight again
	if got := p.pipe(); got != 6000 {
		t.Errorf("pipe after the resend %d, want 6000", got)
	}
	// A D-SACK below the ACK changes nothing.
	p.ack(1000, [][2]int64{{500, 1000}, {2000, 5000}}, true, true, sackCut{}, ns+2000)
	if got := p.pipe(); got != 6000 {
		t.Errorf("pipe after a D-SACK %d, want 6000", got)
	}
	p.timeout(false) // every segment not SACKed is lost, the resend too
	if got := p.pipe(); got != 0 {
		t.Errorf("pipe after a timeout %d, want 0", got)
	}
	p.data(1000, 2000, ns+300e6)
	if got := p.pipe(); got != 1000 {
		t.Errorf("pipe after the timeout's resend %d, want 1000", got)
	}
	p.ack(5000, nil, false, true, sackCut{}, ns+400e6) // the hole filled: [5000, 10000) still out, lost
	if got := p.pipe(); got != 0 {
		t.Errorf("pipe once the hole is filled %d, want 0 (the rest deemed lost)", got)
	}
	if p.head != 5 || p.nSacked != 0 {
		t.Errorf("scoreboard head %d, SACKed %d: want 5 and 0", p.head, p.nSacked)
	}
}

// TestRACKRTTOfLastDelivered: RACK waits on the RTT of the last segment
// an ACK delivered in Linux's order (tp->rack.rtt_us: the SACKed ones,
// then those the cumulative ACK covers; tcp_rack_advance sets it for
// each), not that of the latest sent: an ACK that covers a segment sent
// 192 ms before and SACKs one sent 152 ms before leaves the hole between
// them, sent 190 ms before, in flight for min_rtt/4 more
// (k35_reno_44m_q9k_j2: the kernel's reordering timer marked it lost
// 42 ms later, its cwnd 8 with 8 in flight, where the pipe read 7).
func TestRACKRTTOfLastDelivered(t *testing.T) {
	var p senderPipe
	p.data(0, 1000, 0)
	p.ack(1000, nil, false, false, sackCut{}, 150e6) // min_rtt 150 ms
	p.data(1000, 2000, 200e6)                        // acknowledged 192 ms after
	p.data(2000, 3000, 202e6)                        // the hole
	p.data(3000, 4000, 240e6)                        // SACKed 152 ms after
	p.ack(2000, [][2]int64{{3000, 4000}}, false, false, sackCut{}, 392e6)
	if got := p.pipe(); got != 1000 {
		t.Errorf("pipe %d after the ACK, want 1000: the hole not yet lost (RACK's RTT the cumulative ACK's, 192 ms)", got)
	}
	// Its RTT and the reordering window (37.5 ms) passed: lost.
	p.ack(2000, [][2]int64{{3000, 4000}}, true, false, sackCut{}, 432e6)
	if got := p.pipe(); got != 0 {
		t.Errorf("pipe %d once the window passed, want 0", got)
	}
}

// TestSenderPipeNewReno: without SACK each duplicate ACK stands for a
// segment that left the network, and a new ACK takes those it covers
// back (Linux's tcp_remove_reno_sacks).
func TestSenderPipeNewReno(t *testing.T) {
	var p senderPipe
	for i := range int64(8) {
		p.data(i*1000, i*1000+1000, i)
	}
	for i := range int64(3) {
		p.ack(0, nil, true, false, sackCut{}, 1e8+i)
	}
	if got := p.pipe(); got != 5000 {
		t.Errorf("pipe after three duplicate ACKs %d, want 5000", got)
	}
	p.data(0, 1000, 1e8+10) // the fast retransmit: counted once
	if got := p.pipe(); got != 5000 {
		t.Errorf("pipe after the fast retransmit %d, want 5000", got)
	}
	p.ack(4000, nil, false, true, sackCut{}, 2e8) // a partial ACK of four: three were the dupacks'
	if got := p.pipe(); got != 4000 {
		t.Errorf("pipe after a partial ACK %d, want 4000 (four out, no dupack left)", got)
	}
	// More duplicate ACKs than segments out are not counted.
	for i := range int64(9) {
		p.ack(4000, nil, true, true, sackCut{}, 3e8+i)
	}
	if got := p.pipe(); got != 1000 {
		t.Errorf("pipe after nine duplicate ACKs for four out %d, want 1000", got)
	}
}

// TestEpisodeReentryAndTimeoutInRecovery: an ACK that ends an episode
// while SACKed data above it remains starts the next (Linux enters
// recovery again: a resend was lost too), not a drop event of its own
// (the resend that follows is one, as before re-entry was modelled);
// the first unacknowledged segment resent twice with nothing SACKed
// between is a timeout in recovery.
func TestEpisodeReentryAndTimeoutInRecovery(t *testing.T) {
	var e lossEpisodes
	for i := range int64(10) {
		e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
	}
	e.ack(&epAck{ack: 1000, signal: false, above: false})
	e.ack(&epAck{ack: 1000, signal: true, above: true})
	if ev := e.data(1000, 2000, 9000, Retransmission, 0, false, 0, 0); !ev.start || !ev.fast || !ev.drop {
		t.Fatalf("fast retransmit: %+v", ev)
	}
	for i := range int64(5) { // new data in recovery
		e.data(10000+i*1000, 11000+i*1000, 9000, 0, 0, false, 0, 0)
	}
	// The episode's end (everything sent before it, 10000) acknowledged
	// with [12000, 13000) SACKed: [10000, 12000) lost too.
	if ev := e.ack(&epAck{ack: 10000, signal: true, above: true}); !ev.start || !ev.fast {
		t.Fatalf("re-entry: %+v", ev)
	}
	if e.fast != 2 || len(e.starts) != 1 {
		t.Errorf("%d fast episodes, %d drop events: want 2 and 1", e.fast, len(e.starts))
	}
	// Its resend starts no episode; the diagnosis's drop events keep the
	// rule without re-entry (a resend once the last repair ended). The
	// flight of that first burst is the last episode's ssthresh.
	if ev := e.data(10000, 11000, 5000, Retransmission, 0, false, 0, 0); ev.start || ev.settled || !ev.drop {
		t.Errorf("the re-entered episode's resend: %+v, want no start, a drop event", ev)
	}
	if ev := e.ack(&epAck{ack: 10000, signal: true, above: false}); !ev.settled || ev.ssthresh != 5000 {
		t.Errorf("the ACK after the first burst: %+v, want the last episode's ssthresh 5000", ev)
	}
	if ev := e.data(10000, 11000, 5000, Retransmission, 0, false, 0, 0); !ev.start || ev.fast {
		t.Errorf("the head resent again with nothing SACKed: %+v, want a timeout", ev)
	}
	if e.rto != 1 {
		t.Errorf("%d timeouts, want 1", e.rto)
	}
}

// TestReductionVotes: each episode's window after it is matched, in
// segments, to Reno's half and CUBIC's 717/1024 as Linux rounds them,
// or to no reduction; small windows and ties tell nothing. With SACK
// (without it, see TestAmbiguousCutWithoutSACK).
func TestReductionVotes(t *testing.T) {
	e := lossEpisodes{maxSeg: 1000, sackSeen: true, reductions: [][3]int64{
		{10000, 7000, 1},  // CUBIC: 10·717/1024 = 7
		{5000, 3000, 1},   // CUBIC: 3 (Reno's would be 2), 0.6 as a ratio
		{10000, 5000, 1},  // Reno
		{20000, 19000, 1}, // none
		{3000, 2000, 1},   // too small to tell
		{8000, 5000, 1},   // Reno 4, CUBIC 5: CUBIC
		{6000, 3500, 1},   // Reno 3, CUBIC 4, after 4 (rounded): CUBIC
		{4000, 2000, 1},   // Reno 2, CUBIC 2: a tie
	}}
	if got, want := e.reductionVotes(), [3]int{1, 4, 1}; got != want {
		t.Errorf("votes %v, want %v (Reno, CUBIC, none)", got, want)
	}
	st := DirStats{DataPackets: 1, HasBeta: true, BetaMedian: 0.55, BetaEpisodes: 6, ReductionVotes: [3]int{1, 5, 0}}
	st.Path.Vantage = VantageSender
	if cc, why := congestionControl(&st); cc != "cubic" {
		t.Errorf("congestion control %q (%s), want cubic: 5 of 6 votes, whatever the median", cc, why)
	}
	st.ReductionVotes = e.reductionVotes() // 4 of 6: no clearer than chance (clearerThanChance)
	if cc, why := congestionControl(&st); cc != "unknown" {
		t.Errorf("congestion control %q (%s), want unknown from 4 of 6 votes", cc, why)
	}
	st.ReductionVotes = [3]int{2, 2, 0} // no majority: the median (0.55) decides
	if cc, why := congestionControl(&st); cc != "reno" {
		t.Errorf("congestion control %q (%s), want reno from the median", cc, why)
	}
}

// TestEpisodeUndo: an episode whose first resend the next covering ACK
// proves needless — by echoing the original's older timestamp (Eifel) or
// by a D-SACK of it — is undone: counted, its kind kept, no reduction
// recorded (Linux restores the window); one the resend repaired is not.
func TestEpisodeUndo(t *testing.T) {
	run := func(a epAck) *lossEpisodes {
		var e lossEpisodes
		for i := range int64(10) { // TSval 100+i
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, uint32(100+i), true, 0, 0)
		}
		e.ack(&epAck{ack: 1000, tsecr: 100, hasTS: true})
		e.ack(&epAck{ack: 1000, signal: true, above: true, tsecr: 100, hasTS: true})
		e.data(1000, 2000, 9000, Retransmission, 200, true, 0, 0) // the resend, TSval 200
		e.ack(&a)                                                 // recovery ends
		e.data(10000, 11000, 5000, 0, 210, true, 0, 0)            // the first burst after it
		e.ack(&epAck{ack: 11000, tsecr: 210, hasTS: true})        // settles it
		return &e
	}
	for _, c := range []struct {
		name   string
		a      epAck
		undone bool
	}{
		{"the resend repaired it", epAck{ack: 10000, tsecr: 200, hasTS: true}, false},
		{"Eifel: the original's timestamp echoed", epAck{ack: 10000, tsecr: 101, hasTS: true}, true},
		{"a D-SACK of the resend", epAck{ack: 10000, tsecr: 200, hasTS: true, dsack: [2]int64{1000, 2000}, hasDSACK: true}, true},
		{"a D-SACK of other bytes", epAck{ack: 10000, tsecr: 200, hasTS: true, dsack: [2]int64{3000, 4000}, hasDSACK: true}, false},
	} {
		e := run(c.a)
		if got := e.undone == 1; got != c.undone || e.fast != 1 {
			t.Errorf("%s: %d undone of %d fast episodes, want undone %v", c.name, e.undone, e.fast, c.undone)
		}
		if got := len(e.reductions) == 0; got != c.undone {
			t.Errorf("%s: reductions %v", c.name, e.reductions)
		}
	}
	// A D-SACK after the episode's window was measured takes it back.
	e := run(epAck{ack: 10000, tsecr: 200, hasTS: true})
	if len(e.reductions) != 1 {
		t.Fatalf("reductions %v, want one", e.reductions)
	}
	if ev := e.ack(&epAck{ack: 11000, dsack: [2]int64{1000, 2000}, hasDSACK: true}); !ev.undone || len(e.reductions) != 0 || len(e.betas) != 0 {
		t.Errorf("a late D-SACK: %+v, reductions %v, betas %v", ev, e.reductions, e.betas)
	}
}

// TestBBRSeries: for a sender that does not reduce on loss the cwnd
// graph draws BBR's model as its window, the pipe beside it and no
// ssthresh, and says so; for others BBR's series are left out.
func TestBBRSeries(t *testing.T) {
	for _, c := range []struct {
		f    ccFacts
		want string
	}{
		{ccFacts{votes: [3]int{1, 0, 3}, beta: 0.5, hasBeta: true, betaEpisodes: 4, episodes: 4}, "bbr"},
		{ccFacts{votes: [3]int{0, 3, 1}, beta: 1, hasBeta: true, betaEpisodes: 4, episodes: 4}, "cubic"},
		{ccFacts{votes: [3]int{1, 1, 0}, beta: 0.95, hasBeta: true, betaEpisodes: 2, episodes: 2}, "bbr"},
		// One episode that kept the window: BBR's, or an undo unseen.
		{ccFacts{votes: [3]int{0, 0, 1}, beta: 1, hasBeta: true, betaEpisodes: 1, episodes: 1}, "unknown"},
		{ccFacts{votes: [3]int{0, 0, 1}, beta: 1, hasBeta: true, betaEpisodes: 1, episodes: 1, probeRTTDips: 1}, "bbr"},
		{ccFacts{}, "unknown"},
		{ccFacts{probeRTTDips: 2}, "bbr"},
		// Most cuts nearer CUBIC's 0.7 but far off it: neither's, BBR's
		// from minOffBBR of them at a median of offBBRBeta or more
		// (k25_bbr_lossless_q80k, k34_bbr_q40k_40ms); fewer, or a lower
		// median, tell nothing; one far off alone decides nothing.
		{ccFacts{votes: [3]int{0, 12, 1}, off: [3]int{0, 12, 0}, beta: 0.84, hasBeta: true, betaEpisodes: 13, episodes: 14}, "bbr"},
		{ccFacts{votes: [3]int{0, 4, 1}, off: [3]int{0, 4, 0}, beta: 0.84, hasBeta: true, betaEpisodes: 5, episodes: 5}, "unknown"},
		{ccFacts{votes: [3]int{0, 12, 1}, off: [3]int{0, 12, 0}, beta: 0.72, hasBeta: true, betaEpisodes: 13, episodes: 14}, "unknown"},
		{ccFacts{votes: [3]int{0, 12, 1}, off: [3]int{0, 5, 0}, beta: 0.84, hasBeta: true, betaEpisodes: 13, episodes: 14}, "cubic"},
		{ccFacts{votes: [3]int{0, 1, 0}, off: [3]int{0, 1, 0}, beta: 0.8, hasBeta: true, betaEpisodes: 1, episodes: 1}, "cubic"},
		// No majority: a median near Reno's half from two episodes does
		// not tell (k26_cubic_rwnd48_l05); from three it does.
		{ccFacts{votes: [3]int{1, 1, 0}, beta: 0.55, hasBeta: true, betaEpisodes: 2, episodes: 2}, "unknown"},
		{ccFacts{votes: [3]int{1, 1, 0}, beta: 0.55, hasBeta: true, betaEpisodes: 3, episodes: 3}, "reno"},
		// No majority and no episode cut to the median's algorithm: the
		// middle of a cut Reno's and one none (k32_bbr_rwnd96_l1, 84
		// segments to 47 and to 72) is no CUBIC; with one cut CUBIC's
		// it is.
		{ccFacts{votes: [3]int{1, 0, 1}, beta: 0.71, hasBeta: true, betaEpisodes: 2, episodes: 2}, "unknown"},
		{ccFacts{votes: [3]int{1, 1, 1}, beta: 0.71, hasBeta: true, betaEpisodes: 3, episodes: 3}, "cubic"},
		{ccFacts{votes: [3]int{0, 1, 1}, beta: 0.55, hasBeta: true, betaEpisodes: 4, episodes: 4}, "unknown"},
		// No majority, the median far above CUBIC's 0.7 and short of
		// keeping the window (k37_bbr_rwnd150_l1_120ms: 0.85 by rounding,
		// BBR): none; at 0.76 (k35_cubic_9m_q361k_j12_a5p5m) CUBIC.
		{ccFacts{votes: [3]int{1, 2, 1}, beta: 0.82, hasBeta: true, betaEpisodes: 4, episodes: 4}, "unknown"},
		{ccFacts{votes: [3]int{1, 2, 1}, beta: 0.76, hasBeta: true, betaEpisodes: 4, episodes: 4}, "cubic"},
		// No reduction measured: slow start's end by HyStart's delay
		// rule, the flight growing on to 1.5 times, names CUBIC (sq_40ms_2m:
		// 28,960 bytes then, 340,280 after); not below that growth (BBR's
		// drain, mx_580ms_10m_a7m_b06_bbr: 1.21), not with the
		// application holding the sender, not beside ProbeRTT's dips.
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 28960, maxFlight: 340280}, "cubic"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 1688368, maxFlight: 2038784}, "unknown"},
		// Below HyStart's 16 segments it does not watch the delay; an
		// unknown segment size tells nothing.
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 7300, maxFlight: 43800}, "unknown"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 12 * 1460, maxFlight: 120 * 1460}, "unknown"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 16 * 1460, maxFlight: 120 * 1460}, "cubic"},
		{ccFacts{ssDelay: true, ssFlight: 28960, maxFlight: 340280}, "unknown"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 28960, maxFlight: 43440, appShare: 0.6}, "unknown"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 28960, maxFlight: 340280, appShare: 0.06}, "unknown"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 28960, maxFlight: 340280, probeRTTDips: 1}, "bbr"},
		{ccFacts{ssDelay: false, mss: 1460, ssFlight: 28960, maxFlight: 340280}, "unknown"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 28960, maxFlight: 340280, episodes: 1}, "cubic"},
		{ccFacts{ssDelay: true, mss: 1460, ssFlight: 28960, maxFlight: 340280, episodes: 1, probeRTTDips: 1}, "unknown"},
	} {
		if cc, why := c.f.name(); cc != c.want {
			t.Errorf("%+v: %s (%s), want %s", c.f, cc, why, c.want)
		}
	}
	// The median between a cut Reno's and one none says why it names
	// nothing: no episode's cut was CUBIC's.
	f := ccFacts{votes: [3]int{1, 0, 1}, beta: 0.71, hasBeta: true, betaEpisodes: 2, episodes: 2}
	if _, why := f.name(); !strings.Contains(why, "no episode's own cut was") {
		t.Errorf("%+v: said %q, want the cuts' votes named", f, why)
	}
	// The graph's vote reads the same: the median of those two cuts
	// names nothing.
	seg := int64(1448)
	e := &lossEpisodes{maxSeg: seg, reductions: [][3]int64{{84 * seg, 47 * seg, 1}, {84 * seg, 72 * seg, 1}}, betas: []float64{47.0 / 84, 72.0 / 84}}
	if v, ok := e.vote(); ok {
		t.Errorf("vote of cuts 84 to 47 and 84 to 72: %d, want none told", v)
	}
	e.reductions = append(e.reductions, [3]int64{84 * seg, 59 * seg, 1})
	e.betas = append(e.betas, 59.0/84)
	if v, ok := e.vote(); !ok || v != VoteCubic {
		t.Errorf("vote with a third cut, 84 to 59: %d %v, want CUBIC's", v, ok)
	}
	names := func(g *Graph) (out []string) {
		for _, s := range g.Series {
			out = append(out, s.Name)
		}
		return out
	}
	mk := func() *Graph {
		g := &Graph{}
		for _, n := range []string{SeriesCwnd, SeriesSsthresh, SeriesFastLoss, SeriesBDP, seriesBBRCwnd, seriesPipeSeen} {
			g.Series = append(g.Series, Series{Name: n, Points: []Point{{V: [3]float64{float64(len(n))}}}})
		}
		return g
	}
	g := mk()
	bbrSeries(g, true)
	if got, want := fmt.Sprint(names(g)), fmt.Sprint([]string{SeriesFastLoss, SeriesBDP, SeriesCwnd, SeriesPipe}); got != want || len(g.Notes) != 1 {
		t.Errorf("BBR: series %s, notes %+v; want %s and a note", got, g.Notes, want)
	}
	if g.lookup(SeriesCwnd).Points[0].V[0] != float64(len(seriesBBRCwnd)) {
		t.Error("BBR: the window drawn is not the model's")
	}
	if g.lookup(SeriesPipe).Points[0].V[0] != float64(len(seriesPipeSeen)) {
		t.Error("BBR: the pipe drawn is not the scoreboard's")
	}
	if v := g.lookup(SeriesFastLoss).Points[0].V[0]; v != float64(len(seriesBBRCwnd)) {
		t.Errorf("BBR: the loss mark at %g, off the window drawn (%d)", v, len(seriesBBRCwnd))
	}
	// Matched by frame, the clock stepped back between the line's two
	// steps; a mark before the line's first step takes its first value.
	g = &Graph{Series: []Series{
		{Name: seriesBBRCwnd, Points: []Point{{Frame: 10, Time: 5e9, V: [3]float64{100}}, {Frame: 20, Time: 1e9, V: [3]float64{200}}}},
		{Name: SeriesRTOLoss, Points: []Point{{Frame: 5, Time: 4e9, V: [3]float64{7}}, {Frame: 25, Time: 2e9, V: [3]float64{7}}, {Frame: 15, Time: 6e9, V: [3]float64{7}}}},
	}}
	bbrSeries(g, true)
	if got := g.lookup(SeriesRTOLoss).Points; got[0].V[0] != 100 || got[1].V[0] != 200 || got[2].V[0] != 100 {
		t.Errorf("BBR: marks at %g, %g, %g; want 100 (before the line), 200, 100", got[0].V[0], got[1].V[0], got[2].V[0])
	}
	g = mk()
	bbrSeries(g, false)
	if got, want := fmt.Sprint(names(g)), fmt.Sprint([]string{SeriesCwnd, SeriesSsthresh, SeriesFastLoss}); got != want || len(g.Notes) != 0 {
		t.Errorf("not BBR: series %s, notes %+v; want %s", got, g.Notes, want)
	}
}

// TestCwndAtReceiver: the handshake tells where the capture is (the
// capturing end answers at once, the far one a round trip later); at the
// receiver of the graphed direction the line is the data that arrived
// over a round trip, with a note, and no ssthresh.
func TestCwndAtReceiver(t *testing.T) {
	syn := func(dir reassembly.Direction, ms float64, f reassembly.Flags) Record {
		return Record{Dir: dir, Time: int64(ms * 1e6), Flags: f, HasAck: f&reassembly.ACK != 0, Window: 65535}
	}
	for _, c := range []struct {
		name     string
		synack   float64 // ms after the SYN
		ack      float64
		dir      reassembly.Direction
		receiver bool
	}{
		{"near the client, client sends", 100, 100.1, reassembly.C2S, false},
		{"near the server, client sends", 0.1, 100, reassembly.C2S, true},
		{"near the server, server sends", 0.1, 100, reassembly.S2C, false},
		{"near the client, server sends", 100, 100.1, reassembly.S2C, true},
	} {
		b := newCwndBuilder(SeriesOptions{Dir: c.dir})
		recs := []Record{syn(reassembly.C2S, 0, reassembly.SYN), syn(reassembly.S2C, c.synack, reassembly.SYN|reassembly.ACK), syn(reassembly.C2S, c.ack, reassembly.ACK)}
		for i := range recs {
			b.add(&recs[i])
		}
		if got := b.atReceiver(); got != c.receiver {
			t.Errorf("%s: at the receiver %v", c.name, got)
		}
	}
	// Near the server, the client sending 10 segments a round trip (100 ms).
	b := newCwndBuilder(SeriesOptions{Dir: reassembly.C2S})
	recs := []Record{syn(reassembly.C2S, 0, reassembly.SYN), syn(reassembly.S2C, 0.1, reassembly.SYN|reassembly.ACK), syn(reassembly.C2S, 100, reassembly.ACK)}
	seq := int64(0)
	for i := range 50 {
		ms := 100 + float64(i)*10
		recs = append(recs, Record{Dir: reassembly.C2S, Time: int64(ms * 1e6), Seq: seq, Len: 1000, HasAck: true, Info: PacketInfo{BytesInFlight: 1000}})
		seq += 1000
		recs = append(recs, Record{Dir: reassembly.S2C, Time: int64((ms + 0.05) * 1e6), Ack: seq, HasAck: true, Window: 65535, Flags: reassembly.ACK})
	}
	g := feed(b, recs)
	line := g.lookup(SeriesCwnd)
	if line == nil || len(g.Notes) != 1 || g.lookup(SeriesSsthresh) != nil {
		t.Fatalf("at the receiver: line %v, notes %+v", line, g.Notes)
	}
	if last := line.Points[len(line.Points)-1].V[0]; last != 10000 {
		t.Errorf("the line ends at %v, want 10000: ten segments arrived per round trip", last)
	}
}

// FuzzSenderPipe drives the scoreboard with sends, resends, ACKs, SACK
// blocks (D-SACKs and nonsense among them) and timeouts from the input,
// and checks its running sums against a recount: the pipe, the SACKed
// count, the skip pointers, the segments in order.
func FuzzSenderPipe(f *testing.F) {
	f.Add([]byte{0, 5, 0, 5, 1, 2, 3, 1, 4, 2, 0, 9, 2, 1})
	f.Add([]byte("\x00\x10\x00\x10\x00\x10\x01\x03\x05\x01\x08\x0a\x03\x00\x02\x00\x01\x10"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var p senderPipe
		p.sack = len(ops) > 0 && ops[0]&1 == 0
		var high, now int64
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i]%5, int64(ops[i+1])
			now += 1e6
			switch op {
			case 0: // new data, 1..256 segments' worth of 100 bytes
				for range arg%8 + 1 {
					p.data(high, high+100, now)
					high += 100
				}
			case 1: // a resend
				if high > 0 {
					s := arg * 100 % high
					p.data(s, min(s+100, high), now)
				}
			case 2: // an ACK, its SACK option cut by the snapshot length one time in five, some of its first block kept (any edges)
				l := arg * 70 % max(high, 1)
				p.ack(min(arg*100, high), nil, arg%3 == 0, arg%2 == 0, sackCut{cut: arg%5 == 0, part: uint8(arg % 8), block: [2]int64{l, l + arg*20 - 2000}}, now)
			case 3: // an ACK with SACK blocks (any edges)
				l := arg * 50 % max(high, 1)
				p.ack(p.una, [][2]int64{{l, l + arg*30}, {l / 2, l}}, true, true, sackCut{}, now)
			case 4:
				p.timeout(false)
			}
			var sum int64
			sacked := 0
			for j := p.head; j < len(p.segs); j++ {
				s := &p.segs[j]
				sum += s.counted()
				if s.sacked {
					sacked++
				}
				if s.seq >= s.end || j > p.head && s.seq < p.segs[j-1].end {
					t.Fatalf("op %d: segment %d [%d, %d) out of order", i/2, j, s.seq, s.end)
				}
			}
			if sum != p.inNet || sacked != p.nSacked || p.pipe() < 0 {
				t.Fatalf("op %d: inNet %d (recount %d), SACKed %d (recount %d), pipe %d", i/2, p.inNet, sum, p.nSacked, sacked, p.pipe())
			}
			for j := p.head; j < len(p.segs); j++ {
				want := j
				for want < len(p.segs) && p.segs[want].sacked {
					want++
				}
				if got := p.nextLive(j); got != want {
					t.Fatalf("op %d: nextLive(%d) %d, want %d", i/2, j, got, want)
				}
			}
		}
	})
}

// TestEpisodeKindWithoutSACK: without SACK a resend is a fast
// retransmit after three duplicate ACKs, a timeout after fewer, and a
// timeout too before an ACK above the last episode's end when it ended
// at exactly that end (Linux holds recovery there, RFC 6582); with SACK
// a new ACK SACKing data above it is a signal of its own (RACK resends
// on its timer after it: a fast retransmit, Linux's recovery).
func TestEpisodeKindWithoutSACK(t *testing.T) {
	start := func(dups int) (*lossEpisodes, episodeEvent) {
		var e lossEpisodes
		for i := range int64(10) {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
		}
		e.ack(&epAck{ack: 1000})
		for range dups {
			e.ack(&epAck{ack: 1000, signal: true})
		}
		return &e, e.data(1000, 2000, 9000, Retransmission, 0, false, 0, 0)
	}
	for dups, fast := range []bool{false, false, false, true, true} {
		if _, ev := start(dups); !ev.start || ev.fast != fast {
			t.Errorf("after %d duplicate ACKs: %+v, want a start, fast %v", dups, ev, fast)
		}
	}
	e, _ := start(3)
	e.ack(&epAck{ack: 10000}) // the episode's end, exactly
	e.data(10000, 11000, 1000, 0, 0, false, 0, 0)
	e.data(11000, 12000, 2000, 0, 0, false, 0, 0)
	for range 3 {
		e.ack(&epAck{ack: 10000, signal: true})
	}
	if ev := e.data(10000, 11000, 2000, Retransmission, 0, false, 0, 0); !ev.start || ev.fast {
		t.Errorf("three duplicate ACKs of the held recovery's end: %+v, want a timeout", ev)
	}
	// With SACK: a new ACK with a block above it, then the resend.
	var s lossEpisodes
	for i := range int64(10) {
		s.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
	}
	s.ack(&epAck{ack: 1000, above: true, sack: true, signal: true})
	s.ack(&epAck{ack: 2000, above: true, sack: true, signal: true}) // a new ACK, [3000, 4000) SACKed
	if ev := s.data(2000, 3000, 8000, Retransmission, 0, false, 0, 0); !ev.start || !ev.fast {
		t.Errorf("a resend after a new ACK SACKing above it: %+v, want a fast retransmit", ev)
	}
}

// TestPRRHeldSender follows RFC 6937's reduction through one episode: a
// window of 20 segments reduced to ssthresh 10. While the pipe is above
// ssthresh, PRR lets out ssthresh/prior of what is delivered (one
// segment for two); once the sender, held by the receive window, sends
// nothing while ACKs deliver, cwnd climbs back to ssthresh (Linux's
// tcp_cwnd_reduction), above the pipe the sender left: the line follows
// cwnd, not the pipe.
func TestPRRHeldSender(t *testing.T) {
	const seg = 1000
	p := &prrState{on: true, prior: 20 * seg, ss: 10 * seg, cwnd: -1}
	// The first duplicate ACK: pipe 19; PRR lets one segment go (the
	// fast retransmit).
	p.ack(seg, 19*seg, false, seg)
	if p.cwnd != 20*seg {
		t.Fatalf("at the first ACK cwnd %d, want %d", p.cwnd, 20*seg)
	}
	p.out += seg
	// Nine more duplicate ACKs, the sender sending as PRR allows:
	// delivered 10, sent ceil(10·10/20) = 5.
	pipe := int64(19 * seg)
	for i := 2; i <= 10; i++ {
		pipe -= seg
		p.ack(seg, pipe, false, seg)
		if send := p.cwnd - pipe; send > 0 {
			p.out += send
			pipe += send
		}
	}
	if p.out != 5*seg {
		t.Fatalf("after 10 delivered PRR sent %d, want %d", p.out, 5*seg)
	}
	// Held: the pipe falls to 6 segments with nothing sent; each ACK
	// raises cwnd towards ssthresh, never past it.
	for pipe > 6*seg {
		pipe -= seg
		p.ack(seg, pipe, false, seg)
	}
	if p.cwnd != 10*seg {
		t.Fatalf("held at a pipe of 6 segments cwnd %d, want ssthresh %d", p.cwnd, 10*seg)
	}
	// An ACK that delivers nothing changes nothing.
	p.ack(0, 2*seg, false, seg)
	if p.cwnd != 10*seg {
		t.Fatalf("an ACK delivering nothing moved cwnd to %d", p.cwnd)
	}
}

// TestSsthreshKeptAtBackoff: a timeout that keeps the ssthresh before it
// (in recovery, or the timer backing off with nothing acknowledged since
// the last timeout) draws that ssthresh, even where the line at it is
// below two segments (after a timeout, one): Linux's tcp_enter_loss does
// not reduce then.
func TestSsthreshKeptAtBackoff(t *testing.T) {
	const seg = 1000
	var b cwndBuilder
	b.ep.maxSeg = seg
	b.ssBasis = []ssBasis{{window: 20 * seg, kind: ssTimeout}, {window: seg, kind: ssTimeoutInRecovery}, {window: 9 * seg, kind: ssTimeout}}
	g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{3 * seg}}, {V: [3]float64{2 * seg}}, {V: [3]float64{3 * seg}}}}}}
	b.crossCheck(g, VoteReno)
	got := g.lookup(SeriesSsthresh).Points
	for i, want := range []float64{10 * seg, 10 * seg, 4 * seg} {
		if got[i].V[0] != want {
			t.Errorf("ssthresh %d: %.0f, want %.0f", i, got[i].V[0], want)
		}
	}
}

// TestLossFlightCV: the spread of the window at the loss (windowsOf) over the
// episodes after the first (slow start's), at least two of them.
func TestLossFlightCV(t *testing.T) {
	e := lossEpisodes{flights: []int64{200, 60}}
	if w := windowsOf(e.flights, e.maxSeg); w.ok {
		t.Error("one episode after the first: a spread")
	}
	e.flights = append(e.flights, 60, 60)
	if w := windowsOf(e.flights, e.maxSeg); !w.ok || w.n != 3 || w.cv != 0 {
		t.Errorf("three equal windows after the first: cv %v of %d (%v), want 0 of 3", w.cv, w.n, w.ok)
	}
	e.flights = append(e.flights, 20)
	if w := windowsOf(e.flights, e.maxSeg); w.n != 4 || math.Abs(w.cv-0.3464) > 1e-3 {
		t.Errorf("windows 60, 60, 60, 20: cv %v of %d, want 0.346 of 4", w.cv, w.n)
	}
}

// TestLineKeptAfterLossState: Linux leaves its loss state (a timeout's
// episode) with cwnd as slow start grew it there, no reduction at the
// end (tcp_process_loss; recovery's tcp_end_cwnd_reduction has no
// counterpart): a sender that then sends less (here the application) has
// not lowered its window, and the line keeps the loss state's last value
// (kz_vsat_cubic_nosack2: kernel cwnd 21, the line at the pipe, 15).
func TestLineKeptAfterLossState(t *testing.T) {
	var b builder
	seq := int64(1)
	for range 10 {
		b.data(0, seq, 1000, 0)
		seq += 1000
	}
	b.ack(100, seq, 1<<20, 0) // all ten acknowledged
	for range 10 {            // ten more, none acknowledged
		b.data(100, seq, 1000, 0)
		seq += 1000
	}
	end := seq                                    // the timeout's episode ends once all of them are
	b.data(400, 10001, 1000, Retransmission)      // the timer: the first unacknowledged again
	b.ack(500, 12001, 1<<20, 0)                   // slow start in the loss state
	for s := int64(12001); s < 16001; s += 1000 { // go-back-N: four resends
		b.data(500, s, 1000, Retransmission)
	}
	b.ack(600, 16001, 1<<20, 0)
	for s := int64(16001); s < end+4000; s += 1000 { // four resends, four new
		f := Flag(0)
		if s < end {
			f = Retransmission
		}
		b.data(600, s, 1000, f)
	}
	seq = end + 4000
	b.ack(700, end, 1<<20, 0) // the episode ends: 4000 still out
	b.data(701, seq, 1000, 0) // the application gives one segment
	b.ack(800, end+1000, 1<<20, 0)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	if to := g.lookup(SeriesRTOLoss); to == nil || len(to.Points) != 1 {
		t.Fatalf("timeout marks %+v, want one", to)
	}
	cw := g.lookup(SeriesCwnd)
	var at600, after float64
	for _, p := range cw.Points {
		switch ms := float64(p.Time-t0) / 1e6; {
		case ms >= 600 && ms < 700:
			at600 = p.V[0]
		case ms >= 700:
			after = p.V[0]
		}
	}
	if at600 != 8000 {
		t.Fatalf("the line in the loss state %.0f, want 8000 (four resends, four new)", at600)
	}
	if after != 8000 {
		t.Errorf("the line after the loss state %.0f, want 8000 kept (the pipe is 5000: the window did not fall)", after)
	}
}

// TestPartialUndoWithoutSACK: in a fast retransmit's recovery without
// SACK, a partial ACK covering the resends that echoes a timestamp older
// than the first of them (the originals arrived late) makes Linux undo
// the reduction (tcp_try_undo_partial); while its duplicate-ACK count
// still marks the next segment lost it enters recovery again at once (a
// fast retransmit each, the same ssthresh), and once it no longer does,
// it leaves recovery with the window restored (kz_vsat_cubic_nosack2:
// 22 such entries in a second after a timeout, the line left at the pipe).
func TestPartialUndoWithoutSACK(t *testing.T) {
	var b builder
	ts := func(r *Record, val, ecr uint32) { r.HasTS, r.TSVal, r.TSEcr = true, val, ecr }
	for i := range int64(20) { // a window of 20 segments
		ts(b.data(0, 1+i*1000, 1000, 0), 100, 50)
	}
	ts(b.ack(100, 1001, 1<<20, 0), 60, 100)
	for i := range 5 { // five duplicate ACKs: the second segment lost
		ts(b.ack(101+float64(i), 1001, 1<<20, DupAck), 60, 100)
	}
	ts(b.data(106, 1001, 1000, Retransmission), 200, 60) // the fast retransmit
	// The originals arrive late: each partial ACK covers one segment and
	// echoes the old timestamp. Linux's count of duplicate ACKs stays 5:
	// it enters recovery again while more than 6 segments are out.
	for k := int64(2); k <= 15; k++ {
		ms := 100 * float64(k)
		ts(b.ack(ms, k*1000+1, 1<<20, 0), 60, 100)
		if k < 15 {
			ts(b.data(ms+1, k*1000+1, 1000, Retransmission), uint32(100*k+100), 60)
		}
	}
	ts(b.ack(1600, 16001, 1<<20, 0), 60, 100)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	fast, undone := g.lookup(SeriesFastLoss), g.lookup(SeriesUndoneLoss)
	// Recovery at the fast retransmit and again at the partial ACKs of
	// 2001 to 14001 (out after them: 18 down to 6 segments); at 15001 five
	// are out, as many as the duplicate ACKs counted: the last entry is
	// undone, and keeps its fast-retransmit mark under the undone one
	// (Linux entered recovery for it: kz_vsat_cubic_nosack2's kernel
	// counts every entry of such a chain).
	if fast == nil || len(fast.Points) != 14 {
		t.Fatalf("fast-retransmit marks %+v, want 14 (one and 13 entered again)", fast)
	}
	if undone == nil || len(undone.Points) != 1 || undone.Points[0] != fast.Points[13] {
		t.Fatalf("undone marks %+v, want 1, over the last fast-retransmit mark", undone)
	}
	ss := g.lookup(SeriesSsthresh)
	for _, p := range ss.Points {
		if p.V[0] != ss.Points[0].V[0] {
			t.Errorf("ssthresh %+v: each entry reduces from the window restored, the same", ss.Points)
			break
		}
	}
	cw := g.lookup(SeriesCwnd)
	last := cw.Points[len(cw.Points)-1]
	for _, p := range cw.Points {
		if p.Time <= t0+1500e6 {
			last = p
		}
	}
	// The window before the loss: the 20 segments, and the one the
	// first ACK added in slow start (tcp_slow_start).
	if last.V[0] != 21000 {
		t.Errorf("the line once undone %.0f, want the window before the loss, 21000", last.V[0])
	}
}

// TestSsthreshAfterRecoveryHeld: Linux leaves recovery with cwnd at the
// ssthresh its algorithm set (tcp_end_cwnd_reduction) and lowers it
// only by a reduction or after an RTO of not filling it: a fast
// retransmit soon after reduces from at least that window, where the
// line (the flight of a sender that did not fill it) is below
// (kz_cubic_nosack_1m: kernel 25 then 17, the line 12 and the flight
// after 10). Where the line is above, it stands.
func TestSsthreshAfterRecoveryHeld(t *testing.T) {
	const seg = 1000
	var b cwndBuilder
	b.ep.maxSeg = seg
	b.ssBasis = []ssBasis{{window: 37 * seg, kind: ssFast}, {window: 12 * seg, kind: ssFast, afterRecovery: true},
		{window: 30 * seg, kind: ssFast, afterRecovery: true}, {window: 12 * seg, kind: ssFast}}
	g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{25 * seg}}, {V: [3]float64{10 * seg}}, {V: [3]float64{21 * seg}}, {V: [3]float64{10 * seg}}}}}}
	b.crossCheck(g, VoteCubic)
	got := g.lookup(SeriesSsthresh).Points
	// 717/1024 of 37 is 25, of 25 17, of 30 21; the last, not soon after
	// a recovery, keeps its measurement (8 from the line's 12 is further
	// than a segment and 15%).
	for i, want := range []float64{25 * seg, 17 * seg, 21 * seg, 10 * seg} {
		if got[i].V[0] != want {
			t.Errorf("ssthresh %d: %.0f, want %.0f", i, got[i].V[0], want)
		}
	}
}

// TestTimeoutAfterRenoHold: without SACK, an ACK of exactly a recovery's
// end leaves Linux in recovery (RFC 6582's hold), PRR still setting cwnd
// at each ACK and each ACK resetting the count of duplicate ACKs
// (tcp_try_undo_recovery returns before tcp_add_reno_sack): duplicate
// ACKs there deliver nothing and leave cwnd where PRR set it at the
// hold's ACK (above the flight the sender left); a timeout reduces from
// it (tcp_enter_loss: snd_una is high_seq, a new ssthresh).
// kz_cubic_nosack_1m, kz_reno_nosack_geo, kh_reno_nosack_1: the line a
// segment below the kernel's cwnd, the ssthresh one below.
func TestTimeoutAfterRenoHold(t *testing.T) {
	var b builder
	// A first fast retransmit, measured: Reno's half of 8 (the vote).
	r := &renoRun{b: &b}
	end := r.firstRecovery()
	r.ms += 100
	b.ack(r.ms, end+1000, 1<<20, 0) // recovery over (above its end: no hold), 2000 out
	r.flight = 2000
	r.send(2) // the window settled at: 4000
	r.ms += 100
	b.ack(r.ms, r.seq, 1<<20, 0)
	r.flight = 0
	// The second: a window of 12, one lost, nine duplicate ACKs (PRR
	// sends one for two), the ACK of exactly its end with 5 out, four
	// duplicate ACKs in the hold, then the timer.
	r.send(12)
	r.ms += 100
	head := r.seq - 12000
	for i := range 3 {
		b.ack(r.ms+float64(i), head, 1<<20, DupAck)
	}
	b.data(r.ms+3, head, 1000, Retransmission)
	end = r.seq
	for i := range 8 {
		b.ack(r.ms+4+float64(i), head, 1<<20, DupAck)
		if i%2 == 1 {
			r.ms += 0.1
			r.send(1)
		}
	}
	r.ms += 100
	b.ack(r.ms, end, 1<<20, 0) // exactly the end: the hold
	hold := len(b.recs)
	for i := range 4 {
		b.ack(r.ms+1+float64(i), end, 1<<20, DupAck)
	}
	// In the hold PRR goes on, the duplicate ACKs move nothing.
	cb := newCwndBuilder(SeriesOptions{Conn: testConn()})
	var atHold [2]int64
	for i := range b.recs {
		cb.add(&b.recs[i])
		if i == hold-1 {
			atHold = [2]int64{cb.prr[0].cwnd, cb.prr[1].cwnd}
		}
	}
	if !cb.prr[0].on || cb.pp.dupacks != 0 || cb.prr[0].cwnd != atHold[0] || cb.prr[1].cwnd != atHold[1] || atHold[0] <= 0 {
		t.Errorf("in the hold after its duplicate ACKs: PRR on %v, cwnd %d and %d (at the hold's ACK %v), duplicate ACKs counted %d; want PRR on, cwnd as at the hold's ACK, none counted",
			cb.prr[0].on, cb.prr[0].cwnd, cb.prr[1].cwnd, atHold, cb.pp.dupacks)
	}
	b.data(r.ms+500, end, 1000, Retransmission) // the timer
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	ss := g.lookup(SeriesSsthresh)
	if ss == nil || len(ss.Points) != 3 {
		t.Fatalf("ssthresh %+v, want three", ss)
	}
	// The timeout reduces PRR's window in the hold: Reno's half of it.
	if want := float64(atHold[0] / 2); ss.Points[2].V[0] != want {
		t.Errorf("the timeout's ssthresh %.0f, want %.0f (half PRR's %d in the hold)", ss.Points[2].V[0], want, atHold[0])
	}
}

// TestSsthreshFromHoldWindow: a timeout in RFC 6582's hold reduces PRR's
// window there (ssBasis.hold), where it is above the line.
func TestSsthreshFromHoldWindow(t *testing.T) {
	const seg = 1000
	var b cwndBuilder
	b.ep.maxSeg = seg
	b.ssBasis = []ssBasis{{window: 10 * seg, kind: ssFast}, {window: 7 * seg, kind: ssTimeout, hold: [2]int64{8 * seg, 8 * seg}}, {window: 7 * seg, kind: ssTimeout, hold: [2]int64{6 * seg, 6 * seg}}}
	g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{7 * seg}}, {V: [3]float64{4 * seg}}, {V: [3]float64{4 * seg}}}}}}
	b.crossCheck(g, VoteCubic)
	got := g.lookup(SeriesSsthresh).Points
	for i, want := range []float64{7 * seg, 5 * seg, 4 * seg} { // 717/1024 of 10, 8 and 7
		if got[i].V[0] != want {
			t.Errorf("ssthresh %d: %.0f, want %.0f", i, got[i].V[0], want)
		}
	}
}

// TestSsthreshAtReentry: recovery entered again at once reduces the
// window Linux left the last at, its ssthresh (tcp_end_cwnd_reduction,
// then tcp_enter_recovery): the algorithm's reduction of it, whatever the
// flight after measured — the ACK that ends a re-entered recovery frees
// PRR's window, far below ssthresh, and the sender paces the rest out
// over the round trip, so its first burst falls short (kz_cubic_100ms_q50k:
// kernel 56 then 39, the flight after 15).
func TestSsthreshAtReentry(t *testing.T) {
	const seg = 1000
	var b cwndBuilder
	b.ep.maxSeg = seg
	b.ssBasis = []ssBasis{{window: 80 * seg, kind: ssFast}, {window: 43 * seg, kind: ssReentry}, {window: 20 * seg, kind: ssFast}}
	g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{56 * seg}}, {V: [3]float64{15 * seg}}, {V: [3]float64{17 * seg}}}}}}
	b.crossCheck(g, VoteCubic)
	got := g.lookup(SeriesSsthresh).Points
	for i, want := range []float64{56 * seg, 39 * seg, 17 * seg} { // 717/1024 of 80 and 56; the last measured (above CUBIC's 14 by more than 15%: it stands)
		if got[i].V[0] != want {
			t.Errorf("ssthresh %d: %.0f, want %.0f", i, got[i].V[0], want)
		}
	}
}

// TestSsthreshBelowHalf: a fast retransmit's window after it measured
// below the algorithm's reduction of the window at the loss (by more than
// a segment and 15%) measured something else holding the sender, the
// application or the receiver's window: the algorithm's reduction is
// drawn. CUBIC's is 0.7 of the window at every fast retransmit but where
// HyStart may have lowered it in the recovery before: there only a
// measurement below Reno's half is overruled (k18_cubic_rwnd56_l06: 13
// segments measured after 31, the kernel's 21; nine CUBIC kernel runs to
// 100% of their ssthresh values, none lower). Soon after a recovery too
// (the window at the loss at least the last ssthresh: crossCheck's
// floor), CUBIC's 0.7 is the bar (k28_cubic_rwnd60_l05_ts0: 14 segments
// measured after 31, the sender short of its window after a recovery
// whose end the receiver's window held; the kernel's 21).
func TestSsthreshBelowHalf(t *testing.T) {
	const seg = 1000
	for _, tt := range []struct {
		vote           int
		measured, want float64
		after, hystart bool
	}{
		{VoteCubic, 40, 70, false, false}, // 717/1024 of 100
		{VoteReno, 40, 50, false, false},
		{VoteCubic, 45, 70, false, false}, // below 59.5
		{VoteCubic, 65, 70, false, false}, // within 15%: the algorithm's
		{VoteCubic, 45, 70, true, false},  // soon after a recovery: CUBIC's all the same
		{VoteCubic, 45, 45, false, true},  // HyStart may have lowered it: it stands
	} {
		var b cwndBuilder
		b.ep.maxSeg = seg
		b.ssBasis = []ssBasis{{window: 100 * seg, kind: ssFast, afterRecovery: tt.after, hystart: tt.hystart}}
		g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{tt.measured * seg}}}}}}
		b.crossCheck(g, tt.vote)
		if got := g.lookup(SeriesSsthresh).Points[0].V[0]; got != tt.want*seg {
			t.Errorf("vote %d, %.0f segments measured after a window of 100: %.0f, want %.0f", tt.vote, tt.measured, got/seg, tt.want)
		}
	}
}

// TestSsthreshEitherAlgorithm: where no algorithm is named, a value
// Reno's and CUBIC's checks both give is drawn (a window of 4 segments:
// 2 under both), and a measurement where they differ stands (a window of
// 10: Reno's 5, CUBIC's 7) — kc_36ms_1m_q4k_nosack, a CUBIC sender named
// unknown, its flight measured 3 where the kernel's ssthresh was 2.
func TestSsthreshEitherAlgorithm(t *testing.T) {
	const seg = 1000
	for _, tt := range []struct {
		window, measured, want float64
	}{
		{4, 3, 2},
		{3, 3, 2},
		{10, 6, 6},
		{10, 8, 8},
	} {
		var b cwndBuilder
		b.ep.maxSeg = seg
		b.ssBasis = []ssBasis{{window: int64(tt.window * seg), kind: ssFast}}
		g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{tt.measured * seg}}}}}}
		b.crossCheck(g, VoteNone)
		if got := g.lookup(SeriesSsthresh).Points[0].V[0]; got != tt.want*seg {
			t.Errorf("no algorithm named, %.0f segments measured after a window of %.0f: %.0f, want %.0f", tt.measured, tt.window, got/seg, tt.want)
		}
	}
}

// TestEpisodeReentryOnRACKLoss: with SACK, the ACK that ends a recovery
// with no block left above it still starts the next at once where data
// above it was sent before a resend it covers: RACK deems that data lost
// (tcp_rack_detect_loss, its reordering window 0 in recovery with none
// seen), and Linux, leaving recovery at that ACK, enters it again
// (tcp_time_to_recover on lost_out) — its resend is a fast retransmit,
// not the timer's (kw_cubic_sack_l2: 13 recovery entries, one drawn as a
// timeout). Data sent only after the last resend is not deemed lost.
func TestEpisodeReentryOnRACKLoss(t *testing.T) {
	run := func(newFirst bool) (*lossEpisodes, episodeEvent) {
		var e lossEpisodes
		for i := range int64(10) {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
		}
		e.ack(&epAck{ack: 1000, sack: true})
		e.ack(&epAck{ack: 1000, signal: true, above: true, sack: true}) // [2000, 3000) SACKed
		e.data(1000, 2000, 9000, Retransmission, 0, false, 0, 0)        // the fast retransmit
		if newFirst {
			e.data(10000, 11000, 9000, 0, 0, false, 0, 0) // new data, then a hole resent after it
		}
		e.ack(&epAck{ack: 1000, signal: true, above: true, sack: true})
		e.data(9000, 10000, 9000, Retransmission, 0, false, 0, 0)
		if !newFirst {
			e.data(10000, 11000, 9000, 0, 0, false, 0, 0)
		}
		// Everything up to the episode's end acknowledged, nothing SACKed above.
		return &e, e.ack(&epAck{ack: 10000, sack: true})
	}
	if e, ev := run(true); !ev.start || !ev.fast || e.fast != 2 {
		t.Errorf("new data sent before the last resend, unacknowledged at the end: %+v, %d fast, want recovery again (2)", ev, e.fast)
	}
	if e, ev := run(false); ev.start || e.fast != 1 {
		t.Errorf("new data sent after the last resend: %+v, %d fast, want no new episode", ev, e.fast)
	}
}

// TestPRRWindowWhileReceiverWindowFull: with SACK, in recovery an ACK
// that no send follows lowers the line to the pipe (the sender sends
// what PRR allows at once) — but not where the receiver's window is full
// after it: nothing could go out, and PRR's cwnd grows by what the ACKs
// deliver up to ssthresh (tcp_cwnd_reduction's prr_delivered − prr_out),
// where Linux leaves it (tcp_end_cwnd_reduction). Before the first
// episode's reduction tells the algorithm, that fall waits for it with
// the line's other steps (kq_reno_2m_loss2: 94% -> 98% of probes).
func TestPRRWindowWhileReceiverWindowFull(t *testing.T) {
	var b builder
	sack := func(r *Record, right int64) {
		r.NSACK, r.SACK[0] = 1, [2]int64{2001, right}
	}
	for i := range int64(20) { // a window of 20 segments
		b.data(float64(i)*0.1, 1+i*1000, 1000, 0).Info.BytesInFlight = (i + 1) * 1000
	}
	// The second segment lost; the receiver's window ends at 20501, below
	// the next segment's end: the sender can send nothing new.
	b.ack(100, 1001, 19500, 0)
	for k := int64(1); k <= 3; k++ {
		sack(b.ack(100+float64(k), 1001, 19500, DupAck), 2001+k*1000)
	}
	b.data(103.5, 1001, 1000, Retransmission).Info.BytesInFlight = 19000 // the fast retransmit
	for k := int64(4); k <= 14; k++ {                                    // more SACKed, nothing sent
		sack(b.ack(100+float64(k), 1001, 19500, DupAck), 2001+k*1000)
	}
	// The hole repaired: recovery ends; the sender fills Reno's half (10
	// segments), which tells the algorithm.
	b.ack(200, 20001, 60000, 0)
	for i := range int64(10) {
		b.data(200.5+float64(i)*0.1, 20001+i*1000, 1000, 0).Info.BytesInFlight = (i + 1) * 1000
	}
	b.ack(300, 21001, 60000, 0)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	cw := g.lookup(SeriesCwnd)
	at := func(ms float64) float64 {
		v := -1.0
		for _, p := range cw.Points {
			if p.Time <= t0+int64(ms*1e6) {
				v = p.V[0]
			}
		}
		return v
	}
	// At the last SACK the pipe is the resend and the 6 segments above
	// [2001, 15001): 7000; PRR's window under Reno's ssthresh is 10000.
	if v := at(114.5); v != 10000 {
		t.Errorf("the line while the receiver's window held the sender in recovery %.0f, want PRR's 10000 (Reno's ssthresh), not the pipe; line %+v", v, cw.Points)
	}
}

// TestPRRWindowWhileApplicationHeld: the same recovery as
// TestPRRWindowWhileReceiverWindowFull, the receiver's window wide open,
// but the application with nothing more to send: PRR's window grows by
// what the SACKs deliver (tcp_cwnd_reduction: sndcnt from prr_delivered −
// prr_out) though nothing goes out; the line is it, not the pipe
// (ku_cubic_app2m: the kernel at ssthresh through such a recovery).
func TestPRRWindowWhileApplicationHeld(t *testing.T) {
	var b builder
	sack := func(r *Record, right int64) {
		r.NSACK, r.SACK[0] = 1, [2]int64{2001, right}
	}
	for i := range int64(20) {
		b.data(float64(i)*0.1, 1+i*1000, 1000, 0).Info.BytesInFlight = (i + 1) * 1000
	}
	b.ack(100, 1001, 1<<20, 0)
	for k := int64(1); k <= 3; k++ {
		sack(b.ack(100+float64(k), 1001, 1<<20, DupAck), 2001+k*1000)
	}
	b.data(103.5, 1001, 1000, Retransmission).Info.BytesInFlight = 19000
	for k := int64(4); k <= 14; k++ { // more SACKed; no data left to send
		sack(b.ack(100+float64(k), 1001, 1<<20, DupAck), 2001+k*1000)
	}
	b.ack(200, 20001, 1<<20, 0)
	for i := range int64(10) { // Reno's half after it, which tells the algorithm
		b.data(200.5+float64(i)*0.1, 20001+i*1000, 1000, 0).Info.BytesInFlight = (i + 1) * 1000
	}
	b.ack(300, 21001, 1<<20, 0)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	v := -1.0
	for _, p := range g.lookup(SeriesCwnd).Points {
		if p.Time <= t0+114.5e6 {
			v = p.V[0]
		}
	}
	if v != 10000 {
		t.Errorf("the line while the application held the sender in recovery %.0f, want PRR's 10000 (Reno's ssthresh), not the pipe 7000", v)
	}
}

// TestEpisodeReentryOnResentHole: at the ACK that ends recovery, a hole
// above it that was resent already (new data sent in recovery, lost,
// RACK's resend outstanding) keeps Linux's lost_out above 0, and Linux
// enters recovery again at once, resending nothing for it — also where
// reordering was seen, which only makes RACK wait before deeming
// unresent holes lost (kz_cubic_jitter3_l1: two such re-entries missed,
// 11 of the kernel's 13 recoveries). A hole never resent, with
// reordering seen, starts none.
func TestEpisodeReentryOnResentHole(t *testing.T) {
	run := func(resend bool) (*lossEpisodes, episodeEvent) {
		var e lossEpisodes
		for i := range int64(10) {
			e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
		}
		// Reordering: [1000, 2000) SACKed above a hole, which then came late.
		e.ack(&epAck{ack: 1000, signal: true, above: true, sack: true, blocks: [4][2]int64{{2000, 3000}}, nBlocks: 1})
		e.ack(&epAck{ack: 3000, sack: true})
		// A loss: [3000, 4000) fast retransmitted, new data sent in recovery.
		e.ack(&epAck{ack: 3000, signal: true, above: true, sack: true, blocks: [4][2]int64{{4000, 10000}}, nBlocks: 1})
		e.data(3000, 4000, 7000, Retransmission, 0, false, 0, 0)
		for i := range int64(3) {
			e.data(10000+i*1000, 11000+i*1000, 7000, 0, 0, false, 0, 0)
		}
		// [11000, 12000) is lost too.
		if resend {
			e.data(11000, 12000, 7000, Retransmission, 0, false, 0, 0)
		}
		if e.fast != 1 || !e.reordSeen {
			t.Fatalf("setup: %d fast, reordering seen %v", e.fast, e.reordSeen)
		}
		// The ACK that ends the episode, [12000, 13000) SACKed above the hole.
		return &e, e.ack(&epAck{ack: 11000, signal: true, above: true, sack: true, blocks: [4][2]int64{{12000, 13000}}, nBlocks: 1})
	}
	if e, ev := run(true); !ev.start || !ev.fast || e.fast != 2 {
		t.Errorf("a resent hole above the ending ACK: %+v, %d fast, want recovery again (2)", ev, e.fast)
	}
	if e, ev := run(false); ev.start || e.fast != 1 {
		t.Errorf("an unresent hole, reordering seen: %+v, %d fast, want no new episode", ev, e.fast)
	}
}

// TestPartialUndoWaitsForVote: a partial undo without SACK (Linux restores
// the window before the fast retransmit) that comes while the line's
// steps wait for the algorithm (before any episode's reduction told it)
// waits with them: the steps before it keep their values under each
// algorithm — a timeout's loss state, where a cumulative ACK raised
// Linux's window to ssthresh at once while the sender resent go-back-N
// far below it — instead of being drawn as the pipe's (kz_reno_nosack_l2_geo:
// cwnd 87.2% of probes, the loss state's window lost at a later undo).
func TestPartialUndoWaitsForVote(t *testing.T) {
	cb := newCwndBuilder(SeriesOptions{Conn: testConn()})
	cb.ep.maxSeg = 1000
	cb.line = 3000
	cb.deferred = []deferredStep{{p: Point{Frame: 5, Time: 5e8}, vals: [3]int64{57000, 60000, 3000}}}
	cb.prr = [2]prrState{{on: true, prior: 20000}, {on: true, prior: 20000}}
	cb.partialUndo(&Record{Frame: 10, Time: 1e9}, false)
	if len(cb.deferred) != 2 || cb.prr[0].on {
		t.Fatalf("after the undo: %d steps waiting, PRR on %v; want 2 waiting, PRR off", len(cb.deferred), cb.prr[0].on)
	}
	cb.resolveAs(VoteReno)
	var got []float64
	for _, s := range cb.set.list(SeriesCwnd) {
		for _, p := range s.Points {
			got = append(got, p.V[0])
		}
	}
	if want := []float64{57000}; !slices.Equal(got, want) {
		t.Errorf("the line under Reno's vote: %v, want %v (the loss state's window, then no lower at the undo)", got, want)
	}
}

// TestPriorsAtLossHeldByRwnd: where the receiver's window held the sender
// below Linux's cwnd (slow start grows it up to twice the flight,
// tcp_is_cwnd_limited), a fast retransmit reduces that cwnd, the open
// window's, not the flight (kz_cubic_rwnd32: 54 segments, 27 in flight,
// ssthresh 37); where the open window is within the receiver's window,
// the line's.
func TestPriorsAtLossHeldByRwnd(t *testing.T) {
	const seg = 1000
	for _, tt := range []struct {
		open, rwnd int64
		ss         [2]int64 // Reno's and CUBIC's ssthresh, segments
	}{
		{54, 27, [2]int64{27, 37}},
		{27, 40, [2]int64{13, 18}},
	} {
		cb := newCwndBuilder(SeriesOptions{Conn: testConn()})
		cb.ep.maxSeg, cb.line, cb.rwnd = seg, 27*seg, tt.rwnd*seg
		for i := range cb.open {
			cb.open[i].w = tt.open * seg
		}
		cb.prrStart(cb.priorsAtLoss())
		if got := [2]int64{cb.prr[0].ss / seg, cb.prr[1].ss / seg}; got != tt.ss {
			t.Errorf("open window %d, receiver's window %d, the line 27: ssthresh %v, want %v", tt.open, tt.rwnd, got, tt.ss)
		}
	}
}

// sackRecovery20 is a tracker in a fast retransmit's recovery (SACK on)
// from 20 segments in flight, the first resent and one new segment sent
// since: its end is 20000.
func sackRecovery20() *lossEpisodes {
	e := &lossEpisodes{}
	for i := range int64(20) {
		e.data(i*1000, i*1000+1000, (i+1)*1000, 0, 0, false, 0, 0)
	}
	for range 3 {
		e.ack(&epAck{ack: 1000, signal: true, above: true, sack: true, blocks: [4][2]int64{{2000, 3000}}, nBlocks: 1})
	}
	e.data(1000, 2000, 20000, Retransmission, 0, false, 0, 0)
	e.data(20000, 21000, 20000, 0, 0, false, 0, 0)
	return e
}

// TestNoVoteBelowHalf: a fast retransmit whose window after it measured
// below Reno's half of the window before (by more than a segment and
// 15%) gives no β nor vote: no algorithm reduces that far, something
// else held the sender (kz_cubic_rwnd32: a 32 KB window closing to a few
// segments after two recoveries voted Reno's half against CUBIC's two).
func TestNoVoteBelowHalf(t *testing.T) {
	for _, tt := range []struct {
		after int64 // the flight after the episode, segments
		votes [3]int
	}{{4, [3]int{}}, {10, [3]int{VoteReno: 1}}, {14, [3]int{VoteCubic: 1}}} {
		e := sackRecovery20()
		e.ack(&epAck{ack: 20000, sack: true}) // the episode's end
		e.data(21000, 22000, tt.after*1000, 0, 0, false, 0, 0)
		e.ack(&epAck{ack: 21000, sack: true})
		if got := e.reductionVotes(); got != tt.votes {
			t.Errorf("20 segments before, %d after: votes %v, want %v", tt.after, got, tt.votes)
		}
	}
}

// TestLossFlightKeptWithoutVote: a window after the episode too small to
// vote (something else held the sender) still leaves the window at the
// loss, which the steadiness of the windows at the losses reads
// (windowsOf): dropping it with the vote turned cq_40ms_50m_q50k_nots
// at its sender (51 tail drops, 4 episodes after the first at windows
// within 6%) into random loss by its intervals.
func TestLossFlightKeptWithoutVote(t *testing.T) {
	e := sackRecovery20()
	e.ack(&epAck{ack: 20000, sack: true}) // the episode's end
	e.data(21000, 22000, 4000, 0, 0, false, 0, 0)
	e.ack(&epAck{ack: 21000, sack: true})
	if got := e.reductionVotes(); got != [3]int{} {
		t.Fatalf("4 segments after 20: votes %v, want none", got)
	}
	if len(e.flights) != 1 || e.flights[0] != e.awaitFlight || e.flights[0] <= 0 {
		t.Errorf("flights at the losses %v, want the episode's window before it (%d)", e.flights, e.awaitFlight)
	}
}

// TestSsthreshAfterHyStartInRecovery: soon after a recovery the window at
// the next loss is at least the ssthresh that recovery set
// (TestSsthreshAfterRecoveryHeld) — but not where CUBIC's PRR fell into
// slow start there, 16 segments or more below ssthresh, where HyStart
// may have set ssthresh to cwnd (kz_cubic_200ms_l2: 56 to 32 in a
// re-entered recovery, then 35 reduced to 24, drawn as 39 from 56).
func TestSsthreshAfterHyStartInRecovery(t *testing.T) {
	const seg = 1000
	for _, tt := range []struct {
		hystart bool
		want    float64
	}{{true, 24}, {false, 39}} {
		var b cwndBuilder
		b.ep.maxSeg = seg
		b.ssBasis = []ssBasis{{window: 80 * seg, kind: ssFast}, {window: 35 * seg, kind: ssFast, afterRecovery: true, hystart: tt.hystart}}
		g := &Graph{Series: []Series{{Name: SeriesSsthresh, Points: []Point{{V: [3]float64{56 * seg}}, {V: [3]float64{25 * seg}}}}}}
		b.crossCheck(g, VoteCubic)
		if got := g.lookup(SeriesSsthresh).Points[1].V[0]; got != tt.want*seg {
			t.Errorf("HyStart possible %v: the second ssthresh %.0f, want %.0f", tt.hystart, got/seg, tt.want)
		}
	}
}

// TestNoVoteFromReentry: the window measured once recovery was entered
// again at once is PRR's under the second reduction, not the first's
// ssthresh: no β nor vote (kw_cubic_sack_l2: 113 segments, 50 in the
// re-entered recovery where Linux went 115 to 80 then 56, voted Reno's
// half and drew its first recoveries under it).
func TestNoVoteFromReentry(t *testing.T) {
	e := sackRecovery20()
	// The episode's end, data SACKed above it: recovery again at once.
	if ev := e.ack(&epAck{ack: 20000, signal: true, above: true, sack: true, blocks: [4][2]int64{{20500, 21000}}, nBlocks: 1}); !ev.start {
		t.Fatalf("setup: no re-entry at the end: %+v", ev)
	}
	e.data(21000, 22000, 9000, 0, 0, false, 0, 0) // PRR's flight, 9 of 20
	e.ack(&epAck{ack: 20000, signal: true, above: true, sack: true, blocks: [4][2]int64{{20500, 22000}}, nBlocks: 1})
	if len(e.reductions) != 0 || len(e.betas) != 0 {
		t.Errorf("a window measured in the re-entered recovery: reductions %v, betas %v; want none", e.reductions, e.betas)
	}
}

// TestUndoneEpisodeSsthresh: Linux enters recovery for an episode it
// later proves spurious and undoes (Eifel here), setting ssthresh as at
// any fast retransmit, then restores the one before
// (tcp_undo_cwnd_reduction: prior_ssthresh, the ssthresh before the
// episode or 3/4 of cwnd then, if more); the graph draws both, at the
// episode's start and at the ACK that undid it (kw_reno_jitter4_l05:
// kernel 12, 8 at the entry, 12 again 15 ms later), where it drew none.
func TestUndoneEpisodeSsthresh(t *testing.T) {
	const seg = 1000
	var b builder
	ts := func(r *Record, val, ecr uint32, flight int64) {
		r.HasTS, r.TSVal, r.TSEcr = true, val, ecr
		if flight > 0 {
			r.Info.BytesInFlight = flight
		}
	}
	for i := range int64(20) { // a window of 20 segments
		ts(b.data(0, 1+i*seg, seg, 0), 100, 50, (i+1)*seg)
	}
	ts(b.ack(100, 1001, 1<<20, 0), 60, 100, 0)
	for i := range 3 { // the second segment lost
		ts(b.ack(101+float64(i), 1001, 1<<20, DupAck), 60, 100, 0)
	}
	ts(b.data(104, 1001, seg, Retransmission), 200, 60, 19*seg) // a fast retransmit the resend repairs
	ts(b.ack(200, 20001, 1<<20, 0), 60, 200, 0)
	for i := range int64(10) { // the window after it: 10 segments
		ts(b.data(201, 20001+i*seg, seg, 0), 300, 60, (i+1)*seg)
	}
	ts(b.ack(300, 21001, 1<<20, 0), 60, 300, 0)
	for i := range 3 { // the next lost, seemingly
		ts(b.ack(301+float64(i), 21001, 1<<20, DupAck), 60, 300, 0)
	}
	ts(b.data(304, 21001, seg, Retransmission), 400, 60, 9*seg)
	// The original arrived: the ACK covering the resend echoes its
	// timestamp, older than the resend's (Eifel): undone.
	undo := b.ack(350, 30001, 1<<20, 0)
	ts(undo, 60, 300, 0)
	undoAt := undo.Time
	for i := range int64(10) {
		ts(b.data(351, 30001+i*seg, seg, 0), 450, 60, (i+1)*seg)
	}
	ts(b.ack(450, 40001, 1<<20, 0), 60, 450, 0)
	g := cwndGraph(b.recs, SeriesOptions{Conn: testConn()})
	fast, undone, ss := g.lookup(SeriesFastLoss), g.lookup(SeriesUndoneLoss), g.lookup(SeriesSsthresh)
	if fast == nil || len(fast.Points) != 2 || undone == nil || len(undone.Points) != 1 || undone.Points[0] != fast.Points[1] {
		t.Fatalf("fast-retransmit marks %+v, undone %+v: want 2, the second undone", fast, undone)
	}
	if ss == nil || len(ss.Points) != 4 || ss.Points[3].V != ss.Points[2].V {
		t.Fatalf("ssthresh %+v: want the first episode's, the undone one's at its start, the one restored at the undo, and that to the last send", ss)
	}
	first, entered, restored := ss.Points[0], ss.Points[1], ss.Points[2]
	mark := undone.Points[0]
	w := int64(math.Round(mark.V[0] / seg)) // the window at the undone episode's start, segments
	if entered.Time != mark.Time || entered.V[0] != float64(linuxSsthresh(VoteReno, w)*seg) {
		t.Errorf("ssthresh at the undone episode %+v, want at its start (%d) Reno's half of the window then (%d segments)", entered, mark.Time, w)
	}
	want := max(first.V[0], float64((w>>1+w>>2)*seg))
	if restored.Time != undoAt || restored.V[0] != want {
		t.Errorf("ssthresh restored %+v, want %.0f at the undo (%d): the one before the episode (%.0f) or 3/4 of the window then", restored, want, undoAt, first.V[0])
	}
}

// tenSent is a SACK sender's pipe with ten segments of 1000 bytes sent
// 1 ms apart, the first acknowledged 100 ms after its send.
func tenSent() *senderPipe {
	p := &senderPipe{sack: true}
	for i := range int64(10) {
		p.data(i*1000, i*1000+1000, i*1e6)
	}
	p.ack(1000, nil, false, false, sackCut{}, 100e6)
	return p
}

// TestSenderPipeCutSACK: duplicate ACKs whose SACK options the snapshot
// length cut each SACK the arrival that prompted them, the last original
// sent a round trip before — so a burst of drops is skipped by time, and
// RACK deems it lost as it would with the blocks seen — duplicate ACKs
// or not in Wireshark's terms (a window update, where the window grew:
// k24_reno_ipv6_l1); without the cut flag the same ACKs SACK nothing.
func TestSenderPipeCutSACK(t *testing.T) {
	run := func(cut, dup bool) (pipe, sacked, lost int64) {
		p := tenSent()
		// [1000, 4000) dropped; the arrivals of [4000, 10000) each
		// prompt a duplicate ACK a round trip after their send.
		for i := int64(4); i < 10; i++ {
			p.ack(1000, nil, dup, false, sackCut{cut: cut}, i*1e6+100e6+1e5)
		}
		return p.pipe(), p.sackMarks, p.lostBytes
	}
	for _, dup := range []bool{true, false} {
		if pipe, sacked, lost := run(true, dup); pipe != 0 || sacked != 6 || lost != 3000 {
			t.Errorf("cut, duplicate ACKs %v: pipe %d, SACKed %d segments, lost %d bytes; want 0, 6 and 3000 (the three dropped)", dup, pipe, sacked, lost)
		}
	}
	if pipe, sacked, _ := run(false, true); pipe != 9000 || sacked != 0 {
		t.Errorf("not cut: pipe %d, SACKed %d; want 9000 and 0", pipe, sacked)
	}
}

// TestSenderPipePartSACK: where a cut SACK option kept its first block's
// left edge and its right edge's leading bytes (IPv6 with timestamps at
// 96 bytes), the block is read from them, not guessed from the ACK's
// timing: with the RTT grown by a queue to 150 ms, the arrivals of
// [4000, 10000) each extend the block from 4000 by a segment, and all six
// are SACKed, where the timing guess SACKs the last one sent and then
// nothing; a first block below the cumulative ACK is a D-SACK, which
// SACKs nothing.
func TestSenderPipePartSACK(t *testing.T) {
	run := func(part uint8, dsack bool) (sacked int64) {
		p := tenSent()
		for i := int64(4); i < 10; i++ {
			left := int64(4000)
			if dsack {
				left = 0
			}
			// The right edge's leading two bytes (zero here: below 64 KB).
			p.ack(1000, nil, true, false, sackCut{cut: true, part: part, block: [2]int64{left, 0}}, i*1e6+150e6)
		}
		return p.sackMarks
	}
	if got := run(6, false); got != 6 {
		t.Errorf("6 bytes of the first block: %d segments SACKed, want 6", got)
	}
	if got := run(0, false); got != 1 {
		t.Errorf("none of the first block: %d segments SACKed, want 1 (the timing's guess, the last sent a round trip before)", got)
	}
	if got := run(6, true); got != 0 {
		t.Errorf("a first block below the ACK (a D-SACK): %d segments SACKed, want none", got)
	}
	// Leading bytes that no end outstanding has (all below 64 KB, the
	// right edge said to be at 64 KB or above): nothing is SACKed, not
	// the next segment, nor the timing's guess.
	p := tenSent()
	p.ack(1000, nil, true, false, sackCut{cut: true, part: 6, block: [2]int64{4000, 1 << 16}}, 150e6)
	if p.sackMarks != 0 {
		t.Errorf("a right edge said to lie in [64 KB, 128 KB) with every end below: %d segments SACKed, want none", p.sackMarks)
	}
	// The arrival fills a hole between two SACKed runs: the block from
	// 2000 now ends where the second run ends (66000, in the 64 KB from
	// 65536), not at the end of the first segment after that run.
	p = &senderPipe{sack: true}
	for i := range int64(70) {
		p.data(i*1000, i*1000+1000, i*1e6)
	}
	p.ack(1000, nil, false, false, sackCut{}, 100e6)
	p.ack(1000, [][2]int64{{4000, 66000}, {2000, 3000}}, true, false, sackCut{}, 101e6)
	before := p.sackMarks
	p.ack(1000, nil, true, false, sackCut{cut: true, part: 6, block: [2]int64{2000, 1 << 16}}, 102e6)
	if got := p.sackMarks - before; got != 1 || !p.segs[p.find(3000)].sacked || p.segs[p.find(66000)].sacked {
		t.Errorf("the hole [3000, 4000) filled: %d more SACKed, [3000, 4000) SACKed %v, [66000, 67000) %v; want only the hole", got, p.segs[p.find(3000)].sacked, p.segs[p.find(66000)].sacked)
	}
}

// TestSenderPipePartSACKOldACK: a reordered old ACK (its cumulative ACK
// below the sender's) whose cut SACK option kept a first block's left
// edge at or below the sender's cumulative ACK SACKs nothing: Linux takes
// such a block for none (tcp_is_sackblock_valid), and nor is the block
// guessed from the ACK's timing (k31_reno_j3_l1_v6: an ACK of 1466 with
// a block from 2894, after one of 4322, read as SACKing 11462).
func TestSenderPipePartSACKOldACK(t *testing.T) {
	p := tenSent()
	p.ack(4000, nil, false, false, sackCut{}, 101e6)
	p.ack(1000, nil, true, false, sackCut{cut: true, part: 6, block: [2]int64{2000, 0}}, 150e6)
	if p.sackMarks != 0 {
		t.Errorf("an old ACK's block from 2000, the cumulative ACK at 4000: %d segments SACKed, want none", p.sackMarks)
	}
}

// TestRateMarksAfterClockStep: the ACKs kept for the delivery rate
// (bwMarks) are a round trip's; a capture whose clock stepped back an
// hour keeps no more of them (the marks from before the step held every
// later one until the clock caught up: a million after 100 s of ACKs).
func TestRateMarksAfterClockStep(t *testing.T) {
	b := newCwndBuilder(SeriesOptions{})
	b.pp.minRTT = 10e6
	for i := int64(0); i < 1000; i++ {
		b.rateSample(0, 3600e9+i*1e6)
	}
	for i := int64(0); i < 5000; i++ {
		b.pp.delivered += 1448
		b.rateSample(0, i*1e6)
	}
	if n := len(b.bwMarks); n > 12 {
		t.Errorf("%d marks kept, want a round trip's (11)", n)
	}
	if b.bwN == 0 {
		t.Error("no round counted after the step")
	}
}

// TestLineWaitingDrawnUnderFinalVote: steps still waiting for a
// majority of votes at the end are drawn under the algorithm the
// episodes name by their median reduction, as the ssthresh and the
// summary are, not under neither (k35_cubic_9m_q361k_j12_a5p5m: a
// recovery entered again at once measured no reduction, the next two
// CUBIC's; PRR's window 260 segments drawn as the flight, 180).
func TestLineWaitingDrawnUnderFinalVote(t *testing.T) {
	b := newCwndBuilder(SeriesOptions{Conn: testConn()})
	b.ep.maxSeg = 1000
	b.ep.reductions = [][3]int64{{380000, 328000, 1}, {380000, 169000, 2}} // none, CUBIC's twice
	b.ep.betas = []float64{0.86, 0.67}
	if _, ok := b.knownVote(); ok {
		t.Fatal("setup: a majority of votes")
	}
	b.line = 372000
	b.deferred = []deferredStep{{p: Point{Frame: 5, Time: 5e8}, vals: [3]int64{190000, 260000, 180000}}}
	var got []float64
	for _, s := range b.graph().Series {
		if s.Name == SeriesCwnd {
			for _, p := range s.Points {
				got = append(got, p.V[0])
			}
		}
	}
	if len(got) == 0 || got[0] != 260000 {
		t.Errorf("the line %v, want PRR's window under CUBIC first, 260000", got)
	}
}

// TestGraphDrawsTheSummarysAlgorithm: with no majority among the
// reductions the median reduction factor decides, for the cwnd graph's
// line (knownFinal) as for the summary's congestion_control
// (k17_cubic_rwnd40_l1: one reduction each, CUBIC's median; the line
// under Reno's halves read 89.9% of the kernel's probes, 93.6% under
// CUBIC's).
func TestGraphDrawsTheSummarysAlgorithm(t *testing.T) {
	b := newCwndBuilder(SeriesOptions{})
	b.ep.maxSeg = 1000
	b.ep.reductions = [][3]int64{{20000, 10000, 1}, {20000, 14000, 1}} // Reno's half, CUBIC's 0.7
	b.ep.betas = []float64{0.5, 0.7, 0.72}
	v, ok := b.knownFinal()
	if cc, _ := b.ep.facts(0).name(); !ok || v != VoteCubic || cc != "cubic" {
		t.Errorf("the line's algorithm %d (%v), the summary's %q; want CUBIC's in both", v, ok, cc)
	}
}

// TestBBRWindowAtMostTheReceivers: BBR's view draws the window the
// sender allowed, its model's cap no more than the receiver's last window
// (Linux sends min(cwnd, snd_wnd): k34_bbr_rwnd40_l03, its model at 74
// segments under a 35-segment window, 5.1% -> 93.6% of the kernel's
// probes).
func TestBBRWindowAtMostTheReceivers(t *testing.T) {
	// A window under a quarter of the pipe is one misread
	// (senderHeld.misread): no cap; one just under the pipe caps it.
	for _, tt := range []struct{ rwnd, want int64 }{{50000, 50000}, {300000, 200000}, {-1, 200000}, {500, 200000}, {2000, 2000}} {
		b := newCwndBuilder(SeriesOptions{})
		b.pp.maxSeg, b.bbrW, b.rwnd = 1000, 200000, tt.rwnd
		b.drawBBR(1, 1e9, 3000)
		var got []float64
		for _, s := range b.set.list(seriesBBRCwnd) {
			s.each(func(p Point) { got = append(got, p.V[0]) })
		}
		if len(got) != 1 || int64(got[0]) != tt.want {
			t.Errorf("BBR's model at 200000, the receiver's window %d: drawn %v, want %d", tt.rwnd, got, tt.want)
		}
	}
}

// TestBBRDrainEnds: BBR's drain after startup ends where the pipe comes
// within a quarter of the BDP estimate (and three segments), not only
// at or below it: ours reads a few percent below Linux's max-filtered
// rate, so a drain the kernel ended went on in the model
// (k19_bbr_lossless_q500k). Above that the cap stays at 2/ln 2 times the
// BDP.
func TestBBRDrainEnds(t *testing.T) {
	for _, tt := range []struct {
		pipe    int64
		drained bool
	}{{100000, true}, {120000, true}, {140000, false}} {
		b := newCwndBuilder(SeriesOptions{})
		b.pp.data(0, tt.pipe, 0)
		b.pp.maxSeg, b.pp.minRTT = 1000, 100e6
		b.bwN, b.bdp, b.bwFull, b.bbrW = 1, 100000, true, 280000
		b.bbrAck(200e6, 1000, 0, false, false)
		if b.bbrDrained != tt.drained {
			t.Errorf("pipe %d against a BDP of 100000: drained %v, want %v", tt.pipe, b.bbrDrained, tt.drained)
		}
	}
}

// TestGraphDrawsNoAlgorithmTheSummaryDoesNotName: two reductions that
// disagree, their median near Reno's half, name no algorithm; nor does
// the cwnd line draw the ssthresh under Reno's (k26_cubic_rwnd48_l05,
// CUBIC under a receive window: 92.5% -> 96.8% of the kernel's probes).
func TestGraphDrawsNoAlgorithmTheSummaryDoesNotName(t *testing.T) {
	b := newCwndBuilder(SeriesOptions{})
	b.ep.maxSeg = 1000
	b.ep.reductions = [][3]int64{{29000, 12000, 1}, {42000, 29000, 1}} // Reno's, CUBIC's
	b.ep.betas = []float64{0.41, 0.69}
	v, ok := b.knownFinal()
	if cc, _ := b.ep.facts(0).name(); ok || cc != "unknown" {
		t.Errorf("the line's algorithm %d (%v), the summary's %q; want none in both", v, ok, cc)
	}
	b.ep.reductions = append(b.ep.reductions, [3]int64{40000, 20000, 1})
	b.ep.betas = append(b.ep.betas, 0.5)
	if v, ok := b.knownFinal(); !ok || v != VoteReno {
		t.Errorf("a third, Reno's: the line's algorithm %d (%v), want Reno's", v, ok)
	}
}

// TestBBRProbeRTTAfterTenSeconds: the BBR model caps its window at four
// segments for ProbeRTT only once its least RTT has not fallen for
// probeRTTAfter — not whenever the pipe is as low (k31_bbr_rwnd64_l1: two
// segments out after each recovery under a 64 KB window, Linux's window
// restored to 136 segments, drawn at four) — and out of it takes the
// window before back at once (Linux's prior_cwnd), not an ACK at a time.
func TestBBRProbeRTTAfterTenSeconds(t *testing.T) {
	for _, tt := range []struct {
		now   int64
		probe bool
	}{{5e9, false}, {12e9, true}} {
		b := newCwndBuilder(SeriesOptions{})
		b.pp.data(0, 3000, 0)
		b.pp.maxSeg, b.pp.minRTT, b.pp.minRTTAt = 1000, 100e6, 1e9
		b.bwN, b.bdp, b.bwFull, b.bbrDrained, b.bbrW = 1, 100000, true, true, 200000
		b.bbrAck(tt.now, 1000, 0, false, false)
		if probe := b.bbrW == 4000; probe != tt.probe {
			t.Errorf("at %.0f s, the least RTT set at 1 s, the pipe 3 segments: window %d, want ProbeRTT's four segments %v", float64(tt.now)/1e9, b.bbrW, tt.probe)
		}
		if !tt.probe {
			continue
		}
		for seq := int64(3000); seq < 60000; seq += 1000 {
			b.pp.data(seq, seq+1000, tt.now+300e6)
		}
		b.bbrAck(tt.now+300e6, 1000, 0, false, false)
		if b.bbrW != 200000 {
			t.Errorf("out of ProbeRTT (the pipe at 60 segments): window %d, want the 200000 before it", b.bbrW)
		}
		b.pp.ack(57000, nil, false, false, sackCut{}, tt.now+400e6) // the pipe at three segments again, a probe just done
		b.bbrAck(tt.now+400e6, 1000, 0, false, false)
		if b.bbrW == 4000 {
			t.Errorf("the pipe low again 100 ms after ProbeRTT ended: entered it again")
		}
	}
}

// TestHyStartNotBehindANearbyPeer: congestion_control names CUBIC from
// slow start's delay exit at a sender-side capture, but not where the
// ACK clock is a nearby peer's (a proxy's microsecond rounds say nothing
// of the sender's slow start).
func TestHyStartNotBehindANearbyPeer(t *testing.T) {
	st := DirStats{DataPackets: 5000, MSS: 1460, MaxBytesInFlight: 100 * 1460, Duration: 10e9,
		SlowStart: SlowStart{Found: true, Reason: SlowStartDelay, Flight: 20 * 1460},
		Path:      PathStats{HasData: true, Vantage: VantageSender}}
	if cc, why := congestionControl(&st); cc != "cubic" {
		t.Errorf("a sender's delay exit, the flight 5 times after: %s (%s), want cubic", cc, why)
	}
	st.Path.NearbyPeer = true
	if cc, why := congestionControl(&st); cc != "unknown" {
		t.Errorf("the same behind a nearby peer: %s (%s), want unknown", cc, why)
	}
}

// TestTimeoutLowersReordering: a timeout outside recovery with three
// segments or more SACKed takes Linux's degree of reordering back to its
// default (tcp_enter_loss), so cwnd grows at new SACKs no more
// (reorderingHigh); one in recovery, or with fewer SACKed, leaves it.
func TestTimeoutLowersReordering(t *testing.T) {
	for _, tt := range []struct {
		calm    bool
		sacked  int
		want    int64
		wantHig bool
	}{{true, 3, defaultReordering, false}, {false, 3, 10, true}, {true, 2, 10, true}} {
		p := &senderPipe{reordering: 10, nSacked: tt.sacked}
		p.timeout(tt.calm)
		if p.reordering != tt.want || p.reorderingHigh() != tt.wantHig {
			t.Errorf("timeout calm %v with %d SACKed: reordering %d (high %v), want %d", tt.calm, tt.sacked, p.reordering, p.reorderingHigh(), tt.want)
		}
	}
}

// TestReorderingOneEvent: reordering is one event, as Linux's
// tcp_check_sack_reordering counts it: an original never resent
// delivered below the highest SACKed end before the ACK sets both the
// degree (reordering) and the seen flag RACK's window waits on
// (reordSeen); SACK blocks of one ACK, new above that end, are no
// reordering, whatever their order in the option (Linux sorts them:
// the most recent, highest block first here, a lower one after).
func TestReorderingOneEvent(t *testing.T) {
	for _, tt := range []struct {
		name  string
		sacks [][][2]int64 // the ACKs' blocks, the cumulative ACK at 0
		seen  bool
	}{
		{"two new blocks in one ACK, highest first", [][][2]int64{{{5000, 6000}, {3000, 4000}}}, false},
		{"a block below one SACKed before", [][][2]int64{{{5000, 6000}}, {{5000, 6000}, {3000, 4000}}}, true},
	} {
		p := &senderPipe{maxSeg: 1000, sack: true}
		for i := int64(0); i < 10; i++ {
			p.data(i*1000, i*1000+1000, i*10_000)
		}
		for i, s := range tt.sacks {
			p.ack(0, s, true, false, sackCut{}, 100e6+int64(i)*1000)
		}
		if p.reordSeen != tt.seen {
			t.Errorf("%s: reordering seen %v (degree %d), want %v", tt.name, p.reordSeen, p.reordering, tt.seen)
		}
		if (p.reordering > 0) != p.reordSeen {
			t.Errorf("%s: reordering seen %v but degree %d: two definitions", tt.name, p.reordSeen, p.reordering)
		}
	}
}
