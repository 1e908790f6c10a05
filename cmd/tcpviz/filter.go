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
	return []cli.Flag{&cli.StringFlag{Name: "filter", Usage: usage + " (tcpdump's syntax: host, net, port, portrange with src/dst, tcp, udp, icmp, ip, ip6, and, or, not, parentheses)"}}
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

// excludes is the error of a connection -s or CAPTURE#N named that the
// filter does not match (Load takes the stream given whatever the filter
// says; the busiest it chooses among those the filter matches): the
// filter and the stream select nothing together, as on the tables and in
// ladder.
func (f *filterFlags) excludes(in input, l *analyze.Loaded) error {
	if f.Expr == nil || l == nil || l.UDP {
		return nil
	}
	if v := reassembly.ConnView(l.Conn); f.Expr.Match(&v) {
		return nil
	}
	return fmt.Errorf("%s: stream %d is not among the connections --filter %q matches", in.named(), l.Conn.Stream, f.Raw)
}

// selectJoined keeps the joined connections the filter matches, if there
// is one: an error when it matches none.
func (f *filterFlags) selectJoined(res *join.Result) error {
	if f.Expr == nil || res.Select(nil, f.Expr) {
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
