package join

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"slices"

	"tcpviz/analyze/internal/stat"
	"tcpviz/reassembly"
)

// Result is the join of several captures.
type Result struct {
	// Captures are the captures in path order: from the side of the
	// busiest connection's client to its server's.
	Captures []*Capture
	// Hops are the stretches between consecutive captures.
	Hops []*Hop
}

// Hop is the path between two consecutive captures.
type Hop struct {
	Up, Down *Capture // Up is nearer the start of the path
	// Clock is Down's clock against Up's; ClockOK is false when no
	// packet was seen at both points in both directions (then the delays
	// are the raw differences).
	Clock   Clock
	ClockOK bool
	Conns   []*ConnHop
}

// ConnHop is one connection seen at both ends of a hop.
type ConnHop struct {
	Up, Down *Conn
	// Flip is set when Down has the connection's client and server the
	// other way round (its first packet there came from the server).
	Flip bool
	// Split is set when a proxy between the captures terminates the
	// connection: Up and Down are its two halves, with no packet in
	// common (split.go); of the directions only Forward and
	// ProxyBufferMax are known.
	Split bool
	// Dir are what the hop did to each direction, by Up's directions
	// (reassembly.C2S, S2C).
	Dir [2]DirHop
}

// DirHop is what a hop did to one direction of a connection.
type DirHop struct {
	// Forward is set when the direction travels from the hop's Up capture
	// to its Down one.
	Forward bool
	// Sent are the packets seen where the direction enters the hop that
	// could have reached the other end while it captured; Matched those
	// seen at both ends.
	Sent, Matched int64
	// LostData and LostAcks are the packets sent and never seen beyond
	// the hop, with payload and without; Lost the data segments, as the
	// upstream capture has them.
	LostData, LostAcks int64
	Lost               []packet
	// Reordered are the packets that left the hop after one that entered
	// it later (RFC 4737); Duplicated the extra copies the hop delivered;
	// Extra the packets seen leaving it that never entered it (a capture
	// that missed them upstream).
	Reordered, Duplicated, Extra int64
	// OWD and Queue are the distributions of the one-way delay across the
	// hop and of its part above the fixed delay of the frame's size.
	OWD, Queue spread
	// Pairs are the packets seen at both ends, in upstream order.
	Pairs []pair
	// ProxyBufferMax is, on a split connection, the most bytes the proxy
	// held (accepted from the sender, not yet delivered beyond it).
	ProxyBufferMax int64
}

// pair is one packet seen at both ends of a hop.
type pair struct {
	Up    int64   // upstream time, on its capture's clock
	Frame uint32  // upstream frame number
	OWD   float32 // ns
	Queue float32 // ns above the fixed delay
	Size  uint16  // frame bytes
	Data  bool
}

// spread summarises a distribution of delays (ns); N is 0 when empty.
type spread struct {
	N                     int
	Min, Median, P95, Max int64
}

// ErrNothingInCommon says the captures share no connection.
var ErrNothingInCommon = errors.New("nothing in common: no connection is in both captures")

// Join lines up captures of the same transfers: it orders them along the
// path and makes a Hop of each two consecutive ones.
func Join(caps []*Capture) (*Result, error) {
	if len(caps) < 2 {
		return nil, errors.New("join needs two captures or more")
	}
	ordered, err := order(caps)
	if err != nil {
		return nil, err
	}
	res := &Result{Captures: ordered}
	for i := 0; i+1 < len(ordered); i++ {
		h := joinHop(ordered[i], ordered[i+1])
		if len(h.Conns) == 0 {
			return nil, fmt.Errorf("%s and %s: %w", ordered[i].Name, ordered[i+1].Name, ErrNothingInCommon)
		}
		res.Hops = append(res.Hops, h)
	}
	return res, nil
}

