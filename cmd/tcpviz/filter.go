package main

import (
	"github.com/urfave/cli/v2"

	"tcpviz/charts"
	"tcpviz/reassembly"
)

// filterFlags are --filter (charts.Filter): on the tables, the
// connections and flows kept (tables set rows); on the commands that draw
// one connection, those the busiest is chosen among.
type filterFlags struct {
	rows bool
	charts.Filter
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
