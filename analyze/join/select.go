package join

import "tcpviz/reassembly"

// view is what a connection filter (reassembly.Filter) sees of c.
func (c *Conn) view() reassembly.FlowView {
	return reassembly.FlowView{A: c.Client, B: c.Server, Sent: [2]bool{len(c.Pkts[0]) > 0, len(c.Pkts[1]) > 0}, Proto: "tcp", Stream: c.Stream}
}

// keep keeps the connections of c that match; it reports whether any is
// left.
func (c *Capture) keep(match func(*Conn) bool) bool {
	kept := c.Conns[:0]
	for _, cc := range c.Conns {
		if match(cc) {
			kept = append(kept, cc)
		}
	}
	clear(c.Conns[len(kept):])
	c.Conns = kept
	return len(kept) > 0
}

// Select keeps the connections f matches, on every hop along their
// chain (the same connection capture after capture): those f matches at
// capture at (one of the result's: CAPTURE#N, at its capture), or, with
// at nil, at any capture where they were seen (a NAT between captures
// may change the addresses and ports f sees). It reports whether any is
// left: false when none matches, or (joined) no hop holds one. The
// captures' order and the clocks, found from every connection, stay. Of
// a result that holds one capture alone (no hop), it keeps that
// capture's connections f matches.
func (r *Result) Select(at *Capture, f reassembly.Filter) bool {
	var in map[*Conn]bool // at's connections, when set
	if at != nil {
		in = make(map[*Conn]bool, len(at.Conns))
		for _, c := range at.Conns {
			in[c] = true
		}
	}
	return r.keep(func(c *Conn) bool {
		if in != nil && !in[c] {
			return false
		}
		v := c.view()
		return f.Match(&v)
	})
}

// keep keeps the connections whose chain has one that matches (Select).
func (r *Result) keep(match func(*Conn) bool) bool {
	if len(r.Hops) == 0 {
		return r.Captures[0].keep(match)
	}
	// The chains: a connection is one across hops where a hop's Down is
	// the next one's Up.
	root := map[*Conn]*Conn{}
	var find func(c *Conn) *Conn
	find = func(c *Conn) *Conn {
		p, ok := root[c]
		if !ok || p == c {
			root[c] = c
			return c
		}
		q := find(p)
		root[c] = q
		return q
	}
	for _, h := range r.Hops {
		for _, ch := range h.Conns {
			root[find(ch.Up)] = find(ch.Down)
		}
	}
	conns := make([]*Conn, 0, len(root))
	for c := range root {
		conns = append(conns, c)
	}
	matched := map[*Conn]bool{}
	for _, c := range conns {
		if match(c) {
			matched[find(c)] = true
		}
	}
	any := false
	for _, h := range r.Hops {
		kept := h.Conns[:0]
		for _, ch := range h.Conns {
			if matched[find(ch.Up)] {
				kept = append(kept, ch)
			}
		}
		clear(h.Conns[len(kept):])
		h.Conns = kept
		any = any || len(kept) > 0
	}
	return any
}