// order sorts the captures along the path: by the round trip from the
// first capture to each (positive when it lies further from the client of
// the first capture's busiest connection they share).
func order(caps []*Capture) ([]*Capture, error) {
	pos := make([]float64, len(caps))
	for j := 1; j < len(caps); j++ {
		pairs := matchConns(caps[0], caps[j])
		split := len(pairs) == 0
		if split {
			// Only halves of connections a proxy split: the half that
			// starts first is the client's.
			if pairs = matchSplit(caps[0], caps[j], nil); len(pairs) == 0 {
				return nil, fmt.Errorf("%s and %s: %w", caps[0].Name, caps[j].Name, ErrNothingInCommon)
			}
		}
		busiest := pairs[0]
		for _, p := range pairs[1:] {
			if p.Up.Bytes[0]+p.Up.Bytes[1] > busiest.Up.Bytes[0]+busiest.Up.Bytes[1] {
				busiest = p
			}
		}
		if split {
			pos[j] = float64(start(busiest.Down) - start(busiest.Up))
		} else {
			pos[j] = signedRTT(busiest)
		}
	}
	idx := make([]int, len(caps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case pos[a] < pos[b]:
			return -1
		case pos[a] > pos[b]:
			return 1
		}
		return 0
	})
	out := make([]*Capture, len(caps))
	for i, k := range idx {
		out[i] = caps[k]
	}
	return out, nil
}

// signedRTT is the round trip between the two ends of a connection seen
// at both (ns): the fastest client-to-server packet's raw delay from Up
// to Down plus the fastest server-to-client one's the other way, which
// no clock offset changes. Negative when Down lies on the client's side
// of Up.
func signedRTT(ch *ConnHop) float64 {
	fa, fb := math.Inf(1), math.Inf(-1)
	for d := range 2 {
		up, down := newSide(ch.Up.Pkts[d]), newSide(ch.Down.Pkts[reassembly.Direction(d)^dirFlip(ch.Flip)])
		matchAllSure(up, down, func(u, w int32) {
			r := float64(down.pkts[w].Time - up.pkts[u].Time)
			if d == 0 {
				fa = math.Min(fa, r)
			} else {
				fb = math.Max(fb, r)
			}
		})
	}
	if math.IsInf(fa, 0) || math.IsInf(fb, 0) {
		return 0
	}
	return fa - fb
}

func dirFlip(flip bool) reassembly.Direction {
	if flip {
		return 1
	}
	return 0
}

// matchConns finds the connections of a again in b: by endpoints (either
// way round) or, across a NAT, by initial sequence number; of the
// candidates the one sharing most packets. Each of b's connections is
// matched once.
func matchConns(a, b *Capture) []*ConnHop {
	type key struct{ c, s netip.AddrPort }
	byEnds := map[key][]*Conn{}
	byISN := map[uint32][]*Conn{}
	for _, c := range b.Conns {
		byEnds[key{c.Client, c.Server}] = append(byEnds[key{c.Client, c.Server}], c)
		byEnds[key{c.Server, c.Client}] = append(byEnds[key{c.Server, c.Client}], c)
		for d := range 2 {
			if c.HasSYN[d] {
				byISN[c.ISN[d]] = append(byISN[c.ISN[d]], c)
			}
		}
	}
	used := map[*Conn]bool{}
	ids := map[*Conn]*[2]map[ident]bool{} // made once per connection of b
	var out []*ConnHop
	for _, ca := range a.Conns {
		best := bestOf(ca, byEnds[key{ca.Client, ca.Server}], used, ids)
		if best == nil {
			// Across a NAT: the same initial sequence numbers.
			var cands []*Conn
			for d := range 2 {
				if ca.HasSYN[d] {
					cands = append(cands, byISN[ca.ISN[d]]...)
				}
			}
			best = bestOf(ca, cands, used, ids)
		}
		if best != nil {
			used[best.Down] = true
			delete(ids, best.Down)
			out = append(out, best)
		}
	}
	return out
}

// bestOf is the candidate, either way round, sharing the most packets
// with ca, nil if none shares any.
func bestOf(ca *Conn, cands []*Conn, used map[*Conn]bool, ids map[*Conn]*[2]map[ident]bool) *ConnHop {
	var best *ConnHop
	bestScore := 0
	for _, cb := range cands {
		if used[cb] {
			continue
		}
		set := ids[cb]
		if set == nil {
			set = new([2]map[ident]bool)
			for d := range 2 {
				set[d] = map[ident]bool{}
				for i := range cb.Pkts[d] {
					set[d][looseIdent(&cb.Pkts[d][i])] = true
				}
			}
			ids[cb] = set
		}
		for _, flip := range []bool{false, true} {
			if s := shared(ca, set, flip); s > bestScore {
				best, bestScore = &ConnHop{Up: ca, Down: cb, Flip: flip}, s
			}
		}
	}
	return best
}

