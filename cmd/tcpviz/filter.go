package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"tcpviz/analyze"
	"tcpviz/analyze/join"
	"tcpviz/charts"
	"tcpviz/reassembly"
)

// filterFlags are --filter: on the tables, the connections and flows
// kept (tables set rows); on the commands that draw one connection, those
// the busiest is chosen among.
type filterFlags struct {
	rows bool
	Expr reassembly.Filter
	Raw  string
}

func (f *filterFlags) flags() []cli.Flag {
	usage := "choose the busiest among the connections a packet of which matches EXPR"
	if f.rows {
		usage = "only the connections and flows a packet of which matches EXPR"
	}
	return []cli.Flag{&cli.StringFlag{Name: "filter", Usage: usage + " (tcpdump's syntax: host, net, port, portrange with src/dst, tcp, udp, icmp, and, or, not, parentheses)"}}
}

func (f *filterFlags) parse(c *cli.Context) error {
	if !c.IsSet("filter") {
		return nil
	}
	f.Raw = c.String("filter")
	e, err := reassembly.ParseFilter(f.Raw)
	if err != nil {
		return usagef("--filter %q: %v", f.Raw, err)
	}
	f.Expr = e
	return nil
}

// selector is the filter as a choice of connections, nil without one.
func (f *filterFlags) selector() func(*reassembly.Conn) bool {
	if f.Expr == nil {
		return nil
	}
	return func(c *reassembly.Conn) bool {
		v := reassembly.ConnView(c)
		return f.Expr.Match(&v)
	}
}

// excludes is the error of a connection -s or CAPTURE#N named that the
// filter does not match (Load takes the stream given whatever the filter
// says; the busiest it chooses among those the filter matches): the
// filter and the stream select nothing together, as on the tables and in
// ladder.
func (f *filterFlags) excludes(in input, l *analyze.Loaded) error {
	if f.Expr == nil || l == nil || l.UDP || f.selector()(l.Conn) {
		return nil
	}
	return fmt.Errorf("%s: stream %d is not among the connections --filter %q matches", in.display(), l.Conn.Stream, f.Raw)
}

// udpFlow is the UDP flow to draw: stream (-1: the busiest) without a
// filter; with one, the busiest of the UDP flows it matches, or stream
// if it matches it (a first pass over the capture, as the busiest's).
func (f *filterFlags) udpFlow(open func() (*reassembly.Reader, error), stream int) (int, error) {
	keep := f.flow()
	if keep == nil {
		return stream, nil
	}
	r, err := open()
	if err != nil {
		return -1, err
	}
	best, most, seen, found := -1, int64(-1), false, false
	_, err = analyze.Run(r, analyze.RunOptions{Keep: -1, OnFlow: func(fr *analyze.FlowResult) {
		if fr.Proto != reassembly.ProtoUDP {
			return
		}
		seen = seen || fr.Flow == stream
		if v := fr.View(); !keep(&v) {
			return
		}
		found = found || fr.Flow == stream
		if b := fr.Bytes[0] + fr.Bytes[1]; b > most || b == most && fr.Flow < best {
			best, most = fr.Flow, b
		}
	}})
	switch {
	case found || stream >= 0 && !seen && err == nil:
		return stream, nil // Load says a flow the capture lacks
	case stream < 0 && best >= 0:
		return best, nil
	case err != nil:
		return -1, err
	case stream >= 0:
		return -1, fmt.Errorf("UDP flow %d is not among the flows --filter %q matches", stream, f.Raw)
	}
	return -1, fmt.Errorf("--filter %q matches no UDP flow", f.Raw)
}

// selectJoined keeps the joined connections the filter matches, if there
// is one: an error when it matches none.
func (f *filterFlags) selectJoined(res *join.Result) error {
	if f.Expr == nil || res.Select(f.Expr) {
		return nil
	}
	return fmt.Errorf("--filter %q selects no connection seen in both %s", f.Raw, charts.EscapeName(charts.HopName(res.Hops[0])))
}

// noPick is the error of a joined connection not found: -s stream (or,
// -1, the busiest) in the first hop, among those the filter kept.
func (f *filterFlags) noPick(stream int, res *join.Result) error {
	hop := charts.EscapeName(charts.HopName(res.Hops[0]))
	switch {
	case f.Expr != nil && stream >= 0:
		return fmt.Errorf("-s %d: no such connection among those --filter %q matches in both %s", stream, f.Raw, hop)
	case f.Expr != nil:
		return fmt.Errorf("--filter %q matches no connection seen in both %s", f.Raw, hop)
	}
	return fmt.Errorf("-s %d: no such connection in both %s", stream, hop)
}

// flow is the filter as a choice of flows (any transport), nil without one.
func (f *filterFlags) flow() func(*reassembly.FlowView) bool {
	if f.Expr == nil {
		return nil
	}
	return func(v *reassembly.FlowView) bool { return f.Expr.Match(v) }
}
