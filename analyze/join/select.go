package join

import "tcpviz/reassembly"

// View is what a connection filter (reassembly.Filter) sees of c.
func (c *Conn) View() reassembly.FlowView {
	return reassembly.FlowView{A: c.Client, B: c.Server, Sent: [2]bool{len(c.Pkts[0]) > 0, len(c.Pkts[1]) > 0}, Proto: "tcp", Stream: c.Stream}
}

// Select keeps the connections of c that f matches; it reports whether
// any is left.
func (c *Capture) Select(f reassembly.Filter) bool {
	kept := c.Conns[:0]
	for _, cc := range c.Conns {
		if v := cc.View(); f.Match(&v) {
			kept = append(kept, cc)
		}
	}
	clear(c.Conns[len(kept):])
	c.Conns = kept
	return len(kept) > 0
}

// Select keeps, on every hop, the connections f matches at either end
// of it (a NAT between the captures changes the addresses and ports it
// sees); it reports whether any is left. The captures' order and the
// clocks, found from every connection, stay.
func (r *Result) Select(f reassembly.Filter) bool {
	any := false
	for _, h := range r.Hops {
		kept := h.Conns[:0]
		for _, ch := range h.Conns {
			up, down := ch.Up.View(), ch.Down.View()
			if f.Match(&up) || f.Match(&down) {
				kept = append(kept, ch)
			}
		}
		clear(h.Conns[len(kept):])
		h.Conns = kept
		any = any || len(kept) > 0
	}
	return any
}