// sharedSample is how many of a connection's packets each way
// matchConns compares.
const sharedSample = 512

// shared counts a sample of the packets of a each way found in b's
// packet sets (by direction; flipped or not), by their identity without
// options (a snap length may have cut them off in one of the captures).
func shared(a *Conn, b *[2]map[ident]bool, flip bool) int {
	n := 0
	for d := range 2 {
		ids := b[reassembly.Direction(d)^dirFlip(flip)]
		// Spread over the connection: the other capture may hold only
		// part of it.
		pk := a.Pkts[d]
		step := max(len(pk)/sharedSample, 1)
		for i := 0; i < len(pk); i += step {
			if ids[looseIdent(&pk[i])] {
				n++
			}
		}
	}
	return n
}

// dirWork is one direction of one connection of a hop while it is joined.
type dirWork struct {
	ch       *ConnHop
	d        int   // Up's direction
	up, down *side // where it enters the hop and where it leaves
	rest     []group
}

// joinHop joins two consecutive captures.
func joinHop(u, w *Capture) *Hop {
	h := &Hop{Up: u, Down: w, Conns: matchConns(u, w)}
	// A proxy splits every connection that crosses it: halves are sought
	// only between captures that share no packet (else a connection one
	// capture missed would be taken for half of another).
	var split []*ConnHop
	if len(h.Conns) == 0 {
		split = matchSplit(u, w, nil)
	}
	// The sure pairs of every connection, both ways, and each
	// connection's orientation.
	var works []*dirWork
	var fwd, rev []sample
	for _, ch := range h.Conns {
		var sides [2][2]*side // [Up's direction][0: at u, 1: at w]
		var sure [2][]sample
		for d := range 2 {
			su, sw := newSide(ch.Up.Pkts[d]), newSide(ch.Down.Pkts[reassembly.Direction(d)^dirFlip(ch.Flip)])
			sides[d] = [2]*side{su, sw}
			rest := matchAllSure(su, sw, func(i, j int32) {
				p, q := &su.pkts[i], &sw.pkts[j]
				sure[d] = append(sure[d], sample{t: p.Time, d: q.Time - p.Time, size: int32(p.Wire)})
			})
			works = append(works, &dirWork{ch: ch, d: d, rest: rest})
		}
		// Client to server runs from u to w when its raw delays exceed
		// the other way's: they are owd + theta against theta - owd.
		c2sForward := true
		if len(sure[0]) > 0 && len(sure[1]) > 0 {
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			for _, s := range sure[0] {
				lo = min(lo, s.d)
			}
			for _, s := range sure[1] {
				hi = max(hi, s.d)
			}
			c2sForward = lo >= hi
		}
		for d := range 2 {
			wk := works[len(works)-2+d]
			forward := (d == 0) == c2sForward
			ch.Dir[d].Forward = forward
			if forward {
				wk.up, wk.down = sides[d][0], sides[d][1]
				fwd = append(fwd, sure[d]...)
			} else {
				wk.up, wk.down = sides[d][1], sides[d][0]
				for i := range wk.rest {
					wk.rest[i].up, wk.rest[i].down = wk.rest[i].down, wk.rest[i].up
				}
				// Seen at w first: d = t_u - t_w, at u's time t_u.
				for _, s := range sure[d] {
					rev = append(rev, sample{t: s.t, d: -s.d, size: s.size})
				}
			}
		}
	}
	h.Clock, h.ClockOK = estimateClock(fwd, rev)
	slack := h.Clock.Err + 1e6
	for _, wk := range works {
		dh := &wk.ch.Dir[wk.d]
		matchTimed(wk.up, wk.down, wk.rest, &h.Clock, dh.Forward, slack, &dh.Duplicated)
		matchTimed(wk.up, wk.down, looseGroups(wk.up, wk.down), &h.Clock, dh.Forward, slack, &dh.Duplicated)
		dh.measure(wk.up, wk.down, &h.Clock, dh.Forward, downSpan(h, dh.Forward), downSpan(h, !dh.Forward))
		wk.up, wk.down, wk.rest = nil, nil, nil // done with: free as the hop goes on
	}
	for _, ch := range split {
		ch.Dir[0].Forward = true // the client's half is nearer the hop's first capture
		measureSplit(h, ch)
	}
	if len(split) > 0 {
		h.Conns = append(h.Conns, split...)
		slices.SortStableFunc(h.Conns, func(x, y *ConnHop) int { return x.Up.Stream - y.Up.Stream })
	}
	return h
}

