package join

import (
	"cmp"
	"slices"

	"tcpviz/reassembly"
)

// Matching: a packet is the same packet at two points when its TCP header
// is (sequence and ACK numbers, payload length, flags, window, the first
// SACK block's edge, the timestamp value) and so is its IPv4 ID: what a
// router or a NAT leaves alone. Addresses and ports are not compared
// (a NAT rewrites them; the connections were matched before). Each copy
// of a retransmitted segment is its own packet, told apart by its IP ID
// and timestamp; where nothing tells copies apart (IPv6 without
// timestamps), the clocks do: a copy goes to the latest one sent at
// least the fixed delay before it arrived.

// ident is what makes a packet itself at every point of the path.
type ident struct {
	seq, ack, tsval, sack uint32
	len, ipid, window     uint16
	flags                 reassembly.Flags
}

func identOf(p *packet) ident {
	return ident{p.Seq, p.Ack, p.TSVal, p.SACK, p.Len, p.IPID, p.Window,
		p.Flags & (reassembly.SYN | reassembly.FIN | reassembly.RST | reassembly.ACK)}
}

func compareIdent(a, b ident) int {
	return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.ack, b.ack), cmp.Compare(a.len, b.len),
		cmp.Compare(a.tsval, b.tsval), cmp.Compare(a.ipid, b.ipid), cmp.Compare(a.sack, b.sack),
		cmp.Compare(a.window, b.window), cmp.Compare(a.flags, b.flags))
}

// side is one direction of one connection at one point: its packets
// without capture duplicates, in capture order, and the duplicates
// counted by the packet they copy.
type side struct {
	pkts []packet
	dups []int32 // capture duplicates of pkts[i]
	// match is the index in the other side's pkts of pkts[i]'s copy, -1
	// when none (yet).
	match []int32
}

func newSide(all []packet) *side {
	s := &side{pkts: all, dups: make([]int32, len(all))}
	hasDup := false
	for i := range all {
		hasDup = hasDup || all[i].Dup
	}
	if hasDup { // a copy without them (rare: the connection's own slice otherwise)
		s.pkts, s.dups = make([]packet, 0, len(all)), s.dups[:0]
		last := map[ident]int32{}
		for i := range all {
			p := &all[i]
			id := identOf(p)
			if p.Dup {
				if j, ok := last[id]; ok {
					s.dups[j]++
					continue
				}
			}
			last[id] = int32(len(s.pkts))
			s.pkts = append(s.pkts, *p)
			s.dups = append(s.dups, 0)
		}
	}
	s.match = make([]int32, len(s.pkts))
	for i := range s.match {
		s.match[i] = -1
	}
	return s
}

// group is the packets of one ident on each side, by index.
type group struct {
	up, down []int32
}

// groups pairs the packets of up and down by ident (in time order
// within each).
func groups(up, down *side) []group { return groupBy(up, down, identOf, false) }

// looseIdent is a packet's ident without its TCP options: what is left
// when one capture's snap length cut them off, or a middlebox rewrote
// them.
func looseIdent(p *packet) ident {
	id := identOf(p)
	id.tsval, id.sack = 0, 0
	return id
}

// looseGroups groups, by looseIdent, the packets groups left unmatched.
func looseGroups(up, down *side) []group { return groupBy(up, down, looseIdent, true) }

// groupBy groups the packets of up and down by key; unmatched: only
// those not matched yet.
func groupBy(up, down *side, key func(*packet) ident, unmatched bool) []group {
	type ref struct {
		id  ident
		i   int32
		own bool // up's
	}
	refs := make([]ref, 0, len(up.pkts)+len(down.pkts))
	for i := range up.pkts {
		if !unmatched || up.match[i] < 0 {
			refs = append(refs, ref{key(&up.pkts[i]), int32(i), true})
		}
	}
	for i := range down.pkts {
		if !unmatched || down.match[i] < 0 {
			refs = append(refs, ref{key(&down.pkts[i]), int32(i), false})
		}
	}
	slices.SortFunc(refs, func(a, b ref) int {
		if c := compareIdent(a.id, b.id); c != 0 {
			return c
		}
		if a.own != b.own {
			if a.own {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.i, b.i)
	})
	var out []group
	for i := 0; i < len(refs); {
		j := i
		var g group
		for j < len(refs) && compareIdent(refs[j].id, refs[i].id) == 0 {
			if refs[j].own {
				g.up = append(g.up, refs[j].i)
			} else {
				g.down = append(g.down, refs[j].i)
			}
			j++
		}
		if len(g.up) > 0 && len(g.down) > 0 {
			out = append(out, g)
		}
		i = j
	}
	return out
}

// matchSure pairs the groups with as many packets on each side, in
// order, and returns the others for matchTimed. single says a group had
// one packet each side: a pair sure enough for the clocks.
func matchSure(up, down *side, gs []group, sure func(u, d int32)) (rest []group) {
	for _, g := range gs {
		if len(g.up) != len(g.down) {
			rest = append(rest, g)
			continue
		}
		for k := range g.up {
			up.match[g.up[k]], down.match[g.down[k]] = g.down[k], g.up[k]
			if len(g.up) == 1 {
				sure(g.up[k], g.down[k])
			}
		}
	}
	return rest
}

// matchAllSure pairs what matchSure can: by ident, then what is left by
// looseIdent (one capture without options), and returns the ident groups
// left for matchTimed.
func matchAllSure(up, down *side, sure func(u, d int32)) []group {
	rest := matchSure(up, down, groups(up, down), sure)
	matchSure(up, down, looseGroups(up, down), sure)
	return rest
}

// matchTimed pairs the rest of the groups with the clocks' help: each
// downstream copy, in time order, goes to the latest upstream copy sent
// at least the fixed delay (less slack) before it arrived — the repair,
// not the original lost a round trip before — or to an earlier one sent
// within slack of that (copies that close are told apart by nothing, and
// taking them in order reorders none). A copy with no such upstream
// packet left, whose packet was matched already, is a duplicate made on
// the way (counted in dup).
func matchTimed(up, down *side, gs []group, c *Clock, forward bool, slack float64, dup *int64) {
	var cands []int32
	for _, g := range gs {
		for _, di := range g.down {
			if down.match[di] >= 0 {
				continue
			}
			d := &down.pkts[di]
			cands = cands[:0]
			seen := false
			for _, ui := range g.up {
				if !arrivable(c, &up.pkts[ui], d, forward, slack) {
					continue
				}
				seen = true
				if up.match[ui] < 0 {
					cands = append(cands, ui)
				}
			}
			switch {
			case len(cands) > 0:
				latest := up.pkts[cands[len(cands)-1]].Time
				best := cands[len(cands)-1]
				for _, ui := range cands {
					if float64(latest-up.pkts[ui].Time) <= slack {
						best = ui
						break
					}
				}
				up.match[best], down.match[di] = di, best
			case seen:
				*dup++
			}
		}
	}
}

// arrivable reports whether u, seen upstream, can be d downstream: its
// raw delay, the offset removed, is no less than the fixed delay of its
// size, less slack.
func arrivable(c *Clock, u, d *packet, forward bool, slack float64) bool {
	var owd float64
	if forward {
		owd = float64(d.Time-u.Time) - c.at(u.Time)
	} else {
		owd = float64(d.Time-u.Time) + c.at(d.Time)
	}
	return owd >= c.fixed(u.Wire, forward)-slack
}