// downSpan is the time span of the capture a direction leaves the hop at
// (given !forward: the one it enters at).
func downSpan(h *Hop, forward bool) [2]int64 {
	if forward {
		return [2]int64{h.Down.First, h.Down.Last}
	}
	return [2]int64{h.Up.First, h.Up.Last}
}

// measure fills the direction's counts and delays from its matched sides.
func (dh *DirHop) measure(up, down *side, c *Clock, forward bool, span, upSpan [2]int64) {
	owds, queues := make([]int64, 0, len(up.pkts)), make([]int64, 0, len(up.pkts))
	dh.Pairs = make([]pair, 0, len(up.pkts))
	for i := range up.pkts {
		j := up.match[i]
		if j < 0 {
			continue
		}
		p, q := &up.pkts[i], &down.pkts[j]
		var owd float64
		if forward {
			owd = c.owd(p.Time, q.Time, true)
		} else {
			owd = c.owd(p.Time, q.Time, false)
		}
		queue := math.Max(owd-c.fixed(p.Wire, forward), 0)
		dh.Pairs = append(dh.Pairs, pair{Up: p.Time, Frame: p.Frame, OWD: float32(owd), Queue: float32(queue), Size: p.Wire, Data: p.data()})
		owds, queues = append(owds, int64(owd)), append(queues, int64(queue))
		dh.Duplicated += int64(max(down.dups[j]-up.dups[i], 0))
	}
	dh.Matched = int64(len(dh.Pairs))
	dh.OWD, dh.Queue = dist(owds), dist(queues)
	// A packet not seen downstream was lost there if it would have
	// arrived while the downstream capture ran, even at the slowest delay
	// seen.
	slowest := dh.OWD.Max
	for i := range up.pkts {
		p := &up.pkts[i]
		arrive := float64(p.Time)
		if forward {
			arrive += c.at(p.Time)
		} else {
			arrive -= c.at(p.Time)
		}
		if up.match[i] < 0 && (arrive+c.fixed(p.Wire, forward) < float64(span[0]) || arrive+float64(slowest) > float64(span[1])) {
			continue
		}
		dh.Sent++
		if up.match[i] >= 0 {
			continue
		}
		if p.data() {
			dh.LostData++
			dh.Lost = append(dh.Lost, *p)
		} else {
			dh.LostAcks++
		}
	}
	maxUp := int32(-1)
	for j := range down.pkts {
		i := down.match[j]
		switch {
		case i < 0:
			// Seen leaving the hop: unseen entering it only if it left
			// while the upstream capture ran.
			q := &down.pkts[j]
			left := float64(q.Time) - c.fixed(q.Wire, forward)
			if forward {
				left -= c.at(q.Time)
			} else {
				left += c.at(q.Time)
			}
			// It entered between left less the slowest queueing and left.
			if left <= float64(upSpan[1]) && left-float64(slowest) >= float64(upSpan[0]) {
				dh.Extra++
			}
		case i < maxUp:
			dh.Reordered++
		default:
			maxUp = i
		}
	}
}

// dist summarises v (ns; sorted in place).
func dist(v []int64) spread {
	med, ok := stat.Median(v)
	if !ok {
		return spread{}
	}
	return spread{N: len(v), Min: v[0], Median: med, P95: quantile(v, 0.95), Max: v[len(v)-1]}
}

// quantile is the q-quantile (0 ≤ q ≤ 1) of sorted samples, the nearest
// rank's: the smallest sample at least a fraction q of them do not
// exceed. 0 without samples.
func quantile(sorted []int64, q float64) int64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	k := int(q*float64(n)+0.999999999) - 1
	return sorted[min(max(k, 0), n-1)]
}
